/**
 * The lock: which upstream commit the data set is pinned to, and for each table the upstream's
 * own git blob SHA-1 (and its size where known). It is a small committed file
 * (data/upstream.lock.json); a download must match it byte for byte.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

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
  return createHash('sha256').update(`${lock.commit}\n${lock.tablesPath}\n${tables.join('\n')}`).digest('hex');
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
