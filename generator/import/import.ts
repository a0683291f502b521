/**
 * `import`: upstream tables → canonical records. Every cell is typed and every key checked
 * (tables.ts), every kind's records are assembled from its tables (model/define.ts), checked
 * against the record schema derived from the table declarations, and names are checked for
 * uniqueness within their kind. Nothing is written unless all of that succeeds.
 *
 * A kind that the same import code made, into the records this import replaces, from tables
 * whose bytes have not changed since, is taken from there as it is (reuse.ts); only the tables
 * the other kinds read, and those the changed tables' key checks need, are read.
 */
import { createHash } from 'node:crypto';
import { accessSync, constants, statSync } from 'node:fs';
import { validatorFor } from '../../schemas/ajv.ts';
import type { TableKey } from '../../schemas/tables.ts';
import { assembleRecords, ownedTables, recordSchema, type KindSpec } from '../model/define.ts';
import { allKinds, type KindName } from '../model/kinds.ts';
import { DataError, loadTables, readTableFiles, recordingStore, TableNotLoaded, type TableFiles } from './tables.ts';
import type { TableStore } from '../model/table-store.ts';
import { readManifest, recordsFile, writeRecords, type MadeFrom, type RecordSet, type RecordsManifest } from './records.ts';
import { reusableKinds, tablesToRead, type ImportInputs, type TablesToRead } from './reuse.ts';

/** A name may only be used where a file name and a URL segment are safe. */
const SAFE_NAME = /^[a-z0-9][a-z0-9-]*$/;

type Problem = ConstructorParameters<typeof DataError>[0][number];

/**
 * Checks one kind's records: each against the record schema (`check`), names for safety and
 * uniqueness within the kind. Only `records` are checked against the schema; `all` (default:
 * the same) is the whole kind, whose names must not clash. Problems are appended.
 */
export function checkKindRecords(
  spec: KindSpec,
  check: (record: unknown) => string | null,
  records: readonly Record<string, unknown>[],
  problems: Problem[],
  warn: (message: string) => void = () => {},
  all: readonly Record<string, unknown>[] = records,
): void {
  for (const record of records) {
    const error = check(record);
    if (error) problems.push({ table: `${spec.table}.csv`, message: `record ${spec.kind} ${String(record.id)}: ${error}` });
    if (problems.length > 25) throw new DataError(problems);
  }
  const checked = records === all ? null : new Set(records.map((r) => r.id));
  const names = new Map<string, number>();
  for (const record of all) {
    const name = record.name;
    if (typeof name !== 'string') continue;
    const ours = checked === null || checked.has(record.id);
    if (ours && !SAFE_NAME.test(name)) {
      problems.push({
        table: `${spec.table}.csv`,
        message: `${spec.kind} ${String(record.id)} has the name ${JSON.stringify(name)}, which is not lowercase letters, digits and hyphens`,
      });
    }
    const other = names.get(name);
    if (other === undefined) names.set(name, record.id as number);
    else if (spec.duplicateNames === 'lowest-id-wins') {
      if (ours) warn(`${spec.kind} ${String(record.id)}: the name ${JSON.stringify(name)} stays with id ${other}; this one is reachable by id only`);
    } else
      problems.push({
        table: `${spec.table}.csv`,
        message: `${spec.kind} ${String(record.id)} has the name ${JSON.stringify(name)}, already used by id ${other}`,
      });
    if (problems.length > 25) throw new DataError(problems);
  }
}

type AnySpec = (typeof allKinds)[number];

/** Records of some kinds, what each kind's were made from, and the warnings their checks gave. */
export interface Assembled {
  records: Map<KindName, Array<Record<string, unknown>>>;
  /** by kind, every table its records were made from: those it owns and those its name reads */
  reads: Map<KindName, Set<TableKey>>;
  warnings: Map<KindName, string[]>;
}

/** Pure: tables → records of `kinds` (default: every kind), or a DataError naming what is wrong. */
export function assembleKinds(tables: TableStore, kinds: readonly AnySpec[] = allKinds, onKind: (done: number, total: number) => void = () => {}): Assembled {
  const made: Assembled = { records: new Map(), reads: new Map(), warnings: new Map() };
  const problems: Problem[] = [];
  for (const [index, spec] of kinds.entries()) {
    onKind(index, kinds.length);
    const read = ownedTables(spec);
    const records = assembleRecords(spec, recordingStore(tables, read));
    const said: string[] = [];
    checkKindRecords(spec, validatorFor(recordSchema(spec)), records, problems, (message) => said.push(message));
    made.records.set(spec.kind, records);
    made.reads.set(spec.kind, read);
    if (said.length) made.warnings.set(spec.kind, said);
  }
  if (problems.length) throw new DataError(problems);
  return made;
}

/** Pure: tables → records of every kind, or a DataError naming what is wrong. */
export function recordsFromTables(
  tables: TableStore,
  warn: (message: string) => void = () => {},
  onKind: (done: number, total: number) => void = () => {},
): RecordSet {
  const made = assembleKinds(tables, allKinds, onKind);
  for (const said of made.warnings.values()) said.forEach(warn);
  return made.records;
}

export interface ImportOptions {
  csvDir: string;
  recordsDir: string;
  inputHash: string;
  /** hash of the import's code alone: records made by other code are never reused */
  codeHash: string;
  /** the records this import replaces (default: those in recordsDir): its kinds whose tables did not change are taken as they are */
  previousDir?: string;
  warn?: (message: string) => void;
  /** steps done of all steps: one per table read, then one per kind assembled */
  progress?: (done: number, total: number) => void;
}

export interface ImportResult {
  kinds: number;
  records: number;
  /** kinds taken as they were from the previous records */
  reused: number;
}

const sha1 = (bytes: Buffer): string => createHash('sha1').update(bytes).digest('hex');

/** The hashes reuse compares: the code's, and each readable table file's. */
function importInputs(codeHash: string, files: TableFiles): ImportInputs {
  return { codeHash, tables: Object.fromEntries([...files].flatMap(([t, bytes]) => (bytes ? [[t, sha1(bytes)]] : []))) };
}

function isReadableFile(path: string): boolean {
  try {
    accessSync(path, constants.R_OK);
    return statSync(path).isFile();
  } catch (error) {
    // not there, or not ours to read: not a file to take
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EACCES') return false;
    throw error;
  }
}

/** The kinds of the previous records that can be taken as they are: unchanged inputs, and a file there to take. */
function kindsToReuse(previousDir: string, previous: RecordsManifest | null, inputs: ImportInputs): Set<KindName> {
  const candidates = reusableKinds(
    previous,
    inputs,
    allKinds.map((k) => k.kind),
  );
  return new Set(candidates.filter((kind) => isReadableFile(recordsFile(previousDir, kind))));
}

/** The manifest of fresh records `made` and of the kinds `reused` from `previous`, in the kinds' order. */
function manifestOf(
  inputHash: string,
  inputs: ImportInputs,
  made: Assembled,
  reused: ReadonlySet<KindName>,
  previous: RecordsManifest | null,
): RecordsManifest {
  const madeFrom: MadeFrom = { codeHash: inputs.codeHash, tables: { ...inputs.tables }, reads: {}, warnings: {} };
  const kinds: Record<string, number> = {};
  for (const { kind } of allKinds) {
    const fresh = made.records.get(kind);
    if (!fresh && !reused.has(kind)) continue;
    kinds[kind] = fresh ? fresh.length : previous!.kinds[kind]!;
    madeFrom.reads[kind] = fresh ? [...made.reads.get(kind)!].sort() : previous!.madeFrom!.reads[kind]!;
    const warnings = fresh ? made.warnings.get(kind) : previous!.madeFrom!.warnings[kind];
    if (warnings?.length) madeFrom.warnings[kind] = warnings;
  }
  return { inputHash, kinds, madeFrom };
}

export function runImport(options: ImportOptions): ImportResult {
  const warn = options.warn ?? (() => {});
  const previousDir = options.previousDir ?? options.recordsDir;
  const files = readTableFiles(options.csvDir);
  const inputs = importInputs(options.codeHash, files);
  const previous = readManifest(previousDir);
  const reused = kindsToReuse(previousDir, previous, inputs);
  const toMake = allKinds.filter((k) => !reused.has(k.kind));
  const toRead = tablesToRead(
    previous,
    inputs,
    toMake.map((k) => k.kind),
  );
  const made = makeKinds(options, files, toMake, toRead);
  for (const said of made.warnings.values()) said.forEach(warn);
  for (const kind of reused) for (const message of previous!.madeFrom!.warnings[kind] ?? []) warn(message);
  const manifest = manifestOf(options.inputHash, inputs, made, reused, previous);
  writeRecords(options.recordsDir, made.records, manifest, { from: previousDir, kinds: [...reused] });
  return { kinds: Object.keys(manifest.kinds).length, records: Object.values(manifest.kinds).reduce((a, b) => a + b, 0), reused: reused.size };
}

/**
 * Reads the tables `toRead` names (all when null) and assembles `kinds` from them. Should a
 * kind ask for a table not read (its name reads another table than last time), it reads them all.
 */
function makeKinds(options: ImportOptions, files: TableFiles, kinds: readonly AnySpec[], toRead: TablesToRead | null): Assembled {
  const progress = options.progress ?? (() => {});
  const tableCount = toRead ? toRead.only.size : files.size;
  const steps = tableCount + kinds.length;
  const tables = loadTables(options.csvDir, { files, ...(toRead ?? {}), onTable: (done) => progress(done, steps) });
  try {
    const made = assembleKinds(tables, kinds, (done) => progress(tableCount + done, steps));
    progress(steps, steps);
    return made;
  } catch (e) {
    if (!(e instanceof TableNotLoaded) || !toRead) throw e;
    return makeKinds(options, files, kinds, null);
  }
}
