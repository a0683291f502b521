/**
 * The query rules as the oracles state them (test/query-oracle.test.ts for today's
 * lists, test/as-of-queries.test.ts for the lists as of a game), written once and independently
 * of edge/query/: the order a sort gives, what a facet counts and what a summary says.
 */

/** A sort key: its value for an item (null: none), and the direction. */
export interface OrderKey<T> {
  of: (item: T) => string | number | null;
  descending: boolean;
}

/** The items in the order of the keys: an item without a value last either way, ties in the order given. */
export function orderedBy<T>(items: readonly T[], keys: ReadonlyArray<OrderKey<T>>): T[] {
  const at = items.map((item, index) => ({ item, index }));
  at.sort((a, b) => {
    for (const { of, descending } of keys) {
      const [va, vb] = [of(a.item), of(b.item)];
      if (va === null || vb === null) {
        if (va !== vb) return va === null ? 1 : -1;
        continue;
      }
      if (va !== vb) return (va < vb ? -1 : 1) * (descending ? -1 : 1);
    }
    return a.index - b.index;
  });
  return at.map(({ item }) => item);
}

/** What `summary` says of a range over numbers (null: an item without one). */
export function summaryOf(values: ReadonlyArray<number | null>) {
  const numbers = values.filter((n): n is number => n !== null);
  const sum = numbers.reduce((a, b) => a + b, 0);
  return numbers.length === 0
    ? { count: 0, min: null, max: null, sum: 0, avg: null }
    : { count: numbers.length, min: Math.min(...numbers), max: Math.max(...numbers), sum, avg: sum / numbers.length };
}

/**
 * What `facets` says of one filter: each value held, with how many hold it (`counts`, by the
 * value's wire form), in its target's list order, then values the list does not show (type
 * `shadow`) by id; a yes/no filter (no target) as `false` then `true`, with no URL.
 */
export function facetOf(
  counts: ReadonlyMap<string, number>,
  target: string | null,
  listed: () => ReadonlyArray<{ name: string; id: number }>,
  unlistedId: (name: string) => number,
  baseUrl: string,
) {
  if (target === null) return ['false', 'true'].filter((v) => counts.has(v)).map((name) => ({ name, url: null, count: counts.get(name)! }));
  const inList = listed();
  const unlisted = [...counts.keys()]
    .filter((name) => !inList.some((v) => v.name === name))
    .map((name) => ({ name, id: unlistedId(name) }))
    .sort((a, b) => a.id - b.id);
  return [...inList, ...unlisted]
    .filter((v) => counts.has(v.name))
    .map((v) => ({ name: v.name, url: `${baseUrl}/${target}/${v.id}/`, count: counts.get(v.name)! }));
}
