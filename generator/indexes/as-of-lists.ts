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
  type CreatureStats, type FactKind, type FactsFile, type LearnsetFile, type ListViewsFile, type StatsFile, type ViewFile,
} from '../../edge/as-of/facts.ts';
import { learnedByGroup, listView, type AsOfListView, type ValueRows, type ViewScope } from './as-of-views.ts';
import { worldOfFacts, type AsOfWorld } from '../../edge/as-of/world.ts';
import { fieldColumnFile, idOfUrl, listFile } from '../../edge/layout.ts';
import type { FullList } from '../../edge/pagination.ts';
import { AS_OF_KINDS } from '../../edge/as-of-endpoint.ts';
import { encodeFieldColumn } from '../../edge/query/field-column.ts';
import type { Json } from '../../edge/query/fields.ts';
import { positionGaps } from '../../edge/query/filter.ts';

type AsOfKind = (typeof AS_OF_KINDS)[number];

/** The facts each kind's lists are made from (a creature's `move` filter names the moves). */
const FACTS_READ: Record<AsOfKind, readonly FactKind[]> = {
  creature: ['version-group', 'creature', 'type', 'ability', 'stat', 'move'],
  move: ['version-group', 'move', 'type'],
  type: ['version-group', 'type'],
  ability: ['version-group', 'ability'],
};

/** The files a kind's lists are made from, besides its field columns of today (`fieldColumnFile`). */
export const asOfListInputs = (kind: AsOfKind): string[] => [
  ...FACTS_READ[kind].map((facts) => asOfFactsFile(facts)),
  ...(kind === 'creature' ? [asOfStatsFile, asOfLearnsetFile] : []),
  listFile(kind),
];

/** Reads a file the build wrote: its text, or null when it wrote none. */
export type BuiltText = (rel: string) => string | null;

/** The files of the lists of `kinds` as of each version group: `[path, body]`, one per path. */
export function asOfListFiles(read: BuiltText, baseUrl: string, kinds: readonly AsOfKind[] = AS_OF_KINDS): Array<[path: string, body: string]> {
  const lists = new ListMaker(read, baseUrl);
  for (const kind of kinds) lists.kind(kind);
  return [...lists.files];
}

/** One making of the lists: the facts read once, each file once, each column made once. */
class ListMaker {
  readonly files = new Map<string, string>();
  private readonly texts = new Map<string, string | null>();
  private readonly columns = new Map<string, Array<{ field: string; column: string; text: string }>>();
  private readonly world: AsOfWorld;
  private readonly stats: ReadonlyMap<number, CreatureStats>;

  constructor(
    private readonly readFile: BuiltText,
    private readonly baseUrl: string,
  ) {
    this.world = worldOfFacts(<K extends FactKind>(kind: K) => this.json<FactsFile<K>>(asOfFactsFile(kind)));
    this.stats = new Map(this.json<StatsFile>(asOfStatsFile).records);
  }

  kind(kind: AsOfKind): void {
    const ids = this.json<FullList>(listFile(kind)).results.map((entry) => idOfUrl(entry.url));
    const learned = kind === 'creature' ? learnedByGroup(this.world, ids, new Map(this.json<LearnsetFile>(asOfLearnsetFile).records)) : null;
    const creaturesThen: NonNullable<ViewScope['creaturesThen']> = new Map();
    const groups: ListViewsFile['groups'] = [];
    for (const vg of this.world.versions.all) {
      const view = listView(kind, { vg, world: this.world, ids, base: this.baseUrl, stats: this.stats, creaturesThen });
      if (view === null) throw new Error(`${kind}: no view as of a game`);
      const key = this.view(kind, view);
      const moveFilter = learned ? this.put((name) => asOfMoveFilterFile(kind, name), JSON.stringify(withGaps(learned(vg, view.existing)))) : null;
      groups.push([vg.id, positionRuns(view.existing), key, moveFilter]);
    }
    const lists: ListViewsFile = { kind, groups };
    this.files.set(asOfListsFile(kind), JSON.stringify(lists));
  }

  /** A view's file and its columns; the view's name. */
  private view(kind: string, view: AsOfListView): string {
    const columns = this.changedColumns(kind, view);
    const file: ViewFile = {
      count: view.count,
      values: [...view.values].map(([filter, rows]) => [filter, withGaps(rows)]),
      ranges: [...view.ranges].map(([range, values]) => [range, Array.from(values, (v) => (Number.isNaN(v) ? null : v))]),
      fields: columns.map(({ field, column }) => [field, column]),
    };
    for (const { column, text } of columns) this.files.set(asOfColumnFile(kind, column), text);
    return this.put((name) => asOfViewFile(kind, name), JSON.stringify(file));
  }

  /** The view's fields as field columns, those that differ from today's only; made once for the views that share `fieldsKey`. */
  private changedColumns(kind: string, view: AsOfListView): Array<{ field: string; column: string; text: string }> {
    const key = `${kind}:${view.fieldsKey}`;
    let made = this.columns.get(key);
    if (made) return made;
    made = [];
    for (const [field, value] of view.fields) {
      const values: Json[] = [];
      for (let p = 0; p < view.count; p++) values.push(value(p) as Json);
      const text = encodeFieldColumn({ kind, field }, values);
      if (text !== this.read(fieldColumnFile(kind, field))) made.push({ field, column: nameOf(text), text });
    }
    this.columns.set(key, made);
    return made;
  }

  /** Files are named by the hash of their bytes: equal views, filters and columns are one file. */
  private put(path: (name: string) => string, body: string): string {
    const name = nameOf(body);
    this.files.set(path(name), body);
    return name;
  }

  private read(rel: string): string | null {
    if (!this.texts.has(rel)) this.texts.set(rel, this.readFile(rel));
    return this.texts.get(rel)!;
  }

  private json<T>(rel: string): T {
    const text = this.read(rel);
    if (text === null) throw new Error(`${rel}: not written, though the lists as of a game are made from it`);
    return JSON.parse(text) as T;
  }
}

/** A value filter's rows with gaps between positions, as `ViewFile` `values` (and a move filter file) holds them. */
const withGaps = (rows: ValueRows): ViewFile['values'][number][1] => rows.map(([name, id, positions]) => [name, id, positionGaps(positions)]);

const nameOf = (body: string): string => createHash('sha1').update(body).digest('hex').slice(0, 16);
