/**
 * The Netlify edge function's logic: edge/handler.ts behind the CDN. The function is declared on
 * the API's paths only (netlify.toml); the files it reads are the deploy's own static files,
 * fetched from the same site under FILE_READ_PREFIX, a path it is not declared on, so its reads
 * never run it again and no request header decides whether it answers.
 * Kept out of netlify/edge-functions/ because Netlify deploys every file there as a function.
 */
import { UNAVAILABLE_BODY } from '../contract/error-body.ts';
import { createService, type FileReader, type Service } from '../edge/handler.ts';
import { API_PREFIX, metaFile, type Meta } from '../contract/layout.ts';
import { keysWholeQuery } from '../contract/query/params.ts';

/**
 * Where the function reads build files: `/_files/v2/creature/1.json` is `dist/v2/creature/1.json`
 * (a rewrite in netlify.toml). Outside the function's declared paths, so a read is a static
 * answer, stored by the CDN like any static file, and never a second invocation.
 */
export const FILE_READ_PREFIX = '/_files';

/**
 * The CDN's cache key, from the query parameters the answers at a path read (edge/handler.ts
 * `paramsReadAt`). A path that reads none gets `query=`, an empty list, so junk parameters share
 * its entry. A path that reads a parameter whose repeats change the answer (every collection,
 * `/v2/search/`) gets no Netlify-Vary: Netlify then keys on the whole query string, which two
 * spellings with different repeats cannot share (contract/query/params.ts `keysWholeQuery` says why).
 * Either way it depends on the path alone, as Netlify asks (one URL, one Netlify-Vary, whatever
 * the answer). null: send none.
 */
export const netlifyVary = (params: readonly string[]): string | null => (keysWholeQuery(params) ? null : `query=${params.join('|')}`);
/**
 * A deploy's answers never change (a new deploy empties the CDN cache), so 200s are kept for a
 * year. Everything else is not stored at the CDN: a 404 is cheap to compute, and a stored 500 or
 * 503 would outlive the fault that made it.
 */
export const CDN_CACHE_OK = 'public, s-maxage=31536000';
export const CDN_NO_STORE = 'no-store';

export type Fetcher = (request: Request) => Promise<Response>;
/** One handler and the reader it was made with; thrown away when a read fails. */
interface ServedDeploy {
  /** null when the deploy's meta could not be read */
  service: Promise<Service | null>;
  /** a read failed for a reason other than a missing file */
  failed: boolean;
}

const decoder = new TextDecoder();

/**
 * The deploy's files, fetched. A missing file is null (the handler turns it into a 404); any
 * other failure throws (the handler answers a 500) and marks the deploy failed, so the adapter
 * answers a 503 instead: the handler remembers what it read, so it must not answer again.
 */
function deployReader(origin: string, fetcher: Fetcher, deploy: ServedDeploy): FileReader {
  return {
    async read(path) {
      const url = new URL(`${FILE_READ_PREFIX}/${path.split('/').map(encodeURIComponent).join('/')}`, origin);
      const response = await fetcher(new Request(url)).catch((error: unknown) => {
        deploy.failed = true;
        throw error;
      });
      if (response.status === 200) return new Uint8Array(await response.arrayBuffer());
      await response.body?.cancel();
      if (response.status === 404) return null;
      deploy.failed = true;
      throw new Error(`${path}: the static layer answered ${response.status}`);
    },
  };
}

/**
 * The base URL the build wrote into every file, which links in computed pages must carry; the
 * site's own when the deploy has no meta, or one that cannot be parsed (the handler then answers
 * every request with a 500, as it does for any broken build).
 */
async function deployBaseUrl(reader: FileReader, origin: string): Promise<string> {
  const fallback = `${origin}/${API_PREFIX}`;
  const bytes = await reader.read(metaFile);
  if (bytes === null) return fallback;
  let meta: Partial<Meta>;
  try {
    meta = JSON.parse(decoder.decode(bytes)) as Partial<Meta>;
  } catch (error) {
    if (error instanceof SyntaxError) return fallback;
    throw error;
  }
  return typeof meta.base_url === 'string' ? meta.base_url : fallback;
}

function serveDeploy(origin: string, fetcher: Fetcher): ServedDeploy {
  const deploy: ServedDeploy = { service: Promise.resolve(null), failed: false };
  const reader = deployReader(origin, fetcher, deploy);
  deploy.service = deployBaseUrl(reader, origin).then(
    (baseUrl) => createService(reader, { baseUrl }),
    (error: unknown) => {
      // a failed read of meta is the 503's to answer; anything else is a fault of this code
      if (deploy.failed) return null;
      throw error;
    },
  );
  return deploy;
}

/** The answer when the deploy's own files could not be read: retry soon, store nowhere. */
function unavailable(): Response {
  return new Response(JSON.stringify(UNAVAILABLE_BODY), {
    status: 503,
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Access-Control-Allow-Origin': '*',
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-store',
      'Retry-After': '1',
      // no Netlify-Vary: the parameters a path reads are in the routing table, which may be what failed
      ...cdnPolicy(false),
    },
  });
}

/**
 * What the CDN reads: whether and how long to store an answer, and its cache key. The same
 * policy goes in both Netlify's own header and the standard one (RFC 9213): one report
 * (nitrojs/nitro#2431) saw Netlify-Vary ignored when only Netlify's header was sent.
 */
function cdnPolicy(storable: boolean): Record<string, string> {
  const policy = storable ? CDN_CACHE_OK : CDN_NO_STORE;
  return { 'Netlify-CDN-Cache-Control': policy, 'CDN-Cache-Control': policy };
}

/** The parameters the request's path reads; null when reading the routing table failed (the 503's to answer). */
function paramsOf(service: Service, deploy: ServedDeploy, request: Request): Promise<string[] | null> {
  return service.paramsReadAt(new URL(request.url).pathname).catch((error: unknown) => {
    if (deploy.failed) return null;
    throw error;
  });
}

/** The edge function's body: every request it is declared on gets an answer. */
export function createEdgeAdapter(fetcher: Fetcher = (request) => fetch(request)) {
  let current: ServedDeploy | null = null;
  return async function answer(request: Request): Promise<Response> {
    const deploy = (current ??= serveDeploy(new URL(request.url).origin, fetcher));
    const service = await deploy.service;
    const response = service === null || deploy.failed ? null : await service.handle(request);
    // a fault (a 500) sends no Netlify-Vary: the parameters a path reads are in the routing table, which may be what failed
    const params = response === null || response.status >= 500 ? null : await paramsOf(service!, deploy, request);
    if (response === null || deploy.failed) {
      if (current === deploy) current = null;
      return unavailable();
    }
    // Only GET answers are stored by the CDN; a HEAD or a 304 stored under the URL would be
    // served to a later plain GET.
    const storable = request.method === 'GET' && response.status === 200;
    for (const [name, value] of Object.entries(cdnPolicy(storable))) response.headers.set(name, value);
    const vary = params === null ? null : netlifyVary(params);
    if (vary !== null) response.headers.set('Netlify-Vary', vary);
    return response;
  };
}
