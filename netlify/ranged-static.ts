/**
 * Byte ranges of a static download (the database), for a static layer that sends every file whole:
 * Netlify's CLI does (test/netlify-cli.test.ts), while a reader by ranges needs a `206`. The edge
 * function, declared on the downloads too, hands every request without a
 * `Range` on untouched; with one, it asks the static layer, passes on any answer but a whole,
 * unencoded `200`, and cuts the asked range out of that one, reading its body no further than the
 * range's end. The rules are the preview's (`askedPart` in edge/http.ts): one range of bytes, else
 * the whole file; an `If-Range` that names another version gets the whole file.
 * Kept out of netlify/edge-functions/ because Netlify deploys every file there as a function.
 */
import { DOWNLOADS_DIR } from '../contract/layout.ts';
import { askedPart } from '../edge/http.ts';

/** Whether a request is the downloads' (netlify.toml declares the function there too), not the API's. */
export const isDownload = (request: Request): boolean => new URL(request.url).pathname.startsWith(`/${DOWNLOADS_DIR}/`);

export async function rangeOfStatic(request: Request, next: () => Promise<Response>): Promise<Response | undefined> {
  if (!request.headers.has('Range') || request.method !== 'GET') return undefined;
  const whole = await next();
  if (whole.status !== 200 || whole.body === null || whole.headers.has('content-encoding')) return whole;
  const length = whole.headers.get('content-length');
  // without a length the whole body is read to learn it
  const body = length === null ? new Uint8Array(await whole.arrayBuffer()) : null;
  const part = askedPart(request.headers, [whole.headers.get('etag'), whole.headers.get('last-modified')], body?.byteLength ?? Number(length));
  if (part === null) return body === null ? whole : new Response(body, { status: 200, headers: whole.headers });
  const headers = new Headers(whole.headers);
  headers.set('accept-ranges', 'bytes');
  for (const [name, value] of Object.entries(part.headers)) headers.set(name, value);
  if (part.status === 416) {
    await whole.body.cancel().catch(() => {});
    return new Response(null, { status: 416, headers });
  }
  const bytes = body ?? (await bytesUntil(whole.body, part.end + 1));
  return new Response(bytes.slice(part.start, part.end + 1), { status: 206, headers });
}

/** The first `count` bytes of a stream, which is then cancelled: the rest is never read. */
async function bytesUntil(stream: ReadableStream<Uint8Array>, count: number): Promise<Uint8Array> {
  const out = new Uint8Array(count);
  let filled = 0;
  const reader = stream.getReader();
  try {
    while (filled < count) {
      const { done, value } = await reader.read();
      if (done) throw new Error(`the static layer's answer ended after ${filled} of the ${count} bytes its length promised`);
      const take = Math.min(value.byteLength, count - filled);
      out.set(value.subarray(0, take), filled);
      filled += take;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return out;
}
