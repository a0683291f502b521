/**
 * `npm run data:update`: moves the pin to another upstream commit in one step. The upstream's
 * listing of that commit gives the tables' hashes (the new lock); the archive (or a folder of
 * tables) gives the tables, checked against it; the pinned commit's tables are read where the
 * served build found them (current-tables.ts); the new ones are imported and built beside what is
 * served, compared with the served build once the staged build's kinds are written (the change
 * report, which that build's finish then serves too), and only then swapped in: the lock, data/records/, dist/, the download cache and
 * data/changes/ with {from}..{to}.json. Any failure before the swap leaves all of them as they were
 * (but for a download of the pinned tables into an empty or stale cache, as any build makes it).
 *
 *   runUpdate(request, paths, log, env) → the report (or null when already pinned there)
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { sharedCopyFor, type Config } from '../config.ts';
import { readIfThere, removeInBackground, swapOut } from '../files/folders.ts';
import { buildStep, importStep, inputHashes, projectVersion, type Log } from '../pipeline.ts';
import { FileMemo } from '../files/file-memo.ts';
import { StepClock } from '../progress.ts';
import { unknownTables } from '../../schemas/tables.ts';
import type { ChangeReport, MovedDownload } from '../../schemas/output/changes.ts';
import { metaFile, type Meta } from '../../contract/layout.ts';
import { downloadFile, versionedDownloads } from '../builder/routes-meta.ts';
import { finishedSide, KindByKindDiff, unfinishedSide } from './diff.ts';
import { tableChanges } from './table-changes.ts';
import { currentTables, type TablePlaces } from './current-tables.ts';
import { FetchError, fetchPinned, storeTables } from '../fetch/index.ts';
import { latestCommit, listingFromGitHub, listingFromTree, UPSTREAM_LATEST_URL, UPSTREAM_TREE_URL, type Listing } from './listing.ts';
import { compareTables, formatLock, lockFromListing, readLock, type UpstreamLock } from '../fetch/lock.ts';
import { DataError } from '../import/tables.ts';
import { readBuildStamp } from '../builder/stamp.ts';

export interface UpdateRequest {
  /** the commit to move to (40 hex) */
  commit?: string;
  /** the head of the upstream's default branch instead */
  latest?: boolean;
  /** a TREE.txt (`<sha1> <file>` lines) to take the listing from instead of GitHub's */
  tree?: string;
  /** a data folder (its `csv/` the tables) to take the tables from instead of downloading the archive */
  tables?: string;
}

/** Where the update reads and writes: the project's own files, or a test's. */
export interface UpdatePaths {
  lockPath: string;
  /** the download cache (data/upstream/) */
  cacheDir: string;
  /** where the team's copies are found by commit (../shared) */
  sharedRoot: string;
  /**
   * the configuration the served build is made with: its dataDir where the pinned commit's
   * tables are looked for first (a folder given with --data / DATA_DIR, or the team copy), its
   * changesDir data/changes/
   */
  config: Config;
}

const COMMIT = /^[0-9a-f]{40}$/;

/** The commit and the listing the request names. */
async function target(request: UpdateRequest, tablesPath: string, env: NodeJS.ProcessEnv): Promise<Listing> {
  if (request.tree) {
    const listing = listingFromTree(readFileSync(request.tree, 'utf8'), request.tree);
    if (request.commit && request.commit !== listing.commit)
      throw new FetchError(`--commit ${request.commit} is not the commit ${request.tree} lists (${listing.commit})`);
    return listing;
  }
  const commit = request.latest ? await latestCommit(env.DATA_LATEST_URL || UPSTREAM_LATEST_URL) : request.commit;
  if (!commit || !COMMIT.test(commit))
    throw new FetchError(`data:update needs --commit with a full 40-hex commit, or --latest (found ${JSON.stringify(commit ?? null)})`);
  return listingFromGitHub(env.DATA_TREE_URL || UPSTREAM_TREE_URL, commit, tablesPath);
}

/** A folder of tables given or found (a team copy), checked against the listing: every table there; any whose bytes differ named. */
function checkGivenTables(listing: Listing, csvDir: string, log: Log): void {
  const { missing, differing } = compareTables(listing.tables, csvDir);
  if (missing.length) throw new FetchError(`${csvDir} lacks ${missing.length} table(s) of commit ${listing.commit.slice(0, 12)}: ${missing.join(', ')}`);
  if (differing.length)
    log.warn(
      `${csvDir}: ${differing.length} table(s) differ in bytes from the upstream's at ${listing.commit.slice(0, 12)} and are taken as given (the lock keeps the upstream's hashes): ${differing.join(', ')}`,
    );
}

/** What the media manifests need: nothing when the submodules did not move, else which moved and how to refresh. */
export function mediaNotes(before: Record<string, string> | undefined, after: Record<string, string> | null): string[] {
  if (!after) return ['media: the listing does not name the sprite and cry submodule commits (a TREE.txt); data/media/ is kept as it is'];
  if (!before)
    return [
      `media: the lock now records the submodule commits (${Object.entries(after)
        .map(([p, c]) => `${p} ${c.slice(0, 12)}`)
        .join(', ')}); data/media/ is kept as it is`,
    ];
  const moved = Object.keys({ ...before, ...after }).filter((path) => before[path] !== after[path]);
  if (!moved.length) return ['media: the sprite and cry submodules did not move; data/media/ is kept'];
  return moved.map(
    (path) =>
      `media: ${path} moved from ${before[path]?.slice(0, 12) ?? 'nothing'} to ${after[path]?.slice(0, 12) ?? 'nothing'}: data/media/ may be stale; refresh it from that commit of the submodule ` +
      "(its file paths, one a line, gzip'd: see data/README.md)",
  );
}

interface Staged {
  /** the data folder the staged import reads */
  dataDir: string;
  /** a download cache to swap in, when builds after the update will read one */
  cache: string | null;
  /** the folder builds read the new tables from once swapped in: the team copy at the new commit, or the cache */
  readAfter: string;
  lock: UpstreamLock;
}

/**
 * The new lock and its tables: the archive downloaded (and verified) into a staging folder, or
 * the given or team copy's tables as they are. Sizes are the listing's, else those of the
 * copies that hash as the upstream's.
 */
async function stageTables(
  listing: Listing,
  base: UpstreamLock,
  request: UpdateRequest,
  paths: UpdatePaths,
  staging: string,
  log: Log,
  env: NodeJS.ProcessEnv,
): Promise<Staged> {
  const where = { archive: base.archive, tablesPath: base.tablesPath, ...(listing.submodules ? { submodules: listing.submodules } : {}) };
  const team = sharedCopyFor(listing.commit, paths.sharedRoot);
  const given = request.tables ? resolve(request.tables) : team;
  const cache = join(staging, 'cache');
  if (!given) {
    const lock = lockFromListing(listing.commit, listing.tables, null, where);
    await fetchPinned(lock, cache, log, env);
    return { dataDir: cache, cache, readAfter: paths.cacheDir, lock };
  }
  checkGivenTables(listing, join(given, 'csv'), log);
  const lock = lockFromListing(listing.commit, listing.tables, join(given, 'csv'), where);
  // the builds after the update read the team copy at the new commit, or else the download cache: that one gets a copy
  if (team) return { dataDir: given, cache: null, readAfter: team, lock };
  storeTables(lock, join(given, 'csv'), cache);
  return { dataDir: cache, cache, readAfter: paths.cacheDir, lock };
}

/** Where the tables at the pinned commit may be, besides the cache: the folder given, the one the served build recorded, the team copy. */
function tablePlaces(paths: UpdatePaths, lock: UpstreamLock): TablePlaces {
  const { config } = paths;
  return {
    given: config.dataSource === 'given' ? config.dataDir : null,
    recorded: readBuildStamp(config.outDir)?.dataDir ?? null,
    team: config.dataSource === 'shared' ? config.dataDir : sharedCopyFor(lock.commit, paths.sharedRoot),
    cacheDir: paths.cacheDir,
  };
}

/**
 * A folder given with --data / DATA_DIR still holds the old tables and comes first for every
 * build: left set, the next build would serve them again under the new pin.
 */
function givenFolderNote(config: Config, newTables: string, lock: UpstreamLock): string[] {
  if (config.dataSource !== 'given') return [];
  return [
    `note: --data / DATA_DIR names ${config.dataDir}, the tables the pin moved from, and builds read it first: unset it for them to read ${newTables} (the tables at ${lock.commit.slice(0, 12)}), or point it at a copy of those`,
  ];
}

/** Refuses tables nobody has declared or set aside (schemas/tables.ts): a new table is a decision, never a silent skip. */
function refuseUnknownTables(listing: Listing): void {
  const unknown = unknownTables(listing.tables.keys());
  if (unknown.length) {
    throw new DataError(
      unknown.map((t) => ({
        table: `${t}.csv`,
        message: `is new at commit ${listing.commit.slice(0, 12)}: declare it in schemas/tables.ts, or add it to tablesNotRead there if the API has no use for it`,
      })),
    );
  }
}

/**
 * The build the report compares with: dist/ as it is served, whatever code made it (a change of
 * the code that comes with the move, such as an ordering rule, is then in the report too); made
 * from the pinned tables when there is none (a fresh clone) or it links to another base URL
 * (every link would differ).
 */
async function servedBuild(config: Config, log: Log, memo: FileMemo): Promise<void> {
  const stamp = readBuildStamp(config.outDir);
  if (!stamp || stamp.baseUrl !== config.baseUrl) {
    // the pinned tables are in config.dataDir, found and checked: nothing to download
    const hashes = inputHashes(config, memo);
    await importStep(config, hashes.records, log);
    await buildStep(config, hashes.build, log);
    return;
  }
  if (stamp.inputHash !== inputHashes(config, memo).build)
    log.info(`data: comparing with ${config.outDir} as served (built by other code or inputs than this tree's)`);
}

/** Moves the pin; returns the change report, or null when the lock is already at that commit. */
export async function runUpdate(request: UpdateRequest, paths: UpdatePaths, log: Log, env: NodeJS.ProcessEnv = process.env): Promise<ChangeReport | null> {
  const oldLock = readLock(paths.lockPath);
  const listing = await target(request, oldLock.tablesPath, env);
  if (listing.commit === oldLock.commit) {
    log.info(`data: already pinned to ${listing.commit.slice(0, 12)}; nothing to do`);
    return null;
  }
  log.info(`data: ${oldLock.commit.slice(0, 12)} → ${listing.commit.slice(0, 12)}: ${listing.tables.size} tables listed`);
  refuseUnknownTables(listing);
  const current = await currentTables(oldLock, tablePlaces(paths, oldLock), log, env);
  const served: Config = { ...paths.config, ...current };
  const staging = `${paths.config.outDir}.update-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const clock = new StepClock();
  try {
    const data = await stageTables(listing, oldLock, request, paths, staging, log, env);
    const newLock = data.lock;
    clock.step('tables');
    // one memo for both builds' input hashes: the code's files are the same
    const memo = new FileMemo();
    await servedBuild(served, log, memo);
    clock.step('served build');
    // after the swap, builds read the team copy or the cache: nothing for the stamp to record
    const staged: Config = {
      ...paths.config,
      dataDir: data.dataDir,
      dataSource: data.cache ? 'download' : 'shared',
      recordsDir: join(staging, 'records'),
      outDir: join(staging, 'dist'),
      changesDir: join(staging, 'changes'),
    };
    if (existsSync(paths.config.changesDir)) cpSync(paths.config.changesDir, staged.changesDir, { recursive: true });
    const hashes = inputHashes(staged, memo);
    clock.step('input hash');
    // kinds whose tables did not move are taken from the served records
    await importStep(staged, hashes.records, log, true, paths.config.recordsDir);
    clock.step('import');
    const report = await buildWithReport({ staged, served, oldLock, newLock, hash: hashes.build, memo }, log, clock);
    swapInUpdate(paths, newLock, staged, data.cache);
    clock.step('swap');
    log.info(`update: ${clock.line()}`);
    for (const line of [
      ...summaryLines(report),
      ...mediaNotes(oldLock.submodules, listing.submodules),
      ...givenFolderNote(paths.config, data.readAfter, newLock),
    ])
      log.info(line);
    return report;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** What the staged build and its report are made from. */
interface ReportedBuild {
  staged: Config;
  served: Config;
  oldLock: UpstreamLock;
  newLock: UpstreamLock;
  /** the staged build's input hash */
  hash: string;
  memo: FileMemo;
}

/**
 * The staged build, with its change report made inside it so that its one finish serves it:
 * each shard's kinds compared with the served build as soon as they are written (while the
 * slowest shard still runs), the other kinds and the tables before the finish.
 */
async function buildWithReport(made: ReportedBuild, log: Log, clock: StepClock): Promise<ChangeReport> {
  const { staged, served, oldLock, newLock, memo } = made;
  const comparison = new KindByKindDiff(finishedSide(served.outDir));
  let report: ChangeReport | null = null;
  await buildStep(staged, made.hash, log, true, {
    kindsWritten: (dir, kinds) => comparison.add(dir, kinds),
    beforeFinish: async (dir, kinds) => {
      clock.step('build');
      const tables = tableChanges(oldLock, newLock, join(served.dataDir, 'csv'), join(staged.dataDir, 'csv'));
      const downloads = movedDownloads(served.outDir, { version: projectVersion(), upstreamCommit: newLock.commit });
      report = {
        from: oldLock.commit,
        to: newLock.commit,
        tables,
        ...comparison.result(unfinishedSide(dir, kinds)),
        ...(downloads.length ? { downloads } : {}),
      };
      clock.step('compare');
      return { inputHash: addReport(staged, report, memo) };
    },
  });
  clock.step('finish');
  if (!report) throw new Error('the staged build finished without its change report');
  // printed after the build's line: on a terminal, its progress bar holds the line until then
  log.info(
    `compare: the tables and the two builds in ${(clock.steps['compare'] ?? 0).toFixed(1)} s after the build, and ${comparison.earlySeconds.toFixed(1)} s while its last shard ran`,
  );
  return report;
}

/**
 * The downloads whose paths the new data version moves: each one's path in the served build (its
 * meta's URL; null when it had none) and in the new one, where the two differ. The served files
 * are not carried over: a build holds its own version's only.
 */
export function movedDownloads(servedDir: string, to: { version: string; upstreamCommit: string }): MovedDownload[] {
  const bytes = readIfThere(join(servedDir, metaFile));
  const meta = bytes === null ? null : (JSON.parse(bytes.toString('utf8')) as Meta);
  const served: Record<MovedDownload['type'], string | undefined> = {
    database: meta?.downloads.database,
    'database-gzip': meta?.downloads.database_gzip,
    archive: meta?.downloads.archive,
  };
  return versionedDownloads(to).flatMap(({ type, file }) => {
    const url = served[type];
    const from = url === undefined || meta === null ? null : `/${downloadFile(meta, url)}`;
    return from === `/${file}` ? [] : [{ type, from, to: `/${file}` }];
  });
}

/** The report's file name: `{from}..{to}.json`. */
export const reportFile = (report: Pick<ChangeReport, 'from' | 'to'>): string => `${report.from}..${report.to}.json`;

/**
 * The report joins the staged reports before the staged build's finish, which then serves it
 * (the list, `/v2/changes/{to}`, meta's latest, the docs page); returns the build input hash
 * with it in, for the stamp: the inputs as they will be once swapped in, so that `npm run build`
 * then has nothing to do.
 */
function addReport(staged: Config, report: ChangeReport, memo: FileMemo): string {
  mkdirSync(staged.changesDir, { recursive: true });
  writeFileSync(join(staged.changesDir, reportFile(report)), `${JSON.stringify(report, null, 2)}\n`);
  return inputHashes(staged, memo).build;
}

/** Everything at once, after everything succeeded: the reports, the lock, the records, dist/ and the cache; what they replace is removed after the command. */
function swapInUpdate(paths: UpdatePaths, lock: UpstreamLock, staged: Config, cache: string | null): void {
  const swaps: Array<[fresh: string, target: string]> = [
    [staged.changesDir, paths.config.changesDir],
    [staged.recordsDir, paths.config.recordsDir],
    [staged.outDir, paths.config.outDir],
  ];
  if (cache) swaps.push([cache, paths.cacheDir]);
  const old = swaps.flatMap(([fresh, target]) => swapOut(fresh, target) ?? []);
  writeFileSync(paths.lockPath, formatLock(lock));
  // the old build alone is about 29,000 files: removing them took 50 s of an update on this shared machine (load 13)
  removeInBackground(old);
}

/** A few lines: the tables that moved, with their rows, and the items per kind. */
export function summaryLines(report: ChangeReport): string[] {
  const lines = [`data: pinned to ${report.to} (was ${report.from.slice(0, 12)})`];
  for (const t of report.tables) lines.push(`  table ${t.table}: ${t.change}, +${t.rows_added} -${t.rows_removed} rows`);
  const { added, removed, changed } = report.summary;
  lines.push(`  items: ${added} added, ${removed} removed, ${changed} changed`);
  for (const [kind, c] of Object.entries(report.kinds)) lines.push(`    ${kind}: +${c.added.length} -${c.removed.length} ~${c.changed.length}`);
  for (const d of report.downloads ?? []) lines.push(`  download ${d.type}: ${d.from ?? '(none)'} → ${d.to}`);
  return lines;
}
