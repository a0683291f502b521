/**
 * Canonical records on disk: one NDJSON file per kind under data/records/, one record per line,
 * plus a manifest naming the inputs they were made from. Written to a temporary folder and
 * swapped in whole, so a failed import leaves the previous records as they were.
 */
import { readFileSync, readdirSync, rmSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { swapIn } from '../files/folders.ts';
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
