/**
 * `GET /v2/as-of/{v}/{kind}/`: the kind's collection (edge/collection.ts, every parameter its
 * list takes) over a view of the build as of a version group: only the entries that existed then,
 * and the value filters, ranges and fields that changed over the games answered with their values
 * as of the game. The build made each version group's view (generator/indexes/as-of-lists.ts, by the
 * rules of generator/indexes/as-of-views.ts): an answer reads it as today's list reads its indexes, and a
 * creature list's `move` filter as of the game only when a query asks for it.
 */
import { BrokenBuild, readAhead, type BuildFiles, type CollectionFiles } from './build-files.ts';
import { collection } from './collection.ts';
import { queryValues } from '../contract/query/params.ts';
import type { Answer } from './http.ts';
import {
  asOfColumnFile,
  asOfListsFile,
  asOfMoveFilterFile,
  asOfViewFile,
  MOVE_FILTER_KINDS,
  runPositions,
  type AsOfKind,
  type ListViewsFile,
  type ViewFile,
} from '../contract/as-of/facts.ts';
import type { VersionGroup } from '../contract/as-of/versions.ts';
import type { ColumnReader } from '../contract/field-column.ts';
import { fieldColumnFile, filterIndexFile } from '../contract/layout.ts';
import { FilterIndex } from './query/filter.ts';
import type { PackedFilters, PackedValueFilter } from '../contract/filter-pack.ts';

/** The collection of `kind` as of the version group `vg` (`v` as the path names it). */
export async function collectionAsOf(build: BuildFiles, vg: VersionGroup, v: string, kind: string, params: URLSearchParams): Promise<Answer> {
  const files = new AsOfFiles(build, vg, MOVE_FILTER_KINDS.includes(kind as AsOfKind) && asksMoves(params));
  // read beside what the query reads of today's files, not before it: at the edge each read is a request
  const existing = files.view(kind).then((view) => view.existing);
  readAhead(existing);
  return collection(files, kind, params, { url: `${build.baseUrl}/as-of/${v}/${kind}/`, positions: existing });
}

/** A kind's lists as of each version group, read once per build; `asOf` starts the read beside the version groups'. */
export const listViewsOf = (build: BuildFiles, kind: string): Promise<ListViewsFile> =>
  keptJson<ListViewsFile>(build, asOfListsFile(kind), 'missing, though the kind is answered as of a game');

/**
 * Whether a creature list's query filters or counts by move: only then is the `move` filter of
 * then read. Read loosely (any spelling of a `move` facet): reading it when not needed costs time,
 * never a wrong answer.
 */
const asksMoves = (params: URLSearchParams): boolean =>
  queryValues(params, 'move').length > 0 ||
  queryValues(params, 'facets').some((value) =>
    value
      .toLowerCase()
      .split(',')
      .some((name) => name.trim() === 'move'),
  );

/** A value filter's rows as of the game: `[name, id, gaps between list positions]`, by id. */
type GapRows = ViewFile['values'][number][1];

/** A version group's view of a kind's list, as an answer reads it. */
interface View {
  /** the view's name in the build (its files') */
  key: string;
  /** the list positions of the entries that existed, ascending */
  existing: number[];
  /** value filters whose members changed, as rows */
  values: Map<string, GapRows>;
  /** the `move` filter as of the game (its own file, read only when the query asks for moves); null when not read */
  moves: PackedValueFilter | null;
  /** today's range columns where they changed */
  ranges: ViewFile['ranges'];
  /** the fields whose column as of the game differs from today's, and the name of the file that patches today's */
  fields: ReadonlyMap<string, string>;
}

/** The build's files as a collection reads them, with a kind's changed indexes and columns as of the game in place of today's. */
class AsOfFiles implements CollectionFiles {
  private readonly build: BuildFiles;
  private readonly vg: VersionGroup;
  private readonly moves: boolean;
  constructor(
    build: BuildFiles,
    vg: VersionGroup,
    /** read the `move` filter as of the game: the query filters or counts by move */
    moves: boolean,
  ) {
    this.build = build;
    this.vg = vg;
    this.moves = moves;
  }

  get baseUrl(): string {
    return this.build.baseUrl;
  }
  read(path: string) {
    return this.build.read(path);
  }
  routes() {
    return this.build.routes();
  }
  list(kind: string) {
    return this.build.list(kind);
  }
  listKeys(kind: string) {
    return this.build.listKeys(kind);
  }
  searchFile(kind: string) {
    return this.build.searchFile(kind);
  }
  languageSearchFile(kind: string) {
    return this.build.languageSearchFile(kind);
  }
  languageColumn(kind: string, field: string, lang: string) {
    return this.build.languageColumn(kind, field, lang);
  }

  /** What is made from the files is kept apart for each version group (a sort's column as of the game is not today's), and with or without the learnsets. */
  keep<T>(key: string, make: () => Promise<T | null>): Promise<T | null> {
    return this.build.keep(`as-of:${this.vg.id}:${this.moves ? 'moves:' : ''}${key}`, make);
  }

  /** The kind's view as of the version group (its lists file and view file are kept once per build). */
  async view(kind: string): Promise<View> {
    return (await this.keep(`view:${kind}`, async () => {
      const lists = await listViewsOf(this.build, kind);
      const group = lists.groups.find(([id]) => id === this.vg.id);
      if (!group) throw new BrokenBuild(asOfListsFile(kind), `holds no list as of version group ${this.vg.id}`);
      const [, runs, key, moveFilter] = group;
      const file = await keptJson<ViewFile>(this.build, asOfViewFile(kind, key), `missing, though ${asOfListsFile(kind)} names it`);
      const existing = runPositions(runs);
      const values = new Map(file.values);
      const moves =
        this.moves && moveFilter !== null
          ? (await this.build.filterPackAt(asOfMoveFilterFile(kind, moveFilter), `missing, though ${asOfListsFile(kind)} names it`)).values[0]
          : undefined;
      return { key, existing, values, moves: moves ?? null, ranges: file.ranges, fields: new Map(file.fields) };
    }))!;
  }

  /** Today's filter index (read once per build) with the view's changed filters and ranges in place. */
  filterIndex(kind: string): Promise<FilterIndex | null> {
    return this.keep(`filter-index:${kind}`, async () => {
      const [today, view] = await Promise.all([this.build.filterIndex(kind), this.view(kind)]);
      return today === null ? null : new FilterIndex(packedAsOf(today.packed, view));
    });
  }

  /** A field whose values changed: today's column through the view's patch; any other, today's. */
  async fieldColumn(kind: string, field: string): Promise<ColumnReader | null> {
    // today's column is read beside the view, and the view's patch beside today's column
    const today = this.build.fieldColumn(kind, field);
    readAhead(today);
    const view = await this.view(kind);
    const patch = view.fields.get(field);
    if (patch === undefined) return today;
    const named = `missing, though ${asOfViewFile(kind, view.key)} names it`;
    const base = today.then((column) => column ?? Promise.reject(new BrokenBuild(fieldColumnFile(kind, field), `${named} a patch of it`)));
    return this.build.patchedColumn(asOfColumnFile(kind, patch), base, named);
  }
}

/** Today's range column with the numbers that changed in place. */
function patchedRange(today: Float64Array, [, positions, values]: ViewFile['ranges'][number]): Float64Array {
  const numbers = today.slice();
  for (let i = 0; i < positions.length; i++) numbers[positions[i]!] = values[i] ?? NaN;
  return numbers;
}

/** A JSON file every build writes, parsed once per build. */
const keptJson = <T>(build: BuildFiles, path: string, why: string): Promise<T> => build.keep(path, () => build.requiredJson<T>(path, why)) as Promise<T>;

/** Today's packed filters with the view's value filters and range columns in place. */
function packedAsOf(today: PackedFilters, view: View): PackedFilters {
  const patched = new Map<string, Float64Array>();
  return {
    kind: today.kind,
    count: today.count,
    values: today.values.map((filter) => {
      if (filter.name === 'move' && view.moves !== null) return withLabels(view.moves, filter, today.kind);
      const rows = view.values.get(filter.name);
      return rows === undefined ? filter : valueFilterOf(filter, rows, today.count);
    }),
    ranges: {
      names: today.ranges.names,
      get(name) {
        const column = today.ranges.get(name);
        const patch = view.ranges.find(([range]) => range === name);
        if (column === undefined || patch === undefined) return column;
        let made = patched.get(name);
        if (made === undefined) patched.set(name, (made = patchedRange(column, patch)));
        return made;
      },
    },
  };
}

/** A filter's name, about and target: what a filter as of the game takes from today's. */
const labelsOf = ({ name, about, target }: PackedValueFilter): Pick<PackedValueFilter, 'name' | 'about' | 'target'> => ({
  name,
  about,
  ...(target === undefined ? {} : { target }),
});

/**
 * The `move` filter as of the game (its values by move id, unnamed: generator/indexes/as-of-views.ts
 * MOVE_FILTER_INPUTS) with today's filter's name, about and target, each value named as today's
 * of the same id names it; every member written out.
 */
function withLabels(then: PackedValueFilter, today: PackedValueFilter, kind: string): PackedValueFilter {
  let names: string[] | undefined;
  const todayKey = (value: number): number => {
    const id = then.id(value);
    const key = id === null ? undefined : today.keyOfId(id);
    if (key === undefined) throw new BrokenBuild(filterIndexFile(kind), `has no move ${id}, though a move filter as of the game holds it`);
    return key;
  };
  return {
    ...labelsOf(today),
    size: then.size,
    id: (value) => then.id(value),
    names: () => (names ??= Array.from({ length: then.size }, (_, value) => today.names()[todayKey(value)]!)),
    keyOfName: (name) => {
      const key = today.keyOfName(name);
      const id = key === undefined ? null : today.id(key);
      return id === null ? undefined : then.keyOfId(id);
    },
    keyOfId: (id) => then.keyOfId(id),
    addMembers: (value, words) => then.addMembers(value, words),
  };
}

/** A value filter with the rows as of the game; every member written out, so a member added to the interface cannot come from today's unseen. */
function valueFilterOf(today: PackedValueFilter, rows: GapRows, count: number): PackedValueFilter {
  const found = (at: number) => (at < 0 ? undefined : at);
  return {
    ...labelsOf(today),
    size: rows.length,
    id: (value) => rows[value]?.[1] ?? null,
    names: () => rows.map(([name]) => name),
    keyOfName: (name) => found(rows.findIndex(([own]) => own === name)),
    keyOfId: (id) => found(rows.findIndex(([, own]) => own === id)),
    addMembers: (value, words) => {
      let position = -1;
      for (const gap of rows[value]?.[2] ?? []) {
        position += gap + 1;
        if (position < count) words[position >>> 5]! |= 1 << (position & 31);
      }
    },
  };
}
