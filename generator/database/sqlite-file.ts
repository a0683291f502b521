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
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { Worker } from 'node:worker_threads';
import { gzipSync } from 'node:zlib';
import { servedItem } from '../../contract/borrowed-field.ts';
import { itemFile } from '../../contract/layout.ts';
import { readIfThere } from '../files/folders.ts';
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
  prior: PriorRows | null = null,
): DatabaseFile {
  const aside = `${path}.part`;
  const gzipAside = `${gzipPath}.part`;
  const tables = kinds.flatMap((k) => k.tables);
  const db = openScratch(null);
  try {
    const sqliteVersion = (db.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
    copyParts(db, parts, tables, prior);
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

/**
 * Rows taken from an earlier database made by the same code: the rows of each kind's `keep` items
 * (a table's rows belong to the item its first key names), the parts holding every other item's.
 */
export interface PriorRows {
  database: string;
  keep: ReadonlyMap<string, readonly number[]>;
}

/**
 * Every table made, then filled in the tables' order: the prior database's rows of the items it
 * keeps, then the parts'; a table only one part fills (a kind is one worker's). The file does not
 * depend on the order rows come in: a table's pages hold them in key order.
 */
function copyParts(db: DatabaseSync, parts: readonly string[], tables: readonly TablePlan[], prior: PriorRows | null): void {
  db.exec('BEGIN;');
  for (const table of tables) db.exec(createTableSql(table));
  if (prior) {
    db.exec(`ATTACH DATABASE ${sqlString(prior.database)} AS prior;`);
    db.exec('CREATE TEMP TABLE "keep" ("kind" TEXT NOT NULL, "id" INTEGER NOT NULL, PRIMARY KEY ("kind", "id")) WITHOUT ROWID;');
    const keep = db.prepare('INSERT INTO temp."keep" VALUES (?, ?)');
    for (const [kind, ids] of prior.keep) for (const id of ids) keep.run(kind, id);
    for (const table of tables) {
      const owner = quoted(keyColumns(table)[0]!);
      db.prepare(
        `INSERT INTO ${quoted(table.name)} SELECT * FROM prior.${quoted(table.name)} WHERE ${owner} IN (SELECT "id" FROM temp."keep" WHERE "kind" = ?)`,
      ).run(table.kind);
    }
  }
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
  if (prior) db.exec('DROP TABLE temp."keep"; DETACH DATABASE prior;');
}

/** What the thread of `assembleDatabaseAside` is given. */
export interface AssembleJob extends DatabasePaths {
  /** a folder for the part made from `items`, made and removed by the caller */
  scratch?: string | null;
  /** the build workers' parts; or, when absent, every item as a folder serves it, put in one part first */
  parts?: readonly string[];
  items?: ServedItems;
  meta: Omit<DatabaseMeta, 'sqlite_version'>;
}

/**
 * Every item as a folder serves it: the folder, each kind's ids in id order, and the kinds whose
 * files borrow a field (contract/borrowed-field.ts); `since`: the database these items were last
 * made into, and each kind's items whose answers were made after it (only theirs are read again),
 * or null to read every item.
 */
export interface ServedItems {
  root: string;
  ids: ReadonlyMap<string, readonly number[]>;
  borrowing: readonly string[];
  since: { database: string; answered: ReadonlyMap<string, ReadonlySet<number>> } | null;
}

/**
 * The database of `items` (see ServedItems): the items read into one part in `scratch`, the rows
 * of every other item taken from the database made before, when it is there.
 */
export function databaseFromItems(
  paths: DatabasePaths,
  items: ServedItems,
  kinds: readonly KindTables[],
  meta: Omit<DatabaseMeta, 'sqlite_version'>,
  scratch: string,
): DatabaseFile {
  const since = items.since && existsSync(items.since.database) ? items.since : null;
  const changed = (kind: string, id: number) => since === null || (since.answered.get(kind)?.has(id) ?? false);
  const part = join(scratch, 'part.sqlite');
  partFromItems(part, items, kinds, changed);
  const prior = since && { database: since.database, keep: new Map([...items.ids].map(([kind, ids]) => [kind, ids.filter((id) => !changed(kind, id))])) };
  return assembleDatabase(paths, [part], kinds, meta, prior);
}

/** A part holding the items of `items` that `read` says to read, each as the folder serves it (its file, with a borrowed field spliced in). */
function partFromItems(part: string, items: ServedItems, kinds: readonly KindTables[], read: (kind: string, id: number) => boolean): void {
  const database = new DatabasePart(part, kinds);
  const borrowing = new Set(items.borrowing);
  const readFile = (rel: string) => readIfThere(join(items.root, rel));
  for (const { kind } of kinds) {
    for (const id of items.ids.get(kind) ?? []) {
      if (!read(kind, id)) continue;
      const file = readFileSync(join(items.root, itemFile(kind, id)));
      const served = borrowing.has(kind) ? servedItem(file, readFile) : file;
      database.add(kind, JSON.parse(Buffer.from(served).toString('utf8')) as Record<string, unknown>);
    }
  }
  database.close();
}

/** What it answers: the file made, or why not (a clone keeps no class of ours: the message is sent beside the error). */
export type AssembleReply = { file: DatabaseFile } | { failure: string; error: unknown };

/** `assembleDatabase` on a thread of its own: the build's main thread writes its last files meanwhile, on the other core. */
export async function assembleDatabaseAside(job: AssembleJob, signal?: AbortSignal): Promise<DatabaseFile> {
  signal?.throwIfAborted();
  // the part made from items, in a folder of the caller's: a thread stopped midway cleans nothing up
  const scratch = job.items ? mkdtempSync(join(tmpdir(), 'creature-database-')) : null;
  const worker = new Worker(new URL('./assemble-worker.ts', import.meta.url), { workerData: { ...job, scratch } });
  try {
    return await new Promise<DatabaseFile>((resolve, reject) => {
      // stopped where it is: what it wrote aside in the output folder is the caller's to remove
      const stop = () => reject(signal!.reason as Error);
      signal?.addEventListener('abort', stop, { once: true });
      worker.once('message', (reply: AssembleReply) => {
        signal?.removeEventListener('abort', stop);
        if ('file' in reply) resolve(reply.file);
        else reject(new DatabaseError(reply.failure, { cause: reply.error }));
      });
      worker.once('error', (error) => {
        signal?.removeEventListener('abort', stop);
        reject(error);
      });
    });
  } finally {
    await worker.terminate();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
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
