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
import { pageLinks, parseLimit, parseOffset } from './pagination.ts';
import { queryParam, queryValues } from './params.ts';
import { foldText } from './query/fold.ts';
import { parseValues, type Parsed, type Vocabulary } from './query/params.ts';

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
  const lang = await readLanguage(build, params);
  if (!lang.ok) return badParameter(lang.error);
  const index = lang.value === null ? await build.searchIndex() : await build.languageSearchIndex();
  if (!index) return notFound();
  const result = index.search(folded, { ...(asked === null ? {} : { kinds: new Set(asked) }), ...(lang.value === null ? {} : { language: lang.value }) });
  const limit = parseLimit(queryParam(params, 'limit'));
  const offset = parseOffset(queryParam(params, 'offset'));
  const results = result.hits(offset, limit).map((hit) => ({
    name: hit.name,
    url: `${build.baseUrl}/${hit.kind}/${hit.id}/`,
    kind: hit.kind,
    matched_name: hit.matchedName,
    language: hit.language,
  }));
  const suffix = `&q=${encodeURIComponent(q)}${asked === null ? '' : `&kind=${asked.map(encodeURIComponent).join(',')}`}${lang.value === null ? '' : `&lang=${encodeURIComponent(lang.value)}`}`;
  return jsonAnswer(200, { count: result.count, ...pageLinks(result.count, `${build.baseUrl}/${SEARCH_PATH}/`, offset, limit, suffix), results });
}

/**
 * `lang=de`: a language by its name in `/language/` (any letter case), or null when absent or
 * empty; a name that is no language is a 400 listing them. Given more than once, the last counts.
 */
export async function readLanguage(build: BuildFiles, params: URLSearchParams): Promise<Parsed<string | null>> {
  const raw = queryParam(params, 'lang')?.trim().toLowerCase() ?? '';
  if (raw === '') return { ok: true, value: null };
  const languages = await build.listKeys('language');
  if (languages?.positionOfName(raw) !== undefined) return { ok: true, value: raw };
  const names = languages?.list.results.flatMap((r) => (r.name === undefined ? [] : [r.name])) ?? [];
  return { ok: false, error: { parameter: 'lang', value: raw.slice(0, 100), accepts: `a language by its name in /language/: ${names.join(', ')}` } };
}

function kindVocabulary(kinds: readonly string[]): Vocabulary {
  const position = new Map(kinds.map((kind, i) => [kind, i]));
  return { lookup: (token) => position.get(token), accepts: `kind: a collection's name, or several separated by commas: ${kinds.join(', ')}` };
}
