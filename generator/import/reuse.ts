/**
 * Which kinds an import takes as they are from the records it replaces: a kind whose records the
 * same import code made from tables whose bytes have not changed would come out byte for byte
 * the same, so it is neither assembled, checked nor written again. Pure: the import reads the
 * previous manifest and links the files.
 */
import type { TableKey } from '../../schemas/tables.ts';
import { keyCheckTables } from './tables.ts';
import type { MadeFrom, RecordsManifest } from './records.ts';

/** What this import's records are made from, as far as reuse is concerned. */
export interface ImportInputs {
  /** hash of the import's code alone */
  codeHash: string;
  /** sha1 of each table file's bytes, by table (a file that cannot be read has none) */
  tables: Readonly<Record<string, string>>;
}

const isString = (s: unknown): s is string => typeof s === 'string';
const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isRecordOf = <T>(v: unknown, item: (x: unknown) => x is T): v is Record<string, T> => isObject(v) && Object.values(v).every(item);

/** The previous manifest's account of what it was made from, when it has a whole one and was made by this code; else null. */
export function usableMadeFrom(previous: RecordsManifest | null, codeHash: string): MadeFrom | null {
  const made: unknown = previous?.madeFrom;
  if (!isObject(made) || made.codeHash !== codeHash) return null;
  const { tables, reads, warnings } = made;
  if (!isRecordOf(tables, isString) || !isRecordOf(reads, isStringList) || !isRecordOf(warnings, isStringList)) return null;
  if (!isRecordOf(previous?.kinds, (n): n is number => typeof n === 'number')) return null;
  return made as unknown as MadeFrom;
}

/** The tables whose bytes differ from those the previous records were made from (or that are new, or gone). */
export function changedTables(made: MadeFrom, current: ImportInputs): Set<TableKey> {
  const names = new Set([...Object.keys(made.tables), ...Object.keys(current.tables)]);
  return new Set([...names].filter((t) => made.tables[t] !== current.tables[t]) as TableKey[]);
}

/** Of `kinds`, those the previous records hold (a count and the tables read) and whose every table read is unchanged. */
export function reusableKinds<K extends string>(previous: RecordsManifest | null, current: ImportInputs, kinds: readonly K[]): K[] {
  const made = usableMadeFrom(previous, current.codeHash);
  if (!made) return [];
  const changed = changedTables(made, current);
  return kinds.filter((kind) => {
    const reads = made.reads[kind];
    return reads !== undefined && previous!.kinds[kind] !== undefined && reads.every((t) => current.tables[t] !== undefined && !changed.has(t as TableKey));
  });
}

/** Which tables an import must read, and whose keys it checks. */
export interface TablesToRead {
  only: Set<TableKey>;
  changed: Set<TableKey>;
}

/**
 * The tables an import that makes only `kinds` (the others reused) must read: those the kinds
 * read when last made, and what checking the keys of the changed tables needs (the unchanged
 * ones were checked when the previous records were made). Null: every table, every key (no
 * usable previous manifest, or a kind it knows nothing of).
 */
export function tablesToRead(previous: RecordsManifest | null, current: ImportInputs, kinds: readonly string[]): TablesToRead | null {
  const made = usableMadeFrom(previous, current.codeHash);
  if (!made) return null;
  const changed = changedTables(made, current);
  const only = keyCheckTables(changed);
  for (const kind of kinds) {
    const reads = made.reads[kind];
    if (!reads) return null;
    for (const table of reads) only.add(table as TableKey);
  }
  return { only, changed };
}
