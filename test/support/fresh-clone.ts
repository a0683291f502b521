/**
 * A fresh clone, as a user meets it, for test/fresh-clone.test.ts and test/netlify-cli.test.ts
 * (each file runs in a process of its own, so each makes its own): a copy of this repository in a
 * scratch folder with no ../shared beside it, its lock naming the pinned commit and the data cut's
 * tables (generator/cut), and a local server holding an archive of those tables in the upstream's
 * layout, for DATA_URL. Also where the pinned netlify-cli is found, once the global setup has
 * fetched it (netlify-cli-fetch.ts).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { inject } from 'vitest';
import { lockPath, readLock, type UpstreamLock } from '../../generator/fetch/index.ts';
import { formatLock, lockForFolder } from '../../generator/fetch/lock.ts';
import { copyOfClone } from './clone.ts';
import { fetchedCli, NETLIFY_CLI } from './netlify-cli-fetch.ts';
import { startTestServer, upstreamArchive, type TestServer } from './upstream-archive.ts';

export const run = promisify(execFile);
export const cutCsv = join(inject('cutDataDir'), 'csv');
export const baseUrl = inject('baseUrl');
export const realLock = readLock(lockPath);
/** The clone's lock: the pinned commit, and the hashes of the tables the archive holds (the cut's). */
export const cutLock: UpstreamLock = { ...lockForFolder(realLock.commit, cutCsv), archive: realLock.archive };
export const archivePath = `/pokeapi/tar.gz/${realLock.commit}`;

export interface BuildResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The environment of a user of the clone: none of the variables the test process has for itself. */
export function userEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...process.env };
  for (const name of [
    'BASE_URL',
    'DATA_DIR',
    'DATA_URL',
    'DATA_TIMEOUT_MS',
    'PORT',
    'OUT_DIR',
    'RECORDS_DIR',
    'NODE_OPTIONS',
    'VITEST',
    'VITEST_POOL_ID',
    'VITEST_WORKER_ID',
  ])
    delete out[name];
  // links as the cut's build that the answers are compared with
  return { ...out, BASE_URL: baseUrl, ...env };
}

/** The clone, its scratch folder and the archive server; `setUp` in a beforeAll, `tearDown` in an afterAll. */
export class FreshClone {
  readonly scratch = mkdtempSync(join(tmpdir(), 'creature-fresh-clone-'));
  readonly clone = join(this.scratch, 'elsewhere/creature-api');
  readonly dist = join(this.clone, 'dist');
  readonly cache = join(this.clone, 'data/upstream');
  private started: TestServer | undefined;

  /** The archive server, once `setUp` has started it. */
  get server(): TestServer {
    if (!this.started) throw new Error('the archive server is not started: call setUp() in a beforeAll');
    return this.started;
  }

  async setUp(): Promise<void> {
    this.started = await startTestServer();
    copyOfClone(this.clone);
    writeFileSync(join(this.clone, 'data/upstream.lock.json'), formatLock(cutLock));
    this.server.route(archivePath, { body: upstreamArchive(cutCsv, `pokeapi-${realLock.commit}`) });
  }

  async tearDown(): Promise<void> {
    await this.started?.close();
    rmSync(this.scratch, { recursive: true, force: true });
  }

  /** DATA_URL as a user sets it to the archive server ({commit} is the lock's). */
  dataUrl(): string {
    return this.server.url('/pokeapi/tar.gz/{commit}');
  }

  /** `npm run build` in the clone, or in a copy of it (the command npm runs). */
  build(env: Record<string, string>, root = this.clone): Promise<BuildResult> {
    return run(process.execPath, ['generator/cli.ts', 'build'], { cwd: root, env: userEnv(env), maxBuffer: 1 << 26 }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (e: BuildResult) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
    );
  }

  /**
   * A copy of the clone as built (its cache, records and dist/), for what must not share its
   * folder with a server or another test. Made without blocking, and without the .netlify/ a
   * server of the clone may be writing meanwhile; with `cp -a`, which keeps the build's hard
   * links and takes a second where node's fs.cp took five.
   */
  async copyOfBuilt(name: string): Promise<string> {
    const root = join(this.scratch, `${name}/creature-api`);
    mkdirSync(root, { recursive: true });
    const entries = readdirSync(this.clone).filter((entry) => entry !== '.netlify');
    await run('cp', ['-a', ...entries.map((entry) => join(this.clone, entry)), root]);
    return root;
  }
}

export interface CliInstall {
  bin: string;
  bootstrap: string;
}
let cliInstall: Promise<CliInstall> | undefined;

/** The CLI's install (npx's cache, filled by the global setup): its `netlify` binary and the edge bootstrap it ships; found once, for every server. */
export const installCli = (): Promise<CliInstall> => (cliInstall ??= findCli());

async function findCli(): Promise<CliInstall> {
  // the global setup began the fetch beside its builds, so on a new machine it is mostly done by the time a server starts
  const { bin, note } = await fetchedCli(inject('netlifyCliMarker'), 600_000);
  const root = dirname(dirname(bin)); // <npx cache>/node_modules
  const bootstrap = [
    join(root, '@netlify/edge-functions-dev/dist/deno/bootstrap.mjs'),
    join(root, 'netlify-cli/node_modules/@netlify/edge-functions-dev/dist/deno/bootstrap.mjs'),
  ].find((p) => existsSync(p));
  if (!bootstrap) throw new Error(`${NETLIFY_CLI} in ${root} ships no @netlify/edge-functions-dev/dist/deno/bootstrap.mjs`);
  console.log(`[netlify] ${NETLIFY_CLI} ready (${note}): ${root}`);
  return { bin, bootstrap };
}
