/**
 * The preview's gzip and brotli, over real HTTP (node:http, which never decodes bodies itself):
 * the coding follows Accept-Encoding, every answer says `Vary: Accept-Encoding`, each coded
 * variant has its own ETag, and If-None-Match is matched against the variant that would be sent.
 * Over the data cut's build (a mechanism: every kind is in it, the whole data set is not needed).
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, inject, it } from 'vitest';
import { itemFile, pageFile } from '../contract/layout.ts';
import { chooseCoding, CompressionCache, MIN_COMPRESSED_SIZE, ownBytes, variantEtag } from '../generator/preview/index.ts';

const origin = inject('cutPreviewUrl');
const distDir = inject('cutDistDir');

interface Raw {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

function raw(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${origin}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const decode = (r: Raw): Buffer => {
  const coding = r.headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(r.body);
  if (coding === 'gzip') return gunzipSync(r.body);
  expect(coding).toBeUndefined();
  return r.body;
};

const item = '/v2/creature/bulbasaur';
const itemBytes = () => readFileSync(join(distDir, itemFile('creature', 1)));
const defaultPage = '/v2/location-area/?offset=40&limit=20';
const computedPage = '/v2/location-area/?offset=7&limit=50';

describe('choosing the coding from Accept-Encoding', () => {
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip', 'gzip'],
    ['br', 'br'],
    ['gzip, deflate, br', 'br'],
    ['gzip;q=1, br;q=0.5', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0, gzip;q=0', 'identity'],
    ['*', 'br'],
    ['*;q=0.5, br;q=0', 'gzip'],
    ['identity', 'identity'],
    ['x-gzip', 'gzip'],
    ['GZIP ; Q=0.8', 'gzip'],
    ['deflate', 'identity'],
    ['br;q=nonsense, gzip', 'gzip'],
  ])('%j → %s', (header, expected) => {
    expect(chooseCoding(header)).toBe(expected);
  });
});

describe('compressed answers', () => {
  it.each(['br', 'gzip'] as const)('an item in %s decodes to the file the build wrote, with its own ETag and length', async (coding) => {
    const plain = await raw(item);
    const coded = await raw(item, { 'Accept-Encoding': coding });
    expect(coded.status).toBe(200);
    expect(coded.headers['content-encoding']).toBe(coding);
    expect(coded.headers['vary']).toBe('Accept-Encoding');
    expect(coded.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(coded.headers['content-length'])).toBe(coded.body.length);
    expect(coded.body.length).toBeLessThan(itemBytes().length / 10);
    expect(decode(coded).equals(itemBytes())).toBe(true);
    expect(coded.headers['etag']).toBe(variantEtag(plain.headers['etag']!, coding));
    expect(coded.headers['etag']).not.toBe(plain.headers['etag']);
  });

  it('without Accept-Encoding the body is the file as it is, and still varies on Accept-Encoding', async () => {
    const plain = await raw(item);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['vary']).toBe('Accept-Encoding');
    expect(plain.body.equals(itemBytes())).toBe(true);
  });

  it.each([
    ['a default-size page', defaultPage],
    ['a computed page', computedPage],
    ['a search', '/v2/creature/?q=a&limit=30'],
  ])('%s decodes to the same JSON in each coding', async (_, path) => {
    const plain = await raw(path);
    expect(plain.body.length).toBeGreaterThanOrEqual(MIN_COMPRESSED_SIZE);
    for (const coding of ['br', 'gzip']) {
      const coded = await raw(path, { 'Accept-Encoding': coding });
      expect(coded.headers['content-encoding']).toBe(coding);
      expect(decode(coded).equals(plain.body)).toBe(true);
      expect(coded.headers['etag']).toBe(variantEtag(plain.headers['etag']!, coding as 'br' | 'gzip'));
    }
  });

  it('a default-size page in br is the precomputed file, compressed', async () => {
    const coded = await raw(defaultPage, { 'Accept-Encoding': 'br' });
    expect(decode(coded).equals(readFileSync(join(distDir, pageFile('location-area', 40))))).toBe(true);
  });

  it('the same request gives the same bytes each time', async () => {
    const [a, b] = await Promise.all([raw(computedPage, { 'Accept-Encoding': 'br' }), raw(computedPage, { 'Accept-Encoding': 'br' })]);
    const c = await raw(computedPage, { 'Accept-Encoding': 'br' });
    expect(a.body.equals(b.body) && b.body.equals(c.body)).toBe(true);
    expect(new Set([a, b, c].map((r) => r.headers['etag'])).size).toBe(1);
  });

  it('small bodies (the 404) are sent as they are, varying on Accept-Encoding all the same', async () => {
    const r = await raw('/v2/creature/no-such-thing', { 'Accept-Encoding': 'gzip, br' });
    expect(r.status).toBe(404);
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(r.headers['vary']).toBe('Accept-Encoding');
    expect(JSON.parse(r.body.toString('utf8'))).toBe('Not Found');
  });

  it('HEAD carries the headers GET would, coded length included, and no body', async () => {
    const get = await raw(item, { 'Accept-Encoding': 'br' });
    const head = await raw(item, { 'Accept-Encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    for (const name of ['content-encoding', 'content-length', 'etag', 'vary', 'content-type']) expect(head.headers[name], name).toBe(get.headers[name]);
  });
});

describe('conditional requests match the variant that would be sent', () => {
  it('each variant revalidates with its own ETag: 304 with that ETag, Vary and no body', async () => {
    for (const coding of ['br', 'gzip', undefined]) {
      const accept: Record<string, string> = coding ? { 'Accept-Encoding': coding } : {};
      const first = await raw(item, accept);
      const again = await raw(item, { ...accept, 'If-None-Match': first.headers['etag']! });
      expect(again.status, String(coding)).toBe(304);
      expect(again.body.length).toBe(0);
      expect(again.headers['etag']).toBe(first.headers['etag']);
      expect(again.headers['vary']).toBe('Accept-Encoding');
      expect(again.headers['content-encoding']).toBeUndefined();
    }
  });

  it("another variant's ETag does not match: the client would otherwise keep bytes it cannot use", async () => {
    const plain = await raw(item);
    const br = await raw(item, { 'Accept-Encoding': 'br' });
    const brWithPlainTag = await raw(item, { 'Accept-Encoding': 'br', 'If-None-Match': plain.headers['etag']! });
    expect(brWithPlainTag.status).toBe(200);
    expect(brWithPlainTag.headers['content-encoding']).toBe('br');
    const plainWithBrTag = await raw(item, { 'If-None-Match': br.headers['etag']! });
    expect(plainWithBrTag.status).toBe(200);
    expect(plainWithBrTag.body.equals(itemBytes())).toBe(true);
    const gzipWithBrTag = await raw(item, { 'Accept-Encoding': 'gzip', 'If-None-Match': br.headers['etag']! });
    expect(gzipWithBrTag.status).toBe(200);
  });

  it('weak and listed tags match (If-None-Match compares weakly); a 404 never becomes 304', async () => {
    const br = await raw(defaultPage, { 'Accept-Encoding': 'br' });
    const tag = br.headers['etag']!;
    expect((await raw(defaultPage, { 'Accept-Encoding': 'br', 'If-None-Match': `W/${tag}` })).status).toBe(304);
    expect((await raw(defaultPage, { 'Accept-Encoding': 'br', 'If-None-Match': `"nope", ${tag}` })).status).toBe(304);
    expect((await raw(defaultPage, { 'Accept-Encoding': 'br', 'If-None-Match': '*' })).status).toBe(304);
    expect((await raw('/v2/creature/no-such-thing', { 'If-None-Match': '*' })).status).toBe(404);
  });
});

describe('compressed variants kept in memory cost what they are counted as', () => {
  // zlib returns its output as a view of a 16 KB chunk; kept as it is, each small variant would
  // keep the whole chunk alive while the cache counted only its own bytes
  const body = Buffer.from(JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ name: `invented-${i}`, url: `https://example.test/v2/thing/${i}/` }))));

  it('a variant owns exactly its bytes, in both codings and on both sides of the thread-pool size', async () => {
    const variants = new CompressionCache(1024 * 1024);
    for (const [n, coding] of [
      [1, 'gzip'],
      [1, 'br'],
      [4, 'gzip'],
      [4, 'br'],
    ] as const) {
      const input = Buffer.concat(Array.from({ length: n }, () => body));
      const out = await variants.get(`"etag-${n}-${coding}"`, coding, input);
      expect(out.byteLength).toBeLessThan(input.byteLength);
      expect(out.byteOffset).toBe(0);
      expect(out.buffer.byteLength).toBe(out.byteLength);
      expect((coding === 'br' ? brotliDecompressSync(out) : gunzipSync(out)).equals(input)).toBe(true);
    }
  });

  it('ownBytes copies a view and passes whole buffers through', () => {
    const view = gzipSync(body);
    expect(view.buffer.byteLength).toBeGreaterThan(view.byteLength);
    const own = ownBytes(view);
    expect(own.equals(view)).toBe(true);
    expect(own.buffer.byteLength).toBe(own.byteLength);
    expect(ownBytes(own)).toBe(own);
  });
});
