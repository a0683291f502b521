/**
 * The data set for a fresh clone: the upstream repository's archive at the pinned commit,
 * streamed (gunzip, then node-tar's reader: tar.ts), keeping only the tables and hashing each
 * one as it is written. The cache folder is replaced only when every table of the lock matched;
 * a failed or refused download leaves it as it was.
 *
 *   fetchDataSet(lock, url, cacheDir, log) → the verified folder (`csv/` + `fetched.json`)
 */
import { closeSync, copyFileSync, existsSync, mkdirSync, openSync, readdirSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { createGunzip } from 'node:zlib';
import { lockPath, type Config } from '../config.ts';
import { readJsonIfThere, swapIn } from '../files/folders.ts';
import type { Progress } from '../progress.ts';
import { archiveUrl, createGitBlobHasher, lockDigest, readLock, type UpstreamLock } from './lock.ts';
import { tarFault, tarFiles, type EntrySink, type TarEntry } from './tar.ts';

export { archiveUrl, gitBlobSha1, readLock, type UpstreamLock } from './lock.ts';

export { lockPath };
/** What a cache folder records about the download it holds. */
const STAMP = 'fetched.json';
/** No byte for this long (before the answer or during it) ends an attempt. */
export const DEFAULT_TIMEOUT_MS = 30_000;
const RETRY_PAUSE_MS = 1_000;

export interface FetchLog {
  info(message: string): void;
  startProgress?(label: string): Progress;
}

export interface FetchOptions {
  timeoutMs?: number;
  /** attempts after the first, for network errors, timeouts, 5xx and cut-short archives */
  retries?: number;
}

/** A download that failed or was refused; its message is the whole story, for the command line. */
export class FetchError extends Error {
  /** what failed, without the advice the message ends with: for a caller that gives advice of its own */
  readonly failure: string;
  constructor(message: string, options?: ErrorOptions & { failure?: string }) {
    super(message, options);
    this.name = 'FetchError';
    this.failure = options?.failure ?? message;
  }
}

interface Stamp {
  commit: string;
  lock: string;
  url: string;
  fetchedAt: string;
  tables: number;
}

/** True when `dir` holds a complete download made for this lock. */
export function isFetched(lock: UpstreamLock, dir: string): boolean {
  const stamp = readStamp(dir);
  if (!stamp || stamp.lock !== lockDigest(lock)) return false;
  return Object.entries(lock.tables).every(([name, table]) => {
    const size = statSync(join(dir, 'csv', name), { throwIfNoEntry: false })?.size;
    return size !== undefined && (table.size === undefined || size === table.size);
  });
}

/** The upstream commit of a fetched folder, or null when it is not one. */
export function fetchedCommit(dir: string): string | null {
  return readStamp(dir)?.commit ?? null;
}

/** The folder's download stamp; null when it has none, or one cut short: either way it is no complete download. */
function readStamp(dir: string): Stamp | null {
  return readJsonIfThere<Stamp>(join(dir, STAMP), () => null);
}

const timeoutFrom = (env: NodeJS.ProcessEnv): number => {
  const ms = Number(env.DATA_TIMEOUT_MS);
  return env.DATA_TIMEOUT_MS && Number.isFinite(ms) && ms > 0 ? ms : DEFAULT_TIMEOUT_MS;
};

/**
 * Before an import: when the configuration reads the download cache and it is missing or
 * incomplete, fills it. Folders given with DATA_DIR (or this team's ../shared) are used as they are.
 */
export async function ensureDataSet(config: Config, log: FetchLog, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  if (config.dataSource !== 'download') return;
  const lock = readLock(lockPath);
  if (isFetched(lock, config.dataDir)) return;
  log.info(
    `data: ${config.dataDir} has no verified copy of the tables at ${lock.commit.slice(0, 12)}; downloading them (or set DATA_DIR to a folder that has them)`,
  );
  await fetchPinned(lock, config.dataDir, log, env);
}

/** Downloads the lock's tables into `cacheDir` as every command does: from DATA_URL when set, else the lock's archive, with DATA_TIMEOUT_MS. */
export function fetchPinned(lock: UpstreamLock, cacheDir: string, log: FetchLog, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return fetchDataSet(lock, archiveUrl(lock, env.DATA_URL), cacheDir, log, { timeoutMs: timeoutFrom(env) });
}

/** `npm run fetch-data`: fills the cache folder now (again with `force`). */
export async function fetchCommand(cacheDir: string, log: FetchLog, force: boolean, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const lock = readLock(lockPath);
  if (!force && isFetched(lock, cacheDir)) {
    log.info(
      `data: ${cacheDir} already holds the ${Object.keys(lock.tables).length} verified tables at ${lock.commit.slice(0, 12)} (--force downloads them again)`,
    );
    return;
  }
  await fetchPinned(lock, cacheDir, log, env);
}

/** Downloads the archive at `url`, keeps the lock's tables, verifies them, and swaps them into `cacheDir` whole. */
export async function fetchDataSet(lock: UpstreamLock, url: string, cacheDir: string, log: FetchLog, options: FetchOptions = {}): Promise<string> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const attempts = 1 + (options.retries ?? 1);
  const tmp = `${cacheDir}.tmp-${process.pid}-${Date.now().toString(36)}`;
  const started = performance.now();
  removeAbandoned(cacheDir);
  try {
    for (let attempt = 1; ; attempt++) {
      rmSync(tmp, { recursive: true, force: true });
      mkdirSync(join(tmp, 'csv'), { recursive: true });
      log.info(`fetch: ${url}${attempt > 1 ? ` (attempt ${attempt})` : ''}`);
      try {
        const found = await download(url, lock, join(tmp, 'csv'), log, timeoutMs);
        verify(lock, url, found);
        break;
      } catch (e) {
        if (!(e instanceof AttemptError)) throw e;
        if (!e.retryable || attempt >= attempts) {
          const failure = `could not download the data set from ${url}: ${e.message}${attempt > 1 ? ` (${attempt} attempts)` : ''}.`;
          throw new FetchError(`${failure} Set DATA_URL to a mirror of that archive, or DATA_DIR to a folder holding the tables (csv/).`, {
            cause: e,
            failure,
          });
        }
        log.info(`fetch: ${e.message}; trying once more`);
        await new Promise((r) => setTimeout(r, RETRY_PAUSE_MS));
      }
    }
    const stamp: Stamp = { commit: lock.commit, lock: lockDigest(lock), url, fetchedAt: new Date().toISOString(), tables: Object.keys(lock.tables).length };
    writeFileSync(join(tmp, STAMP), `${JSON.stringify(stamp, null, 2)}\n`);
    swapIn(tmp, cacheDir);
    log.info(
      `fetch: ${stamp.tables} tables at ${lock.commit.slice(0, 12)} verified and stored in ${cacheDir} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    return cacheDir;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * A copy of the lock's tables from a folder (`--tables`), stamped as a download is, into
 * `cacheDir`: so builds after a data update find them where a download would have put them.
 */
export function storeTables(lock: UpstreamLock, csvDir: string, cacheDir: string): void {
  mkdirSync(join(cacheDir, 'csv'), { recursive: true });
  for (const name of Object.keys(lock.tables)) copyFileSync(join(csvDir, name), join(cacheDir, 'csv', name));
  const stamp: Stamp = {
    commit: lock.commit,
    lock: lockDigest(lock),
    url: csvDir,
    fetchedAt: new Date().toISOString(),
    tables: Object.keys(lock.tables).length,
  };
  writeFileSync(join(cacheDir, STAMP), `${JSON.stringify(stamp, null, 2)}\n`);
}

/** Temporary folders of fetches that were killed (Ctrl-C) before they could clean up. */
function removeAbandoned(cacheDir: string): void {
  const prefix = `${basename(cacheDir)}.tmp-`;
  // no folder above the cache yet: nothing abandoned there
  const siblings = existsSync(dirname(cacheDir)) ? readdirSync(dirname(cacheDir)) : [];
  for (const name of siblings) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(name.slice(prefix.length).split('-')[0]);
    if (Number.isInteger(pid) && pid !== process.pid && !isRunning(pid)) rmSync(join(dirname(cacheDir), name), { recursive: true, force: true });
  }
}

const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: running, as another user's; ESRCH: no such process
    const code = (e as { code?: string }).code;
    if (code === 'EPERM' || code === 'ESRCH') return code === 'EPERM';
    throw e;
  }
};

/** One failed attempt: why, and whether trying again could help. */
class AttemptError extends Error {
  readonly retryable: boolean;
  constructor(message: string, retryable: boolean, options?: ErrorOptions) {
    super(message, options);
    this.retryable = retryable;
  }
}

interface Found {
  sha1: string;
  size: number;
}

/** Ends an attempt when no byte came for `timeoutMs`: armed at the start and again on every chunk. */
class IdleWatch {
  readonly controller = new AbortController();
  timedOut = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly timeoutMs: number;
  constructor(timeoutMs: number) {
    this.timeoutMs = timeoutMs;
    this.arm();
  }
  arm(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.controller.abort();
    }, this.timeoutMs);
  }
  stop(): void {
    clearTimeout(this.timer);
  }
  /** what a timeout is called in a failure message */
  get silence(): string {
    return `no data for ${this.timeoutMs >= 1000 ? `${this.timeoutMs / 1000} s` : `${this.timeoutMs} ms`} (DATA_TIMEOUT_MS)`;
  }
}

/**
 * Takes the lock's tables out of the archive's entries (`<root>/data/v2/csv/<table>.csv`, the
 * root being whatever the archive calls it) into `csvDir`, hashing each as it is written.
 */
class TableExtractor {
  readonly found = new Map<string, Found>();
  /** the file being written, closed on the way out should the attempt stop inside it */
  private open: number | null = null;
  private readonly prefix: string;
  private readonly lock: UpstreamLock;
  private readonly csvDir: string;
  private readonly onTable: () => void;
  constructor(lock: UpstreamLock, csvDir: string, onTable: () => void) {
    this.lock = lock;
    this.csvDir = csvDir;
    this.onTable = onTable;
    this.prefix = `/${lock.tablesPath.replace(/^\/+|\/+$/g, '')}/`;
  }

  entry(entry: TarEntry): EntrySink | null {
    const inRepo = entry.path.slice(entry.path.indexOf('/'));
    if (!inRepo.startsWith(this.prefix)) return null;
    const name = inRepo.slice(this.prefix.length);
    if (name.includes('/') || !Object.hasOwn(this.lock.tables, name)) return null;
    const hasher = createGitBlobHasher(entry.size);
    const fd = openSync(join(this.csvDir, basename(name)), 'w');
    this.open = fd;
    return {
      write: (chunk) => {
        writeSync(fd, chunk);
        hasher.update(chunk);
      },
      end: () => {
        closeSync(fd);
        this.open = null;
        this.found.set(name, { sha1: hasher.digest() ?? 'incomplete', size: entry.size });
        this.onTable();
      },
    };
  }

  close(): void {
    if (this.open !== null) closeSync(this.open);
    this.open = null;
  }
}

/** Passes chunks on, re-arming the idle watch and counting bytes for the progress bar. */
function countingStream(watch: IdleWatch, onBytes: (chunk: number) => void): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      watch.arm();
      onBytes(chunk.length);
      done(null, chunk);
    },
  });
}

/** Why a stream of the archive stopped, as an attempt's failure (every such failure may pass: retryable). */
function streamFailure(e: unknown, watch: IdleWatch, bytes: number, total: number): AttemptError {
  const cause = { cause: e };
  if (watch.timedOut) return new AttemptError(`${watch.silence}, after ${amount(bytes)}`, true, cause);
  const tarProblem = tarFault(e);
  if (tarProblem !== null) return new AttemptError(`the archive is cut short or damaged (tar: ${tarProblem})`, true, cause);
  const code = (e as { code?: string }).code;
  if (code === 'Z_BUF_ERROR' || code === 'Z_DATA_ERROR') {
    return new AttemptError(`the archive is cut short or damaged (gzip: ${(e as Error).message}, after ${amount(bytes)})`, true, cause);
  }
  if (bytes > 0)
    return new AttemptError(
      `the archive is cut short: the connection closed after ${amount(bytes)}${total ? ` of ${amount(total)}` : ''} (${networkReason(e)})`,
      true,
      cause,
    );
  return new AttemptError(`${networkReason(e)}, after ${amount(bytes)}`, true, cause);
}

/** The archive's response, or the attempt's failure: a network error, a timeout, or an HTTP status (5xx, 408 and 429 may pass). */
async function request(url: string, watch: IdleWatch): Promise<Response & { body: ReadableStream<Uint8Array> }> {
  let response: Response;
  try {
    response = await fetch(url, { signal: watch.controller.signal, redirect: 'follow' });
  } catch (e) {
    throw new AttemptError(watch.timedOut ? watch.silence : networkReason(e), true, { cause: e });
  }
  if (!response.ok || !response.body) {
    // the status just below is the failure this attempt reports: a body that cannot even be
    // cancelled (its connection already gone) changes nothing about it, and would hide it
    await response.body?.cancel().catch(() => {});
    const retryable = response.status >= 500 || response.status === 408 || response.status === 429;
    throw new AttemptError(`HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`, retryable);
  }
  return response as Response & { body: ReadableStream<Uint8Array> };
}

/** One attempt: streams the archive into `csvDir`, returning each kept table's hash and size. */
async function download(url: string, lock: UpstreamLock, csvDir: string, log: FetchLog, timeoutMs: number): Promise<Map<string, Found>> {
  const watch = new IdleWatch(timeoutMs);
  let bar: Progress | undefined;
  let bytes = 0;
  let total = 0;
  const tableCount = Object.keys(lock.tables).length;
  // without a length to count bytes against, the bar counts tables
  const tables = new TableExtractor(lock, csvDir, () => {
    if (!total) bar?.update(tables.found.size, tableCount);
  });
  try {
    const response = await request(url, watch);
    total = Number(response.headers.get('content-length')) || 0;
    bar = log.startProgress?.(total ? 'fetch (MB)' : 'fetch (tables)');
    const counter = countingStream(watch, (n) => {
      bytes += n;
      if (total) bar?.update(Math.floor(bytes / 1e6), Math.ceil(total / 1e6));
    });
    const tar = tarFiles((entry) => tables.entry(entry));
    try {
      await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), counter, createGunzip(), tar);
    } catch (e) {
      throw streamFailure(e, watch, bytes, total);
    }
    bar?.done(`fetch: ${amount(bytes)} read, ${tables.found.size} tables kept`);
    bar = undefined;
    return tables.found;
  } finally {
    watch.stop();
    tables.close();
    bar?.done(`fetch: stopped after ${amount(bytes)}`);
  }
}

/** Every table of the lock, byte for byte; otherwise one line per table that is not. */
function verify(lock: UpstreamLock, url: string, found: Map<string, Found>): void {
  const problems: string[] = [];
  for (const [name, expected] of Object.entries(lock.tables)) {
    const got = found.get(name);
    if (!got) problems.push(`${name}: missing from the archive`);
    else if (got.sha1 !== expected.sha1 || (expected.size !== undefined && got.size !== expected.size)) {
      problems.push(
        `${name}: expected git blob ${expected.sha1}${expected.size !== undefined ? ` (${expected.size} bytes)` : ''}, found ${got.sha1} (${got.size} bytes)`,
      );
    }
  }
  if (!problems.length) return;
  const total = Object.keys(lock.tables).length;
  const shown = problems.length > 12 ? [...problems.slice(0, 12), `... and ${problems.length - 12} more`] : problems;
  const failure = `the archive from ${url} does not match the lock (commit ${lock.commit.slice(0, 12)}): ${problems.length} of ${total} tables refused; the cache was left as it was.\n  ${shown.join('\n  ')}`;
  throw new FetchError(`${failure}\nPoint DATA_URL at an archive of the pinned commit, or DATA_DIR at a folder holding the tables (csv/).`, { failure });
}

const amount = (bytes: number): string => (bytes < 100_000 ? `${bytes} bytes` : `${(bytes / 1e6).toFixed(1)} MB`);

/** A network error in one phrase: what Node says, with the system's code (ECONNREFUSED, ENOTFOUND...). */
function networkReason(e: unknown): string {
  const cause = (e as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.message) return `network error: ${cause.message}`;
  return `network error: ${e instanceof Error ? e.message : String(e)}`;
}
