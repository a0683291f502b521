/**
 * The building half of `npm run dev`, which runs in a process of its own (build-process.ts): a
 * full build of the data set as it is, the planner opened over it, and each update it is asked
 * for, reported in the dev log (a bad edit by its named problem; the preview keeps the last good
 * build in every case).
 */
import type { Config } from '../config.ts';
import { BuildError } from '../builder/build.ts';
import { DataError } from '../import/tables.ts';
import { openIncremental, type IncrementalBuild, type UpdateReport } from '../incremental/index.ts';
import { FileMemo } from '../files/file-memo.ts';
import { aboutBuild, codeHash, ensureBuilt, inputHashes, mediaDir, stampedDataDir, type Log } from '../pipeline.ts';
import { openSteady } from './queue.ts';

/**
 * What an incremental build's stamp says once the code changed under a running `npm run dev`:
 * its updates are still made by the code it started with, so no input hash describes them,
 * and the next `npm start` builds again.
 */
export const OLDER_CODE_STAMP = 'made by npm run dev with code older than the working tree';

function describe(report: UpdateReport, seconds: number): string {
  const what =
    [...report.tables, ...(report.mediaPaths ? [`${report.mediaPaths} media path(s)`] : []), ...(report.reports ? ['the change reports'] : [])].join(', ') ||
    'no file with other bytes';
  if (report.unchanged) return `dev: ${what}; nothing the API serves changed (${seconds.toFixed(2)} s)`;
  const records =
    Object.entries(report.records)
      .map(([kind, n]) => `${n} ${kind}`)
      .join(', ') || 'no records';
  return `dev: ${what} → ${records} changed, ${report.documents} document(s) made again${report.relinked ? ` (${report.relinked} relinked)` : ''}, answers swapped in after ${seconds.toFixed(2)} s; making the downloads again`;
}

/**
 * What each update's stamp says it was made from: the input hash of the files as they were just
 * before the update read them. A file saved again meanwhile makes the stamp older than dist/,
 * never newer, so the next `npm start` builds again rather than serve something stale. The memo
 * keeps that a matter of a few stat calls and the changed tables. Once the code changed, no
 * input hash describes the updates (they are made by the code dev started with): OLDER_CODE_STAMP.
 */
class StampedInputs {
  /** shared with the planner, which looks at the same tables and manifests */
  readonly memo = new FileMemo();
  private readonly code: string;
  private codeChangeSaid = false;
  current = '';
  private readonly config: Config;
  private readonly log: Log;
  constructor(config: Config, log: Log) {
    this.config = config;
    this.log = log;
    this.code = codeHash(this.memo);
  }
  /** the inputs' hash now */
  hash(): string {
    return inputHashes(this.config, this.memo).build;
  }
  /** Takes the hash for the update about to run. */
  take(): void {
    if (codeHash(this.memo) === this.code) {
      this.current = this.hash();
      return;
    }
    this.current = OLDER_CODE_STAMP;
    if (!this.codeChangeSaid)
      this.log.warn('the code changed since npm run dev started; updates are still made by the code it started with. Restart it to use the new code.');
    this.codeChangeSaid = true;
  }
}

/** The planner over the configured data set and dist/; `inputs` says what each update's stamp was made from. */
function openPlanner(config: Config, inputs: StampedInputs): IncrementalBuild {
  return openIncremental({
    dataDir: config.dataDir,
    mediaDir: mediaDir(config.dataDir),
    outDir: config.outDir,
    baseUrl: config.baseUrl,
    memo: inputs.memo,
    keepReads: true,
    finish: () => ({ inputHash: inputs.current, about: aboutBuild(config.dataDir), ...stampedDataDir(config), changesDir: config.changesDir }),
  });
}

/** What the user reads when an update failed: the preview keeps the last good build in every case. */
function failureMessage(e: unknown): string {
  if (e instanceof DataError) return `The data set has problems; the preview keeps serving the last good build.\n${e.message}`;
  if (e instanceof BuildError) return `The build failed; the preview keeps serving the last good build.\n${e.message}`;
  return `The update failed; the preview keeps serving the last good build.\n${e instanceof Error ? (e.stack ?? e.message) : String(e)}`;
}

/**
 * How long after an update's answers are swapped in the downloads wait to be made again: the
 * preview's first reads of the new build go first, not behind the thousands of links of the copy
 * the downloads are written on (which share the disk and the cores with them).
 */
export const DOWNLOADS_PAUSE_MS = 1000;

/**
 * The downloads an update left stale, made again after a pause, one run at a time. An update
 * that comes first cancels the pause and stops a run under way (the database's thread at once,
 * the files at the next one), so that an edit never waits for the downloads: its own answers come
 * next, and the downloads are made again once after it. Closing waits for a run instead: the
 * downloads are left whole. A failure is said, and the next update tries again.
 */
class DownloadsRefresh {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> = Promise.resolve();
  private stopping: AbortController | null = null;

  private readonly planner: IncrementalBuild;
  private readonly log: Log;
  constructor(planner: IncrementalBuild, log: Log) {
    this.planner = planner;
    this.log = log;
  }

  /** Makes them again after the pause. */
  schedule(): void {
    this.cancel();
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.run();
    }, DOWNLOADS_PAUSE_MS);
  }

  /** Cancels a refresh not yet begun, and waits for one under way. */
  async settle(): Promise<void> {
    this.cancel();
    await this.running;
  }

  /** Cancels a refresh not yet begun, and stops one under way. */
  async stop(): Promise<void> {
    this.stopping?.abort(new DownloadsStopped());
    await this.settle();
  }

  private cancel(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private async run(): Promise<void> {
    const began = performance.now();
    const stopping = (this.stopping = new AbortController());
    try {
      const kinds = await this.planner.refreshDownloads(stopping.signal);
      const seconds = ((performance.now() - began) / 1000).toFixed(2);
      if (kinds !== null) this.log.info(`dev: downloads made again (${[...kinds, 'the archive'].join(', ')}) after ${seconds} s`);
    } catch (e) {
      if (e instanceof DownloadsStopped) return;
      const why = e instanceof Error ? (e.stack ?? e.message) : String(e);
      this.log.warn(`The downloads could not be made again; they stay marked stale (a 503 in the preview) until an update makes them.\n${why}`);
    } finally {
      this.stopping = null;
    }
  }
}

/** Why a refresh of the downloads stopped: an edit came, whose update goes first. */
class DownloadsStopped extends Error {
  constructor() {
    super('the downloads are made again after the edit that came');
    this.name = 'DownloadsStopped';
  }
}

export interface DevSession {
  /** Brings dist/ up to date with the data set; reports in the log, never throws. */
  update(): Promise<void>;
  /** Removes the folders the planner keeps beside dist/. */
  close(): Promise<void>;
}

/**
 * Builds what is missing, opens the planner over a data set that held still meanwhile, and says
 * when it is ready. `built` is called once dist/ holds a build of the data set (each time it does,
 * should the data set change while the planner opens): the preview can serve it from then on.
 */
export async function openDevSession(config: Config, log: Log, built: () => void = () => {}): Promise<DevSession> {
  const inputs = new StampedInputs(config, log);
  let started = 0;
  const planner = await openSteady({
    prepare: async () => {
      await ensureBuilt(config, log);
      built();
    },
    fingerprint: () => inputs.hash(),
    open: () => {
      started = performance.now();
      log.info('dev: reading the data set, and what every document reads (kept from the last session when it is of this build)');
      return openPlanner(config, inputs);
    },
    onChanged: () => log.info('dev: the data set changed while starting; building again'),
  });
  const reads = planner.readsKept ? 'what every document reads kept from the last session' : 'what every document reads learned';
  log.info(`dev: ready in ${((performance.now() - started) / 1000).toFixed(1)} s (${reads})`);
  const downloads = new DownloadsRefresh(planner, log);
  return {
    update: async () => {
      await downloads.stop();
      const began = performance.now();
      try {
        inputs.take();
        const report = await planner.update();
        log.info(describe(report, (performance.now() - began) / 1000));
      } catch (e) {
        log.warn(failureMessage(e));
      }
      downloads.schedule();
    },
    close: async () => {
      await downloads.settle();
      await planner.close();
    },
  };
}
