/**
 * The Netlify edge function (netlify/edge-functions/api.ts) under Deno, against the built dist/,
 * for every row of the shared table (netlify/edge-harness.ts plays the rest of Netlify's request
 * chain). Each answer must meet the row, carry the CDN's cache headers, and have the preview's
 * status, bytes and headers. Also: the function type-checks under Deno, and the adapter's
 * behaviour when a read fails.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { repoRoot } from '../generator/config.ts';
import { CDN_CACHE_OK, CDN_NO_STORE, createEdgeAdapter, NETLIFY_VARY, STATIC_READ_HEADER } from '../netlify/edge-adapter.ts';
import { readNetlifyConfig } from './support/files.ts';
import { checkOutcome, expectedBody, gotFrom, httpCases, loadCaseContext, runCases, type Got, type Sent } from './support/http-cases.ts';

const run = promisify(execFile);
const deno = join(repoRoot, 'node_modules/.bin/deno');
const denoEnv = { ...process.env, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' };

const distDir = inject('distDir');
const previewUrl = inject('previewUrl');
const ctx = loadCaseContext(distDir, inject('baseUrl'));
const cases = httpCases(ctx);

const declarations = readNetlifyConfig().edge_functions ?? [];

interface EdgeGot extends Got {
  route: string | null;
}
const work = mkdtempSync(join(tmpdir(), 'edge-deno-'));
let batch = 0;
/** One Deno process per batch: the edge function keeps its state between the requests of a batch, as an isolate does. */
async function sendToEdge(requests: Sent[]): Promise<EdgeGot[]> {
  if (!requests.length) return [];
  const input = join(work, `input-${batch++}.json`);
  writeFileSync(input, JSON.stringify({ dist: distDir, origin: 'https://creatures.example', declarations, requests }));
  const { stdout } = await run(deno, ['run', '--no-lock', `--allow-read`, join(repoRoot, 'netlify/edge-harness.ts'), input], {
    cwd: repoRoot,
    env: denoEnv,
    maxBuffer: 1 << 30,
  });
  const { results } = JSON.parse(stdout) as { results: { route: string | null; status: number; headers: Record<string, string>; body: string }[] };
  return results.map((r) => ({ route: r.route, status: r.status, headers: r.headers, body: new Uint8Array(Buffer.from(r.body, 'base64')) }));
}
/** The preview's uncompressed answers: the edge leaves compression (and its ETag variants) to Netlify's CDN. */
const sendToPreview = (requests: Sent[]): Promise<Got[]> =>
  Promise.all(
    requests.map(async ({ method, path, headers }) => gotFrom(await fetch(`${previewUrl}${path}`, { method, headers: { ...headers, 'Accept-Encoding': 'identity' } }))),
  );

/** Headers the preview and the edge must agree on (the preview's Vary and Content-Encoding are its own). */
const SHARED_HEADERS = ['content-type', 'cache-control', 'etag', 'x-data-version', 'access-control-allow-origin', 'access-control-expose-headers', 'x-content-type-options', 'allow'];

describe('netlify.toml declares the edge function', () => {
  it('on every path, with manual caching, from a file that exists', () => {
    expect(declarations.map((d) => d.function)).toEqual(['api']);
    const [api] = declarations;
    expect(api!.path).toBe('/*');
    expect(api!.cache).toBe('manual');
    expect(readFileSync(join(repoRoot, 'netlify/edge-functions/api.ts'), 'utf8')).toMatch(/export default/);
  });

  it('type-checks under Deno with the handler it wraps', async () => {
    const { stderr } = await run(deno, ['check', '--no-lock', 'netlify/edge-functions/api.ts', 'netlify/edge-harness.ts'], { cwd: repoRoot, env: denoEnv });
    expect(stderr).not.toMatch(/error/i);
  });
});

describe('the edge function under Deno answers every row of the table', async () => {
  const edge = await runCases(cases, sendToEdge);
  const preview = await runCases(cases, sendToPreview);
  const routed = cases.filter((c) => (edge.get(c.name)!.got as EdgeGot).route !== null);
  const unrouted = cases.filter((c) => (edge.get(c.name)!.got as EdgeGot).route === null);

  it.each(routed.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const outcome = edge.get(c.name)!;
    const got = outcome.got;
    const where = `${c.method ?? 'GET'} ${c.path}`;
    expect(checkOutcome(ctx, c, outcome), where).toEqual([]);

    // cacheable at the CDN: 200s to GET for the deploy's lifetime, nothing else
    expect(got.headers['netlify-vary'], where).toBe(NETLIFY_VARY);
    const storable = (c.method ?? 'GET') === 'GET' && got.status === 200;
    expect(got.headers['netlify-cdn-cache-control'], where).toBe(storable ? CDN_CACHE_OK : CDN_NO_STORE);

    // the preview's answer, byte for byte and header for header
    const fromPreview = preview.get(c.name)!.got;
    const pick = (h: Record<string, string>) => Object.fromEntries(SHARED_HEADERS.filter((n) => n in h).map((n) => [n, h[n]]));
    expect({ status: got.status, headers: pick(got.headers) }, where).toEqual({ status: fromPreview.status, headers: pick(fromPreview.headers) });
    expect(Buffer.from(got.body).equals(Buffer.from(fromPreview.body)), `${where}: the same bytes as the preview`).toBe(true);
  });

  // Rows the function is not declared on are the static layer's (their headers: netlify-rules.test.ts).
  it.each(unrouted.map((c) => [c.name, c] as const))('%s (static on Netlify)', (_name, c) => {
    const { got } = edge.get(c.name)!;
    expect(c.path).toMatch(/^\/downloads\//);
    expect(got.status).toBe(c.status);
    const expected = expectedBody(ctx, c.body);
    expect(expected && 'bytes' in expected && expected.bytes.equals(Buffer.from(got.body))).toBe(true);
  });
});

describe('the adapter', () => {
  const origin = 'https://creatures.example';
  const staticFiles = (root: string) => async (request: Request) => {
    try {
      return new Response(readFileSync(join(root, decodeURIComponent(new URL(request.url).pathname))));
    } catch {
      return new Response('', { status: 404 });
    }
  };

  it('steps aside for its own reads, so the static layer serves them', async () => {
    const answer = createEdgeAdapter(staticFiles(distDir));
    expect(await answer(new Request(`${origin}/v2/creature/1.json`, { headers: { [STATIC_READ_HEADER]: '1' } }))).toBeUndefined();
    expect((await answer(new Request(`${origin}/v2/creature/1.json`)))!.status).toBe(404);
  });

  it('answers 503, stored nowhere, when a file cannot be read, and recovers on the next request', async () => {
    let failing = true;
    const files = staticFiles(distDir);
    const answer = createEdgeAdapter(async (request) => {
      if (failing) throw new TypeError('network error');
      return files(request);
    });
    const first = (await answer(new Request(`${origin}/v2/creature/1`)))!;
    expect(first.status).toBe(503);
    expect(first.headers.get('netlify-cdn-cache-control')).toBe('no-store');
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(await first.json()).toBe('Service Unavailable');
    failing = false;
    const second = (await answer(new Request(`${origin}/v2/creature/1`)))!;
    expect(second.status).toBe(200);
    expect(Buffer.from(await second.arrayBuffer()).equals(ctx.file('v2/creature/1.json'))).toBe(true);
  });

  it('treats a static answer other than 200 or 404 as a failed read, not a missing file', async () => {
    let status = 500;
    const files = staticFiles(distDir);
    const answer = createEdgeAdapter(async (request) => (status === 500 ? new Response('oops', { status }) : files(request)));
    expect((await answer(new Request(`${origin}/v2/creature/?offset=3&limit=2`)))!.status).toBe(503);
    status = 200;
    const page = (await answer(new Request(`${origin}/v2/creature/?offset=3&limit=2`)))!;
    expect(page.status).toBe(200);
    expect(((await page.json()) as { next: string }).next).toBe(`${ctx.baseUrl}/creature/?offset=5&limit=2`);
  });
});
