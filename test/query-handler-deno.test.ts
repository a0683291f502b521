/**
 * The same query answers under Deno as in Node: the invented build of test/support/query-fixture.ts
 * is written out as files, and the Netlify edge function answers a set of filter, batch, `q`,
 * `fields`, search and hostile requests under Deno (test/support/edge-harness.ts) and in Node (the
 * same adapter over the same files). Status, body and the CDN headers must be equal, and no
 * answer a 5xx.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../generator/config.ts';
import { createEdgeAdapter, FILE_READ_PREFIX } from '../netlify/edge-adapter.ts';
import { FIXTURE, fixtureBytes } from './support/query-fixture.ts';

const run = promisify(execFile);
const deno = join(repoRoot, 'node_modules/.bin/deno');
const denoEnv = { ...process.env, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' };
const origin = 'https://example.test';

const REQUESTS = [
  '/v2/critter/',
  '/v2/critter/?element=ember,tide&speed=20..&fields=id,sprites.front_default,stats.base_stat&limit=2',
  '/v2/critter/?element=volt',
  '/v2/critter/?element=firee',
  '/v2/critter/?speed=5..3',
  '/v2/critter/?fields=weight',
  '/v2/critter/?id=1,4&name=tidecat',
  '/v2/critter/?id=99',
  `/v2/critter/?q=${encodeURIComponent('ﾎﾉｵ')}`,
  '/v2/critter/?q=MARENCHAT&is_rare=0',
  '/v2/element/?fields=id&name=volt',
  '/v2/chain/?id=2',
  '/v2/critter/1',
  '/v2/search/?q=flambete',
  '/v2/search/?q=tidecta',
  '/v2/search/?q=ti&kind=critter,element&limit=1',
  '/v2/search/?q=a&kind=nothing',
  '/v2/search/',
  `/v2/critter/?element=${','.repeat(1000)}`,
  `/v2/critter/?speed=${'9'.repeat(5000)}..`,
  '/v2/critter/?element=%FF&q=%FF',
  `/v2/critter/?${['id', 'name', 'fields', 'element', 'speed', 'q', 'limit'].flatMap((p) => Array.from({ length: 30 }, () => `${p}=1`)).join('&')}`,
  `/v2/search/?q=${'x'.repeat(2000)}`,
  `/v2/critter/?q=${'a'.repeat(9000)}`,
];
const HEADERS = ['content-type', 'netlify-vary', 'netlify-cdn-cache-control', 'etag'];

interface Got {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The fixture's dist/ in a scratch folder of its own, which also holds the harness's input. */
function writeFixture(): string {
  const dist = join(mkdtempSync(join(tmpdir(), 'query-handler-deno-')), 'dist');
  for (const [path, value] of FIXTURE) {
    mkdirSync(dirname(join(dist, path)), { recursive: true });
    writeFileSync(join(dist, path), fixtureBytes(value));
  }
  return dist;
}

async function underDeno(dist: string): Promise<Got[]> {
  const input = join(dist, '..', 'input.json');
  writeFileSync(
    input,
    JSON.stringify({
      dist,
      origin,
      declarations: [
        { function: 'api', path: '/v2' },
        { function: 'api', path: '/v2/*' },
      ],
      rules: [{ from: `${FILE_READ_PREFIX}/*`, to: '/:splat', status: 200 }],
      requests: REQUESTS.map((path) => ({ method: 'GET', path, headers: {} })),
    }),
  );
  const { stdout } = await run(deno, ['run', '--no-lock', '--allow-read', join(repoRoot, 'test/support/edge-harness.ts'), input], {
    cwd: repoRoot,
    env: denoEnv,
    maxBuffer: 1 << 28,
  });
  const { results } = JSON.parse(stdout) as { results: { status: number; headers: Record<string, string>; body: string }[] };
  return results.map((r) => ({ status: r.status, headers: r.headers, body: Buffer.from(r.body, 'base64').toString('utf8') }));
}

async function inNode(dist: string): Promise<Got[]> {
  const answer = createEdgeAdapter(async (request) => {
    const path = decodeURIComponent(new URL(request.url).pathname).slice(FILE_READ_PREFIX.length);
    try {
      return new Response(readFileSync(join(dist, path)));
    } catch {
      return new Response('', { status: 404 });
    }
  });
  const out: Got[] = [];
  for (const path of REQUESTS) {
    const response = await answer(new Request(`${origin}${path}`));
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name] = value;
    });
    out.push({ status: response.status, headers, body: await response.text() });
  }
  return out;
}

describe('query answers under Deno', () => {
  it('equal the answers in Node, header for header, and none is a 5xx', async () => {
    const dist = writeFixture();
    try {
      const [deno, node] = await Promise.all([underDeno(dist), inNode(dist)]);
      const pick = (g: Got) => ({ status: g.status, body: g.body, headers: Object.fromEntries(HEADERS.map((h) => [h, g.headers[h]])) });
      REQUESTS.forEach((path, i) => {
        expect(pick(deno[i]!), path.slice(0, 80)).toEqual(pick(node[i]!));
        expect([200, 400, 404], path.slice(0, 80)).toContain(deno[i]!.status);
      });
      const statuses = deno.map((g) => g.status);
      expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(10);
      expect(statuses.filter((s) => s === 400).length).toBeGreaterThan(5);
      // flarebeast (50) and tidecat (100); sparkfox has no speed
      expect(JSON.parse(deno[1]!.body)).toMatchObject({
        count: 2,
        next: null,
        results: [{ name: 'flarebeast', id: 1, sprites: { front_default: 'f.png' }, stats: [{ base_stat: 50 }, { base_stat: 10 }] }, { name: 'tidecat' }],
      });
      // a collection reads repeatable parameters: no Netlify-Vary, the whole query string is the CDN's key
      expect(deno[0]!.headers['netlify-vary']).toBeUndefined();
    } finally {
      rmSync(join(dist, '..'), { recursive: true, force: true });
    }
  }, 120_000);
});
