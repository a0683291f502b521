/** A build shard in a worker thread: runs emitKinds and posts progress and the result. */
import { parentPort, workerData } from 'node:worker_threads';
import { emitKinds, type ShardJob } from './shard.ts';

export type WorkerMessage = { type: 'progress'; records: number } | { type: 'done'; result: Awaited<ReturnType<typeof emitKinds>> } | { type: 'failed'; message: string };

const { job } = workerData as { job: ShardJob };
const post = (message: WorkerMessage) => parentPort?.postMessage(message);
emitKinds(job, (records) => post({ type: 'progress', records }))
  .then((result) => post({ type: 'done', result }))
  .catch((e: unknown) => post({ type: 'failed', message: e instanceof Error ? (e.stack ?? e.message) : String(e) }));
