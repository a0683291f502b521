/**
 * Netlify's own CLI serving a fresh clone (test/support/fresh-clone.ts: a copy of this repository
 * with no ../shared beside it, built with `npm run build` from an archive of the data cut's tables
 * served locally, as test/fresh-clone.test.ts checks it builds). A pinned netlify-cli fetched on
 * demand with npx (not a dependency) runs `netlify serve --offline`, which runs netlify.toml's
 * build command, bundles the edge function and serves dist/:
 *   1. every row of the shared request table (test/support/http-cases.ts) is sent to it, and
 *      again with spoofed headers, and `npm run check:deploy` runs against it;
 *   2. side by side, a copy of the clone whose function throws, whose requests the rules must
 *      answer.
 *
 * Offline, the CLI cannot download its edge runtime's bootstrap module; NETLIFY_EDGE_BOOTSTRAP
 * points it at the one its own install ships, and the project's deno (node_modules/.bin) is
 * first on PATH, so nothing is fetched from Netlify's servers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { basename, delimiter, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FreshClone, baseUrl, installCli, run, userEnv } from './support/fresh-clone.ts';
import { NETLIFY_CLI } from './support/netlify-cli-fetch.ts';
import { DOWNLOADS_DIR } from '../contract/layout.ts';
import {
  checkOutcome,
  expectedBody,
  gotFrom,
  httpCases,
  loadCaseContext,
  runCases,
  withSpoofedHeaders,
  type Got,
  type HttpCase,
  type Sent,
} from './support/http-cases.ts';

const fresh = new FreshClone();
const { clone, dist, scratch } = fresh;

/** The clone built as a user builds it, so that the CLI's run of the build command finds nothing to do. */
beforeAll(async () => {
  await fresh.setUp();
  const { code, stderr } = await fresh.build({ DATA_URL: fresh.dataUrl() });
  if (code !== 0) throw new Error(`npm run build in the clone failed (${code}):\n${stderr.slice(-3000)}`);
});
afterAll(() => fresh.tearDown());

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

  readonly label: string;
  private readonly root: () => string;
  constructor(label: string, root: () => string) {
    this.label = label;
    this.root = root;
  }

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
      DATA_URL: fresh.dataUrl(),
    });
    const started = performance.now();
    this.child = spawn(process.execPath, [bin, 'serve', '--offline', '--port', String(port)], {
      cwd: root,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
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
    const steps = [...this.output.matchAll(/\((build\.command|Edge Functions bundling|Netlify Build) completed in ([\d.]+m?s)\)/g)].map(
      (m) => `${m[1]} ${m[2]}`,
    );
    console.log(
      `[netlify] ${this.label}: build command run and serving in ${s(performance.now() - started)} (its first line after ${s(firstLine - started)}; ${steps.join(', ')})`,
    );
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
      // the group may be gone before its exit is seen here: killGroup allows for that
      this.killGroup('SIGTERM');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 1000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
      });
      if (child.exitCode === null) this.killGroup('SIGKILL');
    }
  }

  /** The rows as sent to it; the CLI does not compress (Netlify's CDN does), so ask for the bytes as they are. */
  send = (requests: Sent[]): Promise<Got[]> =>
    Promise.all(
      requests.map(async ({ method, path, headers }) =>
        gotFrom(await fetch(`${this.origin}${path}`, { method, headers: { 'Accept-Encoding': 'identity', ...headers } })),
      ),
    );
}

/**
 * The CLI's own proxy, not the function: after any 404 it asks again for variations of the path
 * (`…/index.html` and the like, as the CDN finds a folder's index file; netlify-cli's
 * dist/utils/proxy.js, `alternativePaths`) and sends the last answer. The function answers such a
 * path, which names no resource, with the plain 404, so a 404 that says what was not found (as of a
 * game) reaches a client of the CLI as `"Not Found"`. Netlify's CDN does not ask an edge function again.
 */
const cliRetriesNotFound = (c: HttpCase, problem: string): boolean =>
  c.status === 404 && 'json' in c.body && /^body: expected \{"error":"not_found",.*\}, found "Not Found"$/.test(problem);

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
  if (!outsideApi(c)) return cliRetriesNotFound(c, problem);
  return (
    /^cache-control: expected .*, found public, max-age=0$/.test(problem) ||
    problem === 'content-type: expected text/javascript; charset=utf-8, found application/javascript; charset=utf-8' ||
    // its type by the file's extension, which its table of types does not know
    problem === 'content-type: expected application/vnd.sqlite3, found application/octet-stream' ||
    (c.status === 404 && /^x-data-version: expected \w+, found undefined$/.test(problem)) ||
    // the CLI matches _headers against the file it serves (index.html), not the request path `/`
    (c.path === '/' && /^x-data-version: expected \w+, found undefined$/.test(problem)) ||
    (c.method === 'PUT' &&
      (problem === 'status: expected 405, found 404' ||
        problem.startsWith('content-type: expected application/json; charset=utf-8, found text/plain') ||
        problem.startsWith('x-data-version:') ||
        problem.startsWith('allow:') ||
        problem.startsWith('body: not JSON') ||
        problem.startsWith('cache-control:')))
  );
}

/** The clone as built (in the beforeAll at the top), its edge adapter replaced by one whose every call throws. */
async function faultyCopy(): Promise<string> {
  const root = await fresh.copyOfBuilt('faulty');
  writeFileSync(
    join(root, 'netlify/edge-adapter.ts'),
    "/** A fault injected by test/netlify-cli.test.ts. */\nexport function createEdgeAdapter() {\n  return async (_request: Request): Promise<Response> => {\n    throw new Error('injected fault');\n  };\n}\n",
  );
  return root;
}

/**
 * Two servers, started side by side (each start is mostly the CLI's own, see its log line): the
 * clone, and a copy of it whose function throws. Each runs the build command in its own folder;
 * the two describes below run side by side (concurrent: true), each one test after another.
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

    it("runs the function on the API's paths (and a download's Range) only: not for its own reads, the docs page or its assets", async () => {
      const ctx = loadCaseContext(dist, baseUrl);
      const staticPaths = [
        '/_files/v2/creature/1.json',
        '/_files/v2/_lists/creature.json',
        ...Object.keys(ctx.routes.site)
          .filter((r) => !r.startsWith('/v2/') && !r.startsWith(`/${DOWNLOADS_DIR}/`))
          .slice(0, 5),
      ];
      for (const path of staticPaths) {
        const r = await fetch(`${cli.origin}${path}`, { method: 'HEAD' });
        expect({ path, status: r.status, function: r.headers.get('x-nf-edge-functions') }).toEqual({ path, status: 200, function: null });
      }
    });

    it('answers every row of the shared request table, and every row again with spoofed headers; outside /v2 short only of what its static layer does its own way', async () => {
      // the clone's build: the cut's, every file of v2/ but meta the same bytes (test/fresh-clone.test.ts checks the same build); its meta and the downloads carry its own build time
      const ctx = loadCaseContext(dist, baseUrl);
      const table = httpCases(ctx);
      // spoofed rows first: the function's first request may be one of them
      const cases = [...withSpoofedHeaders(table), ...table];
      const outcomes = await runCases(cases, cli.send);
      const failing = cases.map((c) => ({ c, problems: checkOutcome(ctx, c, outcomes.get(c.name)!) })).filter((f) => f.problems.length);
      console.log(`[netlify] ${cases.length - failing.length} of ${cases.length} rows answered as the table says`);
      for (const { c, problems } of failing)
        console.log(`[netlify] ${c.method ?? 'GET'} ${c.path}${c.name.endsWith('(spoofed headers)') ? ' (spoofed)' : ''}: ${problems.join('; ')}`);
      const unexpected = failing.filter(({ c, problems }) => !problems.every((p) => staticLayerOwn(c, p)));
      expect(unexpected.map(({ c, problems }) => `${c.name}: ${problems.join('; ')}`)).toEqual([]);
      // a spoofed row's answer is the plain row's, byte for byte
      for (const c of table) {
        const plain = outcomes.get(c.name)!.got;
        const spoofed = outcomes.get(`${c.name} (spoofed headers)`)!.got;
        expect({ row: c.name, status: spoofed.status, same: Buffer.from(spoofed.body).equals(Buffer.from(plain.body)) }).toEqual({
          row: c.name,
          status: plain.status,
          same: true,
        });
      }
    });

    it('serves the database whole and uncompressed from its static layer, and a Range of it from the function', async () => {
      const ctx = loadCaseContext(dist, baseUrl);
      const database = Object.entries(ctx.routes.site).find(([, page]) => page.ranges)?.[0];
      expect(database).toMatch(/^\/downloads\/creature-api-v2-.*\.sqlite$/);
      const whole = await fetch(`${cli.origin}${database}`, { headers: { 'Accept-Encoding': 'gzip, br' } });
      const bytes = Buffer.from(await whole.arrayBuffer());
      expect(whole.status).toBe(200);
      expect(whole.headers.get('content-encoding')).toBeNull();
      expect(bytes.subarray(0, 16).toString('latin1')).toBe('SQLite format 3\0');
      // the CLI's static layer sends every file whole; the function, declared on the downloads, cuts the range out
      const part = await fetch(`${cli.origin}${database}`, { headers: { Range: 'bytes=100-199' } });
      expect({ status: part.status, range: part.headers.get('content-range'), function: part.headers.get('x-nf-edge-functions') }).toEqual({
        status: 206,
        range: `bytes 100-199/${bytes.byteLength}`,
        function: 'api',
      });
      expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(100, 200))).toBe(true);
      // a reader that names the version it read with If-Range gets its range while the file is that version
      const validator = part.headers.get('etag') ?? part.headers.get('last-modified');
      expect(validator).not.toBeNull();
      const again = await fetch(`${cli.origin}${database}`, { headers: { Range: 'bytes=0-15', 'If-Range': validator! } });
      expect(again.status).toBe(206);
      expect(Buffer.from(await again.arrayBuffer()).toString('latin1')).toBe('SQLite format 3\0');
    });

    it('`npm run check:deploy` against it: every check it can run passes, the CDN ones are skipped', async () => {
      const { stdout, code } = await run(process.execPath, ['scripts/check-deploy.ts', cli.origin], { cwd: clone, env: userEnv({}) }).then(
        ({ stdout }) => ({ stdout, code: 0 }),
        (e: { stdout: string; code: number }) => ({ stdout: e.stdout, code: e.code }),
      );
      console.log(
        stdout
          .trim()
          .split('\n')
          .map((l) => `[check:deploy] ${l}`)
          .join('\n'),
      );
      expect(code).toBe(0);
      expect(stdout).toMatch(/^PASS {2}the function's reads reach the files$/m);
      expect(stdout).toMatch(/^PASS {2}a spoofed header changes nothing$/m);
      expect(stdout).toMatch(/^SKIP {2}a repeated GET is a CDN cache hit/m);
      expect(stdout).not.toMatch(/^FAIL/m);
    });

    it("answers a file of the build cut short with a 500 stored nowhere, and the function's log names it with its stack", async () => {
      // a file no row above asked for: an instance keeps each file's ETag once it has checked it
      const file = join(dist, 'v2/egg-group/13.json');
      const bytes = readFileSync(file);
      writeFileSync(file, bytes.subarray(0, bytes.length >> 1));
      try {
        const r = await fetch(`${cli.origin}/v2/egg-group/13/`);
        expect({ status: r.status, body: (await r.json()) as unknown, cache: r.headers.get('cache-control') }).toEqual({
          status: 500,
          body: { error: 'internal', detail: "The server failed to answer this request. The fault is ours, not the request's, and it was logged." },
          cache: 'no-store',
        });
        // the line naming the path and the error, then the error's stack
        await expect
          .poll(() => cli.output, { timeout: 5_000 })
          .toMatch(
            /GET \/v2\/egg-group\/13\/: 500: v2\/egg-group\/13\.json: cut short[^\n]*\n[^\n]*BrokenBuild: v2\/egg-group\/13\.json: cut short[^\n]*\n[^\n]* {4}at /,
          );
      } finally {
        writeFileSync(file, bytes);
      }
    });
  });

  describe('a function that throws hands the request on to the rules', { sequential: true }, () => {
    it('each row is the right answer or a "Not Found" 404, never a wrong page or a 5xx', async () => {
      const ctx = loadCaseContext(dist, baseUrl);
      // a build file asked for by its own path is served as the file it is (as netlify-rules.test.ts lists them)
      const servedAsFiles = [
        'internal list file',
        'internal routing table',
        'item file name',
        'an as-of document of the build',
        'the as-of facts of the build',
      ];
      const rows = httpCases(ctx).filter(
        (c) => !outsideApi(c) && (c.method ?? 'GET') === 'GET' && !c.headers && !c.revalidate && !servedAsFiles.includes(c.name),
      );
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
        const same =
          got.status === c.status &&
          expected !== null &&
          ('bytes' in expected ? expected.bytes.equals(Buffer.from(got.body)) : isDeepStrictEqual(JSON.parse(text), expected.value));
        if (same) right.push(c.name);
        else wrong.push(`${c.name}: ${got.status} ${text.slice(0, 80)}`);
      });
      expect(wrong).toEqual([]);
      expect(right).toEqual(
        expect.arrayContaining(['root', 'meta', 'item by id', 'item by name', 'encounters by id', 'first page', 'default-size page by offset']),
      );
      expect(faulty.output).toMatch(/handing GET \/v2\/creature\/1 on to the rules: injected fault/);
    });
  });
});
