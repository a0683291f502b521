/**
 * The Netlify edge function's logic: edge/handler.ts behind the CDN. The handler answers every
 * request; the files it reads are the deploy's own static files, fetched from the same site.
 * Kept out of netlify/edge-functions/ because Netlify deploys every file there as a function.
 */
import { createHandler, type FileReader } from '../edge/handler.ts';
import { API_PREFIX, metaFile, type Meta } from '../edge/layout.ts';

/**
 * Marks the function's own reads of build files. The function is declared on every path, so
 * its reads reach it again; with this header it steps aside and the static layer serves the file.
 */
export const STATIC_READ_HEADER = 'x-static-read';

/** The CDN's cache key: the path plus only the query parameters the handler reads. */
export const NETLIFY_VARY = 'query=limit|offset|q';
/**
 * A deploy's answers never change (a new deploy empties the CDN cache), so 200s are kept for a
 * year. Everything else is not stored at the CDN: 404s cost no read, and a stored answer at a
 * path the function reads from (say `/v2/creature/1.json`, a 404 for the public) would be
 * served to those reads too.
 */
export const CDN_CACHE_OK = 'public, s-maxage=31536000';
export const CDN_NO_STORE = 'no-store';

export type Fetcher = (request: Request) => Promise<Response>;
type Handle = ReturnType<typeof createHandler>;

/** One handler and the reader it was made with; thrown away when a read fails. */
interface Generation {
  handle: Promise<Handle>;
  /** a read failed for a reason other than a missing file */
  failed: boolean;
}

const decoder = new TextDecoder();

function startGeneration(origin: string, fetcher: Fetcher): Generation {
  const generation: Generation = { handle: Promise.resolve(null as unknown as Handle), failed: false };
  const reader: FileReader = {
    async read(path) {
      const url = new URL(`/${path.split('/').map(encodeURIComponent).join('/')}`, origin);
      let response: Response;
      try {
        response = await fetcher(new Request(url, { headers: { [STATIC_READ_HEADER]: '1' } }));
      } catch {
        generation.failed = true;
        return null;
      }
      if (response.status === 200) return new Uint8Array(await response.arrayBuffer());
      await response.body?.cancel();
      // A missing file is an answer (the handler turns it into a 404); anything else is not,
      // and the handler remembers what it read, so this generation must not answer again.
      if (response.status !== 404) generation.failed = true;
      return null;
    },
  };
  generation.handle = (async () => {
    // Links in computed pages must carry the base URL the build wrote into every file.
    let baseUrl = `${origin}/${API_PREFIX}`;
    const bytes = await reader.read(metaFile);
    if (bytes !== null) {
      try {
        const meta = JSON.parse(decoder.decode(bytes)) as Partial<Meta>;
        if (typeof meta.base_url === 'string') baseUrl = meta.base_url;
      } catch {
        generation.failed = true;
      }
    }
    return createHandler(reader, { baseUrl });
  })();
  return generation;
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
      'Netlify-CDN-Cache-Control': CDN_NO_STORE,
      'Netlify-Vary': NETLIFY_VARY,
    },
  });
}

/**
 * The edge function's body: `undefined` lets the request go on to the static layer (the
 * function's own reads), anything else is the answer.
 */
export function createEdgeAdapter(fetcher: Fetcher = (request) => fetch(request)) {
  let current: Generation | null = null;
  return async function answer(request: Request): Promise<Response | undefined> {
    if (request.headers.has(STATIC_READ_HEADER)) return undefined;
    const generation = (current ??= startGeneration(new URL(request.url).origin, fetcher));
    const handle = await generation.handle;
    const response = generation.failed ? null : await handle(request);
    if (response === null || generation.failed) {
      if (current === generation) current = null;
      return unavailable();
    }
    // Only GET answers are stored by the CDN; a HEAD or a 304 stored under the URL would be
    // served to a later plain GET.
    const cacheable = request.method === 'GET' && response.status === 200;
    response.headers.set('Netlify-CDN-Cache-Control', cacheable ? CDN_CACHE_OK : CDN_NO_STORE);
    response.headers.set('Netlify-Vary', NETLIFY_VARY);
    return response;
  };
}
