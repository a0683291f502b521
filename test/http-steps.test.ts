/**
 * Conditional GET and HEAD through the shared steps (edge/http.ts), for the identity and each
 * coding, under the preview's composition (OneBuildServing over a folder: compression inside
 * HEAD and If-None-Match) and the edge handler's (no compression) alike. Tiny invented build.
 */
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { createHandler, type FileReader } from '../edge/handler.ts';
import { compose, conditionalGet, head, type Reply, type RequestLike, type Step } from '../edge/http.ts';
import { buildStampFile, itemFile, metaFile, routesFile } from '../contract/layout.ts';
import { createServing, variantEtag, type Coding } from '../generator/preview/index.ts';

const BASE = 'http://invented.test/v2';
const big = JSON.stringify({ id: 1, name: 'alpha', notes: Array.from({ length: 80 }, (_, i) => `invented note ${i}`) });
/** An invented database file: 1,000 bytes, each its position's last digit, read by ranges. */
const database = Array.from({ length: 1000 }, (_, i) => String(i % 10)).join('');
const databasePath = '/downloads/invented.sqlite';
const files: Record<string, string> = {
  [routesFile]: JSON.stringify({
    kinds: ['thing'],
    subresources: {},
    idOnly: [],
    site: { [databasePath]: { file: databasePath.slice(1), type: 'application/vnd.sqlite3', ranges: true } },
  }),
  [databasePath.slice(1)]: database,
  [metaFile]: JSON.stringify({ upstream_commit: 'c0ffee', base_url: BASE }),
  [itemFile('thing', 1)]: big,
  [itemFile('thing', 2)]: '{"id":2}',
  [buildStampFile]: JSON.stringify({ inputHash: 'invented', baseUrl: BASE }),
};
const root = mkdtempSync(join(tmpdir(), 'http-steps-'));
for (const [path, text] of Object.entries(files)) {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Sent {
  method?: string;
  path: string;
  headers?: Record<string, string>;
}
const previewRespond = createServing(root, BASE);
const toPreview = ({ method = 'GET', path, headers = {} }: Sent): Promise<Reply> =>
  previewRespond({ method, url: `http://127.0.0.1${path}`, headers: new Headers(headers) });

const memory: FileReader = { read: async (path) => (path in files ? new TextEncoder().encode(files[path]) : null) };
const edgeHandle = createHandler(memory, { baseUrl: BASE });
async function toEdge({ method = 'GET', path, headers = {} }: Sent): Promise<Reply> {
  const response = await edgeHandle(new Request(`https://edge.test${path}`, { method, headers }));
  const body = new Uint8Array(await response.arrayBuffer());
  const got: Record<string, string> = {};
  response.headers.forEach((value, name) => (got[name] = value));
  return { status: response.status, headers: got, body: method === 'HEAD' || response.status === 304 ? null : body };
}

const item = '/v2/thing/1';
const decoded = (reply: Reply): string => {
  const body = Buffer.from(reply.body!);
  const coding = reply.headers['content-encoding'];
  return (coding === 'br' ? brotliDecompressSync(body) : coding === 'gzip' ? gunzipSync(body) : body).toString('utf8');
};
const without = (headers: Record<string, string>, ...names: string[]) => Object.fromEntries(Object.entries(headers).filter(([n]) => !names.includes(n)));

describe('the preview: each coding revalidates by its own ETag, through the same steps', () => {
  const identity = () => toPreview({ path: item });

  it.each(['identity', 'gzip', 'br'] as const)('%s: GET, then 304 for its own ETag (exact, weak, listed, *), 200 for any other', async (coding: Coding) => {
    const accept = { 'Accept-Encoding': coding };
    const base = (await identity()).headers['etag']!;
    const get = await toPreview({ path: item, headers: accept });
    expect(get.status).toBe(200);
    expect(get.headers['etag']).toBe(variantEtag(base, coding));
    expect(get.headers['content-encoding']).toBe(coding === 'identity' ? undefined : coding);
    expect(Number(get.headers['content-length'])).toBe(get.body!.byteLength);
    expect(decoded(get)).toBe(big);
    const tag = get.headers['etag']!;
    for (const ifNoneMatch of [tag, `W/${tag}`, `"nope", ${tag}`, `"nope",W/${tag}`, '*']) {
      const again = await toPreview({ path: item, headers: { ...accept, 'If-None-Match': ifNoneMatch } });
      expect(again.status, ifNoneMatch).toBe(304);
      expect(again.body).toBeNull();
      expect(again.headers, ifNoneMatch).toEqual(without(get.headers, 'content-length', 'content-encoding'));
    }
    const others = (['identity', 'gzip', 'br'] as const).filter((c) => c !== coding).map((c) => variantEtag(base, c));
    for (const other of [...others, '"nope"', `W/"nope"`]) {
      const miss = await toPreview({ path: item, headers: { ...accept, 'If-None-Match': other } });
      expect(miss.status, other).toBe(200);
      expect(miss.headers).toEqual(get.headers);
    }
  });

  it.each(['identity', 'gzip', 'br'] as const)(
    '%s: HEAD has the headers of the GET (coded length included) and no body; with its ETag, 304',
    async (coding) => {
      const accept = { 'Accept-Encoding': coding };
      const get = await toPreview({ path: item, headers: accept });
      const headReply = await toPreview({ method: 'HEAD', path: item, headers: accept });
      expect(headReply.status).toBe(200);
      expect(headReply.body).toBeNull();
      expect(headReply.headers).toEqual(get.headers);
      const revalidated = await toPreview({ method: 'HEAD', path: item, headers: { ...accept, 'If-None-Match': get.headers['etag']! } });
      expect(revalidated.status).toBe(304);
      expect(revalidated.body).toBeNull();
    },
  );

  it('a small body stays as it is in every coding, and only "etag" revalidates it; a 404 never becomes 304', async () => {
    const small = await toPreview({ path: '/v2/thing/2', headers: { 'Accept-Encoding': 'br' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.headers['vary']).toBe('Accept-Encoding');
    const tag = small.headers['etag']!;
    expect((await toPreview({ path: '/v2/thing/2', headers: { 'Accept-Encoding': 'br', 'If-None-Match': tag } })).status).toBe(304);
    expect((await toPreview({ path: '/v2/thing/2', headers: { 'Accept-Encoding': 'br', 'If-None-Match': variantEtag(tag, 'br') } })).status).toBe(200);
    const missing = await toPreview({ path: '/v2/thing/3', headers: { 'If-None-Match': '*' } });
    expect(missing.status).toBe(404);
    expect((await toPreview({ method: 'POST', path: item, headers: { 'If-None-Match': '*' } })).status).toBe(405);
  });
});

describe('the edge handler: the same steps, without compression', () => {
  it('answers the identity whatever the client accepts, and revalidates it by "etag" only', async () => {
    const get = await toEdge({ path: item, headers: { 'Accept-Encoding': 'br' } });
    expect(get.status).toBe(200);
    expect(get.headers['content-encoding']).toBeUndefined();
    expect(new TextDecoder().decode(get.body!)).toBe(big);
    const tag = get.headers['etag']!;
    for (const ifNoneMatch of [tag, `W/${tag}`, `"nope", ${tag}`, '*']) {
      const again = await toEdge({ path: item, headers: { 'If-None-Match': ifNoneMatch } });
      expect(again.status, ifNoneMatch).toBe(304);
      expect(again.headers).toEqual(without(get.headers, 'content-length'));
    }
    for (const other of [variantEtag(tag, 'br'), variantEtag(tag, 'gzip'), '"nope"']) {
      expect((await toEdge({ path: item, headers: { 'Accept-Encoding': 'br', 'If-None-Match': other } })).status, other).toBe(200);
    }
    expect((await toEdge({ path: '/v2/thing/3', headers: { 'If-None-Match': '*' } })).status).toBe(404);
  });

  it('HEAD has the headers of the GET and no body; with the ETag, 304', async () => {
    const get = await toEdge({ path: item });
    const headReply = await toEdge({ method: 'HEAD', path: item });
    expect(headReply.status).toBe(200);
    expect(headReply.headers).toEqual(get.headers);
    expect((await toEdge({ method: 'HEAD', path: item, headers: { 'If-None-Match': get.headers['etag']! } })).status).toBe(304);
  });

  it("gives the preview's identity answer, header for header, less the preview's Vary", async () => {
    for (const sent of [{ path: item }, { path: item, method: 'HEAD' }, { path: '/v2/thing/2' }, { path: '/v2/thing/3' }, { path: item, method: 'PUT' }]) {
      const [edge, preview] = await Promise.all([toEdge(sent), toPreview(sent)]);
      expect(edge.status).toBe(preview.status);
      expect(edge.headers).toEqual(without(preview.headers, 'vary'));
      expect(edge.body === null ? null : Buffer.from(edge.body).toString()).toBe(preview.body === null ? null : Buffer.from(preview.body).toString());
    }
  });
});

describe('the steps themselves', () => {
  const request = (method: string, headers: Record<string, string> = {}): RequestLike => ({ method, url: 'http://x/', headers: new Headers(headers) });
  const ok = (etag: string): Reply => ({
    status: 200,
    headers: { etag, 'content-length': '3', 'content-encoding': 'br', vary: 'Accept-Encoding' },
    body: new Uint8Array(3),
  });

  it('compose runs the first step outermost', async () => {
    const order: string[] = [];
    const tag =
      (name: string): Step =>
      async (req, next) => {
        order.push(`${name} in`);
        const reply = await next(req);
        order.push(`${name} out`);
        return reply;
      };
    await compose([tag('a'), tag('b')], async () => (order.push('answer'), ok('"x"')))(request('GET'));
    expect(order).toEqual(['a in', 'b in', 'answer', 'b out', 'a out']);
  });

  it('HEAD is answered as a GET, and its body dropped last', async () => {
    let seen = '';
    const reply = await head(request('HEAD'), async (req) => ((seen = req.method), ok('"x"')));
    expect(seen).toBe('GET');
    expect(reply.body).toBeNull();
    expect(reply.headers['content-length']).toBe('3');
  });

  it('conditional GET drops the body and its own headers, keeps the rest, and leaves non-200s alone', async () => {
    const revalidated = await conditionalGet(request('GET', { 'If-None-Match': 'W/"x"' }), async () => ok('"x"'));
    expect(revalidated).toEqual({ status: 304, headers: { etag: '"x"', vary: 'Accept-Encoding' }, body: null });
    const notFound = await conditionalGet(request('GET', { 'If-None-Match': '*' }), async () => ({ ...ok('"x"'), status: 404 }));
    expect(notFound.status).toBe(404);
    const other = await conditionalGet(request('GET', { 'If-None-Match': '"x-br"' }), async () => ok('"x"'));
    expect(other.status).toBe(200);
  });
});

describe("the preview while the dev loop makes a build's downloads again", () => {
  it('answers a download 503 with Retry-After while the stamp marks the downloads stale, and the answers as ever', async () => {
    const stamp = join(root, buildStampFile);
    const whole = readFileSync(stamp);
    writeFileSync(stamp, JSON.stringify({ inputHash: 'invented', baseUrl: BASE, downloads: 'stale' }));
    try {
      const download = await toPreview({ path: '/downloads/thing.ndjson.gz' });
      expect(download.status).toBe(503);
      expect(download.headers['retry-after']).toBe('1');
      expect(download.headers['cache-control']).toBe('no-store');
      expect(JSON.parse(new TextDecoder().decode(download.body!))).toMatchObject({ error: 'unavailable' });
      expect((await toPreview({ method: 'HEAD', path: '/downloads/thing.ndjson.gz' })).body).toBeNull();
      expect((await toPreview({ path: '/v2/thing/2/' })).status).toBe(200);
    } finally {
      writeFileSync(stamp, whole);
    }
    // whole again: the download is what the build holds (this one none)
    expect((await toPreview({ path: '/downloads/thing.ndjson.gz' })).status).toBe(404);
  });
});

describe.each([
  ['the preview', toPreview],
  ['the edge', toEdge],
])('%s: a file read by byte ranges', (_, send) => {
  const read = (range: string | null, more: Record<string, string> = {}) =>
    send({ path: databasePath, headers: { 'Accept-Encoding': 'gzip, br', ...(range === null ? {} : { Range: range }), ...more } });
  const text = (reply: Reply) => new TextDecoder().decode(reply.body!);

  it('is whole and uncoded without a Range, and says it takes ranges', async () => {
    const whole = await read(null);
    expect(whole.status).toBe(200);
    expect(whole.headers).toMatchObject({ 'accept-ranges': 'bytes', 'content-type': 'application/vnd.sqlite3', 'content-length': '1000' });
    expect(whole.headers['content-encoding']).toBeUndefined();
    expect(text(whole)).toBe(database);
  });

  it('answers one range 206 with its Content-Range, from a start, to the end, or the last bytes', async () => {
    for (const [range, start, end] of [
      ['bytes=100-199', 100, 199],
      ['bytes=990-', 990, 999],
      ['bytes=-10', 990, 999],
      ['bytes=995-5000', 995, 999],
    ] as const) {
      const part = await read(range);
      expect(part.status, range).toBe(206);
      expect(part.headers['content-range'], range).toBe(`bytes ${start}-${end}/1000`);
      expect(part.headers['content-length'], range).toBe(String(end - start + 1));
      expect(text(part), range).toBe(database.slice(start, end + 1));
    }
  });

  it('answers a range past the end 416 naming the size, and anything else but one range of bytes whole', async () => {
    const past = await read('bytes=1000-');
    expect(past.status).toBe(416);
    expect(past.headers['content-range']).toBe('bytes */1000');
    for (const range of ['bytes=0-9,20-29', 'items=0-9', 'bytes=9-0', 'bytes=-', 'nonsense']) {
      const whole = await read(range);
      expect(whole.status, range).toBe(200);
      expect(whole.body!.byteLength, range).toBe(1000);
    }
  });

  it('answers a range only while If-Range names the file’s ETag: a changed file is sent whole', async () => {
    const etag = (await read(null)).headers['etag']!;
    expect((await read('bytes=0-9', { 'If-Range': etag })).status).toBe(206);
    const changed = await read('bytes=0-9', { 'If-Range': '"0123456789abcdef01234567"' });
    expect(changed.status).toBe(200);
    expect(changed.body!.byteLength).toBe(1000);
  });

  it('leaves a Range to an answer that takes none alone', async () => {
    const item = await send({ path: '/v2/thing/2/', headers: { Range: 'bytes=0-1' } });
    expect(item.status).toBe(200);
    expect(item.headers['accept-ranges']).toBeUndefined();
  });
});

describe('a file read by byte ranges, read from the build', () => {
  it('once, however many ranges are asked of it: a range is a slice of the kept bytes', async () => {
    const reads: string[] = [];
    const counting: FileReader = { read: (path) => (reads.push(path), memory.read(path)) };
    const handle = createHandler(counting, { baseUrl: BASE });
    for (let start = 0; start < 1000; start += 100) {
      const response = await handle(new Request(`https://edge.test${databasePath}`, { headers: { Range: `bytes=${start}-${start + 99}` } }));
      expect([response.status, await response.text()]).toEqual([206, database.slice(start, start + 100)]);
    }
    expect(reads.filter((path) => path === databasePath.slice(1))).toEqual([databasePath.slice(1)]);
  });
});
