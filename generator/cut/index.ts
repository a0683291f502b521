/**
 * `npm run data:cut`: a small, consistent data set made from the pinned tables (rules.ts says
 * what it keeps, select.ts chooses the rows). Rows are written as the source file holds them,
 * byte for byte, in file order, so the same tables give the same cut. The folder has what a data
 * set has (`csv/`, `media/`, `PROVENANCE.md`) and `CUT.md`, the rows kept of each table.
 *
 * The tests make it once per input (`ensureCut`): a folder named by a hash of the source tables,
 * the cut's code and its seeds, reused while those stay the same.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { tables, type TableKey } from '../../schemas/tables.ts';
import { repoRoot } from '../config.ts';
import { mediaDir, upstreamCommit } from '../pipeline.ts';
import { hashFiles } from '../files/file-memo.ts';
import { parseCsv } from '../import/csv.ts';
import { csvHeaderOf } from '../import/tables.ts';
import { defaultSeeds, type Seeds } from './rules.ts';
import { selectRows, type CutTable } from './select.ts';

/** A table file as the cut reads it: its rows' cells, and each row's text as the file has it. */
interface SourceTable extends CutTable {
  header: string;
  rowText(row: number): string;
}

function readSourceTable(csvDir: string, table: TableKey): SourceTable {
  const text = readFileSync(join(csvDir, `${table}.csv`), 'utf8');
  const lines = text.split('\n');
  // most rows are one line; only a file with quotes can have a row over several (parsed whole)
  const parsed = text.includes('"') ? parseCsv(text) : null;
  const rows = parsed?.rows ?? null;
  const lastLine = lines[lines.length - 1] === '' ? lines.length - 1 : lines.length;
  const rowCount = rows ? rows.length : lastLine - 1;
  const header = parsed?.header ?? lines[0]!.replace(/\r$/, '').split(',');
  const columnIndex = new Map(Object.keys(tables[table]).map((column) => [column, header.indexOf(csvHeaderOf(column))]));
  let cellsOf: { row: number; cells: readonly string[] } = { row: -1, cells: [] };
  const cells = (row: number): readonly string[] => {
    if (rows) return rows[row]!.cells;
    if (cellsOf.row !== row) cellsOf = { row, cells: lines[row + 1]!.replace(/\r$/, '').split(',') };
    return cellsOf.cells;
  };
  return {
    header: lines[0]!,
    rowCount,
    cell(row, column) {
      const index = columnIndex.get(column) ?? -1;
      // a table without an id column numbers its rows from 1, as the import does
      if (index < 0) return String(row + 1);
      return (cells(row)[index] ?? '').trim();
    },
    rowText(row) {
      if (!rows) return lines[row + 1]!;
      // a row's text runs from its first line to the line before the next row's first
      const end = row + 1 < rows.length ? rows[row + 1]!.line - 1 : lastLine;
      return lines.slice(rows[row]!.line - 1, end).join('\n');
    },
  };
}

export interface CutSummary {
  /** rows kept of each table, and rows it had */
  rows: Array<{ table: TableKey; kept: number; of: number }>;
}

/**
 * The cut's PROVENANCE.md: what it was cut from (its commit line is what meta reads, as of any
 * data set: the source's PROVENANCE.md, or the commit a download recorded) and from which seeds.
 */
const provenance = (source: string, seeds: Seeds) => {
  const commit = upstreamCommit(source);
  const seedLines = Object.entries(seeds).map(([table, names]) => `- ${table}: ${names.join(', ')}`);
  return [
    '# A cut of the upstream data set',
    '',
    `Made by \`npm run data:cut\` from the upstream's tables at commit ${commit}: the rows below the seeds`,
    'reach (generator/cut/rules.ts), closed over every foreign key the import checks. Not for',
    "committing: it is the upstream's data.",
    '',
    ...seedLines,
    '',
  ].join('\n');
};

/**
 * Writes the cut of the data set in `source` (a folder with csv/ and optionally media/) to `out`,
 * with media/ either way, replacing it whole: it is made beside it and renamed into place.
 */
export function writeCut(source: string, out: string, seeds: Seeds = defaultSeeds): CutSummary {
  const csvDir = join(source, 'csv');
  const read = new Map<TableKey, SourceTable>();
  const readTable = (table: TableKey) => {
    let known = read.get(table);
    if (!known) read.set(table, (known = readSourceTable(csvDir, table)));
    return known;
  };
  const kept = selectRows(readTable, seeds);
  const staged = `${out}.tmp-${process.pid}`;
  rmSync(staged, { recursive: true, force: true });
  mkdirSync(join(staged, 'csv'), { recursive: true });
  const rows: CutSummary['rows'] = [];
  for (const table of Object.keys(tables).sort() as TableKey[]) {
    const data = readTable(table);
    const keptRows = kept.get(table) ?? [];
    const body = keptRows.map((row) => data.rowText(row) + '\n');
    writeFileSync(join(staged, 'csv', `${table}.csv`), [data.header + '\n', ...body].join(''));
    rows.push({ table, kept: keptRows.length, of: data.rowCount });
  }
  writeManifests(mediaDir(source), join(staged, 'media'));
  writeFileSync(join(staged, 'PROVENANCE.md'), provenance(source, seeds));
  writeFileSync(join(staged, 'CUT.md'), cutReport(rows));
  rmSync(out, { recursive: true, force: true });
  renameSync(staged, out);
  return { rows };
}

/**
 * The media manifests, as plain text whatever form `from` holds them in: a download has none, and
 * its cut gets the committed gzip'd copies (data/media/) that its build reads. So every cut has
 * the `media/` of a data set, which the dev loop watches and a test may edit.
 */
function writeManifests(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const file of ['sprites.txt', 'cries.txt']) {
    const plain = join(from, file);
    writeFileSync(join(to, file), existsSync(plain) ? readFileSync(plain) : gunzipSync(readFileSync(`${plain}.gz`)));
  }
}

const cutReport = (rows: CutSummary['rows']): string =>
  ['| table | rows kept | of |', '|---|---|---|', ...rows.map((r) => `| ${r.table} | ${r.kept} | ${r.of} |`), ''].join('\n');

/** One line for a person: how much was kept. */
export const cutLine = (summary: CutSummary): string => {
  const kept = summary.rows.reduce((n, r) => n + r.kept, 0);
  const of = summary.rows.reduce((n, r) => n + r.of, 0);
  return `${kept} rows of ${of} in ${summary.rows.length} tables`;
};

/** The code the cut is made by: its own, the CSV reader and the table declarations it reads them with. */
const CUT_CODE = ['generator/cut', 'generator/import/csv.ts', 'generator/import/tables.ts', 'schemas/tables.ts', 'schemas/columns.ts'];

/** What the cut is made from: the source's tables and media manifests, the code that cuts them, the seeds. */
export function cutKey(source: string, seeds: Seeds = defaultSeeds): string {
  const inputs = hashFiles([join(source, 'csv'), mediaDir(source), ...CUT_CODE.map((p) => join(repoRoot, p))]);
  return createHash('sha256').update(inputs).update(JSON.stringify(seeds)).digest('hex').slice(0, 16);
}

/** The cut of `source` under `cacheRoot`, made when no folder of its key is there yet. */
export function ensureCut(source: string, cacheRoot: string, seeds: Seeds = defaultSeeds): string {
  const dir = join(cacheRoot, `cut-${cutKey(source, seeds)}`);
  if (!existsSync(join(dir, 'CUT.md'))) writeCut(source, dir, seeds);
  return dir;
}
