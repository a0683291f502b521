/**
 * What the update tests share: a project of its own in a scratch folder (served from a data
 * folder the test gives: the data cut, so that an update imports and builds 1,550 records, not
 * 14,000), the upstream's listing in GitHub's shape, and a line edit of a table.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lockPath as repoLock, resolveConfig } from '../../generator/config.ts';
import { formatLock, lockForFolder, readLock } from '../../generator/fetch/lock.ts';
import type { UpdatePaths } from '../../generator/update/index.ts';
import { fileHashes } from './files.ts';

/** the commit the tests move to */
export const B = 'b'.repeat(40);

export const json = (value: unknown) => ({ body: Buffer.from(JSON.stringify(value)) });
/** a git-trees answer listing `entries` */
export const treeAnswer = (entries: object[], truncated = false) => json({ sha: B, url: 'x', tree: entries, truncated });

/**
 * A project of its own in the scratch folder: `dataDir` as the copy of the pinned tables it is
 * served from (only read: the update swaps in a download cache, never writes there), a lock at
 * the pinned commit hashing those tables as they are (so that only a table a test edits moves),
 * records and dist/ that must stay as they are (a build stamp, so the update compares with them
 * as served), and no team copy at the new commit.
 */
export function project(scratch: string, name: string, dataDir: string): { paths: UpdatePaths; state: () => Record<string, string> } {
  const root = join(scratch, name);
  const lockPath = join(root, 'upstream.lock.json');
  mkdirSync(join(root, 'dist'), { recursive: true });
  mkdirSync(join(root, 'records'), { recursive: true });
  const pinned = readLock(repoLock);
  writeFileSync(lockPath, formatLock({ ...pinned, tables: lockForFolder(pinned.commit, join(dataDir, 'csv')).tables }));
  writeFileSync(join(root, 'dist/build-stamp.json'), JSON.stringify({ inputHash: 'served', baseUrl: 'http://localhost:8080/v2' }));
  writeFileSync(join(root, 'records/manifest.json'), '{"served":true}');
  const config = { ...resolveConfig({}, {}, () => dataDir), outDir: join(root, 'dist'), recordsDir: join(root, 'records'), changesDir: join(root, 'changes') };
  const paths: UpdatePaths = { lockPath, cacheDir: join(root, 'cache'), sharedRoot: join(root, 'no-shared'), config };
  return { paths, state: () => Object.fromEntries(fileHashes(root)) };
}

/** Rewrites a file's lines. */
export const edit = (file: string, f: (lines: string[]) => string[]) => writeFileSync(file, f(readFileSync(file, 'utf8').split('\n')).join('\n'));
