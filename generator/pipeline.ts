/**
 * import → build, each step skipped when what it would make is already there from the same
 * inputs. "The same inputs" is one hash over the data set and the code that turns it into
 * responses, so a change to either makes `npm start` build again.
 *
 * The import and the build are loaded only when they run: `npm start` decides with
 * `isBuildCurrent` alone, and when it must build, builds in a child process (build-in-child.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, type Config } from './config.ts';
import type { BuildHooks, BuildSummary } from './builder/build.ts';
import type { About } from './builder/routes-meta.ts';
import { readBuildStamp } from './builder/stamp.ts';
import { createProgress, type Progress } from './progress.ts';
import { hashFiles, type FileMemo } from './files/file-memo.ts';
import { readIfThere } from './files/folders.ts';
import { ensureDataSet, fetchedCommit, isFetched, lockPath, readLock } from './fetch/index.ts';

export interface Log {
  info(message: string): void;
  warn(message: string): void;
  /** a progress display for a long step; none when the caller wants quiet */
  startProgress?(label: string): Progress;
}

export const consoleLog: Log = {
  info: (m) => console.log(m),
  warn: (m) => console.warn(`warning: ${m}`),
  startProgress: (label) => createProgress(label),
};

/** What the records depend on: the tables and the code that reads them. */
const IMPORT_CODE = ['generator/import', 'generator/model', 'schemas/tables.ts', 'schemas/columns.ts', 'schemas/ajv.ts', 'package-lock.json'];
/** What the responses depend on besides the records: the request logic (edge/) is not among them, as no file the build writes comes from it. */
export const BUILD_CODE = ['generator', 'schemas', 'contract', 'site', 'package-lock.json'];

export interface InputHashes {
  records: string;
  build: string;
}

/**
 * The media manifests (which sprite and cry files exist): the data folder's `media/`, or the
 * compressed copies committed in `data/media/` when it has none (a downloaded data set never does).
 */
export const mediaDir = (dataDir: string): string => (existsSync(join(dataDir, 'media')) ? join(dataDir, 'media') : join(repoRoot, 'data/media'));

/** A hash of the code alone (what turns the data set into records and responses). */
export const codeHash = (memo?: FileMemo): string =>
  hashFiles(
    [...new Set([...IMPORT_CODE, ...BUILD_CODE])].map((p) => join(repoRoot, p)),
    memo,
  );

/** The hashes of what the records and the build are made from; with a memo, files unchanged since it last saw them are not read again. */
export function inputHashes(config: Config, memo?: FileMemo): InputHashes {
  const records = hashFiles([join(config.dataDir, 'csv'), ...IMPORT_CODE.map((p) => join(repoRoot, p))], memo);
  const build = hashFiles([mediaDir(config.dataDir), config.changesDir, ...BUILD_CODE.map((p) => join(repoRoot, p))], memo);
  return { records, build: `${records}:${build}` };
}

/** A hash of the import's code alone: an import reuses only records that the same code made. */
export const importCodeHash = (memo?: FileMemo): string =>
  hashFiles(
    IMPORT_CODE.map((p) => join(repoRoot, p)),
    memo,
  );

/**
 * Imports the tables into config.recordsDir unless they are there from the same inputs (or
 * `force`). `previousDir`: the records it replaces, whose kinds made from unchanged tables it
 * takes as they are (the update imports beside the served records).
 */
export async function importStep(config: Config, hash: string, log: Log, force = false, previousDir = config.recordsDir): Promise<void> {
  const { readManifest } = await import('./import/records.ts');
  if (!force && readManifest(config.recordsDir)?.inputHash === hash) {
    log.info('import: records are up to date');
    return;
  }
  const { runImport } = await import('./import/import.ts');
  const started = performance.now();
  const bar = log.startProgress?.('import: tables, then kinds');
  const result = runImport({
    csvDir: join(config.dataDir, 'csv'),
    recordsDir: config.recordsDir,
    inputHash: hash,
    codeHash: importCodeHash(),
    previousDir,
    warn: (m) => log.warn(m),
    ...(bar ? { progress: (done: number, total: number) => bar.update(done, total) } : {}),
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const reused = result.reused ? ` (${result.reused} kinds reused, their tables unchanged)` : '';
  const summary = `import: ${result.records} records of ${result.kinds} kinds in ${seconds} s${reused}`;
  if (bar) bar.done(summary);
  else log.info(summary);
}

/** The upstream commit the data set was taken at: as its PROVENANCE.md names it, or as the download recorded it. */
export function upstreamCommit(dataDir: string): string {
  const provenance = readIfThere(join(dataDir, 'PROVENANCE.md'));
  // a downloaded data set has no PROVENANCE.md
  if (provenance === null) return fetchedCommit(dataDir) ?? 'unknown';
  return /commit\s+([0-9a-f]{40})/.exec(provenance.toString('utf8'))?.[1] ?? 'unknown';
}

/** `built_at`: SOURCE_DATE_EPOCH when set (reproducible builds), otherwise now. */
export function buildTime(env: NodeJS.ProcessEnv = process.env): string {
  const epoch = Number(env.SOURCE_DATE_EPOCH);
  return new Date(Number.isFinite(epoch) && env.SOURCE_DATE_EPOCH ? epoch * 1000 : Date.now()).toISOString();
}

export const projectVersion = (): string => (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;

/** What the stamp records of the data folder: a folder given by hand, which nothing else would find again (the configuration finds a team copy and the cache). */
export const stampedDataDir = (config: Config): { dataDir?: string } => (config.dataSource === 'given' ? { dataDir: config.dataDir } : {});

/** What meta says of a build of the data set in `dataDir` besides the counts. */
export const aboutBuild = (dataDir: string): About => ({ upstreamCommit: upstreamCommit(dataDir), version: projectVersion(), builtAt: buildTime() });

export async function buildStep(config: Config, hash: string, log: Log, force = false, hooks: BuildHooks = {}): Promise<BuildSummary | null> {
  if (!force && isUpToDate(config, hash)) {
    log.info('build: dist/ is up to date');
    return null;
  }
  const { runBuild } = await import('./builder/build.ts');
  const started = performance.now();
  const bar = log.startProgress?.('build: records');
  const summary = await runBuild({
    recordsDir: config.recordsDir,
    mediaDir: mediaDir(config.dataDir),
    outDir: config.outDir,
    baseUrl: config.baseUrl,
    inputHash: hash,
    about: aboutBuild(config.dataDir),
    ...stampedDataDir(config),
    changesDir: config.changesDir,
    ...hooks,
    ...(bar ? { progress: (done: number, total: number) => bar.update(done, total) } : {}),
  });
  const line = `build: ${summary.files} files (${(summary.bytes / 1e6).toFixed(1)} MB) of ${summary.kinds} kinds in ${((performance.now() - started) / 1000).toFixed(1)} s`;
  if (bar) bar.done(line);
  else log.info(line);
  for (const gap of summary.gaps) log.info(gap);
  return summary;
}

/**
 * Makes sure dist/ holds a build of the current inputs for the configured base URL (downloading
 * the data set first when needed). The records are only the build's way there: when dist/ is
 * up to date they are not looked at (after `npm run dev`, dist/ is newer than they are).
 */
export async function ensureBuilt(config: Config, log: Log = consoleLog): Promise<void> {
  await ensureDataSet(config, log);
  const hashes = inputHashes(config);
  if (isUpToDate(config, hashes.build)) {
    log.info('build: dist/ is up to date');
    return;
  }
  await importStep(config, hashes.records, log);
  await buildStep(config, hashes.build, log);
}

/**
 * Whether dist/ holds a build of the current inputs, found without downloading, importing or
 * building (`npm start` decides with it whether a child process must build): a download cache
 * that is missing or incomplete means it does not.
 */
export function isBuildCurrent(config: Config): boolean {
  if (config.dataSource === 'download' && !isFetched(readLock(lockPath), config.dataDir)) return false;
  return isUpToDate(config, inputHashes(config).build);
}

function isUpToDate(config: Config, buildHash: string): boolean {
  const stamp = readBuildStamp(config.outDir);
  // a build whose downloads the dev loop had not made again is not a whole build of any input
  return stamp?.inputHash === buildHash && stamp.baseUrl === config.baseUrl && stamp.downloads === undefined;
}
