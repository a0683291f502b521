/**
 * The query side of the contract: what the OpenAPI document and the TypeScript types
 * say about a collection's filters, batches, `q`, `fields` and `GET /v2/search/`. Everything is
 * read from the routing table's `queries` (contract/layout.ts `QueryShape`) and, for the values a
 * filter takes, from the target kind's list in the build's output, so the documents describe
 * the parameters the request logic answers and nothing else.
 *
 * Shared here: the response schemas (the 400 body, made on the shared error body, a search page, a facet's value, a range's
 * summary), the vocabularies of small target kinds, and the range pattern. Each parameter's
 * wording, schema and type are its entry's in contract/query/parameter-table.ts, which openapi.ts and
 * typescript-types.ts both walk.
 */
import { Type, type Static } from '@sinclair/typebox';
import { idOfUrl, listFile, type QueryShape, type Routes } from '../../contract/layout.ts';
import type { FacetValue, RangeSummary } from '../../contract/query/bodies.ts';
import type { BadParameterBody, ErrorBody as ErrorBodyType } from '../../contract/error-body.ts';
import { ErrorBody } from '../../schemas/output/common.ts';

/** A target kind with at most this many entries has its values listed in the contract. */
export const MAX_LISTED_VALUES = 100;

/**
 * The 400 body of a collection or a search (contract/error-body.ts `badParameterBody`): the shared
 * error body, with the fields a 400 has always carried.
 */
export const BadParameterSchema = Type.Intersect([
  ErrorBody,
  Type.Object({
    error: Type.Literal('bad_parameter', { description: 'Always `bad_parameter`: a query parameter’s value was not understood.' }),
    parameter: Type.String({
      description: 'The parameter at fault, as written in the query (`type`, `speed`, `fields`, ...); `*` for a query string past its length cap.',
    }),
    value: Type.String({
      description: 'The offending part of the value: one item of a comma-separated list, or the whole value when its form is wrong; cut to 100 characters.',
    }),
    accepts: Type.String({ description: 'What the parameter takes, in words, with its allowed values where there are few.' }),
  }),
]);
// the schema and the body the request logic writes must be the same object
const badParameterMatches: [Static<typeof BadParameterSchema>, BadParameterBody] extends [BadParameterBody, Static<typeof BadParameterSchema>] ? true : never =
  true;
void badParameterMatches;
const errorBodyMatches: [Static<typeof ErrorBody>, ErrorBodyType] extends [ErrorBodyType, Static<typeof ErrorBody>] ? true : never = true;
void errorBodyMatches;

/** One entry of a search page. */
export const SearchResultSchema = Type.Object(
  {
    name: Type.String({ description: 'The found resource’s own name (lowercase, hyphenated), whichever of its names matched.' }),
    url: Type.String({ format: 'uri', description: 'The full URL of the found resource, ending in its numeric id and a slash.' }),
    kind: Type.String({ description: 'The collection the resource belongs to, as its path segment (`creature`, `move`, ...).' }),
    matched_name: Type.String({
      description: 'The name that matched the query, as the data writes it (not folded): the resource’s own name or one of its translations.',
    }),
    language: Type.Union([Type.String(), Type.Null()], {
      description: 'The language of `matched_name`, by its name in `/language/` (`ja-hrkt`, `fr`, ...); null when the API’s own name matched.',
    }),
  },
  { additionalProperties: false },
);

/** `GET /v2/search/`: a ranked page of matches. */
export const SearchPageSchema = Type.Object(
  {
    count: Type.Integer({ minimum: 0, description: 'How many resources match the query in all, not how many are on this page.' }),
    next: Type.Union([Type.String({ format: 'uri' }), Type.Null()], {
      description: 'The URL of the following page, with `q`, `kind`, `offset` and `limit` filled in; null on the last page.',
    }),
    previous: Type.Union([Type.String({ format: 'uri' }), Type.Null()], { description: 'The URL of the page before this one; null on the first page.' }),
    results: Type.Array(SearchResultSchema, {
      description:
        'This page’s matches, best first: exact, then prefix, then substring, then within two edits; each resource once, with its best-matching name.',
    }),
  },
  { additionalProperties: false },
);

/** One value's count in `facets` (contract/query/bodies.ts `FacetValue`); the `.d.ts` declares it from this schema. */
export const FacetValueSchema = Type.Object(
  {
    name: Type.String({ description: 'The value’s name: a resource’s name, or `true`/`false` for a yes/no filter.' }),
    url: Type.Union([Type.String({ format: 'uri' }), Type.Null()], { description: 'The linked resource’s URL; null for a yes/no filter.' }),
    count: Type.Integer({ minimum: 1, description: 'How many entries of the whole filtered set (not the page) hold the value.' }),
  },
  { additionalProperties: false },
);
const facetValueMatches: [Static<typeof FacetValueSchema>, FacetValue] extends [FacetValue, Static<typeof FacetValueSchema>] ? true : never = true;
void facetValueMatches;

/** One range's numbers in `summary` (contract/query/bodies.ts `RangeSummary`); the `.d.ts` declares it from this schema. */
export const RangeSummarySchema = Type.Object(
  {
    count: Type.Integer({ minimum: 0, description: 'How many entries of the filtered set have a value (entries without one are not counted).' }),
    min: Type.Union([Type.Integer(), Type.Null()], { description: 'The least value; null when none is counted.' }),
    max: Type.Union([Type.Integer(), Type.Null()], { description: 'The greatest value; null when none is counted.' }),
    sum: Type.Integer({ description: 'The sum of the values; 0 when none is counted.' }),
    avg: Type.Union([Type.Number(), Type.Null()], { description: 'sum / count, unrounded; null when none is counted.' }),
  },
  { additionalProperties: false },
);
const summaryMatches: [Static<typeof RangeSummarySchema>, RangeSummary] extends [RangeSummary, Static<typeof RangeSummarySchema>] ? true : never = true;
void summaryMatches;

/** A list page's `facets` and `summary`, typed by the kind's filters and ranges. */
export function aggregateProperties(queries: QueryShape): Record<string, unknown> {
  const facets = Object.fromEntries(
    queries.filters.map((f) => [
      f.name,
      {
        type: 'array',
        description: `With \`facets=${f.name}\`: each ${f.target === null ? 'answer, `false` then `true`,' : `${f.about} held`} and how many entries hold it.`,
        items: FacetValueSchema,
      },
    ]),
  );
  const summary = Object.fromEntries(
    queries.ranges.map((r) => [r.name, { ...RangeSummarySchema, description: `With \`summary=${r.name}\`: the ${r.about}, over the filtered set.` }]),
  );
  return {
    ...(queries.filters.length
      ? {
          facets: {
            type: 'object',
            description: 'With `facets=`: per filter asked, each value’s count over the whole filtered set, in the target’s list order.',
            properties: facets,
            additionalProperties: false,
          },
        }
      : {}),
    ...(queries.ranges.length
      ? {
          summary: {
            type: 'object',
            description: 'With `summary=`: per range asked, its numbers over the whole filtered set.',
            properties: summary,
            additionalProperties: false,
          },
        }
      : {}),
  };
}

/** The values a filter's target kind has: its names and ids, in list order. */
export interface TargetValues {
  names: string[];
  ids: number[];
}

/** Target kind → its values, for targets of at most `MAX_LISTED_VALUES` entries; larger ones are absent. */
export type Vocabularies = Record<string, TargetValues>;

/** A kind's names and ids from its list, or null when it has more than `MAX_LISTED_VALUES` entries. */
export function targetValues(list: { count: number; results: { name?: string; url: string }[] }): TargetValues | null {
  if (list.results.length > MAX_LISTED_VALUES) return null;
  const names = list.results.flatMap((r) => (r.name === undefined ? [] : [r.name]));
  const ids = list.results.flatMap((r) => {
    const id = idOfUrl(r.url);
    return id === null ? [] : [id];
  });
  return { names, ids };
}

/** Every kind a value filter of any kind targets, once, sorted. */
export function filterTargets(routes: Pick<Routes, 'queries'>): string[] {
  const targets = Object.values(routes.queries).flatMap((q) => q.filters.flatMap((f) => (f.target === null ? [] : [f.target])));
  return [...new Set(targets)].sort();
}

/** Reads the lists of the filters' target kinds from the build's output. */
export function readVocabularies(read: (rel: string) => string | null, routes: Pick<Routes, 'queries'>): Vocabularies {
  const out: Vocabularies = {};
  for (const target of filterTargets(routes)) {
    const list = JSON.parse(read(listFile(target)) ?? 'null') as { count: number; results: { name?: string; url: string }[] };
    const values = targetValues(list);
    if (values !== null) out[target] = values;
  }
  return out;
}

/** The form a range takes, as a pattern (contract/query/parse.ts `parseRange`; contract/query/parameter-table.ts `RANGE_FORMS` says it in words). */
export const RANGE_PATTERN = '^(-?[0-9]+|-?[0-9]+\\.\\.(-?[0-9]+)?|\\.\\.-?[0-9]+)$';
