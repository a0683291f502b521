/**
 * The planner's writing steps, each onto a hard-linked copy of the served build, by the build
 * writer (builder/writer.ts), the same code the full build writes with:
 *   - the answers: what an update made. Each kind an update touched is written whole (records
 *     that went, records made again, the rest kept), so its names, list, pages and indexes come
 *     out as a full build's; what the downloads must make again is added to `stale`;
 *   - the downloads: the bulk files and the archive, made again from `stale` after the answers
 *     are served.
 */
import type { ArchiveEntry } from '../builder/archive.ts';
import type { KindEmitter } from '../builder/emit-kinds.ts';
import { BuildWriter, type FinishOptions, type KindResult, type StaleDownloads } from '../builder/writer.ts';
import type { FilePool } from '../files/file-pool.ts';
import type { KindName } from '../model/kinds.ts';
import type { MadeDocuments } from './documents.ts';
import type { AnyRecord, RecordChanges } from './record-changes.ts';

/** The served build as the writer sees it: its folder, its archive's entries, and the files made ahead for the copy's writes. */
export interface ServedBuild {
  dir: string;
  entries: readonly ArchiveEntry[];
  pool: FilePool;
}

export interface UpdateWrite {
  /** the hard-linked copy to write onto */
  copy: string;
  served: ServedBuild;
  emitters: ReadonlyMap<KindName, KindEmitter>;
  /** every kind's records as the served build has them */
  before: ReadonlyMap<KindName, readonly AnyRecord[]>;
  changes: RecordChanges;
  documents: MadeDocuments;
  baseUrl: string;
  finish: FinishOptions;
}

/** Writes the update's answers onto its copy and adds what they changed to `stale`; returns the copy's archive entries (the served archive's). */
export async function writeUpdate(update: UpdateWrite, stale: StaleDownloads): Promise<readonly ArchiveEntry[]> {
  const writer = BuildWriter.onCopy(update.copy, update.served.dir, update.served.entries, update.served.pool);
  const { made, gone } = update.documents;
  const touched = new Set<KindName>([...made.keys(), ...gone.keys(), ...update.changes.changed.keys()]);
  const results: KindResult[] = [];
  for (const kind of touched) {
    const em = update.emitters.get(kind);
    if (!em) continue;
    const out = writer.kind(em, update.baseUrl, update.before.get(kind) ?? []);
    for (const id of gone.get(kind) ?? []) out.remove(id);
    const docs = made.get(kind);
    const answered = stale.answered.get(kind) ?? new Set<number>();
    for (const record of update.changes.records.get(kind) ?? []) {
      const mine = docs?.get(record.id);
      if (mine) await out.record(record, mine);
      else out.keep(record);
      if (mine?.answer != null) answered.add(record.id);
    }
    if (answered.size) stale.answered.set(kind, answered);
    results.push(await out.close());
    if (out.changedBulkChunks.size === 0) continue;
    const chunks = stale.chunks.get(kind) ?? new Set<string>();
    for (const chunk of out.changedBulkChunks) chunks.add(chunk);
    stale.chunks.set(kind, chunks);
  }
  const finished = await writer.finish(update.finish, results);
  for (const rel of writer.rewritten) stale.rewritten.add(rel);
  stale.archive = finished.archive;
  stale.about = update.finish.about;
  return finished.archiveEntries;
}

/** Makes the downloads again onto a copy of the served build; returns the copy's archive entries. */
export function writeDownloads(
  copy: string,
  served: ServedBuild,
  stale: StaleDownloads,
  records: ReadonlyMap<KindName, readonly AnyRecord[]>,
  signal?: AbortSignal,
): Promise<readonly ArchiveEntry[]> {
  // every kind's: the database is made again from every item
  const ids = new Map([...records].map(([kind, list]) => [kind as string, list.map((record) => record.id)]));
  return BuildWriter.onCopy(copy, served.dir, served.entries, served.pool).refreshDownloads(stale, ids, signal);
}
