/**
 * How long a client or a CDN may keep an answer: the request logic sends these in Cache-Control,
 * and the build writes the same policy into Netlify's `_headers` for the files served as they are.
 */

/** Cache policy: answers change only when a new build is deployed, and then their ETag changes. */
export const CACHE_OK = 'public, max-age=86400, stale-while-revalidate=604800';
export const CACHE_ERROR = 'public, max-age=300';
/** A fault of the server (a broken build, a bug) is stored nowhere: it must show, not outlive its fix. */
export const CACHE_NONE = 'no-store';
