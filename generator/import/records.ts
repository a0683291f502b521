/**
 * Canonical records on disk: one NDJSON file per kind under data/records/, one record per line,
 * plus a manifest naming the inputs they were made from. Written to a temporary folder and
 * swapped in whole, so a failed import leaves the previous records as they were.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, renameSync, rmSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KindName } from '../model/kinds.ts';

export interface RecordsManifest {
  /** hash of the data set's files and of the code that reads them */
  inputHash: string;
  kinds: Record<string, number>;
}

export type RecordSet = ReadonlyMap<KindName, ReadonlyArray<Record<string, unknown>>>;

const MANIFEST = 'manifest.json';

export function writeRecords(dir: string, records: RecordSet, manifest: RecordsManifest): void {
  const tmp = `${dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  for (const [kind, list] of records) {
    writeFileSync(join(tmp, `${kind}.ndjson`), list.map((r) => JSON.stringify(r)).join('\n') + '\n');
  }
  writeFileSync(join(tmp, MANIFEST), JSON.stringify(manifest, null, 2) + '\n');
  swapIn(tmp, dir);
}

/** Replaces `target` by `fresh` with two renames; the old folder is removed afterwards. */
export function swapIn(fresh: string, target: string): void {
  const old = `${target}.old-${process.pid}`;
  if (existsSync(target)) renameSync(target, old);
  renameSync(fresh, target);
  rmSync(old, { recursive: true, force: true });
}

export function readManifest(dir: string): RecordsManifest | null {
  try {
    return JSON.parse(readFileSync(join(dir, MANIFEST), 'utf8')) as RecordsManifest;
  } catch {
    return null;
  }
}

export function readRecords(dir: string): Map<KindName, Array<Record<string, unknown>>> {
  const out = new Map<KindName, Array<Record<string, unknown>>>();
  for (const file of readdirSync(dir)) {
    if (!file.endsWith('.ndjson')) continue;
    const text = readFileSync(join(dir, file), 'utf8');
    const list = text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>);
    out.set(file.slice(0, -'.ndjson'.length) as KindName, list);
  }
  return out;
}

/** A file's hash, and the look at the file it was taken after. */
interface HashedFile {
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  digest: string;
}

/**
 * Hashes of files already read, by path: a process that asks again and again (`npm run dev`
 * after each save) reads only the files whose inode, size or times changed. The look comes
 * before the read, so a file written while it is read is read again next time.
 */
export type FileHashMemo = Map<string, HashedFile>;

function fileDigest(path: string, memo: FileHashMemo | undefined): string {
  const seen = memo && statSync(path);
  const known = seen && memo.get(path);
  if (seen && known && known.ino === seen.ino && known.size === seen.size && known.mtimeMs === seen.mtimeMs && known.ctimeMs === seen.ctimeMs) return known.digest;
  const digest = createHash('sha256').update(readFileSync(path)).digest('hex');
  if (seen) memo.set(path, { ino: seen.ino, size: seen.size, mtimeMs: seen.mtimeMs, ctimeMs: seen.ctimeMs, digest });
  return digest;
}

/** A hash of the files in `paths` (folders are walked in name order): of each file's path and its bytes' hash. */
export function hashFiles(paths: readonly string[], memo?: FileHashMemo): string {
  const hash = createHash('sha256');
  const visit = (p: string) => {
    if (!existsSync(p)) {
      hash.update(`missing:${p}\n`);
      return;
    }
    let entries: string[] | null = null;
    try {
      entries = readdirSync(p).sort();
    } catch {
      entries = null;
    }
    if (entries) for (const e of entries) visit(join(p, e));
    else hash.update(`${p}\n${fileDigest(p, memo)}\n`);
  };
  for (const p of paths) visit(p);
  return hash.digest('hex');
}
