/**
 * The preview's gzip and brotli: which coding a client gets (Accept-Encoding), the compressed
 * variants of one build kept in memory, each with its own ETag, and the step that puts them in
 * the request logic's composition (edge/http.ts), inside HEAD and conditional GET.
 */
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants as zlibConstants, gzip, gzipSync } from 'node:zlib';
import type { Step } from '../../edge/http.ts';
import { heldBytes, PromiseLru } from './lru.ts';

/** A content coding the preview can send. */
export type Coding = 'br' | 'gzip' | 'identity';

/**
 * The coding to answer with, from an Accept-Encoding header: the one with the highest q-value,
 * brotli before gzip on a tie (it is smaller); identity when neither is acceptable.
 */
export function chooseCoding(acceptEncoding: string | null | undefined): Coding {
  if (!acceptEncoding) return 'identity';
  const q = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    if (!name) continue;
    const qParam = params.find((p) => p.startsWith('q='));
    const value = qParam === undefined ? 1 : Number(qParam.slice(2));
    q.set(name === 'x-gzip' ? 'gzip' : name, Number.isFinite(value) ? value : 0);
  }
  const star = q.get('*') ?? 0;
  const br = q.get('br') ?? star;
  const gz = q.get('gzip') ?? star;
  if (br > 0 && br >= gz) return 'br';
  if (gz > 0) return 'gzip';
  return 'identity';
}

/** Bodies smaller than this are sent as they are: compression would save a few bytes at most. */
export const MIN_COMPRESSED_SIZE = 1024;
const COMPRESSIBLE = /^(?:text\/|application\/(?:json|javascript|xml)|application\/[\w.+-]*\+(?:json|xml)|image\/svg\+xml)/i;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
/** Below this size a body is compressed on the event loop: tens of µs, less than a thread-pool round trip. */
const SYNC_COMPRESS_BELOW = 16 * 1024;
const brotliOptions = (size: number) => ({
  // quality 5: within a few per cent of the maximum's size at a hundredth of its time
  params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: size },
});
const compressWith = async (coding: 'br' | 'gzip', body: Uint8Array): Promise<Buffer> => {
  if (body.byteLength < SYNC_COMPRESS_BELOW) {
    return ownBytes(coding === 'br' ? brotliCompressSync(body, brotliOptions(body.byteLength)) : gzipSync(body, { level: 6 }));
  }
  return ownBytes(await (coding === 'br' ? brotli(body, brotliOptions(body.byteLength)) : gzipAsync(body, { level: 6 })));
};

/**
 * The bytes alone, in memory of their own. zlib hands back its output as a view of a 16 KB
 * chunk, so a 2 KB variant kept as it is would keep 16 KB alive: measured, a compression
 * cache of 16 MB of variants held about 95 MB.
 */
export function ownBytes(bytes: Buffer): Buffer {
  if (bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.byteLength) return bytes;
  const own = Buffer.allocUnsafeSlow(bytes.byteLength);
  bytes.copy(own);
  return own;
}

/**
 * Compressed variants, by the identity's ETag and the coding, up to `maxBytes` of compressed
 * bytes (least recently used go first). An ETag names the bytes it was made from, so a variant
 * is compressed once per body whatever the route, computed pages included.
 */
export class CompressionCache {
  private readonly variants: PromiseLru<Buffer>;
  constructor(maxBytes: number) {
    this.variants = new PromiseLru<Buffer>(maxBytes, heldBytes);
  }

  get(etag: string, coding: 'br' | 'gzip', body: Uint8Array): Promise<Buffer> {
    return this.variants.get(`${coding} ${etag}`, () => compressWith(coding, body));
  }
}

/** `"abc"` → `"abc-br"`: a compressed variant is other bytes, so it gets its own strong ETag. */
export const variantEtag = (etag: string, coding: Coding): string => (coding === 'identity' ? etag : `${etag.slice(0, -1)}-${coding}"`);

/**
 * The step that sends a reply in the client's coding: a compressible body of at least
 * MIN_COMPRESSED_SIZE is replaced by its variant, with that variant's length and ETag. Every
 * reply, compressed or not, says it varies on Accept-Encoding.
 */
export function compression(variants: CompressionCache): Step {
  return async (request, next) => {
    const reply = await next(request);
    const headers = reply.headers;
    headers['vary'] = 'Accept-Encoding';
    const { body } = reply;
    const etag = headers['etag'];
    if (body === null || etag === undefined || body.byteLength < MIN_COMPRESSED_SIZE || !COMPRESSIBLE.test(headers['content-type'] ?? '')) return reply;
    const coding = chooseCoding(request.headers.get('Accept-Encoding'));
    if (coding === 'identity') return reply;
    const coded = await variants.get(etag, coding, body);
    headers['content-encoding'] = coding;
    headers['content-length'] = String(coded.byteLength);
    headers['etag'] = variantEtag(etag, coding);
    return { status: reply.status, headers, body: coded };
  };
}
