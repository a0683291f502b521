/**
 * The Netlify edge function (netlify/edge-functions/api.ts) under Deno, against the built dist/,
 * for every row of the shared table, and every row again with spoofed headers
 * (test/support/edge-harness.ts plays the rest of Netlify's request chain, with netlify.toml's rules
 * as Netlify's own parser reads them). Each API answer must meet the row, carry the CDN's cache
 * headers, have the preview's status, bytes and headers, and cost one invocation: the
 * function's reads never run it again. Rows outside /v2 are the static layer's. Also: the
 * function type-checks under Deno, and the adapter's behaviour when a read fails.
 * Over the data cut's build (a mechanism: every kind is in it, the whole data set is not needed).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parseAllRedirects } from '@netlify/redirect-parser';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { repoRoot } from '../generator/config.ts';
import { DOWNLOADS_DIR } from '../contract/layout.ts';
import { BuildFiles } from '../edge/build-files.ts';
import { paramsReadAt } from '../edge/handler.ts';
import { diskReader } from '../generator/preview/index.ts';
import { CDN_CACHE_OK, CDN_NO_STORE, createEdgeAdapter, FILE_READ_PREFIX, netlifyVary } from '../netlify/edge-adapter.ts';
import { config as functionConfig } from '../netlify/edge-functions/api.ts';
import { netlifyTomlPath, readNetlifyConfig } from './support/files.ts';
import {
  checkOutcome,
  expectedBody,
  gotFrom,
  httpCases,
  loadCaseContext,
  runCases,
  SPOOFED_HEADERS,
  withSpoofedHeaders,
  type Got,
  type Sent,
} from './support/http-cases.ts';

const run = promisify(execFile);
const deno = join(repoRoot, 'node_modules/.bin/deno');
const denoEnv = { ...process.env, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' };

const distDir = inject('cutDistDir');
const previewUrl = inject('cutPreviewUrl');
const ctx = loadCaseContext(distDir, inject('baseUrl'));
const table = httpCases(ctx);
const cases = [...table, ...withSpoofedHeaders(table)];

const declarations = readNetlifyConfig().edge_functions ?? [];
// the harness plays the rules without query conditions (outside the function's paths, none has one)
const parsed = await parseAllRedirects({ redirectsFiles: [], netlifyConfigPath: netlifyTomlPath, configRedirects: [], minimal: false });
if (parsed.errors.length) throw parsed.errors[0];
const rules = (parsed.redirects as { from: string; to: string; status?: number; force?: boolean; query?: Record<string, string> }[])
  .filter((r) => !r.query || Object.keys(r.query).length === 0)
  .map(({ from, to, status, force }) => ({ from, to, status: status ?? 301, force: force ?? false }));

interface EdgeGot extends Got {
  route: string | null;
  invocations: number;
}
const work = mkdtempSync(join(tmpdir(), 'edge-deno-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let batch = 0;
/** One Deno process per batch: the edge function keeps its state between the requests of a batch, as an isolate does. */
async function sendToEdge(requests: Sent[]): Promise<EdgeGot[]> {
  if (!requests.length) return [];
  const input = join(work, `input-${batch++}.json`);
  writeFileSync(input, JSON.stringify({ dist: distDir, origin: 'https://creatures.example', declarations, rules, requests }));
  const { stdout } = await run(deno, ['run', '--no-lock', `--allow-read`, join(repoRoot, 'test/support/edge-harness.ts'), input], {
    cwd: repoRoot,
    env: denoEnv,
    maxBuffer: 1 << 30,
  });
  const { results } = JSON.parse(stdout) as {
    results: { route: string | null; invocations: number; status: number; headers: Record<string, string>; body: string }[];
  };
  return results.map((r) => ({
    route: r.route,
    invocations: r.invocations,
    status: r.status,
    headers: r.headers,
    body: new Uint8Array(Buffer.from(r.body, 'base64')),
  }));
}
/** The preview's uncompressed answers: the edge leaves compression (and its ETag variants) to Netlify's CDN. */
const sendToPreview = (requests: Sent[]): Promise<Got[]> =>
  Promise.all(
    requests.map(async ({ method, path, headers }) =>
      gotFrom(await fetch(`${previewUrl}${path}`, { method, headers: { ...headers, 'Accept-Encoding': 'identity' } })),
    ),
  );

/** Headers the preview and the edge must agree on (the preview's Vary and Content-Encoding are its own). */
const SHARED_HEADERS = [
  'content-type',
  'cache-control',
  'etag',
  'x-data-version',
  'access-control-allow-origin',
  'access-control-expose-headers',
  'x-content-type-options',
  'allow',
];

describe('netlify.toml declares the edge function', () => {
  it("on the API's paths with manual caching, and on the downloads for byte ranges, from a file that exists, bypassed when it fails", () => {
    expect(declarations.map((d) => d.function)).toEqual(['api', 'api', 'api']);
    expect(declarations.map((d) => d.path)).toEqual(['/v2', '/v2/*', `/${DOWNLOADS_DIR}/*`]);
    expect(declarations.map((d) => d.cache)).toEqual(['manual', 'manual', undefined]);
    expect(readFileSync(join(repoRoot, 'netlify/edge-functions/api.ts'), 'utf8')).toMatch(/export default/);
    expect(functionConfig.onError).toBe('bypass');
  });

  it('its reads are under a prefix it is not declared on, rewritten to the build files', () => {
    expect(FILE_READ_PREFIX.startsWith('/v2')).toBe(false);
    expect(rules[0]).toEqual({ from: `${FILE_READ_PREFIX}/*`, to: '/:splat', status: 200, force: false });
  });

  it('type-checks under Deno with the handler it wraps', async () => {
    const { stderr } = await run(deno, ['check', '--no-lock', 'netlify/edge-functions/api.ts', 'test/support/edge-harness.ts'], {
      cwd: repoRoot,
      env: denoEnv,
    });
    expect(stderr).not.toMatch(/error/i);
  });
});

describe('a byte range of a download under Deno, whose static files here are sent whole as by the CLI', () => {
  it('is a 206 of the file’s bytes from the function; with If-Range naming another version, the whole file', async () => {
    const database = Object.entries(ctx.routes.site).find(([, page]) => page.ranges)![0];
    const file = readFileSync(join(distDir, database));
    const [part, other] = await sendToEdge([
      { method: 'GET', path: database, headers: { Range: 'bytes=100-4195' } },
      { method: 'GET', path: database, headers: { Range: 'bytes=100-4195', 'If-Range': '"another"' } },
    ]);
    expect({ route: part!.route, invocations: part!.invocations, status: part!.status, range: part!.headers['content-range'] }).toEqual({
      route: 'api',
      invocations: 1,
      status: 206,
      range: `bytes 100-4195/${file.byteLength}`,
    });
    expect(Buffer.from(part!.body).equals(file.subarray(100, 4196))).toBe(true);
    expect([other!.status, other!.body.byteLength]).toEqual([200, file.byteLength]);
  });
});

describe('the edge function under Deno answers every row of the table', async () => {
  const edge = await runCases(cases, sendToEdge);
  const preview = await runCases(cases, sendToPreview);
  const routed = cases.filter((c) => (edge.get(c.name)!.got as EdgeGot).route !== null);
  const unrouted = cases.filter((c) => (edge.get(c.name)!.got as EdgeGot).route === null);

  it('routes exactly the rows under /v2 to the function', () => {
    // as URLs read the path: `/v2/%2e%2e/%2e%2e/package.json` is `/package.json`
    const underV2 = (c: (typeof cases)[number]) => /^\/v2(\/|$)/.test(new URL(c.path, 'https://creatures.example').pathname);
    expect(routed.filter((c) => !underV2(c)).map((c) => c.name)).toEqual([]);
    expect(unrouted.filter(underV2).map((c) => c.name)).toEqual([]);
  });

  const distFiles = new BuildFiles(diskReader(distDir), ctx.baseUrl);
  it.each(routed.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const outcome = edge.get(c.name)!;
    const got = outcome.got as EdgeGot;
    const where = `${c.method ?? 'GET'} ${c.path}`;
    expect(checkOutcome(ctx, c, outcome), where).toEqual([]);
    // one invocation, whatever the function read
    expect(got.invocations, where).toBe(1);

    // cacheable at the CDN: 200s to GET for the deploy's lifetime, nothing else, keyed on what the path reads
    expect(got.headers['netlify-vary'], where).toBe(
      netlifyVary(await paramsReadAt(distFiles, new URL(c.path, 'https://creatures.example').pathname)) ?? undefined,
    );
    const storable = (c.method ?? 'GET') === 'GET' && got.status === 200;
    expect(got.headers['netlify-cdn-cache-control'], where).toBe(storable ? CDN_CACHE_OK : CDN_NO_STORE);
    expect(got.headers['cdn-cache-control'], where).toBe(got.headers['netlify-cdn-cache-control']);

    // the preview's answer, byte for byte and header for header
    const fromPreview = preview.get(c.name)!.got;
    const pick = (h: Record<string, string>) => Object.fromEntries(SHARED_HEADERS.filter((n) => n in h).map((n) => [n, h[n]]));
    expect({ status: got.status, headers: pick(got.headers) }, where).toEqual({ status: fromPreview.status, headers: pick(fromPreview.headers) });
    expect(Buffer.from(got.body).equals(Buffer.from(fromPreview.body)), `${where}: the same bytes as the preview`).toBe(true);
  });

  // Outside /v2 the rules and static files answer (their headers: netlify-rules.test.ts); what
  // Netlify's static layer does with other methods is not known offline.
  const staticRows = unrouted.filter((c) => ['GET', 'HEAD'].includes(c.method ?? 'GET'));
  it.each(staticRows.map((c) => [c.name, c] as const))('%s (static on Netlify)', (_name, c) => {
    const { got } = edge.get(c.name)!;
    // a download without Range runs the function, which hands it on to the static file
    const download = new URL(c.path, 'https://creatures.example').pathname.startsWith(`/${DOWNLOADS_DIR}/`);
    expect((got as EdgeGot).invocations).toBe(download ? 1 : 0);
    expect(got.status).toBe(c.status);
    const expected = expectedBody(ctx, c.body);
    if (expected && 'bytes' in expected) expect(expected.bytes.equals(Buffer.from(got.body))).toBe(true);
    else if (expected && 'value' in expected) expect(JSON.parse(Buffer.from(got.body).toString('utf8'))).toEqual(expected.value);
    else expect(got.body.byteLength).toBe(0);
  });
});

describe('the adapter', () => {
  const origin = 'https://creatures.example';
  /** The deploy's files as the function reads them: under its prefix, or nothing. */
  const staticFiles = (root: string) => async (request: Request) => {
    const { pathname } = new URL(request.url);
    if (!pathname.startsWith(`${FILE_READ_PREFIX}/`)) return new Response('', { status: 404 });
    try {
      return new Response(readFileSync(join(root, decodeURIComponent(pathname.slice(FILE_READ_PREFIX.length)))));
    } catch {
      return new Response('', { status: 404 });
    }
  };

  it('reads build files under its prefix with no header of its own, and answers a request with any headers', async () => {
    const seen: Request[] = [];
    const files = staticFiles(distDir);
    const answer = createEdgeAdapter(async (request) => {
      seen.push(request);
      return files(request);
    });
    const plain = await answer(new Request(`${origin}/v2/creature/?offset=3&limit=2`));
    const spoofed = await answer(new Request(`${origin}/v2/creature/?offset=3&limit=2`, { headers: SPOOFED_HEADERS }));
    expect(seen.length).toBeGreaterThan(0);
    for (const request of seen) {
      expect(new URL(request.url).pathname.startsWith(`${FILE_READ_PREFIX}/v2/`), request.url).toBe(true);
      const names: string[] = [];
      request.headers.forEach((_value, name) => names.push(name));
      expect(names).toEqual([]);
    }
    expect(plain.status).toBe(200);
    expect(spoofed.status).toBe(200);
    expect(await spoofed.text()).toBe(await plain.text());
  });

  it('answers 503, stored nowhere, when a file cannot be read, and recovers on the next request', async () => {
    let failing = true;
    const files = staticFiles(distDir);
    const answer = createEdgeAdapter(async (request) => {
      if (failing) throw new TypeError('network error');
      return files(request);
    });
    const first = await answer(new Request(`${origin}/v2/creature/1`));
    expect(first.status).toBe(503);
    expect(first.headers.get('netlify-cdn-cache-control')).toBe('no-store');
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(await first.json()).toEqual({
      error: 'unavailable',
      detail: "The service cannot read its files just now. The fault is ours, not the request's: try again in a moment.",
    });
    expect(first.headers.get('retry-after')).toBe('1');
    failing = false;
    const second = await answer(new Request(`${origin}/v2/creature/1`));
    expect(second.status).toBe(200);
    expect(Buffer.from(await second.arrayBuffer()).equals(ctx.file('v2/creature/1.json'))).toBe(true);
  });

  it('treats a static answer other than 200 or 404 as a failed read, not a missing file', async () => {
    let status = 500;
    const files = staticFiles(distDir);
    const answer = createEdgeAdapter(async (request) => (status === 500 ? new Response('oops', { status }) : files(request)));
    expect((await answer(new Request(`${origin}/v2/creature/?offset=3&limit=2`))).status).toBe(503);
    status = 200;
    const page = await answer(new Request(`${origin}/v2/creature/?offset=3&limit=2`));
    expect(page.status).toBe(200);
    expect(((await page.json()) as { next: string }).next).toBe(`${ctx.baseUrl}/creature/?offset=5&limit=2`);
  });
});
