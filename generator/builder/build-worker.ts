/** A build worker thread: runs emitKinds on the kinds the main thread hands it, and posts progress and the result. */
import { parentPort, workerData } from 'node:worker_threads';
import { BuildError } from '../build-error.ts';
import { emitKinds, type ShardJob } from './shard.ts';

/**
 * A failure crosses to the main thread as its error, cloned (its message, its stack, its cause),
 * with a BuildError's problems beside it: a clone keeps no class of ours, nor its fields.
 */
export type WorkerMessage =
  | { type: 'progress'; records: number }
  /** asks the main thread for the next kind, which answers `{kind}` (null: none left) */
  | { type: 'next' }
  | { type: 'done'; result: Awaited<ReturnType<typeof emitKinds>> }
  | { type: 'failed'; error: unknown; problems?: string[] };

const { job } = workerData as { job: ShardJob };
const post = (message: WorkerMessage) => parentPort?.postMessage(message);
/** The next kind of the queue the workers share, from the main thread. */
const next = () =>
  new Promise<string | null>((resolve) => {
    parentPort?.once('message', (reply: { kind: string | null }) => resolve(reply.kind));
    post({ type: 'next' });
  });
emitKinds(job, next, (records) => post({ type: 'progress', records }))
  .then((result) => post({ type: 'done', result }))
  .catch((e: unknown) => post({ type: 'failed', error: e, ...(e instanceof BuildError ? { problems: e.problems } : {}) }));
