/**
 * Every routing and pagination rule of the service, as one function from a web-standard
 * Request to a Response. It only reads the files the build wrote, through the `files` reader
 * it is given, so the local preview (disk) and the CDN edge (static fetch) share it unchanged.
 * HTTP semantics (HEAD, conditional GET, the headers every answer carries) are edge/http.ts's.
 */
import { BuildFiles, type FileReader } from './build-files.ts';
import { compose, HTTP_STEPS, replyOf, type Answer, type Reply, type RequestLike, type Respond, type Step } from './http.ts';
import { API_PREFIX, DEFAULT_LIMIT, itemFile, metaFile, pageFile, rootFile, subresourceFile } from './layout.ts';
import { paginate, parseLimit, parseOffset } from './pagination.ts';
import { queryParam } from './params.ts';

export type { FileReader };

export interface HandlerOptions {
  /** `{base_url}` as links in the files carry it, e.g. `http://localhost:8080/v2` */
  baseUrl: string;
}

/** A path segment the service can answer: what names and ids are made of. */
const SEGMENT = /^-?[a-z0-9][a-z0-9-]{0,99}$/;
const MAX_PATH = 512;

const encoder = new TextEncoder();

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

async function fileAnswer(build: BuildFiles, path: string): Promise<Answer> {
  const bytes = await build.read(path);
  return bytes === null ? notFound() : { status: 200, body: bytes, file: path };
}

async function collection(build: BuildFiles, kind: string, params: URLSearchParams): Promise<Answer> {
  const limit = parseLimit(queryParam(params, 'limit'));
  const offset = parseOffset(queryParam(params, 'offset'));
  const q = queryParam(params, 'q');
  if (q === null && limit === DEFAULT_LIMIT && offset % DEFAULT_LIMIT === 0) {
    const precomputed = await fileAnswer(build, pageFile(kind, offset));
    if (precomputed.status === 200) return precomputed;
  }
  const list = await build.list(kind);
  if (!list) return notFound();
  const collectionUrl = `${build.baseUrl}/${kind}/`;
  if (q === null) return jsonAnswer(200, paginate(list, collectionUrl, offset, limit));
  const needle = q.toLowerCase();
  const results = list.results.filter((r) => r.name !== undefined && r.name.includes(needle));
  const page = paginate({ count: results.length, results }, collectionUrl, offset, limit);
  const withQuery = (link: string | null) => (link === null ? null : `${link}&q=${encodeURIComponent(q)}`);
  return jsonAnswer(200, { ...page, next: withQuery(page.next), previous: withQuery(page.previous) });
}

async function route(build: BuildFiles, url: URL): Promise<Answer> {
  const sitePage = (await build.routes())?.site?.[url.pathname];
  if (sitePage) {
    const page = await fileAnswer(build, sitePage.file);
    return page.status === 200 ? { ...page, contentType: sitePage.type } : page;
  }
  const segments = pathSegments(url.pathname);
  if (segments === null) return notFound();
  if (segments.length === 0) return fileAnswer(build, rootFile);
  if (segments.length === 1 && segments[0] === 'meta') return fileAnswer(build, metaFile);
  const known = await build.routes();
  const [kind, key, sub] = segments as [string, string | undefined, string | undefined];
  if (!known || !known.kinds.includes(kind)) return notFound();
  if (key === undefined) return collection(build, kind, url.searchParams);
  if (sub === undefined) return fileAnswer(build, itemFile(kind, canonicalKey(key)));
  if (segments.length === 3 && known.subresources[kind]?.includes(sub)) return fileAnswer(build, subresourceFile(kind, canonicalKey(key), sub));
  return notFound();
}

/** What the service answers to a GET (or any other method: 405), with the headers every answer carries. */
async function answer(build: BuildFiles, request: RequestLike): Promise<Reply> {
  let decided: Answer;
  if (request.method !== 'GET' && request.method !== 'HEAD') decided = methodNotAllowed();
  else {
    try {
      decided = await route(build, new URL(request.url));
    } catch {
      // A file that cannot be read or parsed is an item that is not there, never a 5xx.
      decided = notFound();
    }
  }
  return replyOf(decided, await build.identify(decided));
}

/** The request logic as a function from a web Request to a web Response. */
export function createHandler(files: FileReader, options: HandlerOptions) {
  const respond = createResponder(files, options);
  return async function handle(request: Request): Promise<Response> {
    const reply = await respond(request);
    return new Response(reply.body as BodyInit | null, { status: reply.status, headers: reply.headers });
  };
}

/**
 * The request logic answering with a Reply (status, headers, bytes): what createHandler wraps.
 * `encodings` are an adapter's own steps between the HTTP semantics and the answer (the
 * preview compresses there; the edge leaves that to the CDN), so HEAD and If-None-Match see
 * the bytes that are sent.
 */
export function createResponder(files: FileReader, options: HandlerOptions, ...encodings: Step[]): Respond {
  const build = new BuildFiles(files, options.baseUrl);
  return compose([...HTTP_STEPS, ...encodings], (request) => answer(build, request));
}
