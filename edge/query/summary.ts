/**
 * `summary=r[,r…]`: numbers over a filtered set for each asked range, in the answer
 * as `"summary": {"speed": {"count", "min", "max", "sum", "avg"}}`. The parameter is
 * contract/query/parameter-table.ts `summary`; the answer is edge/collection.ts's. An entry without a
 * value (a move without power) is not counted; with none counted, min, max and avg are null and
 * the sum is 0.
 */
import type { RangeSummary } from '../../contract/query/bodies.ts';

/** The summary of a range column (NaN: no value) over these list positions. */
export function summarize(column: Float64Array, positions: readonly number[]): RangeSummary {
  let count = 0,
    sum = 0,
    min = Infinity,
    max = -Infinity;
  for (const p of positions) {
    const value = column[p]!;
    if (Number.isNaN(value)) continue;
    count++;
    sum += value;
    if (value < min) min = value;
    if (value > max) max = value;
  }
  return count === 0 ? { count, min: null, max: null, sum, avg: null } : { count, min, max, sum, avg: sum / count };
}
