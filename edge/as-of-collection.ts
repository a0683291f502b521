/**
 * `GET /v2/as-of/{v}/{kind}/`: the kind's collection (edge/collection.ts, every parameter its
 * list takes) over a view of the build as of a version group: only the entries that existed then,
 * and the value filters, ranges and fields that changed over the games answered with their values
 * of then (edge/as-of/lists.ts). The view is made once per build and version group.
 */
import type { BuildFiles, CollectionFiles } from './build-files.ts';
import { collection } from './collection.ts';
import { queryValues } from './params.ts';
import type { Answer } from './http.ts';
import { idOfUrl } from './layout.ts';
import { asOfLearnsetFile, asOfStatsFile, type LearnsetFile, type StatsFile } from './as-of/facts.ts';
import { listView, type AsOfListView, type ValueRows } from './as-of/lists.ts';
import type { VersionGroup } from './as-of/versions.ts';
import type { AsOfWorld } from './as-of/world.ts';
import { ComputedColumn, type ColumnReader } from './query/field-column.ts';
import type { Json } from './query/fields.ts';
import { FilterIndex, positionGaps } from './query/filter.ts';
import type { PackedFilters, PackedValueFilter } from './query/filter-pack.ts';

/** The collection of `kind` as of the version group `vg` (`v` as the path names it). */
export async function collectionAsOf(build: BuildFiles, world: AsOfWorld, vg: VersionGroup, v: string, kind: string, params: URLSearchParams): Promise<Answer> {
  const files = new AsOfFiles(build, world, vg, kind === 'creature' && asksMoves(params));
  const view = await files.view(kind);
  if (view === null) throw new Error(`${kind}: no list of then, though it is answered as of a game`);
  return collection(files, kind, params, { url: `${build.baseUrl}/as-of/${v}/${kind}/`, positions: view.existing });
}

/**
 * Whether a creature list's query filters or counts by move: only then are the learnsets (1.2 MB)
 * read, and the `move` filter answered as of then. Read loosely (any spelling of a `move` facet):
 * reading them when not needed costs time, never a wrong answer.
 */
const asksMoves = (params: URLSearchParams): boolean =>
  queryValues(params, 'move').length > 0 || queryValues(params, 'facets').some((value) => value.toLowerCase().split(',').some((name) => name.trim() === 'move'));

/** The build's files as a collection reads them, with a kind's changed indexes and columns of then in place of today's. */
class AsOfFiles implements CollectionFiles {
  constructor(
    private readonly build: BuildFiles,
    private readonly world: AsOfWorld,
    private readonly vg: VersionGroup,
    /** read the learnsets: the query filters or counts by move */
    private readonly moves: boolean,
  ) {}

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

  /** What is made from the files is kept apart for each version group (a sort's column of then is not today's), and with or without the learnsets. */
  keep<T>(key: string, make: () => Promise<T | null>): Promise<T | null> {
    return this.build.keep(`as-of:${this.vg.id}:${this.moves ? 'moves:' : ''}${key}`, make);
  }

  /** The kind's view as of the version group; null for a kind not answered as of a game. */
  view(kind: string): Promise<AsOfListView | null> {
    return this.keep(`view:${kind}`, async () => {
      const keys = await this.build.listKeys(kind);
      if (!keys) return null;
      const ids = keys.list.results.map((entry) => idOfUrl(entry.url));
      const learnsets = this.moves ? await readLearnsets(this.build) : undefined;
      const stats = kind === 'creature' ? await readStats(this.build) : undefined;
      return listView(kind, { vg: this.vg, world: this.world, ids, base: this.build.baseUrl, ...(learnsets ? { learnsets } : {}), ...(stats ? { stats } : {}) });
    });
  }

  /** Today's filter index (read once per build) with the view's changed filters and ranges in place. */
  filterIndex(kind: string): Promise<FilterIndex | null> {
    return this.keep(`filter-index:${kind}`, async () => {
      const [today, view] = await Promise.all([this.build.filterIndex(kind), this.view(kind)]);
      return today === null || view === null ? today : new FilterIndex(packedAsOf(today.packed, view));
    });
  }

  /** A field whose values changed: each entry's value of then, made when an answer first takes it. */
  fieldColumn(kind: string, field: string): Promise<ColumnReader | null> {
    return this.keep(`field:${kind}:${field}`, async () => {
      const view = await this.view(kind);
      const value = view?.fields.get(field);
      if (value === undefined) return this.build.fieldColumn(kind, field);
      return new ComputedColumn(view!.count, (p) => value(p) as Json);
    });
  }
}

/** A file of records by creature (the learnsets, the stats), read once per build. */
function readByCreature<T>(build: BuildFiles, path: string): Promise<ReadonlyMap<number, T>> {
  return build.keep(`as-of:${path}`, async () => new Map((await build.requiredJson<{ records: Array<[number, T]> }>(path)).records)) as Promise<ReadonlyMap<number, T>>;
}

const readLearnsets = (build: BuildFiles) => readByCreature<LearnsetFile['records'][number][1]>(build, asOfLearnsetFile);
const readStats = (build: BuildFiles) => readByCreature<StatsFile['records'][number][1]>(build, asOfStatsFile);

/** Today's packed filters with the view's value filters and range columns in place. */
function packedAsOf(today: PackedFilters, view: AsOfListView): PackedFilters {
  return {
    kind: today.kind,
    count: today.count,
    values: today.values.map((filter) => {
      const rows = view.values.get(filter.name);
      return rows === undefined ? filter : valueFilterOf(filter, rows);
    }),
    ranges: new Map([...today.ranges].map(([name, column]) => [name, view.ranges.get(name) ?? column])),
  };
}

function valueFilterOf(today: PackedValueFilter, rows: ValueRows): PackedValueFilter {
  const gaps = rows.map(([, , positions]) => Int32Array.from(positionGaps(positions)));
  return {
    ...today,
    size: rows.length,
    id: (value) => rows[value]?.[1] ?? null,
    names: () => rows.map(([name]) => name),
    gaps: (value) => gaps[value]!,
  };
}
