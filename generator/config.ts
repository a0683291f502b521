/** Where things are, from options, then environment variables, then defaults. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readJsonIfThere } from './files/folders.ts';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** where this team keeps its copies of the data set, one folder a commit, beside the repository */
export const sharedRoot = resolve(repoRoot, '../shared');
/** where a clone without one keeps the data set it downloads (git-ignored) */
export const dataCacheDir = resolve(repoRoot, 'data/upstream');
/** the committed change reports, one a data version: `{from}..{to}.json` */
export const changesDir = resolve(repoRoot, 'data/changes');
/** the committed lock: the upstream commit this repository is pinned to, and its tables' hashes */
export const lockPath = resolve(repoRoot, 'data/upstream.lock.json');

/** The commit a copy's TREE.txt names on its first comment line, or null. */
export function treeCommit(treeText: string): string | null {
  const first = treeText.split('\n').find((line) => line.startsWith('#')) ?? '';
  return /commit\s+([0-9a-f]{40})/.exec(first)?.[1] ?? null;
}

/** The folders of `root` that hold a copy of the data set (a TREE.txt): upstream/ first, upstream-next/ next, then by name. */
function sharedCopies(root: string): string[] {
  // no ../shared (a clone on its own): no copies
  if (!existsSync(root)) return [];
  const names = readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
  const first = ['upstream', 'upstream-next'];
  const rank = (name: string) => (first.includes(name) ? first.indexOf(name) : first.length);
  return names.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b)).map((name) => join(root, name));
}

/** The team's copy of the data set at `commit`: the folder of `root` whose TREE.txt names it; null when none does. */
export function sharedCopyFor(commit: string, root: string = sharedRoot): string | null {
  for (const dir of sharedCopies(root)) {
    // a folder without a TREE.txt holds no copy
    const tree = join(dir, 'TREE.txt');
    if (existsSync(tree) && treeCommit(readFileSync(tree, 'utf8')) === commit) return dir;
  }
  return null;
}

/** The commit the committed lock pins; null when the lock cannot be read (a fetch then says why). */
export function pinnedCommit(path: string = lockPath): string | null {
  // no lock, or one that does not parse: the fetch reads it again and says what is wrong
  const lock = readJsonIfThere<{ commit?: unknown }>(path, () => null);
  return typeof lock?.commit === 'string' ? lock.commit : null;
}

/** The team's copy at the pinned commit, or null (a clone without ../shared, or a lock no copy matches). */
export const sharedDataDir = (): string | null => {
  const commit = pinnedCommit();
  return commit ? sharedCopyFor(commit) : null;
};

/** given: --data / DATA_DIR, used as it is; shared: the copy in ../shared at the pinned commit; download: the cache, filled when needed */
export type DataSource = 'given' | 'shared' | 'download';

export interface Config {
  /** the upstream data set: `csv/` and `media/` */
  dataDir: string;
  dataSource: DataSource;
  baseUrl: string;
  port: number;
  outDir: string;
  recordsDir: string;
  /** the committed change reports the build serves (data/changes/; `npm run data:update` writes them) */
  changesDir: string;
}

export interface ConfigOptions {
  data?: string;
  baseUrl?: string;
  port?: string;
  out?: string;
}

/** The output folder alone: what a failure names even when the rest of the options are what failed. */
export const outDirOf = (options: ConfigOptions = {}, env: NodeJS.ProcessEnv = process.env): string =>
  resolve(options.out ?? env.OUT_DIR ?? resolve(repoRoot, 'dist'));

/** `findShared` says where the team's copy at the pinned commit is (tests give their own). */
export function resolveConfig(options: ConfigOptions = {}, env: NodeJS.ProcessEnv = process.env, findShared: () => string | null = sharedDataDir): Config {
  const port = Number(options.port ?? env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, found ${JSON.stringify(options.port ?? env.PORT)}`);
  // without a base URL, links point at the preview itself, on whatever port it serves
  const baseUrl = (options.baseUrl ?? env.BASE_URL ?? `http://localhost:${port}/v2`).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]+(\/.*)?\/v2$/.test(baseUrl)) {
    throw new Error(`the base URL must be an http(s) URL ending in /v2, found ${JSON.stringify(baseUrl)}`);
  }
  const given = options.data ?? env.DATA_DIR;
  const shared = given ? null : findShared();
  const dataSource: DataSource = given ? 'given' : shared ? 'shared' : 'download';
  return {
    dataDir: given ? resolve(given) : (shared ?? dataCacheDir),
    dataSource,
    baseUrl,
    port,
    outDir: outDirOf(options, env),
    recordsDir: resolve(env.RECORDS_DIR ?? resolve(repoRoot, 'data/records')),
    changesDir,
  };
}
