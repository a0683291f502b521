/** The preview's file reader: files under one folder, and nothing outside it. */
import { readFile } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import type { FileReader } from '../../edge/handler.ts';

/** Whether a failed read found no file at the path: it is not there, or a folder on the way is a file. */
const isMissing = (error: unknown): boolean => {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
};

/** Reads files under `root` only; any path that would leave it reads as missing. */
export function diskReader(root: string): FileReader {
  const base = resolve(root) + sep;
  return {
    async read(path) {
      const full = resolve(base, path);
      if (!full.startsWith(base)) return null;
      try {
        return await readFile(full);
      } catch (error) {
        // no file there: missing; anything else (a folder, no permission, an I/O error) is a fault
        if (isMissing(error)) return null;
        throw error;
      }
    },
  };
}
