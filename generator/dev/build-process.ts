/**
 * The serving side of `npm run dev`'s build process: the first build and every update run in a
 * child process (build-process-entry.ts), so the process that serves holds none of what a build
 * touches (a full build peaks at well over a gigabyte, the planner keeps hundreds of megabytes).
 * A child process rather than a worker thread: a worker's heap is this process's memory, and a
 * build that runs out of it would take the preview down with it.
 * One request at a time (the update queue never overlaps updates); the child's log lines are
 * this process's log lines.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Config } from '../config.ts';
import { consoleLog, type Log } from '../pipeline.ts';

/** What the serving process asks: open (build, then the planner), one update, close. */
export type ToBuildProcess = { type: 'open'; config: Config; console: boolean } | { type: 'update' } | { type: 'close' };

/**
 * What the build process answers: its log lines, that dist/ holds a build of the data set (while
 * it opens, before the planner is ready), then that a request is done or failed (with the text to print).
 */
export type FromBuildProcess =
  { type: 'log'; level: 'info' | 'warn'; message: string } | { type: 'built' } | { type: 'done' } | { type: 'failed'; message: string };

export interface BuildProcess {
  pid: number;
  /** resolves when the planner is ready for edits; rejects when it could not open (said in the log) */
  ready: Promise<void>;
  /** Brings dist/ up to date with the data set; the child reports how in the log. */
  update(): Promise<void>;
  /** Closes the planner (its spare copy of dist/ is removed) and waits for the child to exit. */
  close(): Promise<void>;
}

const entry = fileURLToPath(new URL('./build-process-entry.ts', import.meta.url));

/** The child's answers to one request at a time; a child that exits fails the request under way. */
class Requests {
  private waiting: { resolve: () => void; reject: (e: Error) => void } | null = null;
  readonly exited: Promise<void>;
  /** resolves the first time the child says dist/ holds a build */
  readonly built: Promise<void>;
  private sayBuilt: () => void = () => {};

  private readonly child: ChildProcess;
  constructor(child: ChildProcess, log: Log) {
    this.child = child;
    this.built = new Promise((resolve) => (this.sayBuilt = resolve));
    child.on('message', (message: FromBuildProcess) => {
      if (message.type === 'log') log[message.level](message.message);
      else if (message.type === 'built') this.sayBuilt();
      else this.settle(message.type === 'done' ? null : new Error(message.message));
    });
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        this.settle(new Error(`npm run dev's build process (pid ${child.pid}) stopped (${signal ?? `exit code ${code}`})`));
        resolve();
      }),
    );
  }

  ask(message: ToBuildProcess): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.child.send(message);
    });
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  private settle(failure: Error | null): void {
    const waiting = this.waiting;
    this.waiting = null;
    if (failure) waiting?.reject(failure);
    else waiting?.resolve();
  }
}

/**
 * Starts the build process and waits until dist/ holds a build of the data set (it builds what
 * was missing): the preview can serve from then on, while the planner opens (`ready`), which an
 * update waits for. Throws with the text the CLI prints when it could not build (bad data, a
 * failed download).
 */
export async function startBuildProcess(config: Config, log: Log): Promise<BuildProcess> {
  const child = fork(entry, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const requests = new Requests(child, log);
  log.info(`dev: building in a child process (pid ${child.pid}); this process only serves`);
  // the CLI's own log is the child's console: its progress bars and lines in the order it writes them
  const opened = requests.ask({ type: 'open', config, console: log === consoleLog });
  let serving = false;
  let closing = false;
  const ready = opened.catch((e: Error) => {
    if (serving && !closing)
      log.warn(`npm run dev could not open its planner: the preview serves the build, but edits are not served until it restarts.\n${e.message}`);
    throw new Error('the planner did not open (said above): restart npm run dev', { cause: e });
  });
  // a failure before the build is there is the CLI's to print; one after it, the log's (above)
  ready.catch(() => {});
  await Promise.race([requests.built, opened]);
  serving = true;
  return {
    pid: child.pid ?? 0,
    ready,
    update: async () => {
      await ready;
      await requests.ask({ type: 'update' });
    },
    close: async () => {
      closing = true;
      if (requests.running) child.send({ type: 'close' } satisfies ToBuildProcess);
      await requests.exited;
    },
  };
}
