/**
 * The change report's tables: which tables two locks disagree on (by the upstream's hashes),
 * and for each, the rows added and removed (lines after the header, compared as a multiset, so
 * a row moved within the table is neither).
 *
 *   tableChanges(oldLock, newLock, oldCsvDir, newCsvDir) → TableChange[]
 *
 * A table a lock lists must be in its folder: one that is missing or cannot be read stops the
 * report with an error naming it, never a table reported with no rows.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { UpstreamLock } from '../fetch/lock.ts';
import type { TableChange } from '../../schemas/output/changes.ts';

/** A table's rows (its lines after the header); none when there is no folder of old tables to count them in (`oldCsvDir` null). */
const rowsOf = (dir: string | null, name: string): string[] => {
  if (!dir) return [];
  const path = join(dir, name);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`the change report cannot read the table ${path}, which the lock lists: ${(error as Error).message}`, { cause: error });
  }
  return text
    .split(/\r?\n/)
    .slice(1)
    .filter((line) => line !== '');
};

/** Rows of `a` not matched by a row of `b`, counting duplicates. */
export function rowsMissing(a: readonly string[], b: readonly string[]): number {
  const left = new Map<string, number>();
  for (const row of b) left.set(row, (left.get(row) ?? 0) + 1);
  let missing = 0;
  for (const row of a) {
    const n = left.get(row) ?? 0;
    if (n) left.set(row, n - 1);
    else missing++;
  }
  return missing;
}

/** The tables that differ between two locks, sorted by name; rows counted from the two folders of tables. */
export function tableChanges(oldLock: UpstreamLock, newLock: UpstreamLock, oldCsvDir: string | null, newCsvDir: string): TableChange[] {
  const names = [...new Set([...Object.keys(oldLock.tables), ...Object.keys(newLock.tables)])].sort();
  const out: TableChange[] = [];
  for (const table of names) {
    const before = oldLock.tables[table];
    const after = newLock.tables[table];
    if (before && after && before.sha1 === after.sha1) continue;
    const oldRows = before ? rowsOf(oldCsvDir, table) : [];
    const newRows = after ? rowsOf(newCsvDir, table) : [];
    out.push({
      table,
      change: !before ? 'added' : !after ? 'removed' : 'changed',
      rows_added: rowsMissing(newRows, oldRows),
      rows_removed: rowsMissing(oldRows, newRows),
    });
  }
  return out;
}
