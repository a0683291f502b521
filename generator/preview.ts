/**
 * The local preview: http-server as the HTTP shell, with one `before` middleware that hands
 * every request to the shared request logic (edge/handler.ts), which reads files under dist/.
 */
import { readFile } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants as zlibConstants, gzip, gzipSync } from 'node:zlib';
import httpServer from 'http-server';
import { createResponder, matchesEtag, type FileReader, type Reply } from '../edge/handler.ts';

/** Reads files under `root` only; any path that would leave it reads as missing. */
export function diskReader(root: string): FileReader {
  const base = resolve(root) + sep;
  return {
    async read(path) {
      const full = resolve(base, path);
      if (!full.startsWith(base)) return null;
      try {
        return await readFile(full);
      } catch {
        return null;
      }
    },
  };
}

/**
 * Promised values by key, least recently used first out once the settled values' sizes pass
 * `maxBytes`. A value is made once however many ask for it while it is being made; a failure
 * is not kept, nor a value `sizeOf` gives no size (too large, or nothing to keep).
 */
export class PromiseLru<V> {
  private readonly entries = new Map<string, Promise<V>>();
  private readonly sizes = new Map<string, number>();
  private bytes = 0;
  constructor(
    private readonly maxBytes: number,
    private readonly sizeOf: (value: V) => number | null,
  ) {}

  get(key: string, make: () => Promise<V>): Promise<V> {
    const hit = this.entries.get(key);
    if (hit) {
      // most recently used last: eviction takes from the front
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const made = make();
    this.entries.set(key, made);
    made.then(
      (value) => {
        if (this.entries.get(key) !== made) return;
        const size = this.sizeOf(value);
        if (size === null) {
          this.entries.delete(key);
          return;
        }
        this.sizes.set(key, size);
        this.bytes += size;
        for (const [old] of this.entries) {
          if (this.bytes <= this.maxBytes) break;
          this.entries.delete(old);
          this.bytes -= this.sizes.get(old) ?? 0;
          this.sizes.delete(old);
        }
      },
      () => {
        if (this.entries.get(key) === made) this.entries.delete(key);
      },
    );
    return made;
  }
}

/**
 * Keeps the bytes of recently read files in memory, up to `maxBytes`: files under dist/ do not
 * change under a running preview (the handler keeps their hashes on the same assumption), and a
 * read from memory spares the four thread-pool round trips of a file read.
 */
export function cachedReader(reader: FileReader, maxBytes: number): FileReader {
  const files = new PromiseLru<Uint8Array | null>(maxBytes, (body) => (body !== null && body.byteLength <= maxBytes / 8 ? body.byteLength : null));
  return { read: (path) => files.get(path, () => reader.read(path)) };
}

type Respond = ReturnType<typeof createResponder>;

/** A content coding the preview can send. */
export type Coding = 'br' | 'gzip' | 'identity';

/**
 * The coding to answer with, from an Accept-Encoding header: the one with the highest q-value,
 * brotli before gzip on a tie (it is smaller); identity when neither is acceptable.
 */
export function chooseCoding(acceptEncoding: string | undefined): Coding {
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
    return coding === 'br' ? brotliCompressSync(body, brotliOptions(body.byteLength)) : gzipSync(body, { level: 6 });
  }
  return coding === 'br' ? brotli(body, brotliOptions(body.byteLength)) : gzipAsync(body, { level: 6 });
};

/**
 * Compressed variants, by the identity's ETag and the coding, up to `maxBytes` of compressed
 * bytes (least recently used go first). An ETag names the bytes it was made from, so a variant
 * is compressed once per body whatever the route, computed pages included.
 */
export class CompressionCache {
  private readonly variants: PromiseLru<Buffer>;
  constructor(maxBytes: number) {
    this.variants = new PromiseLru(maxBytes, (out) => out.byteLength);
  }

  get(etag: string, coding: 'br' | 'gzip', body: Uint8Array): Promise<Buffer> {
    return this.variants.get(`${coding} ${etag}`, () => compressWith(coding, body));
  }
}

/** `"abc"` → `"abc-br"`: a compressed variant is other bytes, so it gets its own strong ETag. */
export const variantEtag = (etag: string, coding: Coding): string => (coding === 'identity' ? etag : `${etag.slice(0, -1)}-${coding}"`);

export interface PreviewOptions {
  /** compressed variants kept in memory, in bytes */
  compressionCacheBytes?: number;
}

/**
 * Hands a request to the shared request logic and writes its answer, choosing the body's coding
 * from Accept-Encoding. The coding changes the bytes, hence the ETag, so If-None-Match is
 * evaluated here, against the ETag of the variant that would be sent. The request logic is
 * called through createResponder, not as web Request → Response: the same answer without
 * building and draining a web stream per request.
 */
export function previewMiddleware(respond: Respond, origin: string, options: PreviewOptions = {}) {
  const variants = new CompressionCache(options.compressionCacheBytes ?? 64 * 1024 * 1024);
  // If-None-Match is evaluated in negotiate(), against the variant sent: the request logic never sees it
  const noHeaders = { get: () => null };
  return (req: IncomingMessage, res: ServerResponse) => {
    const method = req.method ?? 'GET';
    // HEAD answers with the headers GET would have, compressed length included
    respond({ method: method === 'HEAD' ? 'GET' : method, url: absoluteUrl(req.url ?? '/', origin), headers: noHeaders })
      .then((reply) => negotiate(reply, req, variants))
      .then(({ status, headers, body }) => {
        res.statusCode = status;
        // http-server promises byte ranges on every response; these answers never serve one
        res.removeHeader('Accept-Ranges');
        for (const name in headers) res.setHeader(name, headers[name]!);
        res.end(method === 'HEAD' ? null : body);
      })
      .catch(() => {
        res.statusCode = 404;
        res.setHeader('Content-Type', 'application/json; charset=utf-8');
        res.end('"Not Found"');
      });
  };
}

/** The request's URL; one that cannot be parsed is passed as it is, for the request logic's 404. */
function absoluteUrl(path: string, origin: string): string {
  try {
    return new URL(path, origin).href;
  } catch {
    return path;
  }
}

/** The variant of a reply this client gets: its coding, ETag and length, or 304 when it has it. */
async function negotiate(reply: Reply, req: IncomingMessage, variants: CompressionCache): Promise<Reply> {
  const headers = reply.headers;
  headers['vary'] = 'Accept-Encoding';
  let body = reply.body;
  const etag = headers['etag'];
  if (body !== null && etag !== undefined && body.byteLength >= MIN_COMPRESSED_SIZE && COMPRESSIBLE.test(headers['content-type'] ?? '')) {
    const coding = chooseCoding(req.headers['accept-encoding']);
    if (coding !== 'identity') {
      body = await variants.get(etag, coding, body);
      headers['content-encoding'] = coding;
      headers['content-length'] = String(body.byteLength);
      headers['etag'] = variantEtag(etag, coding);
    }
  }
  if (reply.status === 200 && headers['etag'] !== undefined && matchesEtag(req.headers['if-none-match'] ?? null, headers['etag'])) {
    delete headers['content-length'];
    delete headers['content-encoding'];
    return { status: 304, headers, body: null };
  }
  return { status: reply.status, headers, body };
}

export interface Preview {
  url: string;
  close(): Promise<void>;
}

/**
 * http-server's `union` reads `res._headers`, which Node flags as deprecated (DEP0066) on the
 * first request. Users of the preview can do nothing about it, so that one warning is dropped;
 * every other warning passes through.
 */
let unionDeprecationSilenced = false;
function silenceUnionDeprecation(): void {
  if (unionDeprecationSilenced) return;
  unionDeprecationSilenced = true;
  const emitWarning = process.emitWarning.bind(process) as (...args: unknown[]) => void;
  process.emitWarning = ((...args: unknown[]) => {
    const [, type, code] = args;
    const options = typeof type === 'object' && type !== null ? (type as { code?: unknown }) : null;
    if (code === 'DEP0066' || options?.code === 'DEP0066') return;
    emitWarning(...args);
  }) as typeof process.emitWarning;
}

export function startPreview(options: { root: string; baseUrl: string; port: number; host?: string }): Promise<Preview> {
  silenceUnionDeprecation();
  const respond = createResponder(cachedReader(diskReader(options.root), 128 * 1024 * 1024), { baseUrl: options.baseUrl });
  const host = options.host ?? '127.0.0.1';
  const server = httpServer.createServer({
    root: options.root,
    before: [previewMiddleware(respond, `http://${host}`)],
    showDir: 'false',
    autoIndex: 'false',
    cache: -1,
  });
  return new Promise((resolvePromise) => {
    server.listen(options.port, host, () => {
      const address = server.server.address();
      const port = typeof address === 'object' && address ? address.port : options.port;
      resolvePromise({
        url: `http://${host}:${port}`,
        close: () =>
          new Promise((done) => {
            server.server.closeAllConnections();
            server.server.close(() => done());
          }),
      });
    });
  });
}
