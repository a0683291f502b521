import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { repoRoot } from '../../generator/config.ts';

/**
 * A copy of the repository's files, as a fresh clone holds them (no build output, records,
 * downloaded data or .git), at `root`; node_modules is linked, as `npm ci` would make the same.
 * Put it where no `../shared` is beside it to be a clone anywhere else.
 */
export function copyOfClone(root: string): string {
  const files = clonedFiles();
  if (files) {
    for (const rel of files) {
      mkdirSync(dirname(join(root, rel)), { recursive: true });
      cpSync(join(repoRoot, rel), join(root, rel));
    }
  } else copyByFilter(root);
  symlinkSync(join(repoRoot, 'node_modules'), join(root, 'node_modules'));
  if (existsSync(join(root, '../shared'))) throw new Error(`${root} has a ../shared beside it`);
  return root;
}

/**
 * What a clone holds, as git names it: the tracked files and the new ones not ignored (work in
 * progress is what is tested). Whatever .gitignore names stays out, however big or wherever it
 * is: the tests' own build folder (.test-build/, hundreds of MB), a cut made by `npm run data:cut`,
 * test-output/. Null when the repository is no git work tree.
 */
function clonedFiles(): string[] | null {
  let listed: string;
  try {
    listed = execFileSync('git', ['-C', repoRoot, 'ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      encoding: 'utf8',
      maxBuffer: 1 << 26,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch {
    return null;
  }
  // a file deleted but not yet staged is still listed: a clone of the work tree has none
  return [...new Set(listed.split('\0').filter(Boolean))].filter((rel) => existsSync(join(repoRoot, rel)));
}

/** Without git: everything but the folders a build, a test run or a download makes. */
function copyByFilter(root: string): void {
  const skipTop = new Set(['node_modules', 'dist', '.git', '.netlify', 'test-output', '.test-build']);
  cpSync(repoRoot, root, {
    recursive: true,
    filter: (src) => {
      const rel = relative(repoRoot, src);
      return !skipTop.has(rel.split('/')[0]!) && !/^dist[.-]/.test(rel) && !/^data\/(records|upstream|cut)(\/|$|\.)/.test(rel);
    },
  });
}
