/**
 * What the incremental planner's oracle tests share (test/incremental*.test.ts): each file has its
 * own session (`useIncrementalSession`), a copy of the data cut with a full build of it served and
 * a planner over it, and after each round of edits compares the served folder with a full import
 * and build of the edited data (`compareWithFullBuild`). Two files, so that each stays within the
 * time a test file may take; a file's tests are its rounds, in order.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { fileHashes } from './files.ts';
import { readBuildStamp } from '../../generator/builder/stamp.ts';
import { runBuild } from '../../generator/builder/build.ts';
import { runImport } from '../../generator/import/import.ts';
import { openIncremental, type IncrementalBuild, type UpdateReport } from '../../generator/incremental/index.ts';

export const baseUrl = inject('baseUrl');
/** how many files the global setup's build of the cut holds */
export const cutBuildFiles = readdirSync(inject('cutDistDir'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
export const scratch = mkdtempSync(join(tmpdir(), 'creature-incremental-'));
export const data = join(scratch, 'data');
export const served = join(scratch, 'served');
/** a served JSON file, as the shape a test reads of it */
export const servedJson = <T>(rel: string): T => JSON.parse(readFileSync(join(served, rel), 'utf8')) as T;
/** the data set's commit (a change report's `to` must be one) */
export const HEAD = 'c'.repeat(40);
export const about = { upstreamCommit: HEAD, version: 'test', builtAt: '2026-01-01T00:00:00.000Z' };
/** the committed change reports both builds serve */
export const reports = join(scratch, 'changes');
export const finish = () => ({ inputHash: 'same', about, changesDir: reports });
export const reference = join(scratch, 'reference');
/** the served folder's file hashes by inode: each update leaves most of its files as links to the last */
export const servedHashes = new Map<string, string>();

/** A full import and build of the data set as it is now (replacing what `outDir` held). */
export async function fullBuild(outDir: string): Promise<void> {
  const recordsDir = join(scratch, 'records');
  // the oracle reuses nothing (no previous records to take kinds from): every kind assembled
  runImport({ csvDir: join(data, 'csv'), recordsDir, inputHash: 'same', codeHash: 'oracle', previousDir: join(scratch, 'no-records') });
  // one thread: on the cut a worker's start (its modules, its schemas) costs more than its share
  // of the work, and the bytes are the same however many threads write them
  await runBuild({ recordsDir, mediaDir: join(data, 'media'), outDir, baseUrl, inputHash: 'same', about, changesDir: reports, workers: 1 });
}

/** Replaces one line of a data file (`null` removes it), keeping its line ending; fails if the line is not there. */
export function editLine(file: string, line: string, replacement: string | null): void {
  const path = join(data, file);
  const lines = readFileSync(path, 'utf8').split('\n');
  const at = lines.findIndex((l) => l.replace(/\r$/, '') === line);
  if (at < 0) throw new Error(`${file} has no line ${line}`);
  const ending = lines[at]!.endsWith('\r') ? '\r' : '';
  if (replacement === null) lines.splice(at, 1);
  else
    lines[at] = replacement
      .split('\n')
      .map((l) => l + ending)
      .join('\n');
  writeFileSync(path, lines.join('\n'));
}

/** The values of one column of a data file of the copy, one per row. */
export function column(file: string, name: string): string[] {
  const [header, ...rows] = readFileSync(join(data, file), 'utf8')
    .split(/\r?\n/)
    .filter((l) => l !== '');
  const at = header!.split(',').indexOf(name);
  if (at < 0) throw new Error(`${file} has no column ${name}`);
  return rows.map((row) => row.split(',')[at]!);
}

/** The creatures of the copy that learn a move (in any version, by any method). */
export const learners = (move: string): number => {
  const moves = column('csv/pokemon_moves.csv', 'move_id');
  return new Set(column('csv/pokemon_moves.csv', 'pokemon_id').filter((_, i) => moves[i] === move)).size;
};

/**
 * Where the incrementally updated folder and a full build differ: paths missing, extra or with
 * other bytes, once the planner made again the downloads that the round's updates left stale.
 */
export async function compareWithFullBuild(): Promise<string[]> {
  expect(readBuildStamp(served)?.downloads).toBe('stale');
  expect(await session.planner.refreshDownloads()).not.toBeNull();
  expect(readBuildStamp(served)?.downloads).toBeUndefined();
  expect(await session.planner.refreshDownloads()).toBeNull();
  await fullBuild(reference);
  const ours = fileHashes(served, servedHashes);
  const theirs = fileHashes(reference);
  const out: string[] = [];
  for (const [path, hash] of theirs) if (ours.get(path) !== hash) out.push(`${path}: ${ours.has(path) ? 'other bytes' : 'missing'}`);
  for (const path of ours.keys()) if (!theirs.has(path)) out.push(`${path}: not in the full build`);
  // a whole build, not a part of one: about as many files as the cut's own build (the edits add and remove a handful)
  expect(theirs.size).toBeGreaterThan(0.95 * cutBuildFiles);
  return out.slice(0, 20);
}

/** The planner of the file's session (a test closes and opens it again as a second `npm run dev` would). */
export const session = { planner: undefined as unknown as IncrementalBuild };
/** The planner over the served folder, keeping what every document reads beside it between sessions. */
export const openPlanner = (): IncrementalBuild =>
  openIncremental({ dataDir: data, mediaDir: join(data, 'media'), outDir: served, baseUrl, finish, keepReads: true });
/** Registers the file's session: a copy of the data cut, a full build of it served, a planner over it; all removed after. */
export function useIncrementalSession(): void {
  beforeAll(async () => {
    mkdirSync(data, { recursive: true });
    for (const part of ['csv', 'media', 'PROVENANCE.md']) cpSync(join(inject('cutDataDir'), part), join(data, part), { recursive: true });
    await fullBuild(served);
    session.planner = openPlanner();
    expect(session.planner.readsKept).toBe(false);
  }, 600_000);
  afterAll(async () => {
    await session.planner?.close();
    rmSync(scratch, { recursive: true, force: true });
  });
}

export const update = async (): Promise<UpdateReport> => {
  const started = performance.now();
  const report = await session.planner.update();
  console.log(`incremental: ${JSON.stringify(report)} in ${((performance.now() - started) / 1000).toFixed(2)} s`);
  return report;
};
