/**
 * A collection's answer, `GET /v2/{kind}/`: a page of the kind's list, narrowed by what the
 * request asks (value filters, ranges, an `id`/`name` batch, `q`), in the order of `sort`, with
 * the asked `fields` on each entry, and `facets` and `summary` over the whole narrowed set. The parameters are read through edge/params.ts and parsed by edge/query/params.ts;
 * the indexes they need are loaded once per build through BuildFiles; matching is
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
 *   repeats, a range's as their intersection).
 */
import { badParameter, jsonAnswer, notFound } from './answers.ts';
import { readAhead, type BuildFiles, type ListKeys } from './build-files.ts';
import type { Answer } from './http.ts';
import { canonicalKey, DEFAULT_LIMIT, idOfUrl, pageFile, type QueryShape, type QueryFilter, type QueryRange, type Routes } from './layout.ts';
import { pageLinks, paginate, parseLimit, parseOffset } from './pagination.ts';
import { queryParam, queryValues } from './params.ts';
import type { FilterQuery } from './query/filter.ts';
import { foldText } from './query/fold.ts';
import { facetValues, type FacetValue } from './query/facets.ts';
import type { FilterIndex } from './query/filter.ts';
import {
  listItems, parseFields, parseIds, parseNameList, parseNames, parseRange, parseSort, parseValueGroups, parseValues, QUERY_LIMITS,
  type IntegerRange, type Parsed, type SortKey, type Vocabulary,
} from './query/params.ts';
import { SearchIndex, type SearchResult } from './query/search.ts';
import { numberColumn, sortPositions, textRanks, type SortColumn } from './query/sort.ts';
import { summarize, type RangeSummary } from './query/summary.ts';
import { entriesWithFields, pathsBelow, startFieldReads } from './list-fields.ts';
import { readLanguage } from './search-endpoint.ts';

/** A value filter's key for a value that is valid but held by no entry: it matches nothing. */
const HELD_BY_NONE = -1;
const YES_NO = new Set(['true', 'false', '1', '0']);

/** What a request asks of a collection, parsed and resolved against the kind's files. */
interface CollectionQuery {
  limit: number;
  offset: number;
  q: string | null;
  /** `lang=`: the language `q` and every `names` field keep to; null when absent */
  lang: string | null;
  ids: number[] | null;
  names: string[] | null;
  fields: string[] | null;
  /** per value filter asked: each repeat's keys and tokens (all repeats matched, any key of one) */
  values: { filter: QueryFilter; groups: number[][]; tokens: string[][] }[];
  ranges: { range: QueryRange; value: IntegerRange }[];
  sort: SortKey[] | null;
  facets: string[] | null;
  summary: string[] | null;
}

const asksAnything = (query: CollectionQuery) =>
  query.q !== null || query.ids !== null || query.names !== null || query.fields !== null || query.values.length > 0 || query.ranges.length > 0 ||
  query.sort !== null || query.facets !== null || query.summary !== null;

/** `GET /v2/{kind}/`; fields are made for the page's entries only, whatever the total. */
export async function collection(build: BuildFiles, kind: string, params: URLSearchParams): Promise<Answer> {
  const routes = await build.routes();
  const queries = routes?.queries?.[kind];
  // parsed once: the reads started ahead and the query both take it
  const shaped = queries && readShaping(params, queries, routes!.idOnly.includes(kind), pathsBelow(routes!, queries));
  if (queries && shaped?.ok) startReads(build, kind, { routes: routes!, shape: queries }, params, shaped.value);
  const parsed = await readQuery(build, kind, params, queries, shaped);
  if (!parsed.ok) return badParameter(parsed.error);
  const query = parsed.value;
  if (!asksAnything(query)) return plainPage(build, kind, query.limit, query.offset);
  const keys = await build.listKeys(kind);
  if (!keys) return notFound();
  const positions = await matchPositions(build, kind, keys, query);
  if (!positions.ok) return badParameter(positions.error);
  const { limit, offset } = query;
  const matching = await sorted(build, kind, keys, positions.value, query.sort);
  const page = matching.slice(offset, offset + limit);
  const results = query.fields === null || queries === undefined
    ? page.map((p) => keys.list.results[p]!)
    : await entriesWithFields(build, routes!, keys.list, page, { kind, shape: queries, paths: query.fields, lang: query.lang });
  const url = `${build.baseUrl}/${kind}/`;
  const links = pageLinks(matching.length, url, offset, limit, linkSuffix(query));
  return jsonAnswer(200, { count: matching.length, ...links, ...(await aggregates(build, kind, queries, matching, query)), results });
}

/** A kind's query shape and the routing table it is from. */
interface ShapeOf {
  routes: Routes;
  shape: QueryShape;
}

/** What shapes the answer rather than narrows it: `fields`, `sort`, `facets` and `summary`. */
type Shaping = Pick<CollectionQuery, 'fields' | 'sort' | 'facets' | 'summary'>;

/**
 * Starts the reads the answer will wait on, before its parse waits on any: on a cold start they
 * then go side by side rather than one after another (at the edge each is a fetch). Only names
 * the kind declares are read, whatever the request holds; a failed read is left to the call
 * that waits on it, which answers as it always does.
 */
function startReads(build: BuildFiles, kind: string, { routes, shape }: ShapeOf, params: URLSearchParams, shaping: Shaping): void {
  const asked = (name: string) => queryValues(params, name).length > 0;
  // a sort by a key other than the list's own (`id`, `name`) is by a range, read from the filter index
  const sortsByRange = shaping.sort?.some(({ key }) => key !== 'id' && key !== 'name') ?? false;
  const readsIndex = [...shape.filters, ...shape.ranges].some((f) => asked(f.name)) || shaping.facets !== null || shaping.summary !== null || sortsByRange;
  if (readsIndex || ['q', 'id', 'name'].some(asked) || shaping.fields !== null || shaping.sort !== null) readAhead(build.listKeys(kind));
  if (readsIndex) readAhead(build.filterIndex(kind));
  for (const name of shaping.facets ?? []) {
    const target = shape.filters.find((f) => f.name === name)?.target;
    if (target) readAhead(build.listKeys(target));
  }
  const paths = shaping.fields;
  if (paths === null) return;
  readAhead(readLanguage(build, params).then((lang) => lang.ok && startFieldReads(build, routes, { kind, shape, paths, lang: lang.value })));
}

/** The matching positions in the order of `sort` (list order when none is asked). */
async function sorted(build: BuildFiles, kind: string, keys: ListKeys, positions: number[], sort: SortKey[] | null): Promise<number[]> {
  if (sort === null) return positions;
  const columns = await Promise.all(sort.map(async ({ key, descending }): Promise<SortColumn> => ({ values: await sortColumn(build, kind, keys, key), descending })));
  return sortPositions(positions, columns);
}

/** A sort key's numbers in list order, made once per build: ids, name ranks, or a range's column. */
async function sortColumn(build: BuildFiles, kind: string, keys: ListKeys, key: string): Promise<Float64Array> {
  const results = keys.list.results;
  if (key === 'id') return (await build.keep(`sort-id:${kind}`, async () => numberColumn(results.map((r) => idOfUrl(r.url)))))!;
  if (key === 'name') return (await build.keep(`sort-name:${kind}`, async () => textRanks(results.map((r) => r.name))))!;
  return (await indexOf(build, kind)).rangeColumn(key);
}

async function indexOf(build: BuildFiles, kind: string): Promise<FilterIndex> {
  const index = await build.filterIndex(kind);
  if (!index) throw new Error(`${kind}: no filter index`);
  return index;
}

/** `facets` and `summary`, over every matching position (not the page); nothing when neither is asked. */
async function aggregates(build: BuildFiles, kind: string, queries: QueryShape | undefined, positions: number[], query: CollectionQuery) {
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
async function plainPage(build: BuildFiles, kind: string, limit: number, offset: number): Promise<Answer> {
  if (limit === DEFAULT_LIMIT && offset % DEFAULT_LIMIT === 0) {
    const bytes = await build.read(pageFile(kind, offset));
    if (bytes !== null) return { status: 200, body: bytes, file: pageFile(kind, offset) };
  }
  const list = await build.list(kind);
  if (!list) return notFound();
  return jsonAnswer(200, paginate(list, `${build.baseUrl}/${kind}/`, offset, limit));
}

/**
 * Every parameter the collection reads, parsed; value filters resolved against their
 * vocabularies. `shaped`: the kind's `readShaping` of the same parameters (none without a
 * query shape), its error answered after those of the parameters every collection reads.
 */
async function readQuery(build: BuildFiles, kind: string, params: URLSearchParams, queries: QueryShape | undefined, shaped: Parsed<Shaping> | undefined): Promise<Parsed<CollectionQuery>> {
  const ids = parseIds('id', queryValues(params, 'id'));
  if (!ids.ok) return ids;
  const names = parseNames('name', queryValues(params, 'name'));
  if (!names.ok) return names;
  const lang = await readLanguage(build, params);
  if (!lang.ok) return lang;
  const query: CollectionQuery = {
    limit: parseLimit(queryParam(params, 'limit')),
    offset: parseOffset(queryParam(params, 'offset')),
    q: queryParam(params, 'q'),
    lang: lang.value,
    ids: ids.value,
    names: names.value,
    fields: null,
    values: [],
    ranges: [],
    sort: null,
    facets: null,
    summary: null,
  };
  if (queries === undefined || shaped === undefined) return { ok: true, value: query };
  if (!shaped.ok) return shaped;
  Object.assign(query, shaped.value);
  for (const filter of queries.filters) {
    const resolved = await readValueFilter(build, kind, filter, queryValues(params, filter.name));
    if (!resolved.ok) return resolved;
    if (resolved.value !== null) query.values.push(resolved.value);
  }
  for (const range of queries.ranges) {
    const value = parseRange(range.name, queryValues(params, range.name));
    if (!value.ok) return value;
    if (value.value !== null) query.ranges.push({ range, value: value.value });
  }
  return { ok: true, value: query };
}

/** `fields`, `sort`, `facets` and `summary` (Shaping). `below`: the paths `fields=` takes below the declared ones (list-fields.ts `pathsBelow`). */
function readShaping(params: URLSearchParams, queries: QueryShape, idOnly: boolean, below: readonly string[]): Parsed<Shaping> {
  const fields = parseFields('fields', queryValues(params, 'fields'), queries.fields, below);
  if (!fields.ok) return fields;
  const ranges = queries.ranges.map((r) => r.name);
  const sort = parseSort('sort', queryValues(params, 'sort'), [...(idOnly ? ['id'] : ['id', 'name']), ...ranges]);
  if (!sort.ok) return sort;
  const filters = queries.filters.map((f) => f.name);
  const facets = parseNameList('facets', queryValues(params, 'facets'), filters, 'value filters', QUERY_LIMITS.facets);
  if (!facets.ok) return facets;
  const summary = parseNameList('summary', queryValues(params, 'summary'), ranges, 'ranges', QUERY_LIMITS.summaries);
  if (!summary.ok) return summary;
  return { ok: true, value: { fields: fields.value, sort: sort.value, facets: facets.value, summary: summary.value } };
}

/** One value filter's keys per repeat (positions in its index's values, or HELD_BY_NONE) and the tokens given; null when absent. */
async function readValueFilter(build: BuildFiles, kind: string, filter: QueryFilter, raw: string[]): Promise<Parsed<CollectionQuery['values'][number] | null>> {
  // absent or only empty items (`type=`, `type=,,`): no index is read, but the caps still apply
  if (listItems(raw, false, 1).length === 0) {
    const empty = parseValues(filter.name, raw, NO_VALUES);
    return empty.ok ? { ok: true, value: null } : empty;
  }
  const index = await build.filterIndex(kind);
  const own = index?.vocabulary(filter.name);
  // a declared filter the build wrote no index for: the build is broken, and that is a 404 like an unreadable file
  if (own === undefined) throw new Error(`${kind}: no index for the filter ${filter.name}`);
  // the target kind's list is read only for a value the index does not hold
  const allHeld = listItems(raw, true, QUERY_LIMITS.listItems).every((token) => own.lookup(canonicalKey(token)) !== undefined);
  const target = filter.target === null || allHeld ? null : await build.listKeys(filter.target);
  const vocabulary: Vocabulary = {
    accepts: own.accepts,
    lookup: (token) => own.lookup(canonicalKey(token)) ?? (heldByNone(canonicalKey(token), filter, target) ? HELD_BY_NONE : undefined),
  };
  const groups = parseValueGroups(filter.name, raw, vocabulary);
  if (!groups.ok) return groups;
  const tokens = raw.map((value) => [...new Set(listItems([value], true))]).filter((t) => t.length > 0);
  return { ok: true, value: groups.value === null ? null : { filter, groups: groups.value, tokens } };
}

const NO_VALUES: Vocabulary = { lookup: () => undefined, accepts: '' };

/** A token no entry holds that is still a value of the filter: a name or id of its target kind, or yes/no. */
function heldByNone(token: string, filter: QueryFilter, target: ListKeys | null): boolean {
  if (filter.target === null) return YES_NO.has(token);
  return target?.positionOf(token) !== undefined;
}

/** The list positions matching the whole query, ascending; a 400 for a batch naming no entry. */
async function matchPositions(build: BuildFiles, kind: string, keys: ListKeys, query: CollectionQuery): Promise<Parsed<number[]>> {
  const batch = batchPositions(kind, keys, query.ids, query.names);
  if (!batch.ok) return batch;
  let positions = batch.value;
  if (query.q !== null) {
    const matching = await qPositions(build, kind, keys, query.q, query.lang);
    positions = positions === null ? matching : intersectSorted(positions, matching);
  }
  if (query.values.length === 0 && query.ranges.length === 0) {
    return { ok: true, value: positions ?? keys.list.results.map((_, p) => p) };
  }
  const index = await indexOf(build, kind);
  const filterQuery: FilterQuery = {
    values: query.values.flatMap((asked) => asked.groups.map((keys) => ({ filter: asked.filter.name, keys: keys.filter((k) => k !== HELD_BY_NONE) }))),
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
    if (p === undefined) return { ok: false, error: { parameter: 'id', value: String(id), accepts: `ids of entries of the ${kind} collection, separated by commas` } };
    positions.add(p);
  }
  for (const name of names ?? []) {
    const p = keys.positionOfName(name);
    if (p === undefined) return { ok: false, error: { parameter: 'name', value: name, accepts: `names of entries of the ${kind} collection, separated by commas` } };
    positions.add(p);
  }
  return { ok: true, value: [...positions].sort((a, b) => a - b) };
}

/** The entries `q` matches, ascending (see the module's rules); with `lang`, only by a name in that language. */
async function qPositions(build: BuildFiles, kind: string, keys: ListKeys, q: string, lang: string | null): Promise<number[]> {
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
    keys.list.results.forEach((entry, p) => { if (entry.name !== undefined && entry.name.includes(needle)) out.push(p); });
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

/** What `next`/`previous` carry after offset and limit: every parameter read, in the canonical order. */
function linkSuffix(query: CollectionQuery): string {
  const parts: string[] = [];
  const list = (name: string, items: readonly (string | number)[]) => parts.push(`${name}=${items.map((i) => encodeURIComponent(String(i))).join(',')}`);
  if (query.q !== null) parts.push(`q=${encodeURIComponent(query.q)}`);
  if (query.ids !== null) list('id', query.ids);
  if (query.names !== null) list('name', query.names);
  if (query.lang !== null) parts.push(`lang=${encodeURIComponent(query.lang)}`);
  if (query.fields !== null) list('fields', query.fields);
  if (query.sort !== null) list('sort', query.sort.map(({ key, descending }) => (descending ? `-${key}` : key)));
  if (query.facets !== null) list('facets', query.facets);
  if (query.summary !== null) list('summary', query.summary);
  for (const { filter, tokens } of query.values) for (const group of tokens) list(filter.name, group);
  for (const { range, value } of query.ranges) for (const text of rangeTexts(value)) parts.push(`${range.name}=${encodeURIComponent(text)}`);
  return parts.map((p) => `&${p}`).join('');
}

/** A range as links write it: one range, or two that share no number (an intersection left empty). */
function rangeTexts({ min, max }: IntegerRange): string[] {
  if (min !== null && max !== null && min > max) return [`${min}..`, `..${max}`];
  return [min !== null && min === max ? String(min) : `${min ?? ''}..${max ?? ''}`];
}
