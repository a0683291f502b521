/**
 * Makes a data lock (see lock.ts). For this repository's lock, from the upstream's own hashes
 * (a `git ls-tree`-like listing: `<sha1> <file>` lines) and a local copy of the tables; a
 * table's size is recorded only when the local copy is byte-equal to the upstream's.
 *
 *   tsx generator/fetch/make-lock.ts ../shared/upstream/TREE.txt ../shared/upstream/csv > data/upstream.lock.json
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gitBlobSha1, type TableLock, type UpstreamLock } from './lock.ts';

export const UPSTREAM_ARCHIVE = 'https://codeload.github.com/PokeAPI/pokeapi/tar.gz/{commit}';
export const UPSTREAM_TABLES_PATH = 'data/v2/csv';

/** `<sha1> <file>` lines (comments start with #), and the commit named in the comments. */
export function parseTree(text: string): { commit: string | null; hashes: Map<string, string> } {
  const hashes = new Map<string, string>();
  for (const line of text.split('\n')) {
    const m = /^([0-9a-f]{40})\s+(\S+)$/.exec(line.trim());
    if (m) hashes.set(m[2]!, m[1]!);
  }
  return { commit: /commit\s+([0-9a-f]{40})/.exec(text)?.[1] ?? null, hashes };
}

/** A lock from the upstream's hashes; sizes from `csvDir` where its file hashes the same. */
export function lockFromTree(commit: string, hashes: Map<string, string>, csvDir: string): UpstreamLock {
  const tables: Record<string, TableLock> = {};
  for (const name of [...hashes.keys()].sort()) {
    const sha1 = hashes.get(name)!;
    let bytes: Buffer | null = null;
    try {
      bytes = readFileSync(join(csvDir, name));
    } catch {
      bytes = null;
    }
    tables[name] = bytes && gitBlobSha1(bytes) === sha1 ? { sha1, size: bytes.length } : { sha1 };
  }
  return { commit, archive: UPSTREAM_ARCHIVE, tablesPath: UPSTREAM_TABLES_PATH, tables };
}

/** A lock for the tables of a folder as they are (tests make one for each archive they serve). */
export function lockForFolder(commit: string, csvDir: string, archive = UPSTREAM_ARCHIVE): UpstreamLock {
  const tables: Record<string, TableLock> = {};
  for (const name of readdirSync(csvDir).filter((n) => n.endsWith('.csv')).sort()) {
    const bytes = readFileSync(join(csvDir, name));
    tables[name] = { sha1: gitBlobSha1(bytes), size: bytes.length };
  }
  return { commit, archive, tablesPath: UPSTREAM_TABLES_PATH, tables };
}

/** One table a line, so a change of the pin reads well in a diff. */
export function formatLock(lock: UpstreamLock): string {
  const tables = Object.entries(lock.tables).map(([name, t]) => `    ${JSON.stringify(name)}: ${JSON.stringify(t).replace(/,/g, ', ').replace(/:/g, ': ')}`);
  const head = { commit: lock.commit, archive: lock.archive, tablesPath: lock.tablesPath };
  return `${JSON.stringify(head, null, 2).slice(0, -2)},\n  "tables": {\n${tables.join(',\n')}\n  }\n}\n`;
}

if (import.meta.url === pathToFileURL(resolve(process.argv[1] ?? '')).href) {
  const [treePath, csvDir] = process.argv.slice(2);
  if (!treePath || !csvDir) {
    console.error('usage: tsx generator/fetch/make-lock.ts TREE.txt CSV_DIR > data/upstream.lock.json');
    process.exit(2);
  }
  const { commit, hashes } = parseTree(readFileSync(treePath, 'utf8'));
  if (!commit) throw new Error(`${treePath} names no commit`);
  process.stdout.write(formatLock(lockFromTree(commit, hashes, csvDir)));
}
