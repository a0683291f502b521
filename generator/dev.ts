/**
 * `npm run dev`: serves like `npm start`, and watches the data set (`csv/` and `media/`). A
 * saved change is imported and built incrementally (incremental/) and swapped in; the
 * preview notices the new build by itself. A bad edit prints the named problem and the preview
 * keeps serving the last good build.
 */
import { watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import type { Config } from './config.ts';
import { BuildError } from './emit/build.ts';
import { DataError } from './import/tables.ts';
import { openIncremental, type IncrementalBuild, type UpdateReport } from './incremental/index.ts';
import { FileMemo } from './files/file-memo.ts';
import { buildTime, codeHash, consoleLog, ensureBuilt, inputHashes, mediaDir, projectVersion, upstreamCommit, type Log } from './pipeline.ts';
import { startPreview, type Preview } from './preview.ts';

/** Saves come in bursts (an editor writes, renames, touches): wait this long after the last event. */
export const DEBOUNCE_MS = 100;

/**
 * What an incremental build's stamp says once the code changed under a running `npm run dev`:
 * its updates are still made by the code it started with, so no input hash describes them,
 * and the next `npm start` builds again.
 */
export const OLDER_CODE_STAMP = 'made by npm run dev with code older than the working tree';

export interface Dev {
  preview: Preview;
  close(): Promise<void>;
}

function describe(report: UpdateReport, seconds: number): string {
  const what = [...report.tables, ...(report.mediaPaths ? [`${report.mediaPaths} media path(s)`] : [])].join(', ') || 'no file with other bytes';
  if (report.unchanged) return `dev: ${what}; nothing the API serves changed (${seconds.toFixed(2)} s)`;
  const records = Object.entries(report.records).map(([kind, n]) => `${n} ${kind}`).join(', ') || 'no records';
  return `dev: ${what} → ${records} changed, ${report.documents} document(s) made again, swapped in after ${seconds.toFixed(2)} s`;
}

export async function startDev(config: Config, log: Log = consoleLog, options: { host?: string } = {}): Promise<Dev> {
  // Each update's stamp carries the input hash of the files as they were before the update read
  // them: a file saved again meanwhile makes the stamp older than dist/, never newer, so the
  // next `npm start` builds again rather than serve something stale. The memo keeps that a
  // matter of a few stat calls and the changed tables.
  const hashMemo = new FileMemo();
  const code = codeHash(hashMemo);
  let codeChangeSaid = false;
  let inputs = '';
  const takeInputs = () => {
    if (codeHash(hashMemo) === code) {
      inputs = inputHashes(config, hashMemo).build;
      return;
    }
    inputs = OLDER_CODE_STAMP;
    if (!codeChangeSaid) log.warn('the code changed since npm run dev started; updates are still made by the code it started with. Restart it to use the new code.');
    codeChangeSaid = true;
  };

  // a full build of the data set as it is, and a planner that saw the same data set
  let planner: IncrementalBuild;
  for (;;) {
    await ensureBuilt(config, log);
    const built = inputHashes(config, hashMemo).build;
    const started = performance.now();
    log.info('dev: reading the data set and what every document reads (once per session)');
    planner = openIncremental({
      dataDir: config.dataDir,
      mediaDir: mediaDir(config.dataDir),
      outDir: config.outDir,
      baseUrl: config.baseUrl,
      memo: hashMemo,
      finish: () => ({ inputHash: inputs, about: { upstreamCommit: upstreamCommit(config.dataDir), version: projectVersion(), builtAt: buildTime() } }),
    });
    if (inputHashes(config, hashMemo).build === built) {
      log.info(`dev: ready in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      break;
    }
    log.info('dev: the data set changed while starting; building again');
  }

  const preview = await startPreview({ root: config.outDir, baseUrl: config.baseUrl, port: config.port, host: options.host ?? '0.0.0.0' });
  log.info(`dev: serving ${config.outDir} at ${preview.url.replace('0.0.0.0', 'localhost')}/v2/; watching ${config.dataDir}/csv and /media`);

  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();
  let pending = false;
  const runUpdate = async () => {
    const started = performance.now();
    try {
      takeInputs();
      const report = await planner.update();
      log.info(describe(report, (performance.now() - started) / 1000));
    } catch (e) {
      if (e instanceof DataError) log.warn(`The data set has problems; the preview keeps serving the last good build.\n${e.message}`);
      else if (e instanceof BuildError) log.warn(`The build failed; the preview keeps serving the last good build.\n${e.message}`);
      else log.warn(`The update failed; the preview keeps serving the last good build.\n${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    }
  };
  const schedule = () => {
    pending = true;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      running = running.then(async () => {
        if (!pending) return;
        pending = false;
        await runUpdate();
      });
    }, DEBOUNCE_MS);
  };
  const watchers: FSWatcher[] = [join(config.dataDir, 'csv'), mediaDir(config.dataDir)].map((dir) => watch(dir, () => schedule()));

  return {
    preview,
    close: async () => {
      for (const w of watchers) w.close();
      if (timer) clearTimeout(timer);
      await running;
      await preview.close();
      await planner.close();
    },
  };
}
