/**
 * The lists as of each version group (contract/as-of/facts.ts `ListViewsFile`), made once every
 * kind's files are written, from what the build wrote: the as-of facts, the creatures' stats,
 * each kind's list, and today's field columns. Each view is the one as-of-views.ts makes
 * (the same rules as the as-of items); made here, a list as of a game reads a few small files
 * where it made the view from every creature's facts at the edge (SPEED.md, "As of a game").
 */
import { createHash } from 'node:crypto';
import {
  asOfColumnFile,
  asOfFactsFile,
  asOfLearnsetFile,
  asOfListsFile,
  asOfMoveFilterFile,
  asOfStatsFile,
  asOfViewFile,
  positionRuns,
  type CreatureStats,
  type FactKind,
  type FactsFile,
  type LearnsetFile,
  type ListViewsFile,
  type MadeAgainst,
  type StatsFile,
  type ViewFile,
  AS_OF_KINDS,
  MOVE_FILTER_KINDS,
  type AsOfKind,
} from '../../contract/as-of/facts.ts';
import {
  learnedByGroup,
  listView,
  makesRange,
  MOVE_FILTER_INPUTS,
  VIEW_PARTS,
  type AsOfListView,
  type CreaturesThen,
  type ValueRows,
  type ViewInput,
  type ViewPart,
} from './as-of-views.ts';
import { worldOfFacts, type AsOfWorld } from '../../contract/as-of/world.ts';
import type { VersionGroup } from '../../contract/as-of/versions.ts';
import { fieldColumnFile, filterIndexFile, idOfUrl, listFile } from '../../contract/layout.ts';
import type { FullList } from '../../contract/pagination.ts';
import { columnBody, columnPatchText, entryTexts, type ColumnBody } from '../../contract/field-column.ts';
import { decodeFilterPack, encodeFilterPack, positionGaps, type RangeColumns } from '../../contract/filter-pack.ts';

/** The file an input of a view's part is (besides the kind's list and today's columns of its fields). */
const inputFile = (input: ViewInput): string => (input === 'stats' ? asOfStatsFile : input === 'learnsets' ? asOfLearnsetFile : asOfFactsFile(input));

/** Reads a file the build wrote: its bytes, or null when it wrote none. */
export type BuiltFile = (rel: string) => Uint8Array | null;

/** What a making of the lists writes, and for each kind made again every file its lists name (the others in its folder are stale). */
export interface AsOfListFiles {
  files: Array<[path: string, body: string | Uint8Array]>;
  named: Map<AsOfKind, Set<string>>;
}

/**
 * The files of the lists of every kind as of each version group. `rewritten`: on a copy of the
 * served build (the dev loop), whether a file was written again; a part of a view none of whose
 * inputs was is taken from the served lists as it is, and a kind with no such part is not made
 * again. Null for a full build: every part is made.
 */
export function asOfListFiles(read: BuiltFile, baseUrl: string, rewritten: ((rel: string) => boolean) | null = null): AsOfListFiles {
  const lists = new ListMaker(read, baseUrl, rewritten);
  for (const kind of AS_OF_KINDS) lists.kind(kind);
  return { files: [...lists.files], named: lists.named };
}

/** One making of the lists: the facts read once, each file once, each column made once. */
class ListMaker {
  readonly files = new Map<string, string | Uint8Array>();
  readonly named = new Map<AsOfKind, Set<string>>();
  /** each file read, its text (null: the build wrote none) */
  private readonly texts = new Map<string, string | null>();
  /** by file, today's column of a field as lines (null: the list declares no such field) */
  private readonly todayColumns = new Map<string, string[] | null>();
  private readonly patches = new Map<string, Array<{ field: string; patch: string; text: string }>>();
  /** by kind and field, each key's JSON text (FieldOfThen): the same in every view of a making */
  private readonly fieldTexts = new Map<string, Map<unknown, string>>();
  /** each patch's body by its lines: an entry's stats of a generation are its creature's, cut into shapes once */
  private readonly patchBodies = new Map<string, ColumnBody>();
  private readonly todayRanges = new Map<string, RangeColumns>();
  private readonly served = new Map<AsOfKind, ListViewsFile>();
  /**
   * the creatures as of each generation (ViewScope `creaturesThen`), by the list ids they were
   * made for (`MadeAgainst.ids`): an entry's list is its creature's, position for position (the
   * build checks it), so the two kinds' views are made from one
   */
  private readonly creaturesThen = new Map<string, Map<number, CreaturesThen>>();
  private world: AsOfWorld | null = null;
  private stats: ReadonlyMap<number, CreatureStats> | null = null;

  private readonly readFile: BuiltFile;
  private readonly baseUrl: string;
  private readonly rewritten: ((rel: string) => boolean) | null;
  constructor(readFile: BuiltFile, baseUrl: string, rewritten: ((rel: string) => boolean) | null) {
    this.readFile = readFile;
    this.baseUrl = baseUrl;
    this.rewritten = rewritten;
  }

  kind(kind: AsOfKind): void {
    const parts: readonly ViewPart[] = VIEW_PARTS[kind];
    const ids = this.json<FullList>(listFile(kind)).results.map((entry) => idOfUrl(entry.url));
    const against: MadeAgainst = { ids: hashOf(JSON.stringify(ids)), ranges: parts.some((part) => part.ranges) ? this.rangesHash(kind) : null };
    const remade = new Set(parts.filter((part) => this.remakes(kind, part, against)).map((part) => part.name));
    const remakesMoves = MOVE_FILTER_KINDS.includes(kind) && this.remakes(kind, MOVE_FILTER_INPUTS, against);
    if (!remade.size && !remakesMoves) return;
    const named = new Set<string>();
    this.named.set(kind, named);
    const world = (this.world ??= worldOfFacts(<K extends FactKind>(facts: K) => this.json<FactsFile<K>>(asOfFactsFile(facts))));
    const readsStats = parts.some((part) => remade.has(part.name) && part.reads.includes('stats'));
    const stats = readsStats ? (this.stats ??= new Map(this.json<StatsFile>(asOfStatsFile).records)) : undefined;
    const readsEntries = parts.some((part) => remade.has(part.name) && part.reads.includes('entry'));
    const entries = readsEntries ? new Map(this.json<FactsFile<'entry'>>(asOfFactsFile('entry')).records) : undefined;
    const learned = remakesMoves ? learnedByGroup(ids, new Map(this.json<LearnsetFile>(asOfLearnsetFile).records)) : null;
    const served = remade.size < parts.length || (MOVE_FILTER_KINDS.includes(kind) && !remakesMoves) ? this.servedLists(kind) : null;
    let creaturesThen = this.creaturesThen.get(against.ids);
    if (!creaturesThen) this.creaturesThen.set(against.ids, (creaturesThen = new Map<number, CreaturesThen>()));
    const groups: ListViewsFile['groups'] = [];
    for (const vg of world.versions.all) {
      const view = listView(kind, { vg, world, ids, base: this.baseUrl, parts: remade, stats, creaturesThen, entries });
      const before = served && servedGroup(served, vg);
      const key = this.view(kind, view, remade, before && this.json<ViewFile>(asOfViewFile(kind, before[2])));
      let moveFilter = before ? before[3] : null;
      if (learned) moveFilter = this.put((name) => asOfMoveFilterFile(kind, name), moveFilterPack(kind, ids.length, withGaps(learned(vg, view.existing))));
      if (moveFilter !== null) named.add(asOfMoveFilterFile(kind, moveFilter));
      groups.push([vg.id, positionRuns(view.existing), key, moveFilter]);
    }
    const lists: ListViewsFile = { kind, groups, against };
    this.files.set(asOfListsFile(kind), JSON.stringify(lists));
  }

  /**
   * Whether a part is made again: one of its inputs or today's column of one of its fields was
   * written again, or today's list ids or, for its ranges, today's columns of the ranges it makes
   * are not those the served lists were made against (`against`: this making's).
   */
  private remakes(kind: AsOfKind, part: Pick<ViewPart, 'reads' | 'fields' | 'ranges'>, against: MadeAgainst): boolean {
    const rewritten = this.rewritten;
    if (rewritten === null) return true;
    // a lists file of a build before `against` holds none, or one of a hash for all its ranges: every view is made again
    const served = () => this.servedLists(kind).against;
    const rangeChanged = (name: string) => {
      const ranges = served()?.ranges;
      return typeof ranges !== 'object' || ranges === null || ranges[name] !== against.ranges?.[name];
    };
    const ownRanges = () => (against.ranges === null ? [] : Object.keys(against.ranges).filter((name) => makesRange(VIEW_PARTS[kind], part, name)));
    return (
      part.reads.some((input) => rewritten(inputFile(input))) ||
      part.fields.some((field) => rewritten(fieldColumnFile(kind, field))) ||
      (rewritten(listFile(kind)) && served()?.ids !== against.ids) ||
      (part.ranges !== false && rewritten(filterIndexFile(kind)) && ownRanges().some(rangeChanged))
    );
  }

  /** The served lists of a kind, parsed once per making. */
  private servedLists(kind: AsOfKind): ListViewsFile {
    let lists = this.served.get(kind);
    if (!lists) this.served.set(kind, (lists = this.json<ListViewsFile>(asOfListsFile(kind))));
    return lists;
  }

  /** A hash of each of today's range columns of a kind (its filter index's), by name. */
  private rangesHash(kind: string): Record<string, string> {
    const today = this.todayRangesOf(kind);
    return Object.fromEntries(
      today.names.map((name) => {
        const column = today.get(name)!;
        return [name, hashOf(new Uint8Array(column.buffer, column.byteOffset, column.byteLength))];
      }),
    );
  }

  private todayRangesOf(kind: string): RangeColumns {
    let today = this.todayRanges.get(kind);
    if (!today) this.todayRanges.set(kind, (today = decodeFilterPack(this.bytes(filterIndexFile(kind))).ranges));
    return today;
  }

  /** A view's file, its remade parts from `view` and the others from the served view file `before`; the view's name. */
  private view(kind: AsOfKind, view: AsOfListView, remade: ReadonlySet<string>, before: ViewFile | null): string {
    const patches = new Map(this.fieldPatches(kind, view).map((patch) => [patch.field, patch]));
    const file: ViewFile = { count: view.count, values: [], ranges: [], fields: [] };
    const parts: readonly ViewPart[] = VIEW_PARTS[kind];
    for (const part of parts) {
      const ownRange = ([name]: ViewFile['ranges'][number]) => makesRange(parts, part, name);
      if (remade.has(part.name)) {
        for (const name of part.values) file.values.push([name, withGaps(view.values.get(name)!)]);
        if (part.ranges) file.ranges.push(...this.rangePatches(kind, view).filter(ownRange));
        for (const name of part.fields) {
          const patch = patches.get(name);
          if (patch) file.fields.push([name, patch.patch]);
        }
        continue;
      }
      if (!before) throw new Error(`${kind}: the part ${part.name} is kept, but no view was served`);
      file.values.push(...before.values.filter(([name]) => part.values.includes(name)));
      if (part.ranges) file.ranges.push(...before.ranges.filter(ownRange));
      file.fields.push(...before.fields.filter(([name]) => part.fields.includes(name)));
    }
    const named = this.named.get(kind)!;
    for (const [, column] of file.fields) named.add(asOfColumnFile(kind, column));
    for (const { patch, text } of patches.values()) this.files.set(asOfColumnFile(kind, patch), text);
    const key = this.put((name) => asOfViewFile(kind, name), JSON.stringify(file));
    named.add(asOfViewFile(kind, key));
    return key;
  }

  /** The view's fields as patches of today's columns, for those that differ from today's only; made once for the views that share `fieldsKey`. */
  private fieldPatches(kind: string, view: AsOfListView): Array<{ field: string; patch: string; text: string }> {
    const key = `${kind}:${view.fieldsKey}`;
    let made = this.patches.get(key);
    if (made) return made;
    made = [];
    for (const [field, value] of view.fields) {
      const today = this.todayLines(kind, field, view.count);
      if (today === null) continue;
      const positions: number[] = [];
      const lines: string[] = [];
      const texts = this.textsOf(`${kind}:${field}`);
      for (let p = 0; p < view.count; p++) {
        const key = value.key(p);
        let line = key === undefined ? 'null' : texts.get(key);
        if (line === undefined) texts.set(key, (line = JSON.stringify(value.value(p))));
        if (line !== today[p]) {
          positions.push(p);
          lines.push(line);
        }
      }
      if (!positions.length) continue;
      const text = columnPatchText({ kind, field, count: view.count, positions }, this.patchBody(lines));
      made.push({ field, patch: hashOf(text), text });
    }
    this.patches.set(key, made);
    return made;
  }

  private patchBody(lines: readonly string[]): ColumnBody {
    const key = lines.join('\n');
    let body = this.patchBodies.get(key);
    if (!body) this.patchBodies.set(key, (body = columnBody(lines)));
    return body;
  }

  private textsOf(field: string): Map<unknown, string> {
    let texts = this.fieldTexts.get(field);
    if (!texts) this.fieldTexts.set(field, (texts = new Map<unknown, string>()));
    return texts;
  }

  /**
   * Each entry's JSON text in today's column of a field (whole or made from its shape: the text
   * an answer takes), read once per making; null when the kind's list declares no such field (a
   * move's `effect_chance`): no answer reads it.
   */
  private todayLines(kind: string, field: string, count: number): string[] | null {
    const file = fieldColumnFile(kind, field);
    if (this.todayColumns.has(file)) return this.todayColumns.get(file)!;
    const bytes = this.readFile(file);
    const lines = bytes === null ? null : entryTexts(bytes);
    if (lines && lines.length !== count) throw new Error(`${file}: ${lines.length} entries, where the list holds ${count}`);
    this.todayColumns.set(file, lines);
    return lines;
  }

  /** The view's ranges where they differ from today's (those today's filter index holds; the others are never read). */
  private rangePatches(kind: string, view: AsOfListView): ViewFile['ranges'] {
    const today = this.todayRangesOf(kind);
    const patches: ViewFile['ranges'] = [];
    for (const [range, then] of view.ranges) {
      const now = today.get(range);
      if (!now) continue;
      const positions: number[] = [];
      const values: Array<number | null> = [];
      for (let p = 0; p < then.length; p++) {
        if (Object.is(then[p], now[p])) continue;
        positions.push(p);
        values.push(Number.isNaN(then[p]) ? null : then[p]!);
      }
      if (positions.length) patches.push([range, positions, values]);
    }
    return patches;
  }

  /** Files are named by the hash of their bytes: equal views, filters and columns are one file. */
  private put(path: (name: string) => string, body: string | Uint8Array): string {
    const name = hashOf(body);
    this.files.set(path(name), body);
    return name;
  }

  private bytes(rel: string): Uint8Array {
    const bytes = this.readFile(rel);
    if (bytes === null) throw new Error(`${rel}: not written, though the lists as of a game are made from it`);
    return bytes;
  }

  /** A file's text, read once per making; null when the build wrote none. */
  private textIfThere(rel: string): string | null {
    if (!this.texts.has(rel)) {
      const bytes = this.readFile(rel);
      this.texts.set(rel, bytes === null ? null : new TextDecoder().decode(bytes));
    }
    return this.texts.get(rel)!;
  }

  private json<T>(rel: string): T {
    const text = this.textIfThere(rel);
    if (text === null) throw new Error(`${rel}: not written, though the lists as of a game are made from it`);
    return JSON.parse(text) as T;
  }
}

/** The served lists' group of a version group: a group that came since has no served view to keep parts of. */
function servedGroup(served: ListViewsFile, vg: VersionGroup): ListViewsFile['groups'][number] {
  const group = served.groups.find(([id]) => id === vg.id);
  if (!group) throw new Error(`${asOfListsFile(served.kind)}: no list as of version group ${vg.id}, though only some parts are made again`);
  return group;
}

/** A value filter's rows with gaps between positions, as `ViewFile` `values` (and a move filter file) holds them. */
const withGaps = (rows: ValueRows): ViewFile['values'][number][1] => rows.map(([name, id, positions]) => [name, id, positionGaps(positions)]);

/** A list's `move` filter as of the game, packed as today's filters are (contract/filter-pack.ts): one value filter by move id, no names, no ranges. */
function moveFilterPack(kind: string, count: number, rows: ViewFile['values'][number][1]): Uint8Array {
  return encodeFilterPack({
    format: 'filter-index/1',
    kind,
    count,
    values: { move: { about: 'a move it could learn then', target: 'move', values: rows } },
    ranges: {},
  });
}

/** 16 hex digits of a text's SHA-1: what a view or a patch file is named by, and what `against` holds. */
const hashOf = (body: string | Uint8Array): string => createHash('sha1').update(body).digest('hex').slice(0, 16);
