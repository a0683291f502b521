/**
 * Edit distance for typo-forgiving search: optimal string alignment (Levenshtein plus the
 * transposition of two adjacent characters, each transposed pair edited once), bounded: only
 * the band within `max` of the diagonal is computed, and the work stops as soon as a whole row
 * is past `max`. Counted on UTF-16 code units.
 */

/**
 * Optimal string alignment distance, computed only within `max` of the diagonal and given up
 * as soon as a whole row exceeds `max`. Its three rows are kept between calls (one allocation
 * per index, not per candidate).
 */
export class BoundedEditDistance {
  private previous2 = new Int32Array(64);
  private previous = new Int32Array(64);
  private current = new Int32Array(64);

  /** The distance between a and b when it is at most `max`, else null. */
  within(a: string, b: string, max: number): number | null {
    const n = a.length,
      m = b.length;
    if (Math.abs(n - m) > max) return null;
    if (n === 0 || m === 0) return Math.max(n, m) <= max ? Math.max(n, m) : null;
    this.ensure(m + 1);
    const outside = max + 1;
    let previous2 = this.previous2,
      previous = this.previous,
      current = this.current;
    for (let j = 0; j <= m; j++) previous[j] = j <= max ? j : outside;
    for (let i = 1; i <= n; i++) {
      const from = Math.max(1, i - max),
        to = Math.min(m, i + max);
      current[from - 1] = from === 1 && i <= max ? i : outside;
      let rowMin = current[from - 1]!;
      const ai = a.charCodeAt(i - 1);
      for (let j = from; j <= to; j++) {
        const bj = b.charCodeAt(j - 1);
        let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (ai === bj ? 0 : 1));
        if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj) value = Math.min(value, previous2[j - 2]! + 1);
        current[j] = value;
        if (value < rowMin) rowMin = value;
      }
      if (to < m) current[to + 1] = outside;
      if (rowMin > max) return null;
      const recycled = previous2;
      previous2 = previous;
      previous = current;
      current = recycled;
    }
    this.previous2 = previous2;
    this.previous = previous;
    this.current = current;
    const distance = previous[m]!;
    return distance <= max ? distance : null;
  }

  private ensure(size: number): void {
    if (this.previous.length >= size) return;
    this.previous2 = new Int32Array(size);
    this.previous = new Int32Array(size);
    this.current = new Int32Array(size);
  }
}
