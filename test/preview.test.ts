/**
 * The specification's request rules, over real HTTP against the running preview: pagination
 * (Limits section), items by id and by name, trailing slashes, 404s.
 * Over the data cut's build (a mechanism: every kind is in it, the whole data set is not needed).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { listFile } from '../contract/layout.ts';
import type { FullList, Page } from '../contract/pagination.ts';
import { IDLE_CONNECTION_MS } from '../generator/preview/node-listener.ts';

const origin = inject('cutPreviewUrl');
const base = inject('baseUrl');
const distDir = inject('cutDistDir');

async function get(path: string, init?: RequestInit) {
  const response = await fetch(`${origin}${path}`, init);
  const text = await response.text();
  return { status: response.status, type: response.headers.get('content-type') ?? '', text, json: () => JSON.parse(text) as unknown };
}
const page = async (path: string) => {
  const r = await get(path);
  expect(r.status, path).toBe(200);
  return r.json() as Page;
};
const fullList = (kind: string) => JSON.parse(readFileSync(join(distDir, listFile(kind)), 'utf8')) as FullList;

describe('collections: the Limits section', () => {
  const creatures = fullList('creature');

  it('with no parameters, returns the first 20 entries from index 0', async () => {
    const p = await page('/v2/creature/');
    expect(p.count).toBe(creatures.count);
    expect(p.results).toEqual(creatures.results.slice(0, 20));
    expect(p.next).toBe(`${base}/creature/?offset=20&limit=20`);
    expect(p.previous).toBeNull();
  });

  it('offset 20 and limit 20 start at the 21st entry', async () => {
    const p = await page('/v2/creature/?offset=20&limit=20');
    expect(p.results).toEqual(creatures.results.slice(20, 40));
    expect(p.previous).toBe(`${base}/creature/?offset=0&limit=20`);
    expect(p.next).toBe(`${base}/creature/?offset=40&limit=20`);
  });

  it('limit 100000 and offset 0 return every entry as name and URL stubs', async () => {
    const p = await page('/v2/creature/?limit=100000&offset=0');
    expect(p.results).toHaveLength(creatures.count);
    expect(p.next).toBeNull();
    for (const entry of p.results) expect(Object.keys(entry).sort()).toEqual(['name', 'url']);
  });

  it('following next until null visits every entry exactly once', async () => {
    const seen: string[] = [];
    let next: string | null = `${base}/ability/?limit=37`;
    while (next !== null) {
      const p = await page(next.slice(base.length - '/v2'.length));
      seen.push(...p.results.map((r) => r.url));
      next = p.next;
    }
    const all = fullList('ability').results.map((r) => r.url);
    expect(seen).toEqual(all);
    expect(new Set(seen).size).toBe(all.length);
  });

  it.each([
    ['limit=0', 20, 0],
    ['limit=-5', 20, 0],
    ['limit=abc', 20, 0],
    ['limit=2.5', 20, 0],
    ['limit=100001', 100000, 0],
    ['offset=-3', 20, 0],
    ['offset=x&limit=5', 5, 0],
    ['offset=7&limit=5&foo=bar', 5, 7],
  ])('?%s is read as limit %i, offset %i', async (query, limit, offset) => {
    const p = await page(`/v2/move/?${query}`);
    expect(p.results).toEqual(fullList('move').results.slice(offset, offset + limit));
  });

  it('an offset past the end gives an empty page that links back', async () => {
    const p = await page('/v2/creature-color/?offset=50&limit=20');
    expect(p.results).toEqual([]);
    expect(p.next).toBeNull();
    expect(p.previous).toBe(`${base}/creature-color/?offset=30&limit=20`);
  });

  it('/type/ lists exactly the 18 battle types, ids 1 to 18', async () => {
    const p = await page('/v2/type/?limit=100');
    expect(p.count).toBe(18);
    expect(p.results.map((r) => r.url)).toEqual(Array.from({ length: 18 }, (_, i) => `${base}/type/${i + 1}/`));
  });

  it('the root lists every collection with its URL', async () => {
    const root = (await get('/v2/')).json() as Record<string, string>;
    expect(root['creature']).toBe(`${base}/creature/`);
    expect(root['evolution-chain']).toBe(`${base}/evolution-chain/`);
  });
});

describe('items: by id or by name', () => {
  it('id, name, any case, with or without the trailing slash: the same body', async () => {
    const bodies = await Promise.all(['/v2/creature/1', '/v2/creature/1/', '/v2/creature/bulbasaur', '/v2/creature/Bulbasaur/'].map((p) => get(p)));
    for (const b of bodies) {
      expect(b.status).toBe(200);
      expect(b.type).toMatch(/^application\/json/);
    }
    expect(new Set(bodies.map((b) => b.text)).size).toBe(1);
    expect((bodies[0]!.json() as { name: string }).name).toBe('bulbasaur');
  });

  it('types beyond the 18 stay addressable, so links from moves resolve', async () => {
    expect((await get('/v2/type/10002/')).status).toBe(200);
    expect((await get('/v2/type/shadow')).status).toBe(200);
  });

  it('encounters of a creature are at /creature/{id}/encounters', async () => {
    const r = await get('/v2/creature/25/encounters');
    expect(r.status).toBe(200);
    expect(Array.isArray(r.json())).toBe(true);
  });

  it('evolution chains answer by id only', async () => {
    expect((await get('/v2/evolution-chain/1/')).status).toBe(200);
    expect((await get('/v2/evolution-chain/bulbasaur/')).status).toBe(404);
  });
});

describe('errors', () => {
  it.each([
    '/v2/creature/999999',
    '/v2/creature/not-a-creature/',
    '/v2/no-such-resource/',
    '/v2/creature/1/moves',
    '/v2/_lists/creature',
    '/v2/creature/..%2F..%2Fpackage.json',
    '/v2/%2e%2e/%2e%2e/package.json',
    '/v2/creature/1%00',
    `/v2/creature/${'a'.repeat(600)}`,
    '/package.json',
  ])('%s is 404 with the JSON body "Not Found"', async (path) => {
    const r = await get(path);
    expect(r.status).toBe(404);
    expect(r.type).toMatch(/^application\/json/);
    expect(r.json()).toBe('Not Found');
  });

  it('promises no byte ranges, since it serves none', async () => {
    const response = await fetch(`${origin}/v2/creature/1`, { headers: { Range: 'bytes=0-9' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('accept-ranges')).toBeNull();
    expect((await response.text()).length).toBeGreaterThan(10);
  });

  it('keeps an idle connection a minute, and says so, so a pooling client that paused never sends on a closed socket', async () => {
    const response = await fetch(`${origin}/v2/type/1/`);
    await response.arrayBuffer();
    expect(response.headers.get('connection')).toBe('keep-alive');
    expect(response.headers.get('keep-alive')).toBe(`timeout=${IDLE_CONNECTION_MS / 1000}`);
    expect(IDLE_CONNECTION_MS).toBeGreaterThanOrEqual(60_000);
  });

  it('methods other than GET and HEAD are refused with 405', async () => {
    const r = await get('/v2/creature/1', { method: 'POST' });
    expect(r.status).toBe(405);
    expect(r.type).toMatch(/^application\/json/);
  });
});
