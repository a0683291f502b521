/**
 * `facets=p[,p…]`: how many entries of a filtered set hold each value of a value filter in the answer as `"facets": {"type": [{"name", "url", "count"}, …]}`. The parameter is
 * contract/query/parameter-table.ts `facets`; the counting is edge/query/filter.ts `valueCounts`; the
 * answer is edge/collection.ts's.
 *
 * Rules chosen here:
 * - Counted over the whole filtered set, not the page; values held by none of it are left out.
 * - Values come in the target kind's list order (a value its list does not show comes after, by
 *   id); a yes/no filter's come as `false`, `true`, with `url` null.
 */
import type { FacetValue } from '../../contract/query/bodies.ts';

/** A value a filter's index holds, with how many of the set hold it. */
export interface ValueCount {
  name: string;
  id: number | null;
  count: number;
}

/**
 * The answer's entries for one filter: `target` is the kind the values link to (null for
 * yes/no), `positionOf` a value's position in that kind's list.
 */
export function facetValues(
  counts: readonly ValueCount[],
  target: string | null,
  baseUrl: string,
  positionOf: (id: number) => number | undefined,
): FacetValue[] {
  const place = (v: ValueCount) => (v.id === null ? Infinity : (positionOf(v.id) ?? Number.MAX_SAFE_INTEGER));
  return counts
    .map((v) => ({ v, at: place(v) }))
    .sort((a, b) => a.at - b.at || (a.v.id ?? 0) - (b.v.id ?? 0))
    .map(({ v }) => ({ name: v.name, url: target === null || v.id === null ? null : `${baseUrl}/${target}/${v.id}/`, count: v.count }));
}
