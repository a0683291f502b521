/**
 * The lock: which upstream commit the data set is pinned to, and for each table the upstream's
 * own git blob SHA-1 (and its size where known). It is a small committed file
 * (data/upstream.lock.json); a download must match it byte for byte.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { treeCommit } from '../config.ts';
import { readIfThere } from '../files/folders.ts';

export interface TableLock {
  /** git blob SHA-1, what `git hash-object FILE` prints */
  sha1: string;
  /** bytes; absent when not known (the lock is made from the upstream's hashes alone) */
  size?: number;
}

export interface UpstreamLock {
  /** the upstream repository's commit the tables are taken at */
  commit: string;
  /** where the repository's archive at that commit is published; `{commit}` is replaced */
  archive: string;
  /** the folder of the tables inside the repository */
  tablesPath: string;
  /** the commits the upstream's sprite and cry submodules point at (path → commit), once a listing has said */
  submodules?: Record<string, string>;
  /** every table, by file name */
  tables: Record<string, TableLock>;
}

/** Reads a lock file, refusing one that lacks what a fetch needs. */
export function readLock(path: string): UpstreamLock {
  const lock = JSON.parse(readFileSync(path, 'utf8')) as UpstreamLock;
  if (!/^[0-9a-f]{40}$/.test(lock.commit) || !lock.tables || typeof lock.archive !== 'string') {
    throw new Error(`${path} is not a data lock (it needs commit, archive, tablesPath and tables)`);
  }
  return lock;
}

/** The archive URL: DATA_URL when set (taken as it is, `{commit}` replaced), else the lock's. */
export function archiveUrl(lock: UpstreamLock, dataUrl?: string): string {
  return (dataUrl || lock.archive).replaceAll('{commit}', lock.commit);
}

/** A short fingerprint of what the lock demands, so a cache made for another lock is seen as stale. */
export function lockDigest(lock: UpstreamLock): string {
  const tables = Object.keys(lock.tables)
    .sort()
    .map((name) => `${name} ${lock.tables[name]!.sha1} ${lock.tables[name]!.size ?? ''}`);
  return createHash('sha256')
    .update(`${lock.commit}\n${lock.tablesPath}\n${tables.join('\n')}`)
    .digest('hex');
}

/** git's object id of a blob: SHA-1 over `blob <size>\0` and the bytes. The size comes first, so it must be known. */
export function createGitBlobHasher(size: number) {
  const hash = createHash('sha1').update(`blob ${size}\0`);
  let seen = 0;
  return {
    update(chunk: Buffer): void {
      seen += chunk.length;
      hash.update(chunk);
    },
    /** the hex id; `null` when the bytes fed were not `size` long */
    digest(): string | null {
      const hex = hash.digest('hex');
      return seen === size ? hex : null;
    },
  };
}

export function gitBlobSha1(bytes: Buffer): string {
  const hasher = createGitBlobHasher(bytes.length);
  hasher.update(bytes);
  return hasher.digest()!;
}

/** The tables of `expected` (name → upstream hash) that `csvDir` lacks, and those it holds with other bytes, in the order given. */
export function compareTables(expected: Iterable<[string, { sha1: string }]>, csvDir: string): { missing: string[]; differing: string[] } {
  const missing: string[] = [];
  const differing: string[] = [];
  for (const [name, { sha1 }] of expected) {
    const bytes = readIfThere(join(csvDir, name));
    if (bytes === null) missing.push(name);
    else if (gitBlobSha1(bytes) !== sha1) differing.push(name);
  }
  return { missing, differing };
}

export const UPSTREAM_ARCHIVE = 'https://codeload.github.com/PokeAPI/pokeapi/tar.gz/{commit}';
export const UPSTREAM_TABLES_PATH = 'data/v2/csv';

/** A team copy's TREE.txt: `<sha1> <file>` lines (comments start with #), and the commit its first comment names. */
export function parseTree(text: string): { commit: string | null; hashes: Map<string, string> } {
  const hashes = new Map<string, string>();
  for (const line of text.split('\n')) {
    const m = /^([0-9a-f]{40})\s+(\S+)$/.exec(line.trim());
    if (m) hashes.set(m[2]!, m[1]!);
  }
  return { commit: treeCommit(text), hashes };
}

/**
 * A lock from the upstream's hashes (and sizes, where its listing gives them); where it does not,
 * the size of `csvDir`'s copy when that copy hashes the same.
 */
export function lockFromListing(
  commit: string,
  listed: ReadonlyMap<string, { sha1: string; size?: number }>,
  csvDir: string | null,
  where: Pick<UpstreamLock, 'archive' | 'tablesPath' | 'submodules'> = { archive: UPSTREAM_ARCHIVE, tablesPath: UPSTREAM_TABLES_PATH },
): UpstreamLock {
  const tables: Record<string, TableLock> = {};
  for (const name of [...listed.keys()].sort()) {
    const { sha1, size } = listed.get(name)!;
    const local = size === undefined && csvDir ? readIfThere(join(csvDir, name)) : null;
    tables[name] = size !== undefined ? { sha1, size } : local && gitBlobSha1(local) === sha1 ? { sha1, size: local.length } : { sha1 };
  }
  return { commit, archive: where.archive, tablesPath: where.tablesPath, ...(where.submodules ? { submodules: where.submodules } : {}), tables };
}

/** A lock for the tables of a folder as they are (tests make one for each archive they serve). */
export function lockForFolder(commit: string, csvDir: string, archive = UPSTREAM_ARCHIVE): UpstreamLock {
  const tables: Record<string, TableLock> = {};
  for (const name of readdirSync(csvDir)
    .filter((n) => n.endsWith('.csv'))
    .sort()) {
    const bytes = readFileSync(join(csvDir, name));
    tables[name] = { sha1: gitBlobSha1(bytes), size: bytes.length };
  }
  return { commit, archive, tablesPath: UPSTREAM_TABLES_PATH, tables };
}

/** One table a line, so a change of the pin reads well in a diff. */
export function formatLock(lock: UpstreamLock): string {
  const tables = Object.entries(lock.tables).map(([name, t]) => `    ${JSON.stringify(name)}: ${JSON.stringify(t).replace(/,/g, ', ').replace(/:/g, ': ')}`);
  const head = { commit: lock.commit, archive: lock.archive, tablesPath: lock.tablesPath, ...(lock.submodules ? { submodules: lock.submodules } : {}) };
  return `${JSON.stringify(head, null, 2).slice(0, -2)},\n  "tables": {\n${tables.join(',\n')}\n  }\n}\n`;
}
