/**
 * Every routing and pagination rule of the service, as one function from a web-standard
 * Request to a Response. It only reads the files the build wrote, through the `files` reader
 * it is given, so the local preview (disk) and the CDN edge (static fetch) share it unchanged.
 */
import {
  API_PREFIX, DEFAULT_LIMIT, itemFile, listFile, metaFile, pageFile, rootFile, routesFile, subresourceFile, type Meta, type Routes,
} from './layout.ts';
import { paginate, parseLimit, parseOffset, type FullList } from './pagination.ts';
import { queryParam } from './params.ts';

export interface FileReader {
  /** the bytes of a file under dist/, by its relative path, or null when there is none */
  read(path: string): Promise<Uint8Array | null>;
}

/** What `createResponder` reads of a request: a web Request is one, and so is a plain object. */
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

export interface HandlerOptions {
  /** `{base_url}` as links in the files carry it, e.g. `http://localhost:8080/v2` */
  baseUrl: string;
}

/** A path segment the service can answer: what names and ids are made of. */
const SEGMENT = /^-?[a-z0-9][a-z0-9-]{0,99}$/;
const MAX_PATH = 512;

/** Cache policy: answers change only when a new build is deployed, and then their ETag changes. */
export const CACHE_OK = 'public, max-age=86400, stale-while-revalidate=604800';
export const CACHE_ERROR = 'public, max-age=300';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** What a route decided, before the headers every answer carries are added. */
interface Answer {
  status: number;
  body: Uint8Array;
  /** set when the body is a file, whose hash can then be remembered */
  file?: string;
  /** JSON unless said otherwise (the docs page and its assets) */
  contentType?: string;
  headers?: Record<string, string>;
}

const jsonAnswer = (status: number, value: unknown, headers?: Record<string, string>): Answer => ({
  status,
  body: encoder.encode(JSON.stringify(value)),
  ...(headers ? { headers } : {}),
});
const notFound = (): Answer => jsonAnswer(404, 'Not Found');
const methodNotAllowed = (): Answer => jsonAnswer(405, 'Method Not Allowed', { Allow: 'GET, HEAD' });

/** Splits `/v2/a/b/` into lowercase segments, or null when the path cannot name a resource. */
export function pathSegments(pathname: string): string[] | null {
  if (pathname.length > MAX_PATH) return null;
  const parts = pathname.split('/');
  if (parts[0] !== '' || parts[1] !== API_PREFIX) return null;
  const rest = parts.slice(2);
  if (rest.length && rest[rest.length - 1] === '') rest.pop();
  const segments: string[] = [];
  for (const raw of rest) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(raw);
    } catch {
      return null;
    }
    const segment = decoded.toLowerCase();
    if (!SEGMENT.test(segment)) return null;
    segments.push(segment);
  }
  return segments;
}

/** `007` and `7` are the same id. */
const canonicalKey = (key: string) => (/^\d+$/.test(key) ? String(Number(key)) : key);

async function contentHash(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-1', bytes as BufferSource));
  let hex = '';
  for (let i = 0; i < 12; i++) hex += digest[i]!.toString(16).padStart(2, '0');
  return `"${hex}"`;
}

/** True when an If-None-Match header names this ETag (or `*`). */
export function matchesEtag(header: string | null, etag: string): boolean {
  if (header === null) return false;
  return header.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}

/** The request logic as a function from a web Request to a web Response. */
export function createHandler(files: FileReader, options: HandlerOptions) {
  const respond = createResponder(files, options);
  return async function handle(request: Request): Promise<Response> {
    const reply = await respond(request);
    return new Response(reply.body as BodyInit | null, { status: reply.status, headers: reply.headers });
  };
}

/** The request logic, answering with a Reply (status, headers, bytes): what createHandler wraps. */
export function createResponder(files: FileReader, options: HandlerOptions) {
  /**
   * Routes, meta and lists are read once and kept; a read that failed or found nothing is not
   * kept, so a passing fault (a CDN fetch, a rebuild in progress) does not outlive itself.
   */
  const kept = new Map<string, Promise<unknown>>();
  const keepRead = <T>(path: string): Promise<T | null> => {
    let read = kept.get(path) as Promise<T | null> | undefined;
    if (!read) {
      read = readJson<T>(path);
      kept.set(path, read);
      read.then(
        (value) => value === null && kept.delete(path),
        () => kept.delete(path),
      );
    }
    return read;
  };
  /**
   * Files do not change under one handler: a CDN deploy is immutable, and the preview makes a
   * new handler for each build it serves. So each file's hash is computed once.
   */
  const fileHashes = new Map<string, Promise<string>>();

  const readJson = async <T>(path: string): Promise<T | null> => {
    const bytes = await files.read(path);
    return bytes === null ? null : (JSON.parse(decoder.decode(bytes)) as T);
  };
  const getRoutes = () => keepRead<Routes>(routesFile);
  const getMeta = () => keepRead<Meta>(metaFile);
  const getList = (kind: string) => keepRead<FullList>(listFile(kind));
  const fileAnswer = async (path: string): Promise<Answer> => {
    const bytes = await files.read(path);
    return bytes === null ? notFound() : { status: 200, body: bytes, file: path };
  };

  async function collection(kind: string, params: URLSearchParams): Promise<Answer> {
    const limit = parseLimit(queryParam(params, 'limit'));
    const offset = parseOffset(queryParam(params, 'offset'));
    const q = queryParam(params, 'q');
    if (q === null && limit === DEFAULT_LIMIT && offset % DEFAULT_LIMIT === 0) {
      const precomputed = await fileAnswer(pageFile(kind, offset));
      if (precomputed.status === 200) return precomputed;
    }
    const list = await getList(kind);
    if (!list) return notFound();
    const collectionUrl = `${options.baseUrl}/${kind}/`;
    if (q === null) return jsonAnswer(200, paginate(list, collectionUrl, offset, limit));
    const needle = q.toLowerCase();
    const results = list.results.filter((r) => r.name !== undefined && r.name.includes(needle));
    const page = paginate({ count: results.length, results }, collectionUrl, offset, limit);
    const withQuery = (link: string | null) => (link === null ? null : `${link}&q=${encodeURIComponent(q)}`);
    return jsonAnswer(200, { ...page, next: withQuery(page.next), previous: withQuery(page.previous) });
  }

  async function route(url: URL): Promise<Answer> {
    const sitePage = (await getRoutes())?.site?.[url.pathname];
    if (sitePage) {
      const page = await fileAnswer(sitePage.file);
      return page.status === 200 ? { ...page, contentType: sitePage.type } : page;
    }
    const segments = pathSegments(url.pathname);
    if (segments === null) return notFound();
    if (segments.length === 0) return fileAnswer(rootFile);
    if (segments.length === 1 && segments[0] === 'meta') return fileAnswer(metaFile);
    const known = await getRoutes();
    const [kind, key, sub] = segments as [string, string | undefined, string | undefined];
    if (!known || !known.kinds.includes(kind)) return notFound();
    if (key === undefined) return collection(kind, url.searchParams);
    if (sub === undefined) return fileAnswer(itemFile(kind, canonicalKey(key)));
    if (segments.length === 3 && known.subresources[kind]?.includes(sub)) return fileAnswer(subresourceFile(kind, canonicalKey(key), sub));
    return notFound();
  }

  /** The headers every answer carries, errors included; a matching If-None-Match gives 304. */
  async function finish(request: RequestLike, answer: Answer): Promise<Reply> {
    const headers: Record<string, string> = {
      'content-type': answer.contentType ?? 'application/json; charset=utf-8',
      'access-control-allow-origin': '*',
      'access-control-expose-headers': 'ETag, X-Data-Version',
      'x-content-type-options': 'nosniff',
      'cache-control': answer.status === 200 ? CACHE_OK : CACHE_ERROR,
    };
    for (const [name, value] of Object.entries(answer.headers ?? {})) headers[name.toLowerCase()] = value;
    const version = (await getMeta().catch(() => null))?.upstream_commit;
    if (version) headers['x-data-version'] = version;
    let etag: string;
    if (answer.file !== undefined) {
      let known = fileHashes.get(answer.file);
      if (!known) fileHashes.set(answer.file, (known = contentHash(answer.body)));
      etag = await known;
    } else etag = await contentHash(answer.body);
    headers['etag'] = etag;
    if (answer.status === 200 && matchesEtag(request.headers.get('If-None-Match'), etag)) {
      return { status: 304, headers, body: null };
    }
    headers['content-length'] = String(answer.body.byteLength);
    return { status: answer.status, headers, body: request.method === 'HEAD' ? null : answer.body };
  }

  return async function respond(request: RequestLike): Promise<Reply> {
    let answer: Answer;
    if (request.method !== 'GET' && request.method !== 'HEAD') answer = methodNotAllowed();
    else {
      try {
        answer = await route(new URL(request.url));
      } catch {
        // A file that cannot be read or parsed is an item that is not there, never a 5xx.
        answer = notFound();
      }
    }
    return finish(request, answer);
  };
}
