/**
 * The full build's work for a set of kinds (one shard; shards run side by side in worker
 * threads): every record's documents, each checked against its schema, written with the
 * kind's list, pages, names and bulk file by the build writer.
 */
import { readRecords } from '../import/records.ts';
import { allResources } from '../resources/index.ts';
import { createContext } from '../resources/context.ts';
import { emitRecord, kindEmitter, readMedia } from './emit-kinds.ts';
import { BuildWriter, type KindResult } from './writer.ts';

export interface ShardJob {
  kinds: string[];
  recordsDir: string;
  mediaDir: string;
  /** the temporary folder the whole build writes into */
  outDir: string;
  baseUrl: string;
}

export interface ShardResult {
  kinds: KindResult[];
  problems: string[];
  files: number;
  bytes: number;
}

type AnyRecord = { id: number; name: string | null };

/** Stops a shard early when it has found this many bad documents; more would only be noise. */
const MAX_PROBLEMS = 50;

export async function emitKinds(job: ShardJob, progress: (records: number) => void = () => {}): Promise<ShardResult> {
  const ctx = createContext(job.baseUrl, readRecords(job.recordsDir), readMedia(job.mediaDir));
  const writer = BuildWriter.fresh(job.outDir);
  const problems: string[] = [];
  const results: KindResult[] = [];

  for (const resource of allResources.filter((r) => job.kinds.includes(r.kind))) {
    const em = kindEmitter(resource);
    const out = writer.kind(em, job.baseUrl);
    let sinceProgress = 0;
    for (const record of ctx.records(em.kind) as readonly AnyRecord[]) {
      const docs = emitRecord(em, ctx, record);
      problems.push(...docs.problems);
      await out.record(record, docs);
      if (problems.length >= MAX_PROBLEMS) break;
      if (++sinceProgress === 250) {
        progress(sinceProgress);
        sinceProgress = 0;
      }
    }
    progress(sinceProgress);
    const result = await out.close();
    if (problems.length >= MAX_PROBLEMS) break;
    results.push(result);
  }
  await writer.flush();
  return { kinds: results, problems, files: writer.files, bytes: writer.bytes };
}
