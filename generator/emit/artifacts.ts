/**
 * The list of artifact makers a build runs (see artifact.ts for what one is), with the two
 * small ones that need no module of their own.
 */
import { CACHE_OK } from '../../edge/handler.ts';
import { DOWNLOADS_DIR } from '../../edge/layout.ts';
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
 * Netlify's `_headers` for the downloads, which it serves as static files outside the edge
 * function: the same data version and cache policy as every other answer of this build.
 */
const downloadHeaders: ArtifactMaker = {
  name: 'download headers',
  make: ({ meta }) => [
    { path: '_headers', body: `/${DOWNLOADS_DIR}/*\n  X-Data-Version: ${meta.upstream_commit}\n  Cache-Control: ${CACHE_OK}\n` },
  ],
};

/** Every maker, in the order they run. */
export const artifactMakers: ArtifactMaker[] = [
  notFoundPage,
  downloadHeaders,
  openApiMaker,
  typeScriptTypesMaker,
  // keep last: the docs page lists what the makers before it serve
  docsPage,
];
