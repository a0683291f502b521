/** How the creature responses gather child rows into nested lists; pure. */

/**
 * Rows gathered by a key, keys ascending, each group's rows in their own order. The upstream
 * answers a creature's moves and held items this way: one entry per move (item), by id.
 */
export function groupedByAscendingKey<R>(rows: readonly R[], key: (row: R) => number): Array<[number, R[]]> {
  const groups = new Map<number, R[]>();
  for (const row of rows) {
    const k = key(row);
    let group = groups.get(k);
    if (!group) groups.set(k, (group = []));
    group.push(row);
  }
  return [...groups].sort(([a], [b]) => a - b);
}

/**
 * Runs of consecutive rows that share a key, in row order. The upstream builds the `past_*`
 * lists this way: a new generation entry starts whenever the generation changes.
 */
export function runsOf<R>(rows: readonly R[], key: (row: R) => number): Array<[number, R[]]> {
  const runs: Array<[number, R[]]> = [];
  for (const row of rows) {
    const k = key(row);
    const last = runs[runs.length - 1];
    if (last && last[0] === k) last[1].push(row);
    else runs.push([k, [row]]);
  }
  return runs;
}
