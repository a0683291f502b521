/**
 * Every routing and pagination rule of the service, as one function from a web-standard
 * Request to a Response. It only reads the files the build wrote, through the `files` reader
 * it is given, so the local preview (disk) and the CDN edge (static fetch) share it unchanged.
 */
import { API_PREFIX, DEFAULT_LIMIT, itemFile, listFile, pageFile, rootFile, routesFile, subresourceFile, type Routes } from './layout.ts';
import { paginate, parseLimit, parseOffset, type FullList } from './pagination.ts';

export interface FileReader {
  /** the bytes of a file under dist/, by its relative path, or null when there is none */
  read(path: string): Promise<Uint8Array | null>;
}

export interface HandlerOptions {
  /** `{base_url}` as links in the files carry it, e.g. `http://localhost:8080/v2` */
  baseUrl: string;
}

const JSON_TYPE = 'application/json; charset=utf-8';
/** A path segment the service can answer: what names and ids are made of. */
const SEGMENT = /^-?[a-z0-9][a-z0-9-]{0,99}$/;
const MAX_PATH = 512;

const decoder = new TextDecoder();

function json(status: number, body: BodyInit | null, extra: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { 'Content-Type': JSON_TYPE, ...extra } });
}

export const notFound = () => json(404, JSON.stringify('Not Found'));
const methodNotAllowed = () => json(405, JSON.stringify('Method Not Allowed'), { Allow: 'GET, HEAD' });

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

export function createHandler(files: FileReader, options: HandlerOptions) {
  let routes: Promise<Routes | null> | null = null;
  const lists = new Map<string, Promise<FullList | null>>();

  const readJson = async <T>(path: string): Promise<T | null> => {
    const bytes = await files.read(path);
    return bytes === null ? null : (JSON.parse(decoder.decode(bytes)) as T);
  };
  const getRoutes = () => (routes ??= readJson<Routes>(routesFile));
  const getList = (kind: string) => {
    let list = lists.get(kind);
    if (!list) lists.set(kind, (list = readJson<FullList>(listFile(kind))));
    return list;
  };
  const fileResponse = async (path: string) => {
    const bytes = await files.read(path);
    return bytes === null ? notFound() : json(200, bytes as BodyInit);
  };

  async function collection(kind: string, params: URLSearchParams): Promise<Response> {
    const limit = parseLimit(params.get('limit'));
    const offset = parseOffset(params.get('offset'));
    const q = params.get('q');
    if (q === null && limit === DEFAULT_LIMIT && offset % DEFAULT_LIMIT === 0) {
      const bytes = await files.read(pageFile(kind, offset));
      if (bytes !== null) return json(200, bytes as BodyInit);
    }
    const list = await getList(kind);
    if (!list) return notFound();
    const collectionUrl = `${options.baseUrl}/${kind}/`;
    if (q === null) return json(200, JSON.stringify(paginate(list, collectionUrl, offset, limit)));
    const needle = q.toLowerCase();
    const results = list.results.filter((r) => r.name !== undefined && r.name.includes(needle));
    const page = paginate({ count: results.length, results }, collectionUrl, offset, limit);
    const withQuery = (link: string | null) => (link === null ? null : `${link}&q=${encodeURIComponent(q)}`);
    return json(200, JSON.stringify({ ...page, next: withQuery(page.next), previous: withQuery(page.previous) }));
  }

  async function respond(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const segments = pathSegments(url.pathname);
    if (segments === null) return notFound();
    if (segments.length === 0) return fileResponse(rootFile);
    const known = await getRoutes();
    const [kind, key, sub] = segments as [string, string | undefined, string | undefined];
    if (!known || !known.kinds.includes(kind)) return notFound();
    if (key === undefined) return collection(kind, url.searchParams);
    if (sub === undefined) return fileResponse(itemFile(kind, canonicalKey(key)));
    if (segments.length === 3 && known.subresources[kind]?.includes(sub)) return fileResponse(subresourceFile(kind, canonicalKey(key), sub));
    return notFound();
  }

  return async function handle(request: Request): Promise<Response> {
    if (request.method !== 'GET' && request.method !== 'HEAD') return methodNotAllowed();
    try {
      const response = await respond(request);
      return request.method === 'HEAD' ? new Response(null, { status: response.status, headers: response.headers }) : response;
    } catch {
      // A broken file must not become a 5xx with a stack trace; the item is simply not there.
      return notFound();
    }
  };
}
