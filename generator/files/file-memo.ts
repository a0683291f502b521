/**
 * File identities and their bytes' digests, remembered by path: a process that asks again and
 * again (`npm run dev` after each save: the input hash, the planner's look at tables and media
 * manifests) reads only the files whose inode, size, modification or change time moved. The
 * look comes before the read, so a file written while it is read is read again next time.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** A file as a stat call shows it, and the digest of the bytes read after that look. */
interface KnownFile {
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  digest: string;
}

/** The digest the memo keeps of a file's bytes. */
export const digestOf = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

export class FileMemo {
  private readonly known = new Map<string, KnownFile>();

  /** How many files it knows. */
  get size(): number {
    return this.known.size;
  }

  /**
   * The digest of the file's bytes; `bytes` too when they had to be read for it (the file is
   * new to the memo or looks different), null when the memo's digest was taken as it is.
   */
  look(path: string): { digest: string; bytes: Buffer | null } {
    const st = statSync(path);
    const known = this.known.get(path);
    if (known && known.ino === st.ino && known.size === st.size && known.mtimeMs === st.mtimeMs && known.ctimeMs === st.ctimeMs)
      return { digest: known.digest, bytes: null };
    const bytes = readFileSync(path);
    const digest = digestOf(bytes);
    this.known.set(path, { ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, digest });
    return { digest, bytes };
  }
}

/**
 * A hash of the files in `paths` (folders are walked in name order): of each file's path within
 * its root and its bytes' digest. Where a root lies does not count, so a folder staged beside
 * the one it replaces (`npm run data:update`) hashes as it will once swapped in.
 */
export function hashFiles(paths: readonly string[], memo?: FileMemo): string {
  const hash = createHash('sha256');
  const visit = (p: string, name: string) => {
    if (!existsSync(p)) {
      hash.update(`missing:${name}\n`);
      return;
    }
    let entries: string[] | null = null;
    try {
      entries = readdirSync(p).sort();
    } catch (error) {
      // a file, not a folder: hashed as one below
      if ((error as NodeJS.ErrnoException).code !== 'ENOTDIR') throw error;
    }
    if (entries) for (const e of entries) visit(join(p, e), `${name}/${e}`);
    else hash.update(`${name}\n${memo ? memo.look(p).digest : digestOf(readFileSync(p))}\n`);
  };
  paths.forEach((p, i) => visit(p, String(i)));
  return hash.digest('hex');
}
