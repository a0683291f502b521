/**
 * The change report's tables: which tables two locks disagree on (by the upstream's hashes),
 * and for each, the rows added and removed (lines after the header, compared as a multiset, so
 * a row moved within the table is neither).
 *
 *   tableChanges(oldLock, newLock, oldCsvDir, newCsvDir) → TableChange[]
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { UpstreamLock } from '../fetch/lock.ts';
import type { TableChange } from '../../schemas/output/changes.ts';

const rowsOf = (dir: string | null, name: string): string[] => {
  if (!dir) return [];
  try {
    return readFileSync(join(dir, name), 'utf8').split(/\r?\n/).slice(1).filter((line) => line !== '');
  } catch {
    return [];
  }
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
    out.push({ table, change: !before ? 'added' : !after ? 'removed' : 'changed', rows_added: rowsMissing(newRows, oldRows), rows_removed: rowsMissing(oldRows, newRows) });
  }
  return out;
}
