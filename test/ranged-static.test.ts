/**
 * A download's byte range where the static layer sends files whole (netlify/ranged-static.ts),
 * against invented static answers: the range cut out of a 200, read no further than its end; any
 * other answer, and a request without one range, handed on as it was.
 */
import { describe, expect, it } from 'vitest';
import { isDownload, rangeOfStatic } from '../netlify/ranged-static.ts';

const FILE = Uint8Array.from({ length: 1000 }, (_, i) => i % 251);
const ETAG = '"abc"';

/** A static answer of FILE in chunks of 64 bytes, counting the chunks read. */
function staticFile(options: { length?: boolean; status?: number; headers?: Record<string, string> } = {}) {
  const read = { chunks: 0, cancelled: false };
  let at = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= FILE.length) return controller.close();
      read.chunks++;
      controller.enqueue(FILE.slice(at, (at += 64)));
    },
    cancel() {
      read.cancelled = true;
    },
  });
  const headers = new Headers({ 'content-type': 'application/octet-stream', etag: ETAG, ...options.headers });
  if (options.length !== false) headers.set('content-length', String(FILE.length));
  return { read, next: () => Promise.resolve(new Response(body, { status: options.status ?? 200, headers })) };
}

const get = (headers: Record<string, string>, method = 'GET') => new Request('http://site.test/downloads/x.sqlite', { method, headers });

describe('a range of a download the static layer sends whole', () => {
  it('is a 206 of those bytes, with the size, read no further than the range', async () => {
    const { read, next } = staticFile();
    const reply = (await rangeOfStatic(get({ Range: 'bytes=100-199' }), next))!;
    expect(reply.status).toBe(206);
    expect(new Uint8Array(await reply.arrayBuffer())).toEqual(FILE.slice(100, 200));
    const headers: Record<string, string> = {};
    reply.headers.forEach((value, name) => (headers[name] = value));
    expect(headers).toMatchObject({
      'content-range': 'bytes 100-199/1000',
      'content-length': '100',
      'accept-ranges': 'bytes',
      etag: ETAG,
      'content-type': 'application/octet-stream',
    });
    // the four chunks up to byte 200, and the one a stream pulls ahead of its reader
    expect(read.chunks).toBeLessThanOrEqual(5);
    expect(read.cancelled).toBe(true);
  });

  it('reads the whole answer to learn its size when it has no length: a suffix range too', async () => {
    const reply = (await rangeOfStatic(get({ Range: 'bytes=-10' }), staticFile({ length: false }).next))!;
    expect(reply.status).toBe(206);
    expect(reply.headers.get('content-range')).toBe('bytes 990-999/1000');
    expect(new Uint8Array(await reply.arrayBuffer())).toEqual(FILE.slice(990));
  });

  it('with If-Range naming this ETag, cuts; naming another, sends the whole file (a reader must never join two files)', async () => {
    expect((await rangeOfStatic(get({ Range: 'bytes=0-9', 'If-Range': ETAG }), staticFile().next))!.status).toBe(206);
    const other = (await rangeOfStatic(get({ Range: 'bytes=0-9', 'If-Range': '"old"' }), staticFile().next))!;
    expect(other.status).toBe(200);
    expect((await other.arrayBuffer()).byteLength).toBe(1000);
  });

  it('past the end is a 416 naming the size; several ranges or another unit, the whole file', async () => {
    const past = (await rangeOfStatic(get({ Range: 'bytes=1000-' }), staticFile().next))!;
    expect([past.status, past.headers.get('content-range')]).toEqual([416, 'bytes */1000']);
    for (const range of ['bytes=0-1,5-6', 'items=0-1', 'bytes=x-y']) {
      const whole = (await rangeOfStatic(get({ Range: range }), staticFile().next))!;
      expect([range, whole.status, (await whole.arrayBuffer()).byteLength]).toEqual([range, 200, 1000]);
    }
  });

  it('hands on a request without Range, and a HEAD, untouched: the static layer answers them', async () => {
    let asked = 0;
    const next = () => (asked++, staticFile().next());
    expect(await rangeOfStatic(get({}), next)).toBeUndefined();
    expect(await rangeOfStatic(get({ Range: 'bytes=0-9' }, 'HEAD'), next)).toBeUndefined();
    expect(asked).toBe(0);
  });

  it('passes on the static layer’s own 206, a 404 and an encoded body as they are', async () => {
    for (const options of [{ status: 206 }, { status: 404 }, { headers: { 'content-encoding': 'gzip' } }]) {
      const { next } = staticFile(options);
      const reply = (await rangeOfStatic(get({ Range: 'bytes=0-9' }), next))!;
      expect(reply.status).toBe(options.status ?? 200);
      expect((await reply.arrayBuffer()).byteLength).toBe(1000);
    }
  });

  it('is asked of the downloads only', () => {
    expect(isDownload(get({}))).toBe(true);
    expect(isDownload(new Request('http://site.test/v2/downloads/'))).toBe(false);
    expect(isDownload(new Request('http://site.test/downloadsx/a'))).toBe(false);
  });
});
