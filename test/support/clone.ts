import { cpSync, existsSync, symlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import { repoRoot } from '../../generator/config.ts';

/**
 * A copy of the repository's files, as a fresh clone holds them (no build output, records,
 * downloaded data or .git), at `root`; node_modules is linked, as `npm ci` would make the same.
 * Put it where no `../shared` is beside it to be a clone anywhere else.
 */
export function copyOfClone(root: string): string {
  const skipTop = new Set(['node_modules', 'dist', '.git', '.netlify', 'test-output']);
  cpSync(repoRoot, root, {
    recursive: true,
    filter: (src) => {
      const rel = relative(repoRoot, src);
      return !skipTop.has(rel.split('/')[0]!) && !/^dist[.-]/.test(rel) && !/^data\/(records|upstream)(\/|$|\.)/.test(rel);
    },
  });
  symlinkSync(join(repoRoot, 'node_modules'), join(root, 'node_modules'));
  if (existsSync(join(root, '../shared'))) throw new Error(`${root} has a ../shared beside it`);
  return root;
}
