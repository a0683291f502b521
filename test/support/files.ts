/** What the tests read off the repository and the build, written once. */
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { repoRoot } from '../../generator/config.ts';
import { servedItem } from '../../contract/borrowed-field.ts';
import { itemFile } from '../../contract/layout.ts';

/**
 * Every file under `dir` by its relative path, with a hash of its bytes. With `known`, a file
 * whose inode, size and modification time it holds is not read again: a folder made again and
 * again as hard links to its previous state (the dev loop's) is then read only where it was
 * rewritten. The change time is left out because a new link to a file moves it.
 */
export function fileHashes(dir: string, known?: Map<string, string>): Map<string, string> {
  const out = new Map<string, string>();
  const hashOf = (full: string) => {
    if (!known) return createHash('sha256').update(readFileSync(full)).digest('hex');
    const st = statSync(full);
    const key = `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}`;
    const hash = known.get(key) ?? createHash('sha256').update(readFileSync(full)).digest('hex');
    known.set(key, hash);
    return hash;
  };
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const full = join(d, e.name);
      if (e.isDirectory()) walk(full);
      else out.set(relative(dir, full), hashOf(full));
    }
  };
  walk(dir);
  return out;
}

/**
 * One hash of a whole tree: every file's relative path, bytes, inode and modification time, in
 * path order, so that a rewrite with the same bytes (or a folder swapped in whole) changes it
 * too; `absent` when there is no such folder, so a folder that appears is a change as well.
 */
export function treeHash(dir: string): string {
  if (!existsSync(dir)) return 'absent';
  const hash = createHash('sha256');
  const walk = (d: string) => {
    hash.update(`dir ${relative(dir, d)} ${statSync(d).ino}\n`);
    for (const name of readdirSync(d).sort()) {
      const full = join(d, name);
      const st = lstatSync(full);
      if (st.isDirectory()) walk(full);
      else
        hash
          .update(`${relative(dir, full)} ${st.ino} ${st.mtimeMs} ${st.size} `)
          .update(readFileSync(full))
          .update('\n');
    }
  };
  walk(dir);
  return hash.digest('hex');
}

/** An `[[edge_functions]]` entry of netlify.toml. */
export interface EdgeDeclaration {
  function: string;
  path: string | string[];
  excludedPath?: string | string[];
  cache?: string;
}

/** The parts of netlify.toml the tests look at (its redirects are read by Netlify's own parser). */
export interface NetlifyConfig {
  build?: { publish?: string };
  edge_functions?: EdgeDeclaration[];
  headers?: { for: string; values: Record<string, string> }[];
}

export const netlifyTomlPath = join(repoRoot, 'netlify.toml');

export function readNetlifyConfig(): NetlifyConfig {
  const toml = createRequire(import.meta.url)('@iarna/toml') as { parse(text: string): NetlifyConfig };
  return toml.parse(readFileSync(netlifyTomlPath, 'utf8'));
}

/** An item of the build at `distDir` as served: its file, with a field it borrows spliced in from the file it names (contract/borrowed-field.ts). */
export function servedItemText(distDir: string, kind: string, key: string | number): string {
  const read = (path: string) => readFileSync(join(distDir, path));
  return Buffer.from(servedItem(read(itemFile(kind, key)), read)).toString('utf8');
}
