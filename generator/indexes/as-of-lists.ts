/**
 * The lists as of each version group (edge/as-of/facts.ts `ListViewsFile`), made once every
 * kind's files are written, from what the build wrote: the as-of facts, the creatures' stats,
 * each kind's list, and today's field columns. Each view is the one as-of-views.ts makes
 * (the same rules as the as-of items); made here, a list as of a game reads a few small files
 * where it made the view from every creature's facts at the edge (SPEED.md, "As of a game").
 */
import { createHash } from 'node:crypto';
import {
  asOfColumnFile, asOfFactsFile, asOfLearnsetFile, asOfListsFile, asOfMoveFilterFile, asOfStatsFile, asOfViewFile, positionRuns,
  type FactKind, type FactsFile, type LearnsetFile, type ListViewsFile, type StatsFile, type ViewFile,
} from '../../edge/as-of/facts.ts';
import { learnedThen, listView, type AsOfListView } from './as-of-views.ts';
import { Versions } from '../../edge/as-of/versions.ts';
import { AsOfWorld } from '../../edge/as-of/world.ts';
import { fieldColumnFile, idOfUrl, listFile } from '../../edge/layout.ts';
import type { FullList } from '../../edge/pagination.ts';
import { AS_OF_KINDS } from '../../edge/as-of-endpoint.ts';
import { encodeFieldColumn } from '../../edge/query/field-column.ts';
import type { Json } from '../../edge/query/fields.ts';
import { positionGaps } from '../../edge/query/filter.ts';

/** The files the lists are made from, besides today's field columns of the listed kinds. */
export const asOfListInputs = (): string[] => [
  ...(['version-group', 'creature', 'move', 'type', 'ability', 'stat'] as const).map((kind) => asOfFactsFile(kind)),
  asOfStatsFile,
  asOfLearnsetFile,
  ...AS_OF_KINDS.map(listFile),
];

/** Reads a file the build wrote: its text, or null when it wrote none. */
export type BuiltText = (rel: string) => string | null;

/** Every file of the lists as of each version group: `[path, body]`, one per path. */
export function asOfListFiles(read: BuiltText, baseUrl: string): Array<[path: string, body: string]> {
  const json = <T>(rel: string): T => {
    const text = read(rel);
    if (text === null) throw new Error(`${rel}: not written, though the lists as of a game are made from it`);
    return JSON.parse(text) as T;
  };
  const facts = <K extends FactKind>(kind: K) => json<FactsFile<K>>(asOfFactsFile(kind));
  const versions = new Versions(facts('version-group'));
  const world = new AsOfWorld(versions, { creatures: facts('creature'), moves: facts('move'), types: facts('type'), abilities: facts('ability'), stats: facts('stat') });
  const stats = new Map(json<StatsFile>(asOfStatsFile).records);
  const learnsets = new Map(json<LearnsetFile>(asOfLearnsetFile).records);
  const files = new Map<string, string>();
  for (const kind of AS_OF_KINDS) {
    const ids = json<FullList>(listFile(kind)).results.map((entry) => idOfUrl(entry.url));
    const groups: ListViewsFile['groups'] = [];
    for (const vg of versions.all) {
      const view = listView(kind, { vg, world, ids, base: baseUrl, stats });
      if (view === null) throw new Error(`${kind}: no view as of a game`);
      const made = viewFiles(kind, view, read);
      for (const [path, body] of made.files) files.set(path, body);
      let moveFilter: string | null = null;
      if (kind === 'creature') {
        const rows = learnedThen({ vg, world, ids }, view.existing, learnsets).map(([name, id, positions]) => [name, id, positionGaps(positions)]);
        const body = JSON.stringify(rows);
        moveFilter = nameOf(body);
        files.set(asOfMoveFilterFile(kind, moveFilter), body);
      }
      groups.push([vg.id, positionRuns(view.existing), made.key, moveFilter]);
    }
    const lists: ListViewsFile = { kind, groups };
    files.set(asOfListsFile(kind), JSON.stringify(lists));
  }
  return [...files];
}

/** Files are named by the hash of their bytes: equal views, and equal columns, are one file. */
const nameOf = (body: string): string => createHash('sha1').update(body).digest('hex').slice(0, 16);

/** A view's file and its columns, and the view's name. */
function viewFiles(kind: string, view: AsOfListView, read: BuiltText): { key: string; files: Array<[string, string]> } {
  const columns = changedColumns(kind, view, read);
  const file: ViewFile = {
    count: view.count,
    values: [...view.values].map(([filter, rows]) => [filter, rows.map(([name, id, positions]) => [name, id, positionGaps(positions)])]),
    ranges: [...view.ranges].map(([range, values]) => [range, Array.from(values, (v) => (Number.isNaN(v) ? null : v))]),
    fields: columns.map(({ field, column }) => [field, column]),
  };
  const body = JSON.stringify(file);
  const key = nameOf(body);
  return { key, files: [[asOfViewFile(kind, key), body], ...columns.map(({ column, text }): [string, string] => [asOfColumnFile(kind, column), text])] };
}

/** The view's fields as field columns, those that differ from today's column only. */
function changedColumns(kind: string, view: AsOfListView, read: BuiltText): Array<{ field: string; column: string; text: string }> {
  const out: Array<{ field: string; column: string; text: string }> = [];
  for (const [field, value] of view.fields) {
    const values: Json[] = [];
    for (let p = 0; p < view.count; p++) values.push(value(p) as Json);
    const text = encodeFieldColumn({ kind, field }, values);
    if (text !== read(fieldColumnFile(kind, field))) out.push({ field, column: nameOf(text), text });
  }
  return out;
}
