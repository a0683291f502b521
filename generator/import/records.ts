/**
 * Canonical records on disk: one NDJSON file per kind under data/records/, one record per line,
 * plus a manifest naming the inputs they were made from. Written to a temporary folder and
 * swapped in whole, so a failed import leaves the previous records as they were.
 */
import { copyFileSync, linkSync, readFileSync, readdirSync, rmSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readJsonIfThere, swapIn } from '../files/folders.ts';
import type { KindName } from '../model/kinds.ts';

/** What a later import needs to take a kind's records as they are (see reuse.ts). */
export interface MadeFrom {
  /** hash of the import's code alone */
  codeHash: string;
  /** sha1 of each table file's bytes, by table */
  tables: Record<string, string>;
  /** by kind, every table its records were made from (owned or read by its name) */
  reads: Record<string, string[]>;
  /** by kind, the warnings its check gave (said again when the kind is reused) */
  warnings: Record<string, string[]>;
}

export interface RecordsManifest {
  /** hash of the data set's files and of the code that reads them */
  inputHash: string;
  kinds: Record<string, number>;
  /** absent in manifests written before kinds were reused */
  madeFrom?: MadeFrom;
}

export type RecordSet = ReadonlyMap<KindName, ReadonlyArray<Record<string, unknown>>>;

/** Kinds whose file is taken as it is from another records folder. */
export interface Reused {
  from: string;
  kinds: readonly KindName[];
}

const MANIFEST = 'manifest.json';

export const recordsFile = (dir: string, kind: string): string => join(dir, `${kind}.ndjson`);

export function writeRecords(dir: string, records: RecordSet, manifest: RecordsManifest, reused: Reused = { from: dir, kinds: [] }): void {
  const tmp = `${dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  for (const kind of reused.kinds) linkOrCopy(recordsFile(reused.from, kind), recordsFile(tmp, kind));
  for (const [kind, list] of records) {
    writeFileSync(recordsFile(tmp, kind), list.map((r) => JSON.stringify(r)).join('\n') + '\n');
  }
  writeFileSync(join(tmp, MANIFEST), JSON.stringify(manifest, null, 2) + '\n');
  swapIn(tmp, dir);
}

/** A hard link (record files are never written in place, only replaced), or a copy across file systems. */
function linkOrCopy(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e;
    copyFileSync(from, to);
  }
}

/** The records' manifest; null when there is none, or one cut short (an import killed while writing it): either way nothing is reused. */
export function readManifest(dir: string): RecordsManifest | null {
  return readJsonIfThere<RecordsManifest>(join(dir, MANIFEST), () => null);
}

export function readRecords(dir: string): Map<KindName, Array<Record<string, unknown>>> {
  const out = new Map<KindName, Array<Record<string, unknown>>>();
  for (const file of readdirSync(dir)) {
    if (!file.endsWith('.ndjson')) continue;
    const text = readFileSync(join(dir, file), 'utf8');
    const list = text
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    out.set(file.slice(0, -'.ndjson'.length) as KindName, list);
  }
  return out;
}
