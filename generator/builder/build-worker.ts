/** A build shard in a worker thread: runs emitKinds and posts progress and the result. */
import { parentPort, workerData } from 'node:worker_threads';
import { BuildError } from '../build-error.ts';
import { emitKinds, type ShardJob } from './shard.ts';

/**
 * A failure crosses to the main thread as its error, cloned (its message, its stack, its cause),
 * with a BuildError's problems beside it: a clone keeps no class of ours, nor its fields.
 */
export type WorkerMessage =
  | { type: 'progress'; records: number }
  | { type: 'done'; result: Awaited<ReturnType<typeof emitKinds>> }
  | { type: 'failed'; error: unknown; problems?: string[] };

const { job } = workerData as { job: ShardJob };
const post = (message: WorkerMessage) => parentPort?.postMessage(message);
emitKinds(job, (records) => post({ type: 'progress', records }))
  .then((result) => post({ type: 'done', result }))
  .catch((e: unknown) => post({ type: 'failed', error: e, ...(e instanceof BuildError ? { problems: e.problems } : {}) }));
