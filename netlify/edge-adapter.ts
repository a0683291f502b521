/**
 * The Netlify edge function's logic: edge/handler.ts behind the CDN. The function is declared on
 * the API's paths only (netlify.toml); the files it reads are the deploy's own static files,
 * fetched from the same site under FILE_READ_PREFIX, a path it is not declared on, so its reads
 * never run it again and no request header decides whether it answers.
 * Kept out of netlify/edge-functions/ because Netlify deploys every file there as a function.
 */
import { createService, type FileReader, type Service } from '../edge/handler.ts';
import { API_PREFIX, metaFile, type Meta } from '../edge/layout.ts';
import { keysWholeQuery } from '../edge/params.ts';

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
 * spellings with different repeats cannot share (edge/params.ts `keysWholeQuery` says why).
 * Either way it depends on the path alone, as Netlify asks (one URL, one Netlify-Vary, whatever
 * the answer). null: send none.
 */
export const netlifyVary = (params: readonly string[]): string | null => (keysWholeQuery(params) ? null : `query=${params.join('|')}`);
/**
 * A deploy's answers never change (a new deploy empties the CDN cache), so 200s are kept for a
 * year. Everything else is not stored at the CDN: a 404 is cheap to compute, and a stored 503
 * would outlive the fault that made it.
 */
export const CDN_CACHE_OK = 'public, s-maxage=31536000';
export const CDN_NO_STORE = 'no-store';

export type Fetcher = (request: Request) => Promise<Response>;
/** One handler and the reader it was made with; thrown away when a read fails. */
interface ServedDeploy {
  service: Promise<Service>;
  /** a read failed for a reason other than a missing file */
  failed: boolean;
}

const decoder = new TextDecoder();

function serveDeploy(origin: string, fetcher: Fetcher): ServedDeploy {
  const deploy: ServedDeploy = { service: Promise.resolve(null as unknown as Service), failed: false };
  const reader: FileReader = {
    async read(path) {
      const url = new URL(`${FILE_READ_PREFIX}/${path.split('/').map(encodeURIComponent).join('/')}`, origin);
      let response: Response;
      try {
        response = await fetcher(new Request(url));
      } catch {
        deploy.failed = true;
        return null;
      }
      if (response.status === 200) return new Uint8Array(await response.arrayBuffer());
      await response.body?.cancel();
      // A missing file is an answer (the handler turns it into a 404); anything else is not,
      // and the handler remembers what it read, so this handler must not answer again.
      if (response.status !== 404) deploy.failed = true;
      return null;
    },
  };
  deploy.service = (async () => {
    // Links in computed pages must carry the base URL the build wrote into every file.
    let baseUrl = `${origin}/${API_PREFIX}`;
    const bytes = await reader.read(metaFile);
    if (bytes !== null) {
      try {
        const meta = JSON.parse(decoder.decode(bytes)) as Partial<Meta>;
        if (typeof meta.base_url === 'string') baseUrl = meta.base_url;
      } catch {
        deploy.failed = true;
      }
    }
    return createService(reader, { baseUrl });
  })();
  return deploy;
}

/** The answer when the deploy's own files could not be read: retry soon, store nowhere. */
function unavailable(): Response {
  return new Response(JSON.stringify('Service Unavailable'), {
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

/** The edge function's body: every request it is declared on gets an answer. */
export function createEdgeAdapter(fetcher: Fetcher = (request) => fetch(request)) {
  let current: ServedDeploy | null = null;
  return async function answer(request: Request): Promise<Response> {
    const deploy = (current ??= serveDeploy(new URL(request.url).origin, fetcher));
    const service = await deploy.service;
    const response = deploy.failed ? null : await service.handle(request);
    const params = response === null || deploy.failed ? null : await service.paramsReadAt(new URL(request.url).pathname);
    if (response === null || params === null || deploy.failed) {
      if (current === deploy) current = null;
      return unavailable();
    }
    // Only GET answers are stored by the CDN; a HEAD or a 304 stored under the URL would be
    // served to a later plain GET.
    const storable = request.method === 'GET' && response.status === 200;
    for (const [name, value] of Object.entries(cdnPolicy(storable))) response.headers.set(name, value);
    const vary = netlifyVary(params);
    if (vary !== null) response.headers.set('Netlify-Vary', vary);
    return response;
  };
}
