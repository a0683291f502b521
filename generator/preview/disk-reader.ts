/** The preview's file reader: files under one folder, and nothing outside it. */
import { readFile } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import type { FileReader } from '../../edge/handler.ts';

/** Reads files under `root` only; any path that would leave it reads as missing. */
export function diskReader(root: string): FileReader {
  const base = resolve(root) + sep;
  return {
    async read(path) {
      const full = resolve(base, path);
      if (!full.startsWith(base)) return null;
      try {
        return await readFile(full);
      } catch {
        return null;
      }
    },
  };
}
