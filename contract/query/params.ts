/**
 * The one reader of the query string, and the list of what each path reads.
 *
 * Whatever serves the answers keys its cache on the parameters a path reads and on nothing else
 * (Netlify's `Netlify-Vary: query=...` is made from `paramsReadAt`), so a parameter read
 * anywhere but here would be left out of the cache key: two requests differing only in it would
 * share one stored answer. test/params.test.ts fails on a read elsewhere.
 *
 * What is read is the table of contract/query/parameter-table.ts (each parameter's name, single or
 * repeatable, cap, parser, link and contract); the lists below and `readParams` are made from
 * it, so a parameter is read here, cached on and linked as its entry says and nowhere else:
 * - declared: a kind's value filters and ranges beside its resource (generator/resources/**,
 *   `query:`, shapes in generator/resources/query.ts), compiled once by
 *   generator/indexes/query-facts.ts `kindQuery` into the routing table's `QueryShape`
 *   (contract/layout.ts), each read through its entry shape (`valueFilterParam`, `rangeParam`);
 * - parsed: each entry's `parse`, over contract/query/parse.ts;
 * - answered: edge/collection.ts (over the indexes of edge/query/: filter.ts, sort.ts,
 *   facets.ts, summary.ts) and edge/search-endpoint.ts.
 */
import type { QueryShape } from '../layout.ts';
import {
  collectionEntries,
  collectionTable,
  COLLECTION_TABLE,
  SEARCH_TABLE,
  SHAPING_TABLE,
  type AnyParam,
  type ParamTable,
  type QueryParam,
  type ReadScope,
  type ValuesOf,
} from './parameter-table.ts';
import { checkQueryLength, type Parsed } from './parse.ts';

const names = (table: ParamTable): string[] => Object.values(table).map((param) => param.name);

/** What every collection reads, in the order `next`/`previous` links carry them (after offset and limit). */
export const COLLECTION_PARAMS: readonly string[] = names(COLLECTION_TABLE);
/**
 * What a collection whose kind declares queries reads besides its own filters and ranges:
 * `fields`, `sort`, `facets` and `summary`.
 */
export const QUERYABLE_COLLECTION_PARAMS: readonly string[] = [...COLLECTION_PARAMS, ...names(SHAPING_TABLE)];
/** What `GET /v2/search/` reads. */
export const SEARCH_PARAMS: readonly string[] = names(SEARCH_TABLE);

/** Parameters read as one value: given more than once, the last one counts. */
export const SINGLE_PARAMS: readonly string[] = [
  ...new Set(
    [...Object.values(COLLECTION_TABLE), ...Object.values(SHAPING_TABLE), ...Object.values(SEARCH_TABLE)]
      .filter((p) => p.arity === 'single')
      .map((p) => p.name),
  ),
];

/**
 * Whether a path reading these parameters must be cached under its whole query string. Every
 * parameter but the single-valued ones is read with all its repeats (`queryValues`), so a
 * repeat changes the answer (`id=1&id=2` is two entries, `type=grass&type=poison` both types).
 * Netlify does not document how `Netlify-Vary: query=type` keys a repeated `type`: keyed on one
 * value, `type=grass&type=poison` and `type=grass&type=fire` would share a stored answer, and
 * the stored answer is found before the function runs, so nothing it answers (not a redirect to
 * a canonical spelling) could fix that. Keyed on the whole query string (Netlify's documented
 * default, with no `Netlify-Vary: query=`), they cannot share one; the price is that junk
 * parameters (`utm_source`) make entries of their own at such paths. `npm run check:deploy`
 * (netlify/deploy-checks.ts `checkRepeatKey`) shows on a real deploy what Netlify keyed.
 */
export function keysWholeQuery(params: readonly string[]): boolean {
  return params.some((name) => !SINGLE_PARAMS.includes(name));
}

/**
 * A single-valued parameter, or null when absent. Given more than once, the last one counts, as
 * the upstream reads it (Django's `QueryDict.get` returns a repeated key's last value).
 */
export function queryParam(params: URLSearchParams, name: string): string | null {
  const values = params.getAll(name);
  return values.length === 0 ? null : values[values.length - 1]!;
}

/**
 * Every value of a list-like parameter (filters, ranges, `id`, `name`, `fields`, `sort`,
 * `facets`, `summary`, `kind`), in the order given: a value filter's repeats are each matched, a
 * range's intersect, the others' join as commas do (contract/query/parse.ts). Empty when absent.
 */
export function queryValues(params: URLSearchParams, name: string): string[] {
  return params.getAll(name);
}

/**
 * Whether a request names a language (`lang`): its check reads the language list, which a cold
 * start then reads beside the routing table (edge/handler.ts `route`).
 */
export const namesLanguage = (url: URL): boolean => queryValues(url.searchParams, COLLECTION_TABLE.lang.name).length > 0;

/**
 * The parameters a collection reads: the fixed ones, then (for a kind that declares queries)
 * `fields`, `sort`, `facets`, `summary`, its value filters and its range filters in declared
 * order (the build refuses a declared name that is a fixed one or declared twice).
 */
export function collectionParams(queries: QueryShape | undefined): string[] {
  return collectionEntries(collectionTable(queries)).map((param) => param.name);
}

/** A parameter's values as its parser takes them: the last one for a single parameter, every one in order otherwise. */
export function paramValues(params: URLSearchParams, param: AnyParam): string[] {
  if (param.arity === 'repeatable') return queryValues(params, param.name);
  const last = queryParam(params, param.name);
  return last === null ? [] : [last];
}

/** One parameter read and parsed. */
export async function readParam<T>(params: URLSearchParams, param: QueryParam<T>, scope: ReadScope): Promise<Parsed<T>> {
  return param.parse(paramValues(params, param), scope);
}

/** Parses of a table's parameters begun before the table is read (each parameter is parsed once per request). */
export type Started<T extends ParamTable> = { [K in keyof T]?: Promise<Parsed<ValuesOf<T>[K]>> };

/**
 * Every parameter of a table, read and parsed in the table's order: the first that fails is
 * the 400. `started`: parses already under way, taken rather than made again.
 */
export async function readParams<T extends ParamTable>(
  table: T,
  params: URLSearchParams,
  scope: ReadScope,
  started: Started<T> = {},
): Promise<Parsed<ValuesOf<T>>> {
  const out: Partial<ValuesOf<T>> = {};
  for (const key of Object.keys(table) as (keyof T & string)[]) {
    const parsed = await (started[key] ?? readParam(params, table[key]!, scope));
    if (!parsed.ok) return parsed;
    // the entry at `key` parses to the value type ValuesOf names for it
    out[key] = parsed.value as ValuesOf<T>[typeof key];
  }
  return { ok: true, value: out as ValuesOf<T> };
}

/** Declared parameters (a kind's filters or ranges), in order: the values of those asked (not null). */
export async function readDeclared<T>(declared: readonly QueryParam<T | null>[], params: URLSearchParams, scope: ReadScope): Promise<Parsed<T[]>> {
  const out: T[] = [];
  for (const param of declared) {
    const parsed = await readParam(params, param, scope);
    if (!parsed.ok) return parsed;
    if (parsed.value !== null) out.push(parsed.value);
  }
  return { ok: true, value: out };
}

/**
 * The request's parameters, or the 400 of a query string past its cap (contract/query/parse.ts
 * `checkQueryLength`), checked before any of them is read.
 */
export function checkedQuery(url: URL): Parsed<URLSearchParams> {
  const checked = checkQueryLength(url.search);
  return checked.ok ? { ok: true, value: url.searchParams } : checked;
}
