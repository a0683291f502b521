/**
 * `GET /v2/search/?q=…`: names in any language across kinds, ranked best first and forgiving
 * typos (edge/query/search.ts ranks), as `{count, next, previous, results: [{name, url, kind,
 * matched_name, language}]}`. `kind=` narrows it to a comma list of kinds (a 400 names an
 * unknown one); `limit`/`offset` page it as on collections; `q` missing, or folding to nothing,
 * is a 400. `lang=` keeps only names in that language (the API's own names are in none), read
 * from the index that keeps each language's names apart. Every search reads one index of every named kind, loaded once per build from the
 * packed file the build writes (`BuildFiles.searchIndex`); `kind=` only narrows which hits count.
 */
import { badParameter, jsonAnswer, notFound } from './answers.ts';
import type { BuildFiles } from './build-files.ts';
import type { Answer } from './http.ts';
import { NO_QUERIES, upstreamKinds } from '../contract/layout.ts';
import { pageLinks } from '../contract/pagination.ts';
import { SEARCH_TABLE, tableLinkSuffix } from '../contract/query/parameter-table.ts';
import { readParams } from '../contract/query/params.ts';

/** The path segment: `search` is no kind, and is routed before them. */
export const SEARCH_PATH = 'search';

/** The search's parameters (parameter-table.ts `SEARCH_TABLE`), each parsed once, then the ranked page. */
export async function search(build: BuildFiles, params: URLSearchParams): Promise<Answer> {
  const routes = await build.routes();
  const scope = { build, kind: SEARCH_PATH, shape: NO_QUERIES, idOnly: false, below: [], kinds: routes ? upstreamKinds(routes) : [] };
  const parsed = await readParams(SEARCH_TABLE, params, scope);
  // a build without a routing table answers 404, after a missing or empty `q` (read before it)
  if (!routes) return parsed.ok || parsed.error.parameter !== 'q' ? notFound() : badParameter(parsed.error);
  if (!parsed.ok) return badParameter(parsed.error);
  const { q, kind, limit, offset, lang } = parsed.value;
  const index = lang === null ? await build.searchIndex() : await build.languageSearchIndex();
  if (!index) return notFound();
  const result = index.search(q.folded, { ...(kind === null ? {} : { kinds: new Set(kind) }), ...(lang === null ? {} : { language: lang }) });
  const results = result.hits(offset, limit).map((hit) => ({
    name: hit.name,
    url: `${build.baseUrl}/${hit.kind}/${hit.id}/`,
    kind: hit.kind,
    matched_name: hit.matchedName,
    language: hit.language,
  }));
  return jsonAnswer(200, {
    count: result.count,
    ...pageLinks(result.count, `${build.baseUrl}/${SEARCH_PATH}/`, offset, limit, () => tableLinkSuffix(SEARCH_TABLE, parsed.value)),
    results,
  });
}
