/**
 * The incremental planner gives, file for file, what a full build of the same inputs gives.
 * On a copy of the data set: one full build, then edits applied one after another, each
 * followed by an incremental update of that build and a full import and build of the edited
 * data into a second folder; the two folders must hold the same files with the same bytes.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from './support/config.ts';
import { fileHashes } from './support/files.ts';
import { runBuild } from '../generator/emit/build.ts';
import { runImport } from '../generator/import/import.ts';
import { DataError } from '../generator/import/tables.ts';
import { openIncremental, type IncrementalBuild, type UpdateReport } from '../generator/incremental.ts';

const config = testConfig();
const scratch = mkdtempSync(join(tmpdir(), 'creature-incremental-'));
const data = join(scratch, 'data');
const served = join(scratch, 'served');
const about = { upstreamCommit: 'test', version: 'test', builtAt: '2026-01-01T00:00:00.000Z' };
const finish = () => ({ inputHash: 'same', about });

/** A full import and build of the data set as it is now. */
async function fullBuild(outDir: string): Promise<void> {
  const recordsDir = join(scratch, 'records');
  runImport({ csvDir: join(data, 'csv'), recordsDir, inputHash: 'same' });
  await runBuild({ recordsDir, mediaDir: join(data, 'media'), outDir, baseUrl: config.baseUrl, inputHash: 'same', about });
}

/** Replaces one line of a data file (`null` removes it), keeping its line ending; fails if the line is not there. */
function editLine(file: string, line: string, replacement: string | null): void {
  const path = join(data, file);
  const lines = readFileSync(path, 'utf8').split('\n');
  const at = lines.findIndex((l) => l.replace(/\r$/, '') === line);
  if (at < 0) throw new Error(`${file} has no line ${line}`);
  const ending = lines[at]!.endsWith('\r') ? '\r' : '';
  if (replacement === null) lines.splice(at, 1);
  else lines[at] = replacement.split('\n').map((l) => l + ending).join('\n');
  writeFileSync(path, lines.join('\n'));
}

/** Where the incrementally updated folder and a full build differ: paths missing, extra or with other bytes. */
async function compareWithFullBuild(): Promise<string[]> {
  const reference = join(scratch, 'reference');
  rmSync(reference, { recursive: true, force: true });
  await fullBuild(reference);
  const ours = fileHashes(served);
  const theirs = fileHashes(reference);
  const out: string[] = [];
  for (const [path, hash] of theirs) if (ours.get(path) !== hash) out.push(`${path}: ${ours.has(path) ? 'other bytes' : 'missing'}`);
  for (const path of ours.keys()) if (!theirs.has(path)) out.push(`${path}: not in the full build`);
  expect(theirs.size).toBeGreaterThan(28_000);
  return out.slice(0, 20);
}

let planner: IncrementalBuild;
beforeAll(async () => {
  mkdirSync(data, { recursive: true });
  for (const part of ['csv', 'media', 'PROVENANCE.md']) cpSync(join(config.dataDir, part), join(data, part), { recursive: true });
  await fullBuild(served);
  planner = openIncremental({ dataDir: data, mediaDir: join(data, 'media'), outDir: served, baseUrl: config.baseUrl, finish });
}, 600_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const update = async (): Promise<UpdateReport> => {
  const started = performance.now();
  const report = await planner.update();
  console.log(`incremental: ${JSON.stringify(report)} in ${((performance.now() - started) / 1000).toFixed(2)} s`);
  return report;
};

describe('incremental rebuilds equal a full build, file by file', () => {
  it("a creature's base stat", async () => {
    editLine('csv/pokemon_stats.csv', '25,1,35,0', '25,1,36,0');
    const report = await update();
    expect(report.records).toEqual({ creature: 1 });
    // the creature and the few documents that read more of it than its name; those that only
    // link to it (the moves it learns, its types, abilities) read its name, which did not change
    expect(report.documents).toBeGreaterThanOrEqual(1);
    expect(report.documents).toBeLessThan(10);
    expect(JSON.parse(readFileSync(join(served, 'v2/creature/pikachu.json'), 'utf8')).stats[0].base_stat).toBe(36);
    expect(await compareWithFullBuild()).toEqual([]);
  }, 600_000);

  it("a move's name, which hundreds of creatures link to, and a language's name, which nearly every document does", async () => {
    editLine('csv/moves.csv', '33,tackle,1,1,40,35,100,0,10,2,1,,5,1,5', '33,body-tackle,1,1,40,35,100,0,10,2,1,,5,1,5');
    const moved = await update();
    expect(moved.records).toEqual({ move: 1 });
    expect(moved.documents).toBeGreaterThan(300);
    // each document's reads are its own: the creatures' items link to the move and are made
    // again, their encounters read no move and are not
    expect(moved.made['creature item']).toBeGreaterThan(300);
    expect(moved.made['creature encounters']).toBeUndefined();
    expect(readFileSync(join(served, 'v2/move/body-tackle.json'), 'utf8')).toBe(readFileSync(join(served, 'v2/move/33.json'), 'utf8'));

    editLine('csv/languages.csv', '5,fr,fr,fr,1,8', '5,fr,fr,french,1,8');
    expect((await update()).records).toEqual({ language: 1 });
    expect(await compareWithFullBuild()).toEqual([]);
  }, 600_000);

  it('an added row, a deleted row, and a change to a media manifest', async () => {
    editLine('csv/abilities.csv', '10060,shield,5,0', '10060,shield,5,0\n10061,test-added-ability,5,0');
    editLine('csv/pokemon_abilities.csv', '1,34,1,3', null);
    // a row that stays under the same ability but says another thing: the ability's list of
    // creatures reads the row, not only the creature's name
    editLine('csv/pokemon_abilities.csv', '7,44,1,3', '7,44,0,3');
    const rows = await update();
    expect(Object.keys(rows.records).sort()).toEqual(['ability', 'creature']);

    // one sprite the build uses goes, one path appears
    editLine('media/sprites.txt', 'sprites/pokemon/back/25.png', null);
    editLine('media/sprites.txt', 'sprites/pokemon/25.png', 'sprites/pokemon/25.png\nsprites/pokemon/test-added/25.png');
    const media = await update();
    expect(media.mediaPaths).toBe(2);
    expect(media.documents).toBeGreaterThan(0);
    expect(await compareWithFullBuild()).toEqual([]);
  }, 600_000);

  it('a save that changes nothing does nothing; a bad edit names table, row and column and leaves the build as it was', async () => {
    const before = fileHashes(served);
    const stats = join(data, 'csv/pokemon_stats.csv');
    writeFileSync(stats, readFileSync(stats));
    expect((await update()).unchanged).toBe(true);

    editLine('csv/pokemon_stats.csv', '25,1,36,0', '25,1,strong,0');
    const error = await planner.update().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataError);
    expect((error as Error).message).toMatch(/table pokemon_stats\.csv, row \d+ \(line \d+\), column base_stat: expected an integer, found "strong"/);
    expect(fileHashes(served)).toEqual(before);

    // fixed again, the planner goes on from the last good state
    editLine('csv/pokemon_stats.csv', '25,1,strong,0', '25,1,37,0');
    expect((await update()).records).toEqual({ creature: 1 });
    expect(JSON.parse(readFileSync(join(served, 'v2/creature/25.json'), 'utf8')).stats[0].base_stat).toBe(37);
  }, 600_000);
});
