/**
 * The database file, written with Node's own SQLite (`node:sqlite`): no native module to build,
 * no WebAssembly to load, the SQLite of the Node that builds (its version is in the `meta` table).
 *
 * Made beside the rest of the build: each build worker fills a part (`DatabasePart`) with the
 * rows of the kinds it makes, as it makes their answers; once every kind is made, the parts are
 * copied into one file in the tables' order (`assembleDatabase`), the search and the views are
 * added, and the file is checked. It is written aside and moved into place only once whole and
 * checked.
 */
import { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { Worker } from 'node:worker_threads';
import {
  createTableSql,
  indexSql,
  insertSql,
  keyColumns,
  PLAIN,
  plainText,
  META_TABLE_SQL,
  quoted,
  searchSql,
  VIEWS,
  viewSql,
  type DatabaseMeta,
} from './sql.ts';
import type { KindTables, TablePlan } from './tables.ts';

/**
 * Node's SQLite, loaded when a database is first made (not with the build's modules). Node 22
 * calls it experimental and says so on stderr as it loads; Node 24 and later do not. That one
 * warning is let pass unprinted; any other is printed as always.
 */
function sqlite(): typeof import('node:sqlite') {
  const emit = process.emitWarning.bind(process) as (...args: unknown[]) => void;
  // eslint-disable-next-line @typescript-eslint/unbound-method -- put back as it was, never called here
  const restore = process.emitWarning;
  process.emitWarning = (warning: string | Error, ...rest: unknown[]) => {
    if (!String(warning).startsWith('SQLite is an experimental feature')) emit(warning, ...rest);
  };
  try {
    return process.getBuiltinModule('node:sqlite');
  } finally {
    process.emitWarning = restore;
  }
}

/**
 * A new database file at `path` (one there is replaced), or in memory (null), written as scratch:
 * nothing to recover after a crash, the build starts again, and the whole of it kept in memory
 * until it is written. Its links are checked once every table is filled (`check`), not row by row:
 * a row may link to a kind not made yet.
 */
function openScratch(path: string | null): DatabaseSync {
  if (path !== null) rmSync(path, { force: true });
  const db = new (sqlite().DatabaseSync)(path ?? ':memory:', { enableForeignKeyConstraints: false });
  db.exec('PRAGMA page_size = 4096; PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -262144; PRAGMA temp_store = MEMORY;');
  return db;
}

/** Thrown when the database fails its checks: it names the table, the row and the column. */
export class DatabaseError extends Error {}

/** Rows inserted by one statement where an answer has that many for a table (a creature's learnset): a call per row costs more than the row. */
const BATCH = 64;

/** A table's inserts: of one row, and of BATCH rows. */
interface Inserts {
  one: StatementSync;
  many: StatementSync;
}

/** A part of the database: the tables of the kinds one worker makes, each row added as its answer is made. */
export class DatabasePart {
  private readonly db: DatabaseSync;
  private readonly byKind = new Map<string, { tables: KindTables; inserts: Map<string, Inserts> }>();

  constructor(path: string, kinds: readonly KindTables[]) {
    this.db = openScratch(path);
    this.db.exec('BEGIN;');
    for (const tables of kinds) {
      const inserts = new Map<string, Inserts>();
      for (const table of tables.tables) {
        this.db.exec(createTableSql(table));
        inserts.set(table.name, { one: this.db.prepare(insertSql(table)), many: this.db.prepare(insertSql(table, BATCH)) });
      }
      this.byKind.set(tables.kind, { tables, inserts });
    }
  }

  /** The rows of one answer of `kind`, in every table the kind fills; a kind with no tables (the entry) has none. */
  add(kind: string, answer: unknown): void {
    const made = this.byKind.get(kind);
    if (!made) return;
    for (const [table, rows] of made.tables.rows(answer)) {
      const { one, many } = made.inserts.get(table)!;
      let at = 0;
      for (; at + BATCH <= rows.length; at += BATCH) many.run(...rows.slice(at, at + BATCH).flat());
      for (; at < rows.length; at++) one.run(...rows[at]!);
    }
  }

  close(): void {
    this.db.exec('COMMIT;');
    this.db.close();
  }
}

/** What the finished file is: its size, its gzip'd copy's, and its SQLite's version. */
export interface DatabaseFile {
  bytes: number;
  gzipBytes: number;
  sqliteVersion: string;
}

/** Where the database goes, and its gzip'd copy for a whole download. */
export interface DatabasePaths {
  path: string;
  gzipPath: string;
}

/** zlib's level for the copy: 4 is within 4 % of 6's size in 60 % of its time, and the build waits for it. */
const GZIP_LEVEL = 4;

/**
 * The database at `path` from the parts the workers filled: every table in `tables`' order (so the
 * file is the same whichever worker made which kind), the search, the views and `meta`; checked
 * (`PRAGMA integrity_check`, every foreign key), then written in one pass (`VACUUM INTO`: each
 * table's pages together, none free) with its gzip'd copy, both aside, and moved to their paths.
 * Made in memory: the file is written once, not filled and then rewritten. A database that fails a
 * check leaves no file, and the error names the table, the row and the column.
 */
export function assembleDatabase(
  { path, gzipPath }: DatabasePaths,
  parts: readonly string[],
  kinds: readonly KindTables[],
  meta: Omit<DatabaseMeta, 'sqlite_version'>,
): DatabaseFile {
  const aside = `${path}.part`;
  const gzipAside = `${gzipPath}.part`;
  const tables = kinds.flatMap((k) => k.tables);
  const db = openScratch(null);
  try {
    const sqliteVersion = (db.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
    copyParts(db, parts, tables);
    db.exec('BEGIN;');
    for (const table of tables) for (const statement of indexSql(table)) db.exec(statement);
    db.function(PLAIN, { deterministic: true }, (text) => plainText(String(text)));
    for (const statement of searchSql(tables)) db.exec(statement);
    db.exec(`INSERT INTO "search"("search") VALUES ('optimize');`);
    for (const view of VIEWS) db.exec(viewSql(view));
    db.exec(META_TABLE_SQL);
    const insertMeta = db.prepare('INSERT INTO "meta" VALUES (?, ?)');
    for (const [key, value] of Object.entries({ ...meta, sqlite_version: sqliteVersion })) insertMeta.run(key, value);
    db.exec('COMMIT;');
    check(db, tables);
    rmSync(aside, { force: true });
    db.exec(`VACUUM INTO ${sqlString(aside)};`);
    db.close();
    const bytes = readFileSync(aside);
    writeFileSync(gzipAside, gzipSync(bytes, { level: GZIP_LEVEL }));
    renameSync(aside, path);
    renameSync(gzipAside, gzipPath);
    return { bytes: bytes.byteLength, gzipBytes: statSync(gzipPath).size, sqliteVersion };
  } catch (error) {
    if (db.isOpen) db.close();
    for (const file of [aside, gzipAside]) if (existsSync(file)) rmSync(file);
    throw error;
  }
}

/** A text as an SQL string literal. */
const sqlString = (text: string): string => `'${text.replaceAll("'", "''")}'`;

/** Every table made, then filled from the parts in the tables' order; a table only one part fills (a kind is one worker's). */
function copyParts(db: DatabaseSync, parts: readonly string[], tables: readonly TablePlan[]): void {
  db.exec('BEGIN;');
  for (const table of tables) db.exec(createTableSql(table));
  parts.forEach((part, i) => db.exec(`ATTACH DATABASE ${sqlString(part)} AS part${i};`));
  const filled = new Map<string, string>();
  for (const table of tables) {
    for (let i = 0; i < parts.length; i++) {
      const copied = db.prepare(`INSERT INTO ${quoted(table.name)} SELECT * FROM part${i}.${quoted(table.name)}`).run().changes;
      if (copied && filled.has(table.name)) throw new DatabaseError(`${table.name}: rows from two parts (${filled.get(table.name)} and ${parts[i]})`);
      if (copied) filled.set(table.name, parts[i]!);
    }
  }
  db.exec('COMMIT;');
  parts.forEach((_, i) => db.exec(`DETACH DATABASE part${i};`));
}

/** What the thread of `assembleDatabaseAside` is given. */
export interface AssembleJob extends DatabasePaths {
  parts: readonly string[];
  meta: Omit<DatabaseMeta, 'sqlite_version'>;
}

/** What it answers: the file made, or why not (a clone keeps no class of ours: the message is sent beside the error). */
export type AssembleReply = { file: DatabaseFile } | { failure: string; error: unknown };

/** `assembleDatabase` on a thread of its own: the build's main thread writes its last files meanwhile, on the other core. */
export function assembleDatabaseAside(job: AssembleJob): Promise<DatabaseFile> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./assemble-worker.ts', import.meta.url), { workerData: job });
    worker.once('message', (reply: AssembleReply) => {
      void worker.terminate();
      if ('file' in reply) resolve(reply.file);
      else reject(new DatabaseError(reply.failure, { cause: reply.error }));
    });
    worker.once('error', reject);
  });
}

/** The file's checks: SQLite's own, then each foreign key, naming the first row whose link leads nowhere. */
function check(db: DatabaseSync, tables: readonly TablePlan[]): void {
  const integrity = db.prepare('PRAGMA integrity_check').all() as Array<{ integrity_check: string }>;
  if (integrity.length !== 1 || integrity[0]!.integrity_check !== 'ok')
    throw new DatabaseError(`the database fails SQLite's integrity check: ${integrity.map((r) => r.integrity_check).join('; ')}`);
  if (db.prepare('PRAGMA foreign_key_check').all().length === 0) return;
  for (const table of tables) {
    const key = keyColumns(table).map(quoted).join(', ');
    for (const column of table.columns) {
      if (column.references === null) continue;
      const row = db
        .prepare(
          `SELECT ${key}, ${quoted(column.name)} AS link FROM ${quoted(table.name)} WHERE ${quoted(column.name)} IS NOT NULL AND ${quoted(column.name)} NOT IN (SELECT "id" FROM ${quoted(column.references)}) LIMIT 1`,
        )
        .get() as Record<string, number> | undefined;
      if (row) {
        const at = keyColumns(table)
          .map((name) => `${name} ${row[name]}`)
          .join(', ');
        throw new DatabaseError(`${table.name}, row ${at}, column ${column.name}: ${row.link} is no id of ${column.references}`);
      }
    }
  }
  throw new DatabaseError('the database fails its foreign key check, though every link column leads to a row');
}
