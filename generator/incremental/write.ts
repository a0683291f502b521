/**
 * The planner's writing step: what an update made, written onto a hard-linked copy of the
 * served build by the build writer (builder/writer.ts), the same code the full build writes with.
 * Each kind an update touched is written whole (records that went, records made again, the
 * rest kept), so its names, list, pages and bulk file come out as a full build's.
 */
import type { ArchiveEntry } from '../builder/archive.ts';
import type { KindEmitter } from '../builder/emit-kinds.ts';
import { BuildWriter, type FinishOptions, type KindResult } from '../builder/writer.ts';
import type { KindName } from '../model/kinds.ts';
import type { MadeDocuments } from './documents.ts';
import type { AnyRecord, RecordChanges } from './record-changes.ts';

export interface UpdateWrite {
  /** the hard-linked copy to write onto */
  copy: string;
  served: { dir: string; entries: readonly ArchiveEntry[] };
  emitters: ReadonlyMap<KindName, KindEmitter>;
  /** every kind's records as the served build has them */
  before: ReadonlyMap<KindName, readonly AnyRecord[]>;
  changes: RecordChanges;
  documents: MadeDocuments;
  baseUrl: string;
  finish: FinishOptions;
}

/** Writes the update onto its copy; returns the copy's archive entries. */
export async function writeUpdate(update: UpdateWrite): Promise<readonly ArchiveEntry[]> {
  const writer = BuildWriter.onCopy(update.copy, update.served.dir, update.served.entries);
  const { made, gone } = update.documents;
  const touched = new Set<KindName>([...made.keys(), ...gone.keys(), ...update.changes.changed.keys()]);
  const results: KindResult[] = [];
  for (const kind of touched) {
    const em = update.emitters.get(kind);
    if (!em) continue;
    const out = writer.kind(em, update.baseUrl, update.before.get(kind) ?? []);
    for (const id of gone.get(kind) ?? []) out.remove(id);
    const docs = made.get(kind);
    for (const record of update.changes.records.get(kind) ?? []) {
      const mine = docs?.get(record.id);
      if (mine) await out.record(record, mine);
      else out.keep(record);
    }
    results.push(await out.close());
  }
  return (await writer.finish(update.finish, results)).archiveEntries;
}
