/**
 * `sort=key[,key…]`: a filtered list in another order than the list's. A key is `id`,
 * `name` or one of the kind's ranges (contract/query/parameter-table.ts `sortKeys`); a leading `-` sorts it
 * descending. The parameter is contract/query/parameter-table.ts `sort`; the answer is edge/collection.ts's.
 *
 * Rules chosen here:
 * - An entry without a value for a key (a move without power, an entry without a name) comes
 *   after every entry with one, in both directions.
 * - Entries equal on every key keep their list order.
 * - Names compare by their characters' code points (the API's names are lowercase ASCII).
 */

/** One key of a sort: a number per list position (NaN where the entry has none), and the direction. */
export interface SortColumn {
  values: Float64Array;
  descending: boolean;
}

/** The positions in the order of the keys, ties in list order; a new array. */
export function sortPositions(positions: readonly number[], columns: readonly SortColumn[]): number[] {
  // an indexed loop: a for…of here made an iterator per comparison (the answer's largest garbage after its entries)
  return positions.slice().sort((a, b) => {
    for (let k = 0; k < columns.length; k++) {
      const { values, descending } = columns[k]!;
      const order = compareValues(values[a]!, values[b]!, descending);
      if (order !== 0) return order;
    }
    return a - b;
  });
}

/** Negative when `a` comes first; a missing value (NaN) always last. */
function compareValues(a: number, b: number, descending: boolean): number {
  const aMissing = Number.isNaN(a),
    bMissing = Number.isNaN(b);
  if (aMissing || bMissing) return aMissing === bMissing ? 0 : aMissing ? 1 : -1;
  return descending ? b - a : a - b;
}

/** A column of numbers (null: none), as a sort reads it. */
export function numberColumn(values: ReadonlyArray<number | null>): Float64Array {
  const column = new Float64Array(values.length);
  values.forEach((v, p) => {
    column[p] = v === null ? NaN : v;
  });
  return column;
}

/** Ranks read from a list pack (-1: none) as a sort reads them, none as NaN. */
export function rankColumn(ranks: Int32Array): Float64Array {
  const column = new Float64Array(ranks.length);
  for (let p = 0; p < ranks.length; p++) column[p] = ranks[p]! < 0 ? NaN : ranks[p]!;
  return column;
}
