/**
 * A collection's answer, `GET /v2/{kind}/`: a page of the kind's list, narrowed by what the
 * request asks (value filters, ranges, an `id`/`name` batch, `q`), in the order of `sort`, with
 * the asked `fields` on each entry, and `facets` and `summary` over the whole narrowed set. The
 * parameters are those of contract/query/parameter-table.ts, read and parsed through contract/query/params.ts; the indexes they need are loaded once per build through BuildFiles; matching is
 * edge/query/filter.ts's and search.ts's. What a request asks is all of it: filters, the batch
 * and `q` narrow the list together.
 *
 * Rules chosen here:
 * - `id=` and `name=` are one batch named two ways: an entry named by either is in it. An id or
 *   name that is no entry of the collection is a 400.
 * - A filter value that names nothing is a 400; one that names an item of the filter's target
 *   kind (or `true`/`false`/`1`/`0` for a yes/no filter) that no entry holds matches nothing.
 * - `q` matches the kind's search index (own and translated names, folded); a kind without one,
 *   or a `q` that folds to nothing (`?q=`, `?q=-`), keeps the plain case-insensitive substring
 *   match on the entry's own name.
 * - `next`/`previous` carry every parameter read, in the order of `collectionParams`, lists
 *   normalised (trimmed, lower case, duplicates dropped; a value filter's repeats kept as
 *   repeats, a range's as their intersection): each entry's `link` (parameter-table.ts).
 */
import { badParameter, jsonAnswer, notFound } from './answers.ts';
import { readAhead, type CollectionFiles, type ListKeys } from './build-files.ts';
import type { Answer } from './http.ts';
import { DEFAULT_LIMIT, NO_QUERIES, pageFile, type QueryShape, type Routes } from '../contract/layout.ts';
import { entriesWithFields, startFieldReads } from './list-fields.ts';
import { fieldsBelow } from '../contract/query/fields.ts';
import { pageLinks, paginate } from '../contract/pagination.ts';
import {
  asksAnything,
  collectionLinkSuffix,
  collectionTable,
  COLLECTION_TABLE,
  HELD_BY_NONE,
  SHAPING_TABLE,
  type CollectionQuery,
  type CollectionTable,
  type ReadScope,
  type ValuesOf,
} from '../contract/query/parameter-table.ts';
import { queryValues, readDeclared, readParam, readParams } from '../contract/query/params.ts';
import { facetValues } from './query/facets.ts';
import type { FacetValue, RangeSummary } from '../contract/query/bodies.ts';
import type { FilterIndex, FilterQuery } from './query/filter.ts';
import { foldText } from '../contract/query/fold.ts';
import type { Parsed, SortKey } from '../contract/query/parse.ts';
import { SearchIndex, type SearchResult } from './query/search.ts';
import { numberColumn, rankColumn, sortPositions, type SortColumn } from './query/sort.ts';
import { summarize } from './query/summary.ts';

/** What a collection's parameters are read against: the parameters' scope, over the build's files a list reads. */
type ListReadScope = ReadScope & { build: CollectionFiles };

/**
 * Which of the list a collection answers over, and where its pages live: the whole list at
 * `/v2/{kind}/`, or a view's (the entries that existed as of a game, at `/v2/as-of/{v}/{kind}/`).
 */
export interface CollectionScope {
  /** the collection's URL, which `next` and `previous` extend */
  url: string;
  /**
   * the list positions in the collection, ascending, read beside the query's own files (a view's
   * are a file of their own); null: all of them (and the precomputed pages serve it)
   */
  positions: Promise<readonly number[]> | null;
}

/** `GET /v2/{kind}/`; fields are made for the page's entries only, whatever the total. */
export async function collection(
  build: CollectionFiles,
  kind: string,
  params: URLSearchParams,
  scope: CollectionScope = { url: `${build.baseUrl}/${kind}/`, positions: null },
): Promise<Answer> {
  const routes = await build.routes();
  const queries = routes?.queries?.[kind];
  const table = collectionTable(queries);
  const reading: ListReadScope = {
    build,
    kind,
    kinds: routes?.kinds ?? [],
    shape: queries ?? NO_QUERIES,
    idOnly: routes?.idOnly.includes(kind) ?? false,
    below: queries ? fieldsBelow(routes, queries) : [],
  };
  const parsed = await readQuery(params, table, reading, routes);
  if (!parsed.ok) return badParameter(parsed.error);
  const query = parsed.value;
  if (!asksAnything(table, query) && scope.positions === null) return plainPage(build, kind, query.limit, query.offset);
  const keys = await build.listKeys(kind);
  if (!keys) return notFound();
  const positions = await matchPositions(build, kind, keys, query, await scope.positions);
  if (!positions.ok) return badParameter(positions.error);
  const { limit, offset } = query;
  const matching = await sorted(build, kind, keys, positions.value, query.sort);
  const page = matching.slice(offset, offset + limit);
  const results =
    query.fields === null || queries === undefined
      ? page.map((p) => keys.entry(p))
      : await entriesWithFields(build, routes, keys, page, { kind, shape: queries, paths: query.fields, lang: query.lang });
  const links = pageLinks(matching.length, scope.url, offset, limit, () => collectionLinkSuffix(table, query));
  return jsonAnswer(200, { count: matching.length, ...links, ...(await aggregates(build, kind, queries, matching, query)), results });
}

/** What shapes the answer rather than narrows it: `fields`, `sort`, `facets` and `summary`. */
type Shaping = ValuesOf<typeof SHAPING_TABLE>;

/**
 * Starts the reads the answer will wait on, before its parse waits on any: on a cold start they
 * then go side by side rather than one after another (at the edge each is a fetch). Only names
 * the kind declares are read, whatever the request holds; a failed read is left to the call
 * that waits on it, which answers as it always does.
 */
function startReads(
  { build, kind, shape }: ListReadScope,
  routes: Routes,
  params: URLSearchParams,
  shaping: Shaping,
  lang: Promise<Parsed<string | null>>,
): void {
  const asked = (name: string) => queryValues(params, name).length > 0;
  // a sort by a range is read from the filter index; by `id` or `name`, from the list
  const sortsByRange = shaping.sort?.some(({ key }) => shape.ranges.some((r) => r.name === key)) ?? false;
  const readsIndex = [...shape.filters, ...shape.ranges].some((f) => asked(f.name)) || shaping.facets !== null || shaping.summary !== null || sortsByRange;
  if (readsIndex || ['q', 'id', 'name'].some(asked) || shaping.fields !== null || shaping.sort !== null) readAhead(build.listKeys(kind));
  if (readsIndex) readAhead(build.filterIndex(kind));
  for (const name of shaping.facets ?? []) {
    const target = shape.filters.find((f) => f.name === name)?.target;
    if (target) readAhead(build.listKeys(target));
  }
  const paths = shaping.fields;
  if (paths === null) return;
  startFieldReads(build, routes, { kind, shape, paths }, lang);
}

/** The matching positions in the order of `sort` (list order when none is asked). */
async function sorted(build: CollectionFiles, kind: string, keys: ListKeys, positions: number[], sort: SortKey[] | null): Promise<number[]> {
  if (sort === null) return positions;
  const columns = await Promise.all(
    sort.map(async ({ key, descending }): Promise<SortColumn> => ({ values: await sortColumn(build, kind, keys, key), descending })),
  );
  return sortPositions(positions, columns);
}

/** A sort key's numbers in list order, made once per build: ids, name ranks, or a range's column. */
async function sortColumn(build: CollectionFiles, kind: string, keys: ListKeys, key: string): Promise<Float64Array> {
  if (key === 'id') return (await build.keep(`sort-id:${kind}`, async () => numberColumn(Array.from({ length: keys.count }, (_, p) => keys.id(p)))))!;
  if (key === 'name') return (await build.keep(`sort-name:${kind}`, async () => rankColumn(keys.nameRanks())))!;
  return (await indexOf(build, kind)).rangeColumn(key);
}

async function indexOf(build: CollectionFiles, kind: string): Promise<FilterIndex> {
  const index = await build.filterIndex(kind);
  if (!index) throw new Error(`${kind}: no filter index`);
  return index;
}

/** `facets` and `summary`, over every matching position (not the page); nothing when neither is asked. */
async function aggregates(build: CollectionFiles, kind: string, queries: QueryShape | undefined, positions: number[], query: CollectionQuery) {
  const out: { facets?: Record<string, FacetValue[]>; summary?: Record<string, RangeSummary> } = {};
  if (query.facets === null && query.summary === null) return out;
  const index = await indexOf(build, kind);
  if (query.facets !== null) {
    out.facets = {};
    for (const name of query.facets) {
      const target = queries?.filters.find((f) => f.name === name)?.target ?? null;
      const targetKeys = target === null ? null : await build.listKeys(target);
      out.facets[name] = facetValues(index.valueCounts(name, positions), target, build.baseUrl, (id) => targetKeys?.positionOfId(id));
    }
  }
  if (query.summary !== null) out.summary = Object.fromEntries(query.summary.map((name) => [name, summarize(index.rangeColumn(name), positions)]));
  return out;
}

/** Nothing asked but a page: the precomputed page when it is one, else a slice of the list. */
async function plainPage(build: CollectionFiles, kind: string, limit: number, offset: number): Promise<Answer> {
  if (limit === DEFAULT_LIMIT && offset % DEFAULT_LIMIT === 0) {
    const bytes = await build.read(pageFile(kind, offset));
    if (bytes !== null) return { status: 200, body: bytes, file: pageFile(kind, offset) };
  }
  const list = await build.list(kind);
  if (!list) return notFound();
  return jsonAnswer(200, paginate(list, `${build.baseUrl}/${kind}/`, offset, limit));
}

/**
 * Every parameter the collection reads, parsed in the table's order (the first that fails is
 * the 400); value filters resolved against their vocabularies. `lang` is parsed once: for a kind
 * that declares queries, the reads the answer will wait on start as soon as its shaping
 * parameters are parsed, beside the parse of the rest.
 */
async function readQuery(params: URLSearchParams, table: CollectionTable, scope: ListReadScope, routes: Routes | null): Promise<Parsed<CollectionQuery>> {
  const lang = readParam(params, COLLECTION_TABLE.lang, scope);
  readAhead(lang); // a failed read is answered where the query waits on it
  const shaping = table.shaping && readParams(table.shaping, params, scope);
  if (shaping && routes) readAhead(shaping.then((s) => s.ok && startReads(scope, routes, params, s.value, lang)));
  const fixed = await readParams(table.fixed, params, scope, { lang });
  if (!fixed.ok) return fixed;
  const shaped = shaping ? await shaping : { ok: true as const, value: NOT_SHAPED };
  if (!shaped.ok) return shaped;
  const filters = await readDeclared(table.filters, params, scope);
  if (!filters.ok) return filters;
  const ranges = await readDeclared(table.ranges, params, scope);
  if (!ranges.ok) return ranges;
  return { ok: true, value: { ...fixed.value, ...shaped.value, filters: filters.value, ranges: ranges.value } };
}

/** A kind that declares no queries reads none of the shaping parameters. */
const NOT_SHAPED: Shaping = { fields: null, sort: null, facets: null, summary: null };

/** The list positions (of `within`, when given) matching the whole query, ascending; a 400 for a batch naming no entry. */
async function matchPositions(
  build: CollectionFiles,
  kind: string,
  keys: ListKeys,
  query: CollectionQuery,
  within: readonly number[] | null,
): Promise<Parsed<number[]>> {
  const batch = batchPositions(kind, keys, query.id, query.name);
  if (!batch.ok) return batch;
  let positions = batch.value;
  if (within !== null) positions = positions === null ? [...within] : intersectSorted(positions, within);
  if (query.q !== null) {
    const matching = await qPositions(build, kind, keys, query.q, query.lang);
    positions = positions === null ? matching : intersectSorted(positions, matching);
  }
  if (query.filters.length === 0 && query.ranges.length === 0) {
    return { ok: true, value: positions ?? Array.from({ length: keys.count }, (_, p) => p) };
  }
  const index = await indexOf(build, kind);
  const filterQuery: FilterQuery = {
    values: query.filters.flatMap((asked) => asked.groups.map((keys) => ({ filter: asked.filter.name, keys: keys.filter((k) => k !== HELD_BY_NONE) }))),
    ranges: query.ranges.map(({ range, value }) => ({ filter: range.name, range: value })),
    ...(positions === null ? {} : { positions }),
  };
  return { ok: true, value: index.select(filterQuery) };
}

/** The entries an `id=`/`name=` batch names, ascending; null when neither is asked. */
function batchPositions(kind: string, keys: ListKeys, ids: number[] | null, names: string[] | null): Parsed<number[] | null> {
  if (ids === null && names === null) return { ok: true, value: null };
  const positions = new Set<number>();
  for (const id of ids ?? []) {
    const p = keys.positionOfId(id);
    if (p === undefined)
      return { ok: false, error: { parameter: 'id', value: String(id), accepts: `ids of entries of the ${kind} collection, separated by commas` } };
    positions.add(p);
  }
  for (const name of names ?? []) {
    const p = keys.positionOfName(name);
    if (p === undefined)
      return { ok: false, error: { parameter: 'name', value: name, accepts: `names of entries of the ${kind} collection, separated by commas` } };
    positions.add(p);
  }
  return { ok: true, value: [...positions].sort((a, b) => a - b) };
}

/** The entries `q` matches, ascending (see the module's rules); with `lang`, only by a name in that language. */
async function qPositions(build: CollectionFiles, kind: string, keys: ListKeys, q: string, lang: string | null): Promise<number[]> {
  const folded = foldText(q);
  if (folded !== '' && lang !== null) {
    const file = await build.languageSearchFile(kind);
    if (file === null) return [];
    const index = await build.keep(`language-search-index:${kind}`, async () => SearchIndex.fromFiles(file));
    return searchPositions(keys, index!.search(folded, { purpose: 'filter', language: lang }));
  }
  const file = folded === '' ? null : await build.searchFile(kind);
  if (file === null) {
    const needle = q.toLowerCase();
    const out: number[] = [];
    keys.names().forEach((name, p) => {
      if (name !== undefined && name.includes(needle)) out.push(p);
    });
    return out;
  }
  const index = await build.keep(`search-index:${kind}`, async () => SearchIndex.fromFiles(file));
  return searchPositions(keys, index!.search(folded, { purpose: 'filter' }));
}

/** The list positions of a search's hits, ascending. */
function searchPositions(keys: ListKeys, result: SearchResult): number[] {
  const positions: number[] = [];
  for (const hit of result.hits(0, result.count)) {
    const p = keys.positionOfId(hit.id);
    if (p !== undefined) positions.push(p);
  }
  return positions.sort((a, b) => a - b);
}

function intersectSorted(a: readonly number[], b: readonly number[]): number[] {
  const inB = new Set(b);
  return a.filter((p) => inB.has(p));
}
