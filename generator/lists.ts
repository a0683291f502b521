/**
 * How lists of rows are gathered and ordered, written once for the model and every resource;
 * pure. The upstream's lists follow three patterns: groups by a key (in first-seen order),
 * runs of consecutive rows with one key (its `past_*` lists), and stable multi-key sorts.
 */

/** Items by key, each key's items in their given order. */
export function groupBy<T, K>(items: Iterable<T>, key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

/** Items in groups of equal key, the groups in the order their first item appears. */
export const groupInOrder = <T, K>(items: Iterable<T>, key: (item: T) => K): Array<[K, T[]]> => [...groupBy(items, key)];

/** Runs of consecutive items that share a key, in order: a key seen again later starts a new run. */
export function runsOf<T, K>(items: Iterable<T>, key: (item: T) => K): Array<[K, T[]]> {
  const runs: Array<[K, T[]]> = [];
  for (const item of items) {
    const k = key(item);
    const last = runs[runs.length - 1];
    if (last && last[0] === k) last[1].push(item);
    else runs.push([k, [item]]);
  }
  return runs;
}

/** A stably sorted copy: items equal on every key keep their given order. */
export function sortedBy<T>(items: Iterable<T>, ...keys: ReadonlyArray<(item: T) => number>): T[] {
  return [...items].sort((a, b) => {
    for (const key of keys) {
      const d = key(a) - key(b);
      if (d !== 0) return d;
    }
    return 0;
  });
}

/** Each id once, ascending: how the upstream lists a relation it reads through a join table (its default order, the primary key). */
export const idsInOrder = (ids: Iterable<number>): number[] => sortedBy(new Set(ids), (id) => id);
