/**
 * `build`: canonical records → every response as a file under dist/v2/. Worker threads take the
 * kinds one at a time from a queue they share, side by side (shard.ts does the work of one);
 * every document is checked against its output schema, everything is written to a temporary
 * folder, and `dist/` is replaced only when every document of every kind was good (and the
 * caller's look at the unfinished build, `beforeFinish`, succeeded).
 */
import { availableParallelism } from 'node:os';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { readJsonIfThere, swapIn } from '../files/folders.ts';
import { allResources } from '../resources/index.ts';
import { BuildError } from '../build-error.ts';
import { causeOf } from '../problems.ts';
import { gapLine, largestGaps } from '../indexes/coverage.ts';
import type { WorkerMessage } from './build-worker.ts';
import { emitKinds, type ShardJob, type ShardResult } from './shard.ts';
import { BuildWriter, type FinishOptions, type KindResult } from './writer.ts';

export interface BuildOptions {
  recordsDir: string;
  mediaDir: string;
  outDir: string;
  baseUrl: string;
  inputHash: string;
  /** what `GET {base}/meta/` says besides the counts */
  about: { upstreamCommit: string; version: string; builtAt: string };
  /** the data folder given with --data / DATA_DIR, recorded in the stamp */
  dataDir?: string;
  /** worker threads to build with; default: up to 2, as the machine has cores */
  workers?: number;
  /** the committed change reports to serve (data/changes/); none when not given */
  changesDir?: string;
  /** only these kinds (for tests and quick iterations); default: all */
  only?: ReadonlySet<string>;
  progress?: (done: number, total: number) => void;
  /**
   * Called once every kind is written into the unfinished build `dir`, before the files made
   * once: an update compares the build with the served one there and adds its change report to
   * `changesDir`, so that the finish serves the report in the same pass, with the stamp it
   * returns (the input hash with the report in). A failure leaves `outDir` as it was.
   */
  beforeFinish?: (dir: string, kinds: readonly KindResult[]) => Promise<FinishOverrides>;
  /**
   * Called on the main thread as each shard's kinds are written, while other shards may still
   * run: an update compares them with the served build there, in time the build would otherwise
   * spend waiting for its slowest shard. A failure fails the build, as a shard's does.
   */
  kindsWritten?: (dir: string, kinds: readonly KindResult[]) => void;
}

/** What a caller of the build may do between its kinds and its finish. */
export type BuildHooks = Pick<BuildOptions, 'beforeFinish' | 'kindsWritten'>;

/** What `beforeFinish` may change of the finish options. */
export type FinishOverrides = Partial<Pick<FinishOptions, 'inputHash'>>;

export interface BuildSummary {
  files: number;
  bytes: number;
  kinds: number;
  /** the coverage map's largest gaps, one line each */
  gaps: string[];
}

/** How many of the coverage map's gaps the build prints. */
const PRINTED_GAPS = 5;

export { BuildError };

/**
 * The order the workers take the kinds in, each taking the next when it is done with one: the
 * largest records first (a kind's records stand for its work), so that what is left at the end
 * is small and the workers finish together, however far the records' size is from a kind's
 * real work (an entry's records are small, its documents not).
 */
export function workOrder(kinds: readonly string[], cost: (kind: string) => number): string[] {
  return [...kinds].sort((a, b) => cost(b) - cost(a) || (a < b ? -1 : 1));
}

const YOUNG_GENERATION_MB = 96;

/** A worker that takes kinds from `queue` until it is empty (the queue the workers share). */
function runShardInWorker(job: ShardJob, queue: string[], progress: (records: number) => void): Promise<ShardResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./build-worker.ts', import.meta.url), {
      workerData: { job },
      // documents are many short-lived objects: a larger young generation means far fewer scavenges
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
    worker.on('message', (message: WorkerMessage) => {
      if (message.type === 'progress') progress(message.records);
      else if (message.type === 'next') worker.postMessage({ kind: queue.shift() ?? null });
      else {
        void worker.terminate();
        if (message.type === 'done') resolve(message.result);
        else reject(message.problems ? new BuildError(message.problems, { cause: message.error }) : message.error);
      }
    });
    worker.on('error', reject);
  });
}

/**
 * Every shard's result; when one fails, its error, but only once every other has stopped: a
 * worker still writing into the unfinished build makes removing it fail (ENOTEMPTY), and that
 * error would hide the one naming the table, row and column.
 */
export async function allShards<T>(running: readonly Promise<T>[]): Promise<T[]> {
  const settled = await Promise.allSettled(running);
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<T>).value);
}

export async function runBuild(options: BuildOptions): Promise<BuildSummary> {
  const tmp = `${options.outDir}.tmp-${process.pid}`;
  // the workers' parts of the database, beside the unfinished build: never in what is served
  const databaseParts = options.only ? null : `${tmp}-database`;
  try {
    if (databaseParts !== null) mkdirSync(databaseParts, { recursive: true });
    return await buildInto(tmp, databaseParts, options);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
    if (databaseParts !== null) rmSync(databaseParts, { recursive: true, force: true });
  }
}

async function buildInto(tmp: string, databaseParts: string | null, options: BuildOptions): Promise<BuildSummary> {
  const kinds = allResources.map((r) => r.kind as string).filter((k) => !options.only || options.only.has(k));
  const sizes = new Map(kinds.map((kind) => [kind, recordFileSize(options.recordsDir, kind)]));
  const recordBytes = (kind: string) => sizes.get(kind) ?? 0;
  const counts = recordCounts(options.recordsDir);
  const total = kinds.reduce((n, k) => n + (counts[k] ?? 0), 0);
  let done = 0;
  const progress = (records: number) => {
    done += records;
    options.progress?.(done, total);
  };
  const workers = Math.max(1, Math.min(options.workers ?? defaultWorkers([...sizes.values()].reduce((n, bytes) => n + bytes, 0)), kinds.length));
  const order = workOrder(kinds, recordBytes);
  const queue = [...order];
  const job: ShardJob = { recordsDir: options.recordsDir, mediaDir: options.mediaDir, outDir: tmp, baseUrl: options.baseUrl, databaseParts };
  const written = (result: ShardResult): ShardResult => {
    if (result.failures.length === 0) options.kindsWritten?.(tmp, result.kinds);
    return result;
  };
  const results =
    workers > 1
      ? await allShards(Array.from({ length: workers }, () => runShardInWorker(job, queue, progress).then(written)))
      : [written(await emitKinds(job, () => queue.shift() ?? null, progress))];

  // in the order taken, whichever worker took each: the same inputs give the same files, and the same failure
  const byOrder = (a: { kind: string }, b: { kind: string }) => order.indexOf(a.kind) - order.indexOf(b.kind);
  const failures = results.flatMap((r) => r.failures).sort(byOrder);
  if (failures.length)
    throw new BuildError(
      failures.flatMap((f) => f.problems),
      causeOf(failures.flatMap((f) => f.thrown)),
    );
  const built = results.flatMap((r) => r.kinds).sort(byOrder);
  const overrides = (await options.beforeFinish?.(tmp, built)) ?? {};
  const parts = results.flatMap((r) => (r.databasePart === null ? [] : [r.databasePart]));
  const finished = await BuildWriter.fresh(tmp).finish({ ...options, ...overrides, databaseParts: parts }, built);
  swapIn(tmp, options.outDir);
  return {
    files: finished.files + results.reduce((n, r) => n + r.files, 0),
    bytes: finished.bytes + results.reduce((n, r) => n + r.bytes, 0),
    kinds: built.length,
    gaps: largestGaps(finished.coverage, PRINTED_GAPS).map(gapLine),
  };
}

/**
 * Records below this size are built on the main thread alone: a worker starts by loading the
 * build's modules and schemas, which cost more than its share of a small data set's work (the
 * data cut's records build several times faster on one thread than on two); the whole data
 * set's records are built on two.
 */
const ONE_THREAD_BELOW_BYTES = 16 * 1024 * 1024;

const defaultWorkers = (recordBytes: number): number => (recordBytes < ONE_THREAD_BELOW_BYTES ? 1 : Math.min(2, availableParallelism()));

/** The size of a kind's records file; 0 when it has none (the shard planner weighs kinds by it). */
function recordFileSize(recordsDir: string, kind: string): number {
  return statSync(join(recordsDir, `${kind}.ndjson`), { throwIfNoEntry: false })?.size ?? 0;
}

/** How many records each kind has, from the import's manifest (for progress only: none when it is missing or cut short). */
function recordCounts(recordsDir: string): Record<string, number> {
  return readJsonIfThere<{ kinds?: Record<string, number> }>(join(recordsDir, 'manifest.json'), () => null)?.kinds ?? {};
}
