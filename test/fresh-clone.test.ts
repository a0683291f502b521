/**
 * A fresh clone, as a user meets it: a copy of this repository in a folder with no ../shared
 * beside it, DATA_URL pointed at a local server holding an archive in the upstream's layout of
 * the data cut's tables (generator/cut; the pinned commit, with a lock made for those tables), and
 * the real commands:
 *   1. `npm run build` downloads, verifies and builds the same API as the global setup's build of
 *      the cut;
 *   2. a second build downloads nothing;
 *   3. Netlify's own CLI serves that clone: a pinned netlify-cli fetched on demand with npx (not a
 *      dependency) runs `netlify serve --offline`, which runs netlify.toml's build command,
 *      bundles the edge function and serves dist/; every row of the shared request table
 *      (test/support/http-cases.ts) is sent to it, and again with spoofed headers, and
 *      `npm run check:deploy` runs against it; side by side, a copy of the clone whose function
 *      throws, whose requests the rules must answer;
 *   4. failed downloads (a corrupted table, a truncated archive, a 404, a server that hangs), in
 *      a copy of the built clone while the servers start: each one clear error, the cache and
 *      dist/ as they were.
 *
 * Offline, the CLI cannot download its edge runtime's bootstrap module; NETLIFY_EDGE_BOOTSTRAP
 * points it at the one its own install ships, and the project's deno (node_modules/.bin) is
 * first on PATH, so nothing is fetched from Netlify's servers.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cp } from 'node:fs/promises';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { basename, delimiter, dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isDeepStrictEqual, promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { gitBlobSha1, lockPath, readLock, type UpstreamLock } from '../generator/fetch/index.ts';
import { formatLock, lockForFolder } from '../generator/fetch/lock.ts';
import { copyOfClone } from './support/clone.ts';
import { fileHashes } from './support/files.ts';
import { checkOutcome, expectedBody, gotFrom, httpCases, loadCaseContext, runCases, withSpoofedHeaders, type Got, type HttpCase, type Sent } from './support/http-cases.ts';
import { startTestServer, tinyTables, upstreamArchive, type TestServer } from './support/upstream-archive.ts';

/** Pinned: the last major that runs on Node 20 as well as 22 and 24. */
const NETLIFY_CLI = 'netlify-cli@26.2.0';

const run = promisify(execFile);
const scratch = mkdtempSync(join(tmpdir(), 'creature-fresh-clone-'));
const cutCsv = join(inject('cutDataDir'), 'csv');
const cutDist = inject('cutDistDir');
const realLock = readLock(lockPath);
/** The clone's lock: the pinned commit, and the hashes of the tables the archive holds (the cut's). */
const cutLock: UpstreamLock = { ...lockForFolder(realLock.commit, cutCsv), archive: realLock.archive };
/** as many tables as the cut has (all the import reads; the upstream's 184 include some it does not) */
const tableCount = Object.keys(cutLock.tables).length;
const baseUrl = inject('baseUrl');
const archivePath = `/pokeapi/tar.gz/${realLock.commit}`;
/** data/ of a clone once the data set is fetched: what is committed (the change reports, media manifests, lock) and the two folders the build fills. */
const dataFolderAfterFetch = ['README.md', 'changes', 'media', 'records', 'upstream', 'upstream.lock.json'];

let server: TestServer;
let clone: string;
let dist: string;
let cache: string;

beforeAll(async () => {
  server = await startTestServer();
  clone = copyOfClone(join(scratch, 'elsewhere/creature-api'));
  dist = join(clone, 'dist');
  cache = join(clone, 'data/upstream');
  writeFileSync(join(clone, 'data/upstream.lock.json'), formatLock(cutLock));
  server.route(archivePath, { body: upstreamArchive(cutCsv, `pokeapi-${realLock.commit}`) });
});

afterAll(async () => {
  await server?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** The environment of a user of the clone: none of the variables the test process has for itself. */
function userEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['BASE_URL', 'DATA_DIR', 'DATA_URL', 'DATA_TIMEOUT_MS', 'PORT', 'OUT_DIR', 'RECORDS_DIR', 'NODE_OPTIONS', 'VITEST', 'VITEST_POOL_ID', 'VITEST_WORKER_ID']) delete out[name];
  // links as the cut's build that the answers are compared with
  return { ...out, BASE_URL: baseUrl, ...env };
}

/** `npm run build` in the clone, or in a copy of it (the command npm runs). */
const build = (env: Record<string, string>, root = clone) =>
  run(join(root, 'node_modules/.bin/tsx'), ['generator/cli.ts', 'build'], { cwd: root, env: userEnv(env), maxBuffer: 1 << 26 }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );

/** Every file's path, size, inode and modification time: anything rewritten shows. */
function fingerprint(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const full = join(d, e.name);
      if (e.isDirectory()) walk(full);
      else {
        const s = lstatSync(full);
        out.push(`${relative(dir, full)} ${s.size} ${s.ino} ${s.mtimeMs}`);
      }
    }
  };
  walk(dir);
  return out.sort();
}

describe('a clone with no ../shared', () => {
  it("`npm run build` downloads, verifies, and builds the same API as the global setup's build of the cut", { timeout: 120_000 }, async () => {
    const result = await build({ DATA_URL: server.url('/pokeapi/tar.gz/{commit}') });
    expect(result.stderr.split('\n').filter((l) => l.includes('error'))).toEqual([]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`fetch: ${server.url(archivePath)}`);
    expect(result.stdout).toMatch(new RegExp(`fetch: ${tableCount} tables at ${realLock.commit.slice(0, 12)} verified and stored in .*data/upstream`));
    expect(fileHashes(join(cache, 'csv'))).toEqual(fileHashes(cutCsv));
    expect(readdirSync(join(clone, 'data')).sort()).toEqual(dataFolderAfterFetch);

    const meta = JSON.parse(readFileSync(join(dist, 'v2/meta.json'), 'utf8')) as { upstream_commit: string };
    expect(meta.upstream_commit).toBe(realLock.commit);
    // every answer equals the one the global setup built from the cut (media from the committed manifests here, the cut's own there); meta differs in its build time
    const here = fileHashes(join(cutDist, 'v2'));
    const there = fileHashes(join(dist, 'v2'));
    here.delete('meta.json');
    there.delete('meta.json');
    expect(there.size).toBe(here.size);
    expect([...here].filter(([path, hash]) => there.get(path) !== hash).map(([path]) => path)).toEqual([]);
  });

  it('downloads nothing the second time', { timeout: 120_000 }, async () => {
    const before = server.hits.get(archivePath);
    const result = await build({ DATA_URL: server.url('/pokeapi/tar.gz/{commit}') });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain('fetch:');
    expect(result.stdout).toContain('build: dist/ is up to date');
    expect(server.hits.get(archivePath)).toBe(before);
  });

  it('`npm run fetch-data` says the cache is complete; with --force it downloads again and swaps the cache whole', { timeout: 120_000 }, async () => {
    const fetchData = (...args: string[]) =>
      run(join(clone, 'node_modules/.bin/tsx'), ['generator/cli.ts', 'fetch-data', ...args], { cwd: clone, env: userEnv({ DATA_URL: server.url('/pokeapi/tar.gz/{commit}') }) });
    const before = server.hits.get(archivePath)!;
    expect((await fetchData()).stdout).toMatch(new RegExp(`already holds the ${tableCount} verified tables at ${realLock.commit.slice(0, 12)} \\(--force downloads them again\\)`));
    expect(server.hits.get(archivePath)).toBe(before);
    expect((await fetchData('--force')).stdout).toMatch(new RegExp(`fetch: ${tableCount} tables at ${realLock.commit.slice(0, 12)} verified and stored in`));
    expect(server.hits.get(archivePath)).toBe(before + 1);
    expect(fileHashes(join(cache, 'csv'))).toEqual(fileHashes(cutCsv));
    expect(readdirSync(join(clone, 'data')).sort()).toEqual(dataFolderAfterFetch);
  });
});

describe('the shared request table on the cut', () => {
  it('names only what the cut holds: every file a row expects is in its build', () => {
    const ctx = loadCaseContext(cutDist, baseUrl);
    const rows = httpCases(ctx).filter((c) => 'file' in c.body);
    // creature 1 by id and by name, pikachu's encounters, type shadow, move pound, roseli-berry (723), the site pages...
    expect(rows.length).toBeGreaterThan(20);
    expect(rows.filter((c) => 'file' in c.body && !existsSync(join(cutDist, c.body.file))).map((c) => c.name)).toEqual([]);
  });
});

interface CliInstall {
  bin: string;
  bootstrap: string;
}
let cliInstall: Promise<CliInstall> | undefined;

/** The CLI's install (npx's cache): its `netlify` binary and the edge bootstrap it ships; found once, for every server. */
const installCli = (): Promise<CliInstall> => (cliInstall ??= findCli());

async function findCli(): Promise<CliInstall> {
  const started = performance.now();
  const cached = cachedCli();
  const bin = cached ?? (await run('npx', ['-y', '-p', NETLIFY_CLI, 'sh', '-c', 'command -v netlify'], { maxBuffer: 1 << 24 })).stdout.trim().split('\n').at(-1)!;
  const root = dirname(dirname(bin)); // <npx cache>/node_modules
  const bootstrap = [join(root, '@netlify/edge-functions-dev/dist/deno/bootstrap.mjs'), join(root, 'netlify-cli/node_modules/@netlify/edge-functions-dev/dist/deno/bootstrap.mjs')].find((p) => existsSync(p));
  if (!bootstrap) throw new Error(`${NETLIFY_CLI} in ${root} ships no @netlify/edge-functions-dev/dist/deno/bootstrap.mjs`);
  console.log(`[netlify] ${NETLIFY_CLI} ready in ${((performance.now() - started) / 1000).toFixed(1)} s (${cached ? 'found in' : 'npx:'} ${root})`);
  return { bin, bootstrap };
}

/**
 * The `netlify` binary of an earlier `npx -p NETLIFY_CLI` (npx keeps one folder a spec under
 * <npm cache>/_npx, its package.json naming the spec), so npx's own start, 9-13 s measured on a
 * loaded machine, is not paid; null when there is none and npx must fetch it.
 */
function cachedCli(): string | null {
  const npx = join(process.env['npm_config_cache'] ?? join(homedir(), '.npm'), '_npx');
  const json = <T>(path: string): T | null => {
    try {
      return JSON.parse(readFileSync(path, 'utf8')) as T;
    } catch {
      return null;
    }
  };
  for (const dir of existsSync(npx) ? readdirSync(npx) : []) {
    const spec = json<{ _npx?: { packages?: string[] } }>(join(npx, dir, 'package.json'))?._npx?.packages;
    const installed = json<{ version?: string }>(join(npx, dir, 'node_modules/netlify-cli/package.json'))?.version;
    const bin = join(npx, dir, 'node_modules/.bin/netlify');
    if (isDeepStrictEqual(spec, [NETLIFY_CLI]) && `netlify-cli@${installed}` === NETLIFY_CLI && existsSync(bin)) return bin;
  }
  return null;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });

/**
 * The CLI's static server takes port 3999, its default, when that port is free: two CLIs starting
 * side by side both find it free and one fails to listen (EADDRINUSE, a whole start lost). Held
 * here while they start, so each is given a free port of its own; null when something else holds it.
 */
const holdStaticPort = () =>
  new Promise<{ close(): void } | null>((resolve) => {
    const s = createServer().listen(3999, () => resolve({ close: () => s.close() }));
    s.on('error', () => resolve(null));
  });

/** One `netlify serve --offline` of a clone (`root`), in a process group of its own. */
class NetlifyServe {
  output = '';
  origin = '';
  private child: ChildProcess | undefined;

  constructor(
    readonly label: string,
    private readonly root: () => string,
  ) {}

  /**
   * Starts it on a free port; again on another when the port was taken between our check and
   * its listen (on a machine where other test runs start servers too, this happens).
   */
  async start(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.startOnce();
      } catch (e) {
        if (attempt === 3 || !this.output.includes('EADDRINUSE')) throw e;
        console.log(`[netlify] ${this.label}: its port was taken, starting again on another`);
        this.killGroup('SIGKILL');
        this.output = '';
      }
    }
  }

  private async startOnce(): Promise<void> {
    const { bin, bootstrap } = await installCli();
    const root = this.root();
    const port = await freePort();
    this.origin = `http://localhost:${port}`;
    // the CLI's state (telemetry choice, caches) stays in the scratch folder, not the user's home; one each, as they start side by side
    const home = join(scratch, `home-${basename(dirname(root))}`);
    mkdirSync(join(home, '.config/netlify'), { recursive: true });
    writeFileSync(join(home, '.config/netlify/config.json'), JSON.stringify({ telemetryDisabled: true }));
    const env = userEnv({
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      npm_config_cache: join(process.env.HOME ?? home, '.npm'),
      PATH: [join(root, 'node_modules/.bin'), process.env.PATH].join(delimiter),
      NETLIFY_EDGE_BOOTSTRAP: pathToFileURL(bootstrap).href,
      CI: 'true',
      BROWSER: 'none',
      DATA_URL: server.url('/pokeapi/tar.gz/{commit}'),
    });
    const started = performance.now();
    this.child = spawn(process.execPath, [bin, 'serve', '--offline', '--port', String(port)], { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let firstLine = 0;
    const take = (b: Buffer) => {
      firstLine ||= performance.now();
      this.output += b.toString();
    };
    this.child.stdout!.on('data', take);
    this.child.stderr!.on('data', take);
    await this.waitUntilServing(performance.now() + 540_000);
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    // where its start goes: loading the CLI itself (until its first line), then what it says it spent
    const steps = [...this.output.matchAll(/\((build\.command|Edge Functions bundling|Netlify Build) completed in ([\d.]+m?s)\)/g)].map((m) => `${m[1]} ${m[2]}`);
    console.log(`[netlify] ${this.label}: build command run and serving in ${s(performance.now() - started)} (its first line after ${s(firstLine - started)}; ${steps.join(', ')})`);
  }

  private async waitUntilServing(deadline: number): Promise<void> {
    while (performance.now() < deadline) {
      if (this.child?.exitCode !== null) throw new Error(`netlify serve exited (${this.child?.exitCode}):\n${this.output.slice(-3000)}`);
      try {
        const r = await fetch(`${this.origin}/v2/meta/`);
        await r.arrayBuffer();
        if (r.status === 200) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 1000));
    }
    throw new Error(`netlify serve did not answer in time:\n${this.output.slice(-3000)}`);
  }

  /** Whatever is left of its process group (the CLI may exit and leave its servers). */
  private killGroup(signal: NodeJS.Signals): void {
    try {
      if (this.child?.pid) process.kill(-this.child.pid, signal);
    } catch {
      // the group is gone
    }
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (child?.pid && child.exitCode === null) {
      process.kill(-child.pid, 'SIGTERM');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 1000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
      });
      if (child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
    }
  }

  /** The rows as sent to it; the CLI does not compress (Netlify's CDN does), so ask for the bytes as they are. */
  send = (requests: Sent[]): Promise<Got[]> =>
    Promise.all(requests.map(async ({ method, path, headers }) => gotFrom(await fetch(`${this.origin}${path}`, { method, headers: { 'Accept-Encoding': 'identity', ...headers } }))));
}

/** Rows outside the function's paths, as URLs read them (`/v2/%2e%2e/%2e%2e/package.json` is `/package.json`). */
const outsideApi = (c: HttpCase) => !/^\/v2(\/|$)/.test(new URL(c.path, 'http://localhost').pathname);

/**
 * How the CLI's static layer answers rows outside /v2 differently from the function that answered
 * them before: its own `Cache-Control: public, max-age=0` whatever _headers says (Netlify's CDN
 * applies _headers to static files), its own type for .js, no data version on its 404 page
 * (the rules' JSON 404 outside the API) nor on `/` (it matches _headers against index.html),
 * and a 404 for a PUT to an unknown path.
 */
function staticLayerOwn(c: HttpCase, problem: string): boolean {
  if (!outsideApi(c)) return false;
  return (
    /^cache-control: expected .*, found public, max-age=0$/.test(problem) ||
    problem === 'content-type: expected text/javascript; charset=utf-8, found application/javascript; charset=utf-8' ||
    (c.status === 404 && /^x-data-version: expected \w+, found undefined$/.test(problem)) ||
    // the CLI matches _headers against the file it serves (index.html), not the request path `/`
    (c.path === '/' && /^x-data-version: expected \w+, found undefined$/.test(problem)) ||
    (c.method === 'PUT' && (problem === 'status: expected 405, found 404' || problem.startsWith('content-type: expected application/json; charset=utf-8, found text/plain') || problem.startsWith('x-data-version:') || problem.startsWith('allow:') || problem.startsWith('body: not JSON') || problem.startsWith('cache-control:')))
  );
}

/**
 * A copy of the clone as built above (its cache, records and dist/), for what must not share its
 * folder with a server. Made while the clone's server starts, so without blocking, and without
 * the .netlify/ that server is writing meanwhile.
 */
async function copyOfBuilt(name: string): Promise<string> {
  const root = join(scratch, `${name}/creature-api`);
  await cp(clone, root, { recursive: true, filter: (src) => relative(clone, src) !== '.netlify' });
  return root;
}

/** The clone as built above, its edge adapter replaced by one whose every call throws. */
async function faultyCopy(): Promise<string> {
  const root = await copyOfBuilt('faulty');
  writeFileSync(join(root, 'netlify/edge-adapter.ts'), "/** A fault injected by test/fresh-clone.test.ts. */\nexport function createEdgeAdapter() {\n  return async (_request: Request): Promise<Response> => {\n    throw new Error('injected fault');\n  };\n}\n");
  return root;
}

/**
 * Two servers, started side by side (each start is mostly the CLI's own, see its log line): the
 * clone, and a copy of it whose function throws. Each runs the build command in its own folder.
 * The failed downloads below run meanwhile, in a copy of their own (concurrent: true).
 */
describe(NETLIFY_CLI, { concurrent: true }, () => {
  const cli = new NetlifyServe('netlify serve --offline', () => clone);
  let faultyRoot = '';
  const faulty = new NetlifyServe('netlify serve --offline, the function throwing', () => faultyRoot);
  beforeAll(async () => {
    // the clone's server starts at once; the other once its copy is made
    const startFaulty = async () => {
      faultyRoot = await faultyCopy();
      await faulty.start();
    };
    const held = await holdStaticPort();
    try {
      await Promise.all([cli.start(), startFaulty()]);
    } finally {
      held?.close();
    }
  }, 900_000);
  afterAll(() => Promise.all([cli.stop(), faulty.stop()]));

  describe('netlify serve --offline on the clone', { sequential: true }, () => {
    it('ran the build command (nothing to download or build again) and loaded the edge function', async () => {
      expect(cli.output).toContain('build: dist/ is up to date');
      expect(cli.output).not.toContain('fetch:');
      expect(cli.output).toMatch(/Loaded edge function api/);
      expect(cli.output).not.toMatch(/Failed to load edge functions/);
      const r = await fetch(`${cli.origin}/v2/creature/1`);
      await r.arrayBuffer();
      expect(r.headers.get('x-nf-edge-functions')).toBe('api');
    });

    it("runs the function on the API's paths only: not for its own reads, the docs page, its assets or the downloads", async () => {
      const ctx = loadCaseContext(dist, baseUrl);
      const staticPaths = ['/_files/v2/creature/1.json', '/_files/v2/_lists/creature.json', ...Object.keys(ctx.routes.site).filter((r) => !r.startsWith('/v2/')).slice(0, 5)];
      for (const path of staticPaths) {
        const r = await fetch(`${cli.origin}${path}`, { method: 'HEAD' });
        expect({ path, status: r.status, function: r.headers.get('x-nf-edge-functions') }).toEqual({ path, status: 200, function: null });
      }
    });

    it('answers every row of the shared request table, and every row again with spoofed headers; outside /v2 short only of what its static layer does its own way', async () => {
      // the clone's build: the cut's, every file of v2/ but meta the same bytes (above); its meta and the downloads carry its own build time
      const ctx = loadCaseContext(dist, baseUrl);
      const table = httpCases(ctx);
      // spoofed rows first: the function's first request may be one of them
      const cases = [...withSpoofedHeaders(table), ...table];
      const outcomes = await runCases(cases, cli.send);
      const failing = cases.map((c) => ({ c, problems: checkOutcome(ctx, c, outcomes.get(c.name)!) })).filter((f) => f.problems.length);
      console.log(`[netlify] ${cases.length - failing.length} of ${cases.length} rows answered as the table says`);
      for (const { c, problems } of failing) console.log(`[netlify] ${c.method ?? 'GET'} ${c.path}${c.name.endsWith('(spoofed headers)') ? ' (spoofed)' : ''}: ${problems.join('; ')}`);
      const unexpected = failing.filter(({ c, problems }) => !problems.every((p) => staticLayerOwn(c, p)));
      expect(unexpected.map(({ c, problems }) => `${c.name}: ${problems.join('; ')}`)).toEqual([]);
      // a spoofed row's answer is the plain row's, byte for byte
      for (const c of table) {
        const plain = outcomes.get(c.name)!.got;
        const spoofed = outcomes.get(`${c.name} (spoofed headers)`)!.got;
        expect({ row: c.name, status: spoofed.status, same: Buffer.from(spoofed.body).equals(Buffer.from(plain.body)) }).toEqual({ row: c.name, status: plain.status, same: true });
      }
    });

    it('`npm run check:deploy` against it: every check it can run passes, the CDN ones are skipped', async () => {
      const { stdout, code } = await run(join(clone, 'node_modules/.bin/tsx'), ['scripts/check-deploy.ts', cli.origin], { cwd: clone, env: userEnv({}) }).then(
        ({ stdout }) => ({ stdout, code: 0 }),
        (e: { stdout: string; code: number }) => ({ stdout: e.stdout, code: e.code }),
      );
      console.log(stdout.trim().split('\n').map((l) => `[check:deploy] ${l}`).join('\n'));
      expect(code).toBe(0);
      expect(stdout).toMatch(/^PASS {2}the function's reads reach the files$/m);
      expect(stdout).toMatch(/^PASS {2}a spoofed header changes nothing$/m);
      expect(stdout).toMatch(/^SKIP {2}a repeated GET is a CDN cache hit/m);
      expect(stdout).not.toMatch(/^FAIL/m);
    });
  });

  describe('a function that throws hands the request on to the rules', { sequential: true }, () => {
    it('each row is the right answer or a "Not Found" 404, never a wrong page or a 5xx', async () => {
      const ctx = loadCaseContext(dist, baseUrl);
      // a build file asked for by its own path is served as the file it is (as netlify-rules.test.ts lists them)
      const servedAsFiles = ['internal list file', 'internal routing table', 'item file name'];
      const rows = httpCases(ctx).filter((c) => !outsideApi(c) && (c.method ?? 'GET') === 'GET' && !c.headers && !c.revalidate && !servedAsFiles.includes(c.name));
      const answers = await faulty.send(rows.map((c) => ({ method: 'GET', path: c.path, headers: {} })));
      const wrong: string[] = [];
      const right: string[] = [];
      rows.forEach((c, i) => {
        const got = answers[i]!;
        const text = Buffer.from(got.body).toString('utf8');
        if (got.status === 404 && text === '"Not Found"') return;
        // the CLI's own server refuses a NUL byte before any rule (the function answers it with a 404)
        if (c.name === 'NUL byte' && got.status === 400) return;
        const expected = expectedBody(ctx, c.body);
        const same = got.status === c.status && expected !== null && ('bytes' in expected ? expected.bytes.equals(Buffer.from(got.body)) : isDeepStrictEqual(JSON.parse(text), expected.value));
        if (same) right.push(c.name);
        else wrong.push(`${c.name}: ${got.status} ${text.slice(0, 80)}`);
      });
      expect(wrong).toEqual([]);
      expect(right).toEqual(expect.arrayContaining(['root', 'meta', 'item by id', 'item by name', 'encounters by id', 'first page', 'default-size page by offset']));
      expect(faulty.output).toMatch(/handing GET \/v2\/creature\/1 on to the rules: injected fault/);
    });
  });
});

// in a copy of the built clone, beside the servers above: one after another, as each looks at the whole data/ folder
describe('a failed download: one clear error, the cache and dist/ as they were', { concurrent: true }, () => {
  // a newer pin (another commit, three tables) makes the cache stale, so the build must download
  const ALTERED = Buffer.from('id,identifier\n1,teal\n2,ambr\n');
  let tinyLock: UpstreamLock;
  let root = '';
  beforeAll(async () => {
    root = await copyOfBuilt('failing');
    const tiny = tinyTables(join(scratch, 'pin-tables'));
    tinyLock = { ...lockForFolder('2'.repeat(40), tiny), archive: realLock.archive };
    const body = upstreamArchive(tiny, `pokeapi-${tinyLock.commit}`);
    // the archive server's copy of one table was altered; one the lock names is not there at all
    const altered = tinyTables(join(scratch, 'altered-tables'));
    writeFileSync(join(altered, 'colors.csv'), ALTERED);
    tinyLock.tables['sizes.csv'] = { sha1: gitBlobSha1(Buffer.from('id\n')), size: 3 };
    server.route('/corrupted.tar.gz', { body: upstreamArchive(altered, `pokeapi-${tinyLock.commit}`) });
    server.route('/truncated.tar.gz', { body, cutAt: Math.floor(body.length / 2) });
    server.route('/hangs.tar.gz', { hang: true });
    writeFileSync(join(root, 'data/upstream.lock.json'), formatLock(tinyLock));
  });

  const cases: { name: string; path: string; env: Record<string, string>; hits: number; says: () => string[] }[] = [
    {
      name: 'a corrupted table and a missing one',
      path: '/corrupted.tar.gz',
      env: {},
      hits: 1,
      says: () => [
        `does not match the lock (commit 222222222222): 2 of 4 tables refused`,
        `colors.csv: expected git blob ${tinyLock.tables['colors.csv']!.sha1} (${tinyLock.tables['colors.csv']!.size} bytes), found ${gitBlobSha1(ALTERED)} (${ALTERED.length} bytes)`,
        'sizes.csv: missing from the archive',
        'Point DATA_URL at an archive of the pinned commit, or DATA_DIR at a folder holding the tables (csv/).',
      ],
    },
    { name: 'a truncated archive', path: '/truncated.tar.gz', env: {}, hits: 2, says: () => ['the archive is cut short or damaged (gzip: unexpected end of file, after ', '(2 attempts). Set DATA_URL'] },
    { name: 'a 404', path: '/missing.tar.gz', env: {}, hits: 1, says: () => [': HTTP 404 Not Found. Set DATA_URL to a mirror of that archive, or DATA_DIR to a folder holding the tables (csv/).'] },
    { name: 'a server that hangs', path: '/hangs.tar.gz', env: { DATA_TIMEOUT_MS: '400' }, hits: 2, says: () => [': no data for 400 ms (DATA_TIMEOUT_MS) (2 attempts). Set DATA_URL'] },
  ];

  it.sequential.each(cases)('$name', { timeout: 120_000 }, async ({ path, env, hits, says }) => {
    const [cache, dist] = [join(root, 'data/upstream'), join(root, 'dist')];
    const cacheBefore = fileHashes(cache);
    const distBefore = fingerprint(dist);
    const result = await build({ DATA_URL: server.url(path), ...env }, root);
    expect(result.code).toBe(1);
    const stderr = result.stderr.trim();
    for (const text of says()) expect(stderr).toContain(text);
    expect(stderr).toContain(server.url(path));
    if (path !== '/corrupted.tar.gz') {
      // a download error is one line, and the last one
      expect(stderr.split('\n').at(-1)).toMatch(/^could not download the data set from http:\/\/127\.0\.0\.1:\d+\/\S+: .*Set DATA_URL/);
    }
    expect(server.hits.get(path)).toBe(hits);
    expect(fileHashes(cache)).toEqual(cacheBefore);
    expect(readdirSync(join(root, 'data')).sort()).toEqual(dataFolderAfterFetch);
    expect(fingerprint(dist)).toEqual(distBefore);
  });
});
