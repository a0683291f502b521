/**
 * The local preview: http-server as the HTTP shell, with one `before` middleware that hands
 * every request to the shared request logic (edge/handler.ts), which reads files under dist/.
 * It notices a new build of the folder (createServing) and then keeps nothing of the old one.
 */
import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants as zlibConstants, gzip, gzipSync } from 'node:zlib';
import httpServer from 'http-server';
import { createResponder, matchesEtag, type FileReader, type Reply } from '../edge/handler.ts';
import { buildStampFile } from '../edge/layout.ts';
import { readBuildStamp } from './emit/stamp.ts';

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
 * Keeps the bytes of recently read files in memory, up to `maxBytes`: a read from memory spares
 * the four thread-pool round trips of a file read. Files of one build never change (a new build
 * is swapped in whole, and gets a new reader: see createServing).
 */
export function cachedReader(reader: FileReader, maxBytes: number): FileReader {
  const files = new PromiseLru<Uint8Array | null>(maxBytes, (body) => (body !== null && body.byteLength <= maxBytes / 8 ? heldBytes(body) : null));
  return { read: (path) => files.get(path, () => reader.read(path)) };
}

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

/** What a kept value costs in memory: the whole store it is a view of, not only its own bytes. */
const heldBytes = (bytes: Uint8Array): number => Math.max(bytes.byteLength, bytes.buffer.byteLength);

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

/** The preview's memory for one build; all of it is dropped when another build is swapped in. */
export interface PreviewCacheSizes {
  /** file bytes kept in memory (default 32 MB, DEFAULT_FILE_CACHE_BYTES); a file larger than an eighth of it is not kept */
  fileCacheBytes?: number;
  /** compressed variants kept in memory (default 16 MB, DEFAULT_COMPRESSION_CACHE_BYTES) */
  compressionCacheBytes?: number;
}

export const DEFAULT_FILE_CACHE_BYTES = 16 * 1024 * 1024;
export const DEFAULT_COMPRESSION_CACHE_BYTES = 8 * 1024 * 1024;

/**
 * Which build `root` holds, from the folder's inode and its build stamp's inode, time and size:
 * a build swaps the whole folder in, so each build has its own. Two `stat`s, a few microseconds,
 * cheap enough to ask on every request. Null while a swap leaves no folder there.
 */
export function buildIdentity(root: string): string | null {
  let folder;
  try {
    folder = statSync(root);
  } catch {
    return null;
  }
  try {
    const stamp = statSync(join(root, buildStampFile));
    return `${folder.ino}:${stamp.ino}:${stamp.mtimeMs}:${stamp.size}`;
  } catch {
    return `${folder.ino}:-`;
  }
}

/** The base URL a build's links carry, as its stamp says. */
function stampedBaseUrl(root: string): string | null {
  const baseUrl: unknown = readBuildStamp(root)?.baseUrl;
  return typeof baseUrl === 'string' ? baseUrl : null;
}

/** Everything the preview keeps about one build: its reader's bytes, the request logic's routes, lists and ETags, compressed variants. */
interface Generation {
  identity: string;
  respond: ReturnType<typeof createResponder>;
  variants: CompressionCache;
}

/** What answering needs of a request, from node's IncomingMessage or anything else. */
export interface PreviewRequest {
  method: string;
  /** absolute URL */
  url: string;
  acceptEncoding?: string | undefined;
  ifNoneMatch?: string | undefined;
}

/** A swap is two renames; a request that lands between them waits this long before asking again. */
const SWAP_WAIT_MS = 20;
const MAX_ATTEMPTS = 50;

/**
 * Answers from exactly one build of `root`. Each build gets a fresh generation of caches; a
 * request is answered within one generation and its answer used only if the folder still
 * holds that build afterwards, otherwise it is answered again from the new one. So no answer
 * mixes two builds, and an ETag is only ever compared with the bytes of the build now served.
 * The base URL of computed pages is the build's own (its stamp says it), so `next` links of a
 * page always match the build its items came from.
 */
export function createServing(root: string, fallbackBaseUrl: string, sizes: PreviewCacheSizes = {}) {
  let current: Generation | null = null;
  const generation = (): Generation | null => {
    const identity = buildIdentity(root);
    if (identity === null) return null;
    if (current?.identity !== identity) {
      const files = cachedReader(diskReader(root), sizes.fileCacheBytes ?? DEFAULT_FILE_CACHE_BYTES);
      current = {
        identity,
        respond: createResponder(files, { baseUrl: stampedBaseUrl(root) ?? fallbackBaseUrl }),
        variants: new CompressionCache(sizes.compressionCacheBytes ?? DEFAULT_COMPRESSION_CACHE_BYTES),
      };
    }
    return current;
  };
  // If-None-Match is evaluated in negotiate(), against the variant sent: the request logic never sees it
  const noHeaders = { get: () => null };
  return async function answer(request: PreviewRequest): Promise<Reply> {
    let last: Reply | null = null;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const gen = generation();
      if (gen === null) {
        await new Promise((r) => setTimeout(r, SWAP_WAIT_MS));
        continue;
      }
      // HEAD answers with the headers GET would have, compressed length included
      const method = request.method === 'HEAD' ? 'GET' : request.method;
      const reply = await gen.respond({ method, url: request.url, headers: noHeaders });
      last = await negotiate(reply, request, gen.variants);
      if (buildIdentity(root) === gen.identity) return last;
    }
    // the folder kept changing under every attempt: the last answer is still from one build's request logic
    return last ?? { status: 404, headers: { 'content-type': 'application/json; charset=utf-8' }, body: Buffer.from('"Not Found"') };
  };
}

/**
 * Hands a request to the serving logic and writes its answer. The coding changes the bytes,
 * hence the ETag, so If-None-Match is evaluated in negotiate(), against the ETag of the variant
 * that would be sent. The request logic is called through createResponder, not as web
 * Request → Response: the same answer without building and draining a web stream per request.
 */
export function previewMiddleware(answer: ReturnType<typeof createServing>, origin: string) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const method = req.method ?? 'GET';
    answer({ method, url: absoluteUrl(req.url ?? '/', origin), acceptEncoding: req.headers['accept-encoding'], ifNoneMatch: req.headers['if-none-match'] })
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
async function negotiate(reply: Reply, req: PreviewRequest, variants: CompressionCache): Promise<Reply> {
  const headers = reply.headers;
  headers['vary'] = 'Accept-Encoding';
  let body = reply.body;
  const etag = headers['etag'];
  if (body !== null && etag !== undefined && body.byteLength >= MIN_COMPRESSED_SIZE && COMPRESSIBLE.test(headers['content-type'] ?? '')) {
    const coding = chooseCoding(req.acceptEncoding);
    if (coding !== 'identity') {
      body = await variants.get(etag, coding, body);
      headers['content-encoding'] = coding;
      headers['content-length'] = String(body.byteLength);
      headers['etag'] = variantEtag(etag, coding);
    }
  }
  if (reply.status === 200 && headers['etag'] !== undefined && matchesEtag(req.ifNoneMatch ?? null, headers['etag'])) {
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

export interface PreviewStartOptions extends PreviewCacheSizes {
  root: string;
  /** the base URL of computed pages when the build has no stamp to say it */
  baseUrl: string;
  port: number;
  host?: string;
}

export function startPreview(options: PreviewStartOptions): Promise<Preview> {
  silenceUnionDeprecation();
  const host = options.host ?? '127.0.0.1';
  const server = httpServer.createServer({
    root: options.root,
    before: [previewMiddleware(createServing(options.root, options.baseUrl, options), `http://${host}`)],
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
