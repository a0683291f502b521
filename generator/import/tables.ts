/**
 * Reads the declared upstream tables into typed rows. Every cell is checked against its
 * column's declaration, every primary key for uniqueness and every foreign key for a target;
 * a problem is reported with the table, row and column it was found in.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TSchema } from '@sinclair/typebox';
import { columnInfo, type ColumnInfo } from '../../schemas/columns.ts';
import { tables, type TableKey } from '../../schemas/tables.ts';
import { screenful } from '../problems.ts';
import { CsvSyntaxError, parseCsv } from './csv.ts';
import type { Row, TableStore } from '../model/table-store.ts';

/** Where a problem in the data set was found; `row` counts data rows from 1, `line` is the file's line. */
export interface DataLocation {
  table: string;
  row?: number;
  line?: number;
  column?: string;
}

/** The problems of a data set, each naming table, row and column; the message shows a screenful of them. */
export class DataError extends Error {
  readonly problems: ReadonlyArray<DataLocation & { message: string }>;
  constructor(problems: ReadonlyArray<DataLocation & { message: string }>) {
    super(screenful(problems.map(problemLine)));
    this.problems = problems;
    this.name = 'DataError';
  }
}

/** `table moves.csv, row 3 (line 4), column power: expected an integer, found "strong"` */
export function problemLine(p: DataLocation & { message: string }): string {
  const where = [`table ${p.table}`];
  if (p.row !== undefined) where.push(`row ${p.row}${p.line !== undefined ? ` (line ${p.line})` : ''}`);
  if (p.column !== undefined) where.push(`column ${p.column}`);
  return `${where.join(', ')}: ${p.message}`;
}

/** The CSV header a declared column is read from (`creature` is written `pokemon` there). */
export const csvHeaderOf = (column: string) => column.replace(/creature/g, 'pokemon');

interface ColumnPlan {
  field: string;
  header: string;
  info: ColumnInfo;
  /** position in the CSV row, or -1 for an id that comes from the row number */
  index: number;
}

type Problems = Array<DataLocation & { message: string }>;

function convert(raw: string, info: ColumnInfo): { value: unknown } | { error: string } {
  if (raw === '') return info.nullable ? { value: null } : { error: 'is empty, but the column is required' };
  // numbers are read as the upstream's loader reads them (Python's int()): spaces around them do not count
  const number = raw.trim();
  switch (info.parse) {
    case 'integer':
      return /^-?\d+$/.test(number) ? { value: Number(number) } : { error: `expected an integer, found ${JSON.stringify(raw)}` };
    case 'number':
      return /^-?\d+(\.\d+)?$/.test(number) ? { value: Number(number) } : { error: `expected a number, found ${JSON.stringify(raw)}` };
    case 'boolean':
      return raw === '1' ? { value: true } : raw === '0' ? { value: false } : { error: `expected 0 or 1, found ${JSON.stringify(raw)}` };
    case 'string':
      return { value: raw };
  }
}

/** Parses one table's CSV text into typed rows; pure, so tests can feed it tiny fixtures. */
export function readTable<T extends TableKey>(table: T, text: string, problems: Problems): Row<T>[] {
  const file = `${table}.csv`;
  let parsed;
  try {
    parsed = parseCsv(text);
  } catch (e) {
    if (e instanceof CsvSyntaxError) {
      problems.push({ table: file, line: e.line, message: e.message });
      return [];
    }
    throw e;
  }
  const plan: ColumnPlan[] = Object.entries<TSchema>(tables[table]).map(([field, schema]) => {
    const header = csvHeaderOf(field);
    return { field, header, info: columnInfo(schema), index: parsed.header.indexOf(header) };
  });
  for (const col of plan) {
    if (col.index < 0 && !col.info.primaryKey) {
      problems.push({ table: file, column: col.header, message: 'the column is missing from the header' });
    }
  }
  const declaredHeaders = new Set(plan.map((c) => c.header));
  for (const header of parsed.header) {
    if (!declaredHeaders.has(header)) problems.push({ table: file, column: header, message: 'the column is not declared in schemas/tables.ts' });
  }
  if (problems.length) return [];

  const rows: Row<T>[] = [];
  parsed.rows.forEach((csvRow, i) => {
    const rowNumber = i + 1;
    if (csvRow.cells.length !== parsed.header.length) {
      problems.push({ table: file, row: rowNumber, line: csvRow.line, message: `has ${csvRow.cells.length} cells, the header has ${parsed.header.length}` });
      return;
    }
    const row: Record<string, unknown> = {};
    for (const col of plan) {
      if (col.index < 0) {
        row[col.field] = rowNumber;
        continue;
      }
      const result = convert(csvRow.cells[col.index] ?? '', col.info);
      if ('error' in result) {
        problems.push({ table: file, row: rowNumber, line: csvRow.line, column: col.header, message: result.error });
      } else row[col.field] = result.value;
    }
    rows.push(row as Row<T>);
  });
  return rows;
}

const primaryKeyOf = (table: TableKey) => Object.entries<TSchema>(tables[table]).find(([, s]) => columnInfo(s).primaryKey)?.[0];

/**
 * Checks primary keys for duplicates and foreign keys for targets, across all tables read.
 * `changed`: only what a change of these tables can break (their own keys, and every foreign
 * key into them); the rest was checked before.
 */
export function checkKeys(store: Map<TableKey, Array<Record<string, unknown>>>, problems: Problems, changed?: ReadonlySet<TableKey>): void {
  const ids = new Map<TableKey, Set<number> | null>();
  const idsOf = (table: TableKey): Set<number> | null => {
    let known = ids.get(table);
    if (known === undefined) {
      const pk = primaryKeyOf(table);
      const rows = store.get(table);
      known = pk && rows ? new Set(rows.map((row) => row[pk] as number)) : null;
      ids.set(table, known);
    }
    return known;
  };
  for (const [table, rows] of store) {
    if (changed && !changed.has(table)) continue;
    const pk = primaryKeyOf(table);
    if (!pk) continue;
    const seen = new Set<number>();
    rows.forEach((row, i) => {
      const value = row[pk] as number;
      if (seen.has(value)) {
        problems.push({ table: `${table}.csv`, row: i + 1, column: csvHeaderOf(pk), message: `duplicate id ${value}` });
      }
      seen.add(value);
    });
    ids.set(table, seen);
  }
  for (const [table, rows] of store) {
    for (const [field, schema] of Object.entries<TSchema>(tables[table])) {
      const target = columnInfo(schema).references as TableKey | undefined;
      if (!target) continue;
      if (changed && !changed.has(table) && !changed.has(target)) continue;
      const targetIds = idsOf(target);
      if (!targetIds) {
        problems.push({ table: `${table}.csv`, column: csvHeaderOf(field), message: `references table ${target}, which is not loaded or has no id` });
        continue;
      }
      rows.forEach((row, i) => {
        const value = row[field] as number | null;
        if (value !== null && !targetIds.has(value)) {
          problems.push({ table: `${table}.csv`, row: i + 1, column: csvHeaderOf(field), message: `${value} is not an id of ${target}.csv` });
        }
      });
    }
  }
}

/**
 * The tables checkKeys reads when only `changed` tables changed: those, every table with a
 * foreign key into one of them, and the targets of their own foreign keys.
 */
export function keyCheckTables(changed: ReadonlySet<TableKey>): Set<TableKey> {
  const out = new Set(changed);
  for (const table of Object.keys(tables) as TableKey[]) {
    for (const schema of Object.values<TSchema>(tables[table])) {
      const target = columnInfo(schema).references as TableKey | undefined;
      if (target && changed.has(target)) out.add(table);
      if (target && changed.has(table)) out.add(target);
    }
  }
  return out;
}

/** The bytes of every declared table file, by table; null for a file that cannot be read. */
export type TableFiles = ReadonlyMap<TableKey, Buffer | null>;

export function readTableFiles(csvDir: string): TableFiles {
  const files = new Map<TableKey, Buffer | null>();
  for (const table of Object.keys(tables) as TableKey[]) {
    try {
      files.set(table, readFileSync(join(csvDir, `${table}.csv`)));
    } catch (error) {
      // missing or unreadable (any file system error): the import names it as a problem of the data set
      if ((error as NodeJS.ErrnoException).code === undefined) throw error;
      files.set(table, null);
    }
  }
  return files;
}

export interface LoadOptions {
  /** the tables' bytes when the caller has read them already */
  files?: TableFiles;
  /** only these tables are read into rows (the others are not needed); default: all */
  only?: ReadonlySet<TableKey>;
  /** only what a change of these tables can break has its keys checked (see checkKeys); default: every key */
  changed?: ReadonlySet<TableKey>;
  onTable?: (done: number, total: number) => void;
}

/** Reads the declared tables (all, or `only`) from `csvDir`; throws a DataError naming each bad cell. */
export function loadTables(csvDir: string, options: LoadOptions = {}): TableStore {
  const problems: Problems = [];
  const store = new Map<TableKey, Array<Record<string, unknown>>>();
  const files = options.files ?? readTableFiles(csvDir);
  const names = [...files.keys()].filter((t) => !options.only || options.only.has(t));
  for (const [index, table] of names.entries()) {
    options.onTable?.(index, names.length);
    const bytes = files.get(table);
    if (!bytes) problems.push({ table: `${table}.csv`, message: `cannot be read from ${csvDir}` });
    else store.set(table, readTable(table, bytes.toString('utf8'), problems));
  }
  if (!problems.length) checkKeys(store, problems, options.changed);
  if (problems.length) throw new DataError(problems);
  return storeOf(store, options.only !== undefined);
}

/** A table asked of a store that did not read it: the caller guessed too few (see loadTables' `only`). */
export class TableNotLoaded extends Error {
  readonly table: TableKey;
  constructor(table: TableKey) {
    super(`table ${table} was not read`);
    this.table = table;
  }
}

/** A TableStore that notes in `read` which tables are read (a kind's name may be made from other tables than its own). */
export function recordingStore(store: TableStore, read: Set<TableKey>): TableStore {
  return {
    rows: (t) => (read.add(t), store.rows(t)),
    byId: (t) => (read.add(t), store.byId(t)),
  };
}

/** `partial`: the store holds some tables only, and asking for another throws TableNotLoaded (rather than seeing it empty). */
export function storeOf(store: Map<TableKey, Array<Record<string, unknown>>>, partial = false): TableStore {
  const idMaps = new Map<TableKey, Map<number, unknown>>();
  const rowsOf = (table: TableKey) => {
    const rows = store.get(table);
    if (!rows && partial) throw new TableNotLoaded(table);
    return rows ?? [];
  };
  return {
    rows: <T extends TableKey>(table: T) => rowsOf(table) as Row<T>[],
    byId: <T extends TableKey>(table: T) => {
      let map = idMaps.get(table);
      if (!map) {
        map = new Map(rowsOf(table).map((r) => [r.id as number, r]));
        idMaps.set(table, map);
      }
      return map as Map<number, Row<T>>;
    },
  };
}
