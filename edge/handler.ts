/**
 * Every routing rule of the service, as one function from a web-standard Request to a Response.
 * It only reads the files the build wrote, through the `files` reader it is given, so the local
 * preview (disk) and the CDN edge (static fetch) share it unchanged. Collections are
 * edge/collection.ts's, `GET /v2/search/` edge/search-endpoint.ts's; HTTP semantics (HEAD,
 * conditional GET, the headers every answer carries) are edge/http.ts's.
 * A missing file is a 404; a broken build (edge/build-files.ts `BrokenBuild`) or any other
 * exception is a 500 stored nowhere, logged with its stack: it must show, not hide as a 404.
 */
import { badParameter, internalError, methodNotAllowed, notFound } from './answers.ts';
import { BrokenBuild, BuildFiles, readAhead, type FileReader } from './build-files.ts';
import { stackWithCauses } from '../contract/error-text.ts';
import { collection } from './collection.ts';
import { compose, contentHash, HTTP_STEPS, replyOf, type Answer, type Reply, type RequestLike, type Respond, type Step } from './http.ts';
import {
  API_PREFIX,
  canonicalKey,
  changeReportFile,
  changesListFile,
  coverageFile,
  DOWNLOADS_PATH,
  downloadsIndexFile,
  itemFile,
  metaFile,
  rootFile,
  subresourceFile,
} from '../contract/layout.ts';
import { checkedQuery, collectionParams, namesLanguage, SEARCH_PARAMS } from '../contract/query/params.ts';
import { languageList } from '../contract/query/parameter-table.ts';
import { search, SEARCH_PATH } from './search-endpoint.ts';
import { asOf, AS_OF_PATH, isAsOfKind, MATCHUPS, matchupsToday } from './as-of-endpoint.ts';

export type { FileReader };

export interface HandlerOptions {
  /** `{base_url}` as links in the files carry it, e.g. `http://localhost:8080/v2` */
  baseUrl: string;
}

/** A path segment the service can answer: what names and ids are made of. */
const SEGMENT = /^-?[a-z0-9][a-z0-9-]{0,99}$/;
const MAX_PATH = 512;

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
    } catch (error) {
      // a malformed escape (`%zz`) names no resource
      if (error instanceof URIError) return null;
      throw error;
    }
    const segment = decoded.toLowerCase();
    if (!SEGMENT.test(segment)) return null;
    segments.push(segment);
  }
  return segments;
}

/** The file at `path` as the answer, read now or already being read (`started`). */
async function fileAnswer(build: BuildFiles, path: string, started: Promise<Uint8Array | null> | null = null): Promise<Answer> {
  const bytes = await (started ?? build.read(path));
  return bytes === null ? notFound() : { status: 200, body: bytes, file: path };
}

/** An item (BuildFiles.item: its file, or two files' bytes spliced), or the 404. */
async function itemAnswer(build: BuildFiles, kind: string, key: string, started: Promise<Uint8Array | null> | null): Promise<Answer> {
  const item = await build.item(kind, key, started);
  return item === null ? notFound() : { status: 200, body: item.bytes, file: item.file };
}

async function route(build: BuildFiles, url: URL): Promise<Answer> {
  const segments = pathSegments(url.pathname);
  const early = prefetch(build, url, segments);
  const sitePage = (await build.routes()).site?.[url.pathname];
  if (sitePage) {
    const bytes = await (sitePage.ranges ? build.readKept(sitePage.file) : build.read(sitePage.file));
    // the routing table names the page's file: the build wrote it, or it is broken
    if (bytes === null) throw new BrokenBuild(sitePage.file, `missing, though the routing table serves it at ${url.pathname}`);
    return { status: 200, body: bytes, file: sitePage.file, contentType: sitePage.type, ...(sitePage.ranges ? { headers: { 'accept-ranges': 'bytes' } } : {}) };
  }
  if (segments === null) return notFound();
  if (segments.length === 0) return fileAnswer(build, rootFile);
  if (segments.length === 1 && segments[0] === 'meta') return fileAnswer(build, metaFile);
  if (segments.length === 2 && segments[0] === 'meta' && segments[1] === 'coverage') return fileAnswer(build, coverageFile);
  if (segments.length === 1 && segments[0] === DOWNLOADS_PATH) return fileAnswer(build, downloadsIndexFile);
  if (segments[0] === CHANGES_PATH && segments.length <= 2) return changes(build, segments[1]);
  if (segments.length === 1 && segments[0] === SEARCH_PATH) return withQuery(url, (params) => search(build, params));
  if (early.answer) return early.answer;
  const known = await build.routes();
  const [kind, key, sub] = segments as [string, string | undefined, string | undefined];
  if (!known.kinds.includes(kind)) return notFound();
  if (key === undefined) return withQuery(url, (params) => collection(build, kind, params));
  if (sub === undefined) return itemAnswer(build, kind, canonicalKey(key), early.item);
  if (segments.length === 3 && known.subresources[kind]?.includes(sub)) return fileAnswer(build, subresourceFile(kind, canonicalKey(key), sub));
  return notFound();
}

/**
 * What a request prefetches beside the routing table, named by its URL alone: at the edge each
 * read is a request, so each of these waits on one fewer. An answer that reads no routing table;
 * on a cold start an item's file (served only once the table lists its kind); the language list
 * a query's `lang` is checked against (a list every build has).
 */
function prefetch(
  build: BuildFiles,
  url: URL,
  segments: readonly string[] | null,
): { answer: Promise<Answer> | null; item: Promise<Uint8Array | null> | null } {
  const answer = segments === null ? null : answerOutsideRoutes(build, url, segments);
  const item =
    segments?.length === 2 && !build.routesKnown && !NOT_KINDS.has(segments[0]!) ? build.read(itemFile(segments[0]!, canonicalKey(segments[1]!))) : null;
  if (answer) readAhead(answer);
  if (item) readAhead(item);
  if (namesLanguage(url)) readAhead(languageList(build));
  return { answer, item };
}

/** The answers the routing table does not decide, below a site page: as of a game, and a creature's matchups (creature is a kind of every build). */
function answerOutsideRoutes(build: BuildFiles, url: URL, segments: readonly string[]): Promise<Answer> | null {
  if (segments[0] === AS_OF_PATH) return asOf(build, segments.slice(1), (answer) => withQuery(url, answer));
  if (segments.length === 3 && segments[0] === 'creature' && segments[2] === MATCHUPS) return matchupsToday(build, segments[1]!);
  return null;
}

const CHANGES_PATH = 'changes';
/** First segments that name no kind: their paths are answered before the routing table's kinds are asked. */
const NOT_KINDS = new Set(['meta', CHANGES_PATH, SEARCH_PATH, AS_OF_PATH, DOWNLOADS_PATH]);
const FULL_COMMIT = /^[0-9a-f]{40}$/;
/** The shortest commit prefix answered, as git abbreviates. */
const SHORT_COMMIT = /^[0-9a-f]{7,39}$/;

/**
 * `GET /v2/changes/` (the list) and `GET /v2/changes/{commit}`: a full commit is its file; a
 * prefix of 7 or more hex digits is the one listed version it starts, and a 404 when it starts
 * none or several.
 */
async function changes(build: BuildFiles, commit: string | undefined): Promise<Answer> {
  if (commit === undefined) return fileAnswer(build, changesListFile);
  if (FULL_COMMIT.test(commit)) return fileAnswer(build, changeReportFile(commit));
  if (!SHORT_COMMIT.test(commit)) return notFound();
  const bytes = await build.read(changesListFile);
  if (bytes === null) return notFound();
  const list = JSON.parse(new TextDecoder().decode(bytes)) as { results: Array<{ to: string }> };
  const matches = list.results.filter((r) => r.to.startsWith(commit));
  return matches.length === 1 ? fileAnswer(build, changeReportFile(matches[0]!.to)) : notFound();
}

/** A route that reads the query, behind the cap on its length. */
function withQuery(url: URL, answer: (params: URLSearchParams) => Promise<Answer>): Promise<Answer> {
  const checked = checkedQuery(url);
  return checked.ok ? answer(checked.value) : Promise.resolve(badParameter(checked.error));
}

/**
 * The query parameters the answers at a URL path can read, whatever else the URL holds: what the
 * CDN keys its cache on (Netlify-Vary). One path gives one list, whatever its answer's status.
 */
export async function paramsReadAt(build: BuildFiles, pathname: string): Promise<string[]> {
  const routes = await build.routes();
  if (routes.site?.[pathname]) return [];
  const segments = pathSegments(pathname);
  // an as-of list reads what its kind's list reads
  if (segments?.length === 3 && segments[0] === AS_OF_PATH && isAsOfKind(segments[2]!))
    return routes.kinds.includes(segments[2]) ? collectionParams(routes.queries?.[segments[2]]) : [];
  if (segments === null || segments.length !== 1) return [];
  const [first] = segments as [string];
  if (first === SEARCH_PATH) return [...SEARCH_PARAMS];
  return routes.kinds.includes(first) ? collectionParams(routes.queries?.[first]) : [];
}

/** The request's URL; null for one that cannot be parsed (the preview passes such a target on as it is), which names nothing. */
function parsedUrl(url: string): URL | null {
  try {
    return new URL(url);
  } catch (error) {
    if (error instanceof TypeError) return null;
    throw error;
  }
}

/** What the service answers to a GET (or any other method: 405), with the headers every answer carries. */
async function answer(build: BuildFiles, request: RequestLike): Promise<Reply> {
  // every answer's identity reads meta: read beside the answer's own reads, not after them
  readAhead(build.meta());
  try {
    const url = parsedUrl(request.url);
    const decided = request.method !== 'GET' && request.method !== 'HEAD' ? methodNotAllowed() : url === null ? notFound() : await route(build, url);
    return replyOf(decided, await build.identify(decided));
  } catch (error) {
    return faultReply(request, error);
  }
}

/**
 * A broken build or a bug: a 500, stored nowhere (edge/http.ts), and one line on stderr naming
 * the path and the error, then its stack with its causes (contract/error-text.ts): the preview's
 * terminal and the edge function's log show both. The body says only that the fault is ours.
 * No data version: the build's meta may be what failed.
 */
export async function faultReply(request: RequestLike, error: unknown): Promise<Reply> {
  console.error(faultLog(request, error));
  const decided = internalError();
  return replyOf(decided, { etag: await contentHash(decided.body), version: undefined });
}

/** What a fault logs: `GET /v2/x: 500: the message` on one line, then the stack with its causes. */
function faultLog(request: Pick<RequestLike, 'method' | 'url'>, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return `${request.method} ${pathOf(request.url)}: 500: ${message.replace(/\s*\n\s*/g, ' ')}\n${stackWithCauses(error)}`;
}

/** The path of a URL as the log names it; the URL as it is when it cannot be parsed. */
const pathOf = (url: string): string => parsedUrl(url)?.pathname ?? url;

/** The request logic as a function from a web Request to a web Response. */
export function createHandler(files: FileReader, options: HandlerOptions) {
  return createService(files, options).handle;
}

/** The request logic, and what a CDN in front of it must know: the parameters each path reads. */
export interface Service {
  /** the answer as a Reply (status, headers, bytes) */
  respond: Respond;
  /** the answer as a web Response */
  handle: (request: Request) => Promise<Response>;
  /** see `paramsReadAt` */
  paramsReadAt(pathname: string): Promise<string[]>;
}

/**
 * The request logic over one build's files. `encodings` are an adapter's own steps between the
 * HTTP semantics and the answer (the preview compresses there; the edge leaves that to the
 * CDN), so HEAD and If-None-Match see the bytes that are sent.
 */
export function createService(files: FileReader, options: HandlerOptions, ...encodings: Step[]): Service {
  const build = new BuildFiles(files, options.baseUrl);
  const respond = compose([...HTTP_STEPS, ...encodings], (request) => answer(build, request));
  return {
    respond,
    async handle(request) {
      const reply = await respond(request);
      return new Response(reply.body as BodyInit | null, { status: reply.status, headers: reply.headers });
    },
    paramsReadAt: (pathname) => paramsReadAt(build, pathname),
  };
}

/** The request logic answering with a Reply: `createService(...).respond`. */
export function createResponder(files: FileReader, options: HandlerOptions, ...encodings: Step[]): Respond {
  return createService(files, options, ...encodings).respond;
}
