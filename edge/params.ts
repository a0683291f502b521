/**
 * The query parameters the request logic reads, in one list, and the one way it reads them.
 *
 * Whatever serves the answers keys its cache on these and on nothing else (Netlify's
 * `Netlify-Vary: query=...` is made from QUERY_PARAMS), so a parameter read anywhere but
 * through `queryParam` would be left out of the cache key: two requests differing only in it
 * would share one stored answer. test/params.test.ts fails on such a read.
 */

/** Every query parameter that can change an answer. */
export const QUERY_PARAMS = ['limit', 'offset', 'q'] as const;

export type QueryParam = (typeof QUERY_PARAMS)[number];

/**
 * A parameter's value, or null when absent. Given more than once, the last one counts, as the
 * upstream reads it (Django's `QueryDict.get` returns a repeated key's last value).
 */
export function queryParam(params: URLSearchParams, name: QueryParam): string | null {
  const values = params.getAll(name);
  return values.length === 0 ? null : values[values.length - 1]!;
}
