/**
 * The preview serves exactly one build: when another build is swapped in under it (here with
 * another base URL, so every document differs), it drops everything it kept of the old one.
 * No answer mixes two builds, and an ETag of old bytes never gets a 304. Built from the data
 * cut's records (the global setup's, only read), into a scratch folder.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { cutConfig } from './support/config.ts';
import { runBuild } from '../generator/builder/build.ts';
import { startPreview, type Preview } from '../generator/preview/index.ts';

const config = cutConfig(inject('cutDataDir'));
const scratch = mkdtempSync(join(tmpdir(), 'creature-preview-rebuild-'));
const out = join(scratch, 'dist');
const only = new Set(['type', 'ability', 'creature-color', 'language']);
const OLD = 'http://old.example/v2';
const NEW = 'http://new.example:9/v2';
const build = (baseUrl: string) =>
  runBuild({
    recordsDir: config.recordsDir,
    mediaDir: join(config.dataDir, 'media'),
    outDir: out,
    baseUrl,
    inputHash: baseUrl,
    about: { upstreamCommit: 'test', version: 'test', builtAt: '2026-01-01T00:00:00.000Z' },
    only,
    workers: 1,
  });

/** Items, precomputed and computed pages, a search, the root: each answer names its build's base URL. */
const paths = [
  '/v2/',
  '/v2/type/1',
  '/v2/type/fire/',
  '/v2/type/',
  '/v2/ability/',
  '/v2/ability/?offset=20',
  '/v2/ability/?offset=7&limit=5',
  '/v2/ability/?q=st&limit=3&offset=1',
  '/v2/language/?limit=100000',
  '/v2/creature-color/3',
];

let preview: Preview;
beforeAll(async () => {
  await build(OLD);
  preview = await startPreview({ root: out, baseUrl: OLD, port: 0 });
});
afterAll(async () => {
  await preview?.close();
  rmSync(scratch, { recursive: true, force: true });
});

interface Answer {
  path: string;
  status: number;
  etag: string;
  text: string;
}
const get = async (path: string, headers: Record<string, string> = {}): Promise<Answer> => {
  for (let attempt = 1; ; attempt++) {
    try {
      const r = await fetch(`${preview.url}${path}`, { headers });
      return { path, status: r.status, etag: r.headers.get('etag') ?? '', text: await r.text() };
    } catch (e) {
      // the build shares this process's event loop, so a kept-alive connection can time out
      // under it: a reset connection is no answer from either build, and is asked again
      if (attempt === 3) throw e;
    }
  }
};
/** Which builds an answer's links come from. */
const builds = (text: string) => [OLD, NEW].filter((base) => text.includes(base));

describe('a rebuild under a running preview', () => {
  it('every answer comes from one build during the swap, and from the new one after it', async () => {
    const before = await Promise.all(paths.flatMap((p) => [get(p), get(p, { 'accept-encoding': 'gzip' }), get(p, { 'accept-encoding': 'br' })]));
    for (const a of before) {
      expect(a.status, a.path).toBe(200);
      expect(builds(a.text), a.path).toEqual([OLD]);
    }

    // requests keep coming while the new build is made and swapped in
    let building = true;
    const during: Answer[] = [];
    const hammer = (async () => {
      while (building) during.push(...(await Promise.all(paths.map((p, i) => get(p, i % 2 ? { 'accept-encoding': 'gzip' } : {})))));
    })();
    await build(NEW);
    building = false;
    await hammer;
    expect(during.length).toBeGreaterThan(0);
    for (const a of during) {
      expect(a.status, a.path).toBe(200);
      expect(builds(a.text), `${a.path}: ${a.text.slice(0, 200)}`).toHaveLength(1);
    }

    const after = await Promise.all(paths.flatMap((p) => [get(p), get(p, { 'accept-encoding': 'gzip' }), get(p, { 'accept-encoding': 'br' })]));
    for (const a of after) {
      expect(a.status, a.path).toBe(200);
      expect(builds(a.text), a.path).toEqual([NEW]);
    }

    // an ETag of the old bytes is not the new bytes' ETag: a full answer, never 304
    for (const [i, old] of before.entries()) {
      const coding = ['identity', 'gzip', 'br'][i % 3]!;
      const again = await get(old.path, { 'if-none-match': old.etag, 'accept-encoding': coding });
      expect(again.status, `${old.path} (${coding}) with the old ETag ${old.etag}`).toBe(200);
      expect(again.etag).not.toBe(old.etag);
      expect(builds(again.text)).toEqual([NEW]);
      expect((await get(old.path, { 'if-none-match': again.etag, 'accept-encoding': coding })).status).toBe(304);
    }
  });

  it('following next links after the swap stays within the new build', async () => {
    const abilities = (JSON.parse(readFileSync(join(config.recordsDir, 'manifest.json'), 'utf8')) as { kinds: Record<string, number> }).kinds['ability']!;
    // a page size that makes more than three pages of the cut's abilities
    const limit = Math.ceil(abilities / 4) - 1;
    let next: string | null = `${NEW}/ability/?limit=${limit}`;
    let pages = 0;
    while (next !== null) {
      const a = await get(next.slice(NEW.length - '/v2'.length));
      expect(builds(a.text)).toEqual([NEW]);
      next = (JSON.parse(a.text) as { next: string | null }).next;
      pages++;
    }
    expect(pages).toBe(Math.ceil(abilities / limit));
    expect(pages).toBeGreaterThan(3);
  });
});
