/**
 * `GET /v2/search/?q=…`: names in any language across kinds, ranked best first and forgiving
 * typos (edge/query/search.ts ranks), as `{count, next, previous, results: [{name, url, kind,
 * matched_name, language}]}`. `kind=` narrows it to a comma list of kinds (a 400 names an
 * unknown one); `limit`/`offset` page it as on collections; `q` missing, or folding to nothing,
 * is a 400. The build writes one search file per kind: only the asked kinds' files are read,
 * every kind's when none is asked, and the indexes made from them are kept (SearchIndexes).
 */
import { badParameter, jsonAnswer, notFound } from './answers.ts';
import type { BuildFiles } from './build-files.ts';
import type { Answer } from './http.ts';
import type { Routes } from './layout.ts';
import { pageLinks, parseLimit, parseOffset } from './pagination.ts';
import { queryParam, queryValues } from './params.ts';
import { foldText } from './query/fold.ts';
import { parseValues, type Vocabulary } from './query/params.ts';
import { SearchIndex } from './query/search.ts';
import { mergeSearchFiles, SEARCH_INDEX_FORMAT } from './query/search-index.ts';

/** The path segment: `search` is no kind, and is routed before them. */
export const SEARCH_PATH = 'search';

const Q_ACCEPTS = 'a name or the start of one, in any language, e.g. pikachu, ピカチュウ or charzard';

export async function search(build: BuildFiles, params: URLSearchParams): Promise<Answer> {
  const q = queryParam(params, 'q');
  const folded = q === null ? '' : foldText(q);
  if (q === null || folded === '') return badParameter({ parameter: 'q', value: q ?? '', accepts: Q_ACCEPTS });
  const routes = await build.routes();
  if (!routes) return notFound();
  const kindKeys = parseValues('kind', queryValues(params, 'kind'), kindVocabulary(routes.kinds));
  if (!kindKeys.ok) return badParameter(kindKeys.error);
  const asked = kindKeys.value === null ? null : kindKeys.value.map((k) => routes.kinds[k]!);
  const indexes = (await build.keep('search-indexes', async () => new SearchIndexes(build, routes)))!;
  const index = await indexes.covering(asked);
  const result = index.search(folded, asked === null ? {} : { kinds: new Set(asked) });
  const limit = parseLimit(queryParam(params, 'limit'));
  const offset = parseOffset(queryParam(params, 'offset'));
  const results = result.hits(offset, limit).map((hit) => ({
    name: hit.name,
    url: `${build.baseUrl}/${hit.kind}/${hit.id}/`,
    kind: hit.kind,
    matched_name: hit.matchedName,
    language: hit.language,
  }));
  const suffix = `&q=${encodeURIComponent(q)}${asked === null ? '' : `&kind=${asked.map(encodeURIComponent).join(',')}`}`;
  return jsonAnswer(200, { count: result.count, ...pageLinks(result.count, `${build.baseUrl}/${SEARCH_PATH}/`, offset, limit, suffix), results });
}

function kindVocabulary(kinds: readonly string[]): Vocabulary {
  const position = new Map(kinds.map((kind, i) => [kind, i]));
  return { lookup: (token) => position.get(token), accepts: `kind: a collection's name, or several separated by commas: ${kinds.join(', ')}` };
}

/** How many indexes of some but not all kinds are kept (a client may ask any set of kinds). */
const KEPT_SUBSETS = 16;

/**
 * The search indexes of one build: one over every kind with names, made on the first search
 * that asks no `kind=`, and a few over the sets of kinds asked before it was made. A failed
 * load is not kept.
 */
class SearchIndexes {
  private all: Promise<SearchIndex> | null = null;
  private readonly subsets = new Map<string, Promise<SearchIndex>>();
  private readonly named: string[];

  constructor(private readonly build: BuildFiles, routes: Routes) {
    this.named = routes.kinds.filter((kind) => !routes.idOnly.includes(kind));
  }

  /** An index holding at least the kinds asked (every kind with names when null). */
  covering(asked: readonly string[] | null): Promise<SearchIndex> {
    if (asked === null) return (this.all ??= this.forget(this.load(this.named), () => { this.all = null; }));
    if (this.all !== null) return this.all;
    const kinds = this.named.filter((kind) => asked.includes(kind));
    const key = kinds.join(',');
    let index = this.subsets.get(key);
    if (index === undefined) {
      if (this.subsets.size >= KEPT_SUBSETS) this.subsets.delete(this.subsets.keys().next().value!);
      index = this.forget(this.load(kinds), () => this.subsets.delete(key));
      this.subsets.set(key, index);
    }
    return index;
  }

  private async load(kinds: readonly string[]): Promise<SearchIndex> {
    const files = await Promise.all(kinds.map((kind) => this.build.searchFile(kind)));
    const found = files.filter((file) => file !== null);
    return new SearchIndex(found.length === 0 ? { format: SEARCH_INDEX_FORMAT, languages: [], kinds: [] } : mergeSearchFiles(found));
  }

  private forget(index: Promise<SearchIndex>, drop: () => void): Promise<SearchIndex> {
    index.catch(drop);
    return index;
  }
}
