/**
 * The service's HTTP semantics, once, as steps around an answering function: the headers every
 * answer carries, HEAD, and conditional GET. Each step is `(request, next) => reply`, so an
 * adapter composes them with steps of its own (the preview inserts compression); HEAD and
 * If-None-Match then act on the reply that is really sent, whatever a later step made of it.
 * No Node API here: the edge function runs it too.
 */
import { CACHE_ERROR, CACHE_NONE, CACHE_OK } from '../contract/cache.ts';

/** What a step reads of a request: a web Request is one, and so is a plain object. */
export interface RequestLike {
  method: string;
  url: string;
  headers: { get(name: string): string | null };
}

/** An answer before it becomes a web Response; an adapter that writes elsewhere skips making one. */
export interface Reply {
  status: number;
  /** lowercase names */
  headers: Record<string, string>;
  /** null for 304 and HEAD */
  body: Uint8Array | null;
}

export type Respond = (request: RequestLike) => Promise<Reply>;
/** One layer around the rest of the composition, which it reaches through `next`. */
export type Step = (request: RequestLike, next: Respond) => Promise<Reply>;

/** `steps[0]` is outermost: it sees the request first and the reply last. */
export function compose(steps: readonly Step[], innermost: Respond): Respond {
  return steps.reduceRight<Respond>((next, step) => (request) => step(request, next), innermost);
}

/** What a status may be cached for: a 5xx never. */
const cacheControl = (status: number): string => (status === 200 ? CACHE_OK : status >= 500 ? CACHE_NONE : CACHE_ERROR);

/** What a route decided, before the headers every answer carries are added. */
export interface Answer {
  status: number;
  body: Uint8Array;
  /** set when the body is a file (or spliced from files: their paths), whose hash can then be remembered: a build's files do not change */
  file?: string;
  /** JSON unless said otherwise (the docs page and its assets) */
  contentType?: string;
  headers?: Record<string, string>;
}

/** Who made the answer's bytes: their content hash and the data version of the build. */
export interface AnswerIdentity {
  etag: string;
  /** the upstream commit; absent when the build's meta cannot be read */
  version: string | undefined;
}

/** The headers every answer carries, errors included, in the order they are sent. */
export function replyOf(answer: Answer, identity: AnswerIdentity): Reply {
  const headers: Record<string, string> = {
    'content-type': answer.contentType ?? 'application/json; charset=utf-8',
    'access-control-allow-origin': '*',
    'access-control-expose-headers': 'ETag, X-Data-Version',
    'x-content-type-options': 'nosniff',
    'cache-control': cacheControl(answer.status),
  };
  for (const [name, value] of Object.entries(answer.headers ?? {})) headers[name.toLowerCase()] = value;
  if (identity.version) headers['x-data-version'] = identity.version;
  headers['etag'] = identity.etag;
  headers['content-length'] = String(answer.body.byteLength);
  return { status: answer.status, headers, body: answer.body };
}

/** `"` + the first 12 bytes of the SHA-1 of the bytes in hex + `"`: a strong ETag. */
export async function contentHash(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-1', bytes as BufferSource));
  let hex = '';
  for (let i = 0; i < 12; i++) hex += digest[i]!.toString(16).padStart(2, '0');
  return `"${hex}"`;
}

/** True when an If-None-Match header names this ETag (or `*`); If-None-Match compares weakly. */
export function matchesEtag(header: string | null, etag: string): boolean {
  if (header === null) return false;
  return header.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}

/**
 * HEAD: the rest answers it as a GET, so the headers are the GET's (a coded length included
 * when a later step compresses), and the body is dropped here, last.
 */
export const head: Step = async (request, next) => {
  if (request.method !== 'HEAD') return next(request);
  const reply = await next({ method: 'GET', url: request.url, headers: request.headers });
  return { status: reply.status, headers: reply.headers, body: null };
};

/**
 * Conditional GET: a 200 whose ETag the client names in If-None-Match becomes a 304 with the
 * same headers less the body's own (length, coding). It runs on the reply as it would be sent,
 * so a compressed variant is matched by its own ETag.
 */
export const conditionalGet: Step = async (request, next) => {
  const reply = await next(request);
  const etag = reply.headers['etag'];
  if (reply.status !== 200 || etag === undefined || !matchesEtag(request.headers.get('If-None-Match'), etag)) return reply;
  const headers = reply.headers;
  delete headers['content-length'];
  delete headers['content-encoding'];
  return { status: 304, headers, body: null };
};

/**
 * Byte ranges, for an answer that says it takes them (`Accept-Ranges: bytes`: the database, read
 * by a browser a few pages at a time). One range (`bytes=a-b`, `bytes=a-`, `bytes=-n`) of a 200 is a
 * 206 with its `Content-Range`; one that starts past the end is a 416 naming the size. Anything
 * else is the whole answer, as RFC 9110 allows: several ranges, a unit not `bytes`, a header that
 * cannot be read, and an `If-Range` naming another ETag (the file changed since the reader's first
 * read: it must not join bytes of two files).
 */
export const ranges: Step = async (request, next) => {
  const reply = await next(request);
  if (reply.status !== 200 || reply.body === null || reply.headers['accept-ranges'] !== 'bytes') return reply;
  const part = askedPart(request.headers, [reply.headers['etag']], reply.body.byteLength);
  if (part === null) return reply;
  const body = part.status === 416 ? new Uint8Array(0) : reply.body.subarray(part.start, part.end + 1);
  return { status: part.status, headers: { ...reply.headers, ...part.headers }, body };
};

/** What a request's `Range` asks of a whole answer: a 416, or the part from `start` to `end` (inclusive), each with the headers it adds. */
export type AskedPart =
  | { status: 416; headers: { 'content-range': string; 'content-length': string } }
  | { status: 206; start: number; end: number; headers: { 'content-range': string; 'content-length': string } };

/**
 * The part of a whole answer of `size` bytes that a request asks for, by the rules of `ranges`;
 * null for the whole answer: no `Range`, not one range of bytes, or an `If-Range` that names
 * none of the answer's `validators` (its ETag, or its Last-Modified where a static layer gives no ETag).
 */
export function askedPart(headers: Pick<Headers, 'get'>, validators: readonly (string | null | undefined)[], size: number): AskedPart | null {
  const header = headers.get('Range');
  if (header === null) return null;
  const ifRange = headers.get('If-Range')?.trim();
  if (ifRange !== undefined && !validators.includes(ifRange)) return null;
  const range = byteRange(header, size);
  if (range === null) return null;
  if (range === 'unsatisfiable') return { status: 416, headers: { 'content-range': `bytes */${size}`, 'content-length': '0' } };
  const [start, end] = range;
  return { status: 206, start, end, headers: { 'content-range': `bytes ${start}-${end}/${size}`, 'content-length': String(end + 1 - start) } };
}

/** The one range a `Range` header asks of `size` bytes, inclusive; null when it is not one range of bytes. */
function byteRange(header: string, size: number): [number, number] | 'unsatisfiable' | null {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    return suffix === 0 ? 'unsatisfiable' : [Math.max(0, size - suffix), size - 1];
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size) return 'unsatisfiable';
  return end < start ? null : [start, end];
}

/** The steps every adapter applies, outermost first; an adapter's own steps go after them. */
export const HTTP_STEPS: readonly Step[] = [head, conditionalGet, ranges];
