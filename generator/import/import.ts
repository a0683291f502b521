/**
 * `import`: upstream tables → canonical records. Every cell is typed and every key checked
 * (tables.ts), every kind's records are assembled from its tables (model/define.ts), checked
 * against the record schema derived from the table declarations, and names are checked for
 * uniqueness within their kind. Nothing is written unless all of that succeeds.
 */
import { createAjv, validatorFor } from '../../schemas/ajv.ts';
import { assembleRecords, recordSchema, type KindSpec } from '../model/define.ts';
import { allKinds, type KindName } from '../model/kinds.ts';
import { tables as tableDeclarations } from '../../schemas/tables.ts';
import { DataError, loadTables, type TableStore } from './tables.ts';
import { writeRecords, type RecordSet } from './records.ts';

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
      problems.push({ table: `${spec.table}.csv`, message: `${spec.kind} ${String(record.id)} has the name ${JSON.stringify(name)}, which is not lowercase letters, digits and hyphens` });
    }
    const other = names.get(name);
    if (other === undefined) names.set(name, record.id as number);
    else if (spec.duplicateNames === 'lowest-id-wins') {
      if (ours) warn(`${spec.kind} ${String(record.id)}: the name ${JSON.stringify(name)} stays with id ${other}; this one is reachable by id only`);
    } else problems.push({ table: `${spec.table}.csv`, message: `${spec.kind} ${String(record.id)} has the name ${JSON.stringify(name)}, already used by id ${other}` });
    if (problems.length > 25) throw new DataError(problems);
  }
}

/** Pure: tables → records of every kind, or a DataError naming what is wrong. */
export function recordsFromTables(
  tables: TableStore,
  warn: (message: string) => void = () => {},
  onKind: (done: number, total: number) => void = () => {},
): RecordSet {
  const ajv = createAjv();
  const out = new Map<KindName, Array<Record<string, unknown>>>();
  const problems: Problem[] = [];
  for (const [index, spec] of allKinds.entries()) {
    onKind(index, allKinds.length);
    const records = assembleRecords(spec, tables);
    checkKindRecords(spec, validatorFor(ajv, recordSchema(spec)), records, problems, warn);
    out.set(spec.kind, records);
  }
  if (problems.length) throw new DataError(problems);
  return out;
}

export interface ImportOptions {
  csvDir: string;
  recordsDir: string;
  inputHash: string;
  warn?: (message: string) => void;
  /** steps done of all steps: one per table read, then one per kind assembled */
  progress?: (done: number, total: number) => void;
}

export function runImport(options: ImportOptions): { kinds: number; records: number } {
  const progress = options.progress ?? (() => {});
  const tableCount = Object.keys(tableDeclarations).length;
  const steps = tableCount + allKinds.length;
  const tables = loadTables(options.csvDir, (done) => progress(done, steps));
  const records = recordsFromTables(tables, options.warn, (done) => progress(tableCount + done, steps));
  progress(steps, steps);
  const counts = Object.fromEntries([...records].map(([k, list]) => [k, list.length]));
  writeRecords(options.recordsDir, records, { inputHash: options.inputHash, kinds: counts });
  return { kinds: records.size, records: Object.values(counts).reduce((a, b) => a + b, 0) };
}
