/**
 * The list of artifact makers a build runs (see artifact.ts for what one is), with the two
 * small ones that need no module of their own.
 */
import { CACHE_OK } from '../../contract/cache.ts';
import { API_PREFIX, notFoundFile, type Meta, type Routes } from '../../contract/layout.ts';
import { COLLECTION_TABLE } from '../../contract/query/parameter-table.ts';
import { collectionParams } from '../../contract/query/params.ts';
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

export function netlifyStaticHeaders(routes: Routes, meta: Pick<Meta, 'upstream_commit'>): string {
  const types = new Map<string, string>();
  for (const [route, { type }] of Object.entries(routes.site)) {
    if (route.startsWith(`/${API_PREFIX}/`)) continue; // the edge function's
    // each at its own path: the downloads are of two types (gzip, the database), and rules that overlap merge
    types.set(route, type);
  }
  return [...types]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([pattern, type]) =>
      [
        pattern,
        `Content-Type: ${type}`,
        `X-Data-Version: ${meta.upstream_commit}`,
        `Cache-Control: ${CACHE_OK}`,
        'Access-Control-Expose-Headers: ETag, X-Data-Version',
      ].join('\n  '),
    )
    .join('\n')
    .concat('\n');
}

/**
 * Netlify's `_redirects`, read before netlify.toml's rules: when the edge function does not run
 * (split testing) or fails, netlify.toml's static fallback answers a collection with its
 * default page, which is right only when nothing filters it. A request carrying any parameter
 * that filters or shapes a list (`type=`, `speed=`, `fields=`, `id=`, …) is a 404 there, never
 * an unfiltered page. An item of a kind whose files borrow a field (contract/borrowed-field.ts)
 * is a 404 there too: its file alone is not the answer. Made from the routing table, so a
 * filter a kind declares is covered.
 */
const staticFallbackRedirects: ArtifactMaker = {
  name: 'static fallback redirects',
  make: ({ routes }) => [{ path: '_redirects', body: netlifyFallbackRedirects(routes) }],
};

/**
 * The page's position (the parameters links write as the page, `limit` and `offset`) picks a
 * precomputed page (netlify.toml); q has its own rule there.
 */
const PAGE_PARAMS = new Set([
  ...Object.values(COLLECTION_TABLE)
    .filter((param) => param.link === undefined)
    .map((param) => param.name),
  'q',
]);

export function netlifyFallbackRedirects(routes: Routes): string {
  const kinds = routes.kinds.map((kind) => routes.queries[kind]);
  const params = new Set(kinds.flatMap((queries) => collectionParams(queries)).filter((p) => !PAGE_PARAMS.has(p)));
  const notFound = `/${notFoundFile}`;
  const header = '# Collections asked to filter or shape a list, and items spliced from two files, have no static answer (generator/artifacts/index.ts).\n';
  const lines = [
    ...[...params].sort().map((param) => `/${API_PREFIX}/:kind  ${param}=:value  ${notFound}  404`),
    ...(routes.borrowing ?? []).map((kind) => `/${API_PREFIX}/${kind}/:key  ${notFound}  404`),
  ];
  return header + lines.join('\n') + '\n';
}

/** Every maker, in the order they run. */
export const artifactMakers: ArtifactMaker[] = [
  notFoundPage,
  openApiMaker,
  typeScriptTypesMaker,
  // the docs page lists what the makers before it serve
  docsPage,
  staticFallbackRedirects,
  // keep last: it gives every static page its headers
  staticPageHeaders,
];
