/**
 * The full build's work of one worker thread (workers run side by side, each taking the next
 * kind from a queue they share): every record's documents, each checked against its schema,
 * written with the kind's list, pages, names and bulk file by the build writer, and each item's
 * rows put in the worker's part of the database.
 */
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { databaseTables, DatabasePart } from '../database/index.ts';
import { readRecords } from '../import/records.ts';
import { allResources } from '../resources/index.ts';
import { createContext } from '../resources/context.ts';
import { emitRecord, kindEmitter, readMedia } from './emit-kinds.ts';
import { BuildWriter, type KindResult } from './writer.ts';

export interface ShardJob {
  recordsDir: string;
  mediaDir: string;
  /** the temporary folder the whole build writes into */
  outDir: string;
  baseUrl: string;
  /** the folder each worker's part of the database goes to (never served); null: a build with no database */
  databaseParts: string | null;
}

/** A kind's bad documents: each problem, and the exceptions among them (for the BuildError's cause). */
export interface KindFailure {
  kind: string;
  problems: string[];
  thrown: unknown[];
}

export interface ShardResult {
  kinds: KindResult[];
  /** by kind, as they were made; none when every document was good */
  failures: KindFailure[];
  files: number;
  bytes: number;
  /** the worker's part of the database, with the rows of its kinds; null when the build makes none */
  databasePart: string | null;
}

type AnyRecord = { id: number; name: string | null };

/** Makes the kinds `next` gives, one after another, until it gives none. */
export async function emitKinds(
  job: ShardJob,
  next: () => string | null | Promise<string | null>,
  progress: (records: number) => void = () => {},
): Promise<ShardResult> {
  const ctx = createContext(job.baseUrl, readRecords(job.recordsDir), readMedia(job.mediaDir));
  const writer = BuildWriter.fresh(job.outDir);
  const databasePart = job.databaseParts === null ? null : join(job.databaseParts, `part-${threadId}.sqlite`);
  const database = databasePart === null ? null : new DatabasePart(databasePart, databaseTables());
  const failures: KindFailure[] = [];
  const results: KindResult[] = [];

  for (let kind = await next(); kind !== null; kind = await next()) {
    const resource = allResources.find((r) => r.kind === kind);
    if (!resource) throw new Error(`no resource of kind ${kind}`);
    const em = kindEmitter(resource);
    const out = writer.kind(em, job.baseUrl);
    const failure: KindFailure = { kind, problems: [], thrown: [] };
    let sinceProgress = 0;
    for (const record of ctx.records(em.kind) as readonly AnyRecord[]) {
      const docs = emitRecord(em, ctx, record);
      failure.problems.push(...docs.problems);
      failure.thrown.push(...docs.thrown);
      await out.record(record, docs);
      if (docs.answer !== null) database?.add(kind, docs.answer);
      if (++sinceProgress === 250) {
        progress(sinceProgress);
        sinceProgress = 0;
      }
    }
    progress(sinceProgress);
    if (failure.problems.length) failures.push(failure);
    results.push(await out.close());
  }
  await writer.flush();
  database?.close();
  return { kinds: results, failures, files: writer.files, bytes: writer.bytes, databasePart };
}
