/**
 * The one reader of the query string, and the list of what each path reads.
 *
 * Whatever serves the answers keys its cache on the parameters a path reads and on nothing else
 * (Netlify's `Netlify-Vary: query=...` is made from `paramsReadAt`), so a parameter read
 * anywhere but here would be left out of the cache key: two requests differing only in it would
 * share one stored answer. test/params.test.ts fails on a read elsewhere.
 *
 * A collection's query vocabulary, one search from each parameter's name (the name is written
 * as a string literal where it is read, parsed and answered):
 * - declared: a kind's value filters and ranges beside its resource (generator/resources/**,
 *   `query:`, shapes in generator/resources/query.ts), compiled once by
 *   generator/indexes/query-facts.ts `kindQuery` into the routing table's `QueryShape`
 *   (edge/layout.ts); the fixed ones below;
 * - parsed: edge/query/params.ts (`parseValueGroups`, `parseRange`, `parseIds`, `parseNames`,
 *   `parseFields`, `parseSort`, `parseNameList` for `facets` and `summary`);
 * - answered: edge/collection.ts, over the indexes of edge/query/ (filter.ts, sort.ts,
 *   facets.ts, summary.ts).
 */
import type { QueryShape } from './layout.ts';
import { checkQueryLength, type Parsed } from './query/params.ts';

/** What every collection reads, in the order `next`/`previous` links carry them (after offset and limit). */
export const COLLECTION_PARAMS = ['limit', 'offset', 'q', 'id', 'name', 'lang'] as const;
/**
 * What a collection whose kind declares queries reads besides its own filters and ranges:
 * `fields`, and (issue 24) `sort`, `facets` and `summary`.
 */
export const QUERYABLE_COLLECTION_PARAMS = [...COLLECTION_PARAMS, 'fields', 'sort', 'facets', 'summary'] as const;
/** What `GET /v2/search/` reads. */
export const SEARCH_PARAMS = ['q', 'kind', 'limit', 'offset', 'lang'] as const;

/** Parameters read as one value: given more than once, the last one counts. */
export const SINGLE_PARAMS = ['limit', 'offset', 'q', 'lang'] as const;
export type SingleParam = (typeof SINGLE_PARAMS)[number];

/**
 * Whether a path reading these parameters must be cached under its whole query string. Every
 * parameter but the single-valued ones is read with all its repeats (`queryValues`), so a
 * repeat changes the answer (`id=1&id=2` is two entries, `type=grass&type=poison` both types).
 * Netlify does not document how `Netlify-Vary: query=type` keys a repeated `type`: keyed on one
 * value, `type=grass&type=poison` and `type=grass&type=fire` would share a stored answer, and
 * the stored answer is found before the function runs, so nothing it answers (not a redirect to
 * a canonical spelling) could fix that. Keyed on the whole query string (Netlify's documented
 * default, with no `Netlify-Vary: query=`), they cannot share one; the price is that junk
 * parameters (`utm_source`) make entries of their own at such paths. `npm run check:deploy`
 * (netlify/deploy-checks.ts `checkRepeatKey`) shows on a real deploy what Netlify keyed.
 */
export function keysWholeQuery(params: readonly string[]): boolean {
  return params.some((name) => !(SINGLE_PARAMS as readonly string[]).includes(name));
}

/**
 * A single-valued parameter, or null when absent. Given more than once, the last one counts, as
 * the upstream reads it (Django's `QueryDict.get` returns a repeated key's last value).
 */
export function queryParam(params: URLSearchParams, name: SingleParam): string | null {
  const values = params.getAll(name);
  return values.length === 0 ? null : values[values.length - 1]!;
}

/**
 * Every value of a list-like parameter (filters, ranges, `id`, `name`, `fields`, `sort`,
 * `facets`, `summary`, `kind`), in the order given: a value filter's repeats are each matched, a
 * range's intersect, the others' join as commas do (edge/query/params.ts). Empty when absent.
 */
export function queryValues(params: URLSearchParams, name: string): string[] {
  return params.getAll(name);
}

/**
 * The parameters a collection reads: the fixed ones, then (for a kind that declares queries)
 * `fields`, its value filters and its range filters in declared order (the build refuses a
 * declared name that is a fixed one or declared twice).
 */
export function collectionParams(queries: QueryShape | undefined): string[] {
  if (queries === undefined) return [...COLLECTION_PARAMS];
  return [...QUERYABLE_COLLECTION_PARAMS, ...queries.filters.map((f) => f.name), ...queries.ranges.map((r) => r.name)];
}

/**
 * The request's parameters, or the 400 of a query string past its cap (edge/query/params.ts
 * `checkQueryLength`), checked before any of them is read.
 */
export function checkedQuery(url: URL): Parsed<URLSearchParams> {
  const checked = checkQueryLength(url.search);
  return checked.ok ? { ok: true, value: url.searchParams } : checked;
}
