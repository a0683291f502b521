/**
 * `npm run dev`: serves like `npm start`, and watches the data set (`csv/` and `media/`) and the
 * committed change reports (data/changes/). A saved change is imported and built incrementally
 * (incremental/) and swapped in; the preview notices the new build by itself. A bad edit prints
 * the named problem and the preview keeps serving the last good build. The first build and
 * every update run in a child process (build-process.ts): this process only serves and watches.
 * It serves as soon as dist/ holds a build; an edit saved before the planner is ready waits for it.
 */
import { existsSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config.ts';
import { consoleLog, mediaDir, type Log } from '../pipeline.ts';
import { startPreview, type Preview } from '../preview/index.ts';
import { startBuildProcess } from './build-process.ts';
import { UpdateQueue } from './queue.ts';

export { DEBOUNCE_MS } from './queue.ts';

export interface Dev {
  preview: Preview;
  /** the build process's id */
  buildPid: number;
  /** resolves when the planner is ready for edits (the preview serves before); rejects when it could not open */
  ready: Promise<void>;
  close(): Promise<void>;
}

export async function startDev(config: Config, log: Log = consoleLog, options: { host?: string } = {}): Promise<Dev> {
  // a full build of the data set as it is, served at once, and a planner that saw the same data set, opening meanwhile
  const builder = await startBuildProcess(config, log);

  // data/changes/ too: a report committed by a teammate (git pull) is served by the next update
  const watched = [join(config.dataDir, 'csv'), mediaDir(config.dataDir), ...(existsSync(config.changesDir) ? [config.changesDir] : [])];
  const preview = await startPreview({ root: config.outDir, baseUrl: config.baseUrl, port: config.port, host: options.host ?? '0.0.0.0' }).catch(
    async (e: unknown) => {
      // a port in use: the build process would otherwise keep this one from exiting
      await builder.close();
      throw e;
    },
  );
  log.info(`dev: serving ${config.outDir} at ${preview.url.replace('0.0.0.0', 'localhost')}/v2/; watching ${watched.join(', ')}`);

  // the build process reports an update's own failures; this is one of the process itself (it stopped)
  const queue = new UpdateQueue(() =>
    builder.update().catch((e: Error) => log.warn(`The update failed; the preview keeps serving the last good build.\n${e.message}`)),
  );
  const watchers: FSWatcher[] = watched.map((dir) => watch(dir, () => queue.notify()));

  return {
    preview,
    buildPid: builder.pid,
    ready: builder.ready,
    close: async () => {
      for (const w of watchers) w.close();
      await queue.close();
      await preview.close();
      await builder.close();
    },
  };
}
