/**
 * The tables at the pinned commit: what the change report counts a changed table's rows
 * against, and what the served build is made from when there is none to compare with. They are
 * read where the build found them, each folder checked against the lock first: the one given
 * with --data / DATA_DIR, the one the served build's stamp records (a build from a given folder,
 * the variable since unset), the team copy at that commit, the download cache. Where none has
 * them, they are downloaded into the cache as `npm start` does; a failed download leaves it as
 * it was and says what to run.
 *
 *   currentTables(lock, places, log, env) → the folder, and how the configuration calls it
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { DataSource } from '../config.ts';
import { FetchError, fetchPinned, isFetched } from '../fetch/index.ts';
import { compareTables, type UpstreamLock } from '../fetch/lock.ts';
import { upstreamCommit, type Log } from '../pipeline.ts';

/** Where the pinned tables may be; null where there is no such folder. */
export interface TablePlaces {
  /** --data / DATA_DIR */
  given: string | null;
  /** the data folder the served build's stamp records */
  recorded: string | null;
  /** the team copy at the pinned commit */
  team: string | null;
  /** the download cache (data/upstream/) */
  cacheDir: string;
}

export interface CurrentTables {
  /** a data folder (its `csv/` the tables) */
  dataDir: string;
  /** as the configuration would call it: a folder given or recorded is 'given' */
  dataSource: DataSource;
}

interface Candidate extends CurrentTables {
  /** what the folder is, in a message */
  label: string;
}

/** Table names a message shows before "…". */
const SHOWN = 5;

/** The folders to look in, in order, each once. */
function candidates(places: TablePlaces): Candidate[] {
  const all: Array<Candidate | null> = [
    places.given ? { dataDir: places.given, dataSource: 'given', label: '--data / DATA_DIR' } : null,
    places.recorded ? { dataDir: places.recorded, dataSource: 'given', label: 'the data folder the build in dist/ was made from' } : null,
    places.team ? { dataDir: places.team, dataSource: 'shared', label: 'the team copy at the pinned commit' } : null,
  ];
  const byFolder = new Map<string, Candidate>();
  for (const c of all) if (c && !byFolder.has(c.dataDir)) byFolder.set(c.dataDir, c);
  return [...byFolder.values()];
}

/** A few table names, "…" for the rest. */
const listed = (names: readonly string[]): string => `${names.slice(0, SHOWN).join(', ')}${names.length > SHOWN ? ', …' : ''}`;

/**
 * A folder checked against the lock: why it does not hold the tables of its commit (a table
 * missing, or the folder says it is of another commit: its PROVENANCE.md or download stamp, as
 * the build's meta says it); else the tables whose bytes differ from the upstream's, which are
 * taken as given, as the new side's are (a team copy's tables rebuilt from the upstream's
 * responses, same rows in other bytes; edits the served build was made from).
 */
function check(lock: UpstreamLock, dataDir: string): { why: string } | { differing: string[] } {
  if (!existsSync(dataDir)) return { why: 'no such folder' };
  if (!existsSync(join(dataDir, 'csv'))) return { why: 'it has no csv/' };
  const commit = upstreamCommit(dataDir);
  if (commit !== 'unknown' && commit !== lock.commit)
    return { why: `it holds the tables of commit ${commit.slice(0, 12)}, as its PROVENANCE.md or download stamp says` };
  const { missing, differing } = compareTables(Object.entries(lock.tables), join(dataDir, 'csv'));
  return missing.length ? { why: `${missing.length} table(s) of the lock missing (${listed(missing)})` } : { differing };
}

/** A folder looked in that does not hold the lock's tables, and why. */
interface PassedOver {
  label: string;
  dataDir: string;
  why: string;
}

const described = (p: PassedOver): string => `${p.label}, ${p.dataDir}: ${p.why}`;

/** The folder holding the tables at the lock's commit, downloaded into the cache when no folder on this machine does. */
export async function currentTables(lock: UpstreamLock, places: TablePlaces, log: Log, env: NodeJS.ProcessEnv = process.env): Promise<CurrentTables> {
  const passedOver: PassedOver[] = [];
  let found: Candidate | null = null;
  let differing: string[] = [];
  for (const candidate of candidates(places)) {
    const checked = check(lock, candidate.dataDir);
    if ('differing' in checked) {
      [found, differing] = [candidate, checked.differing];
      break;
    }
    passedOver.push({ label: candidate.label, dataDir: candidate.dataDir, why: checked.why });
  }
  found ??= isFetched(lock, places.cacheDir) ? cached(places) : await download(lock, places, passedOver, log, env);
  const short = lock.commit.slice(0, 12);
  for (const p of passedOver) log.warn(`${described(p)}; not the tables the lock pins at ${short}, so not read`);
  if (differing.length)
    log.warn(
      `${found.dataDir} (${found.label}): ${differing.length} table(s) differ in bytes from the upstream's at ${short} and are taken as given, as the served build read them: ${listed(differing)}`,
    );
  log.info(`data: the tables at ${short}, the change report's old side, from ${found.dataDir} (${found.label})`);
  return { dataDir: found.dataDir, dataSource: found.dataSource };
}

const cached = (places: TablePlaces): Candidate => ({ dataDir: places.cacheDir, dataSource: 'download', label: 'the download cache' });

/** The pinned tables downloaded into the cache; when that fails, an error naming a table it lacks and what to run. */
async function download(lock: UpstreamLock, places: TablePlaces, passedOver: readonly PassedOver[], log: Log, env: NodeJS.ProcessEnv): Promise<Candidate> {
  log.info(
    `data: no folder on this machine holds the tables at ${lock.commit.slice(0, 12)}, which the change report compares with; downloading them into ${places.cacheDir}`,
  );
  try {
    await fetchPinned(lock, places.cacheDir, log, env);
  } catch (error) {
    if (!(error instanceof FetchError)) throw error;
    throw new FetchError(cannotRead(lock, places, passedOver, error.failure), { cause: error });
  }
  return cached(places);
}

/** What a user reads when the pinned tables are nowhere and could not be downloaded: the first table the cache lacks, where else was looked, why the download failed, what to run. */
function cannotRead(lock: UpstreamLock, places: TablePlaces, passedOver: readonly PassedOver[], failure: string): string {
  const short = lock.commit.slice(0, 12);
  const csv = join(places.cacheDir, 'csv');
  const there = new Set(existsSync(csv) ? readdirSync(csv) : []);
  const table = Object.keys(lock.tables).find((name) => !there.has(name)) ?? Object.keys(lock.tables)[0] ?? '';
  const looked = [
    ...(places.given ? [] : ['no --data / DATA_DIR given']),
    ...passedOver.map(described),
    ...(places.team ? [] : ['no team copy at that commit']),
    `${places.cacheDir}: no verified download of them`,
  ];
  return (
    `data:update cannot read ${join(csv, table)}: the change report counts the rows of the changed tables against the tables of the pinned commit ${short}, ` +
    `no folder on this machine holds them (${looked.join('; ')}), and downloading them failed: ${failure}\n` +
    `Run \`npm run fetch-data\` first (with DATA_URL set to a mirror of the archive if it cannot be reached), or set DATA_DIR to a folder holding the tables at ${short} (csv/); then run the update again.`
  );
}
