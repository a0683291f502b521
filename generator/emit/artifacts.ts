/**
 * The list of artifact makers a build runs (see artifact.ts for what one is), with the two
 * small ones that need no module of their own.
 */
import { CACHE_OK } from '../../edge/http.ts';
import { API_PREFIX, DOWNLOADS_DIR, type Meta, type Routes } from '../../edge/layout.ts';
import type { ArtifactMaker } from './artifact.ts';
import { docsPage } from './docs-page.ts';
import { openApiMaker } from './openapi.ts';
import { typeScriptTypesMaker } from './typescript-types.ts';

/**
 * The site's 404.html: a CDN serves it for a rewrite whose target file is missing (Netlify
 * does, when its edge function is not running), so it carries the API's own 404 body.
 */
const notFoundPage: ArtifactMaker = {
  name: 'not-found page',
  make: () => [{ path: '404.html', body: JSON.stringify('Not Found') }],
};

/**
 * Netlify's `_headers` for the pages it serves as static files, outside the edge function (the
 * docs page, its assets, the downloads): each its type, and the data version and cache policy
 * of every other answer of this build. Made from the routing table, so it runs after the makers
 * whose pages it lists.
 */
const staticPageHeaders: ArtifactMaker = {
  name: 'static page headers',
  make: ({ routes, meta }) => [{ path: '_headers', body: netlifyStaticHeaders(routes, meta) }],
};

export function netlifyStaticHeaders(routes: Routes, meta: Meta): string {
  const types = new Map<string, string>();
  for (const [route, { type }] of Object.entries(routes.site)) {
    if (route.startsWith(`/${API_PREFIX}/`)) continue; // the edge function's
    const pattern = route.startsWith(`/${DOWNLOADS_DIR}/`) ? `/${DOWNLOADS_DIR}/*` : route;
    if ((types.get(pattern) ?? type) !== type) throw new Error(`${pattern} holds files of two types`);
    types.set(pattern, type);
  }
  return [...types]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([pattern, type]) =>
      [pattern, `Content-Type: ${type}`, `X-Data-Version: ${meta.upstream_commit}`, `Cache-Control: ${CACHE_OK}`, 'Access-Control-Expose-Headers: ETag, X-Data-Version'].join('\n  '),
    )
    .join('\n')
    .concat('\n');
}

/** Every maker, in the order they run. */
export const artifactMakers: ArtifactMaker[] = [
  notFoundPage,
  openApiMaker,
  typeScriptTypesMaker,
  // the docs page lists what the makers before it serve
  docsPage,
  // keep last: it gives every static page its headers
  staticPageHeaders,
];
