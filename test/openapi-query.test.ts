/**
 * What the OpenAPI document says about a collection's query, made for the test build
 * with invented declarations (test/support/contract-queries.ts) so it is checked whatever the kinds
 * really declare: every parameter in declared order, the values of small target kinds read from
 * the build, the forms of a range, the fields of list entries typed from the item, the 400 body
 * the request logic writes, and the search endpoint. Real values go through the schemas with ajv.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { itemFile, listFile, type Routes } from '../contract/layout.ts';
import { pick } from '../contract/query/fields.ts';
import { badParameterBody } from '../contract/error-body.ts';
import { parseFields, parseRange, parseValues } from '../contract/query/parse.ts';
import { querySchemas } from '../generator/artifacts/openapi.ts';
import { MAX_LISTED_VALUES, targetValues } from '../generator/artifacts/query-contract.ts';
import { inventedDocument, INVENTED_QUERIES } from './support/contract-queries.ts';

const distDir = inject('distDir');
const base = inject('baseUrl');
const readDist = (path: string) => JSON.parse(readFileSync(join(distDir, path), 'utf8')) as unknown;

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  style?: string;
  explode?: boolean;
  schema: Record<string, unknown>;
}
interface Document {
  paths: Record<
    string,
    {
      get: {
        parameters: ({ $ref: string } | Parameter)[];
        responses: Record<string, { $ref?: string; content?: { 'application/json': { schema: { $ref: string } } } }>;
      };
    }
  >;
  components: {
    schemas: Record<string, Record<string, unknown>>;
    parameters: Record<string, Parameter>;
    responses: Record<string, { content: { 'application/json': { schema: { $ref: string } } } }>;
  };
  tags: { name: string }[];
}

let doc: Document;
let routes: Routes;
let valid: (ref: string, value: unknown) => boolean;

beforeAll(async () => {
  const made = await inventedDocument(distDir, base);
  doc = made.document as unknown as Document;
  routes = made.routes;
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  ajv.addFormat('uri', /^https?:\/\/[^\s]+$/);
  ajv.addFormat('date-time', { validate: (s: string) => !Number.isNaN(Date.parse(s)) });
  ajv.addSchema({ $id: 'https://contract.invalid/openapi.json', components: doc.components });
  valid = (ref, value) => ajv.validate({ $ref: `https://contract.invalid/openapi.json${ref}` }, value);
});

const parameters = (path: string) => doc.paths[path]!.get.parameters.map((p) => ('$ref' in p ? doc.components.parameters[p.$ref.split('/').at(-1)!]! : p));
const parameter = (path: string, name: string) => parameters(path).find((p) => p.name === name)!;
const schemaRef = (name: string) => `#/components/schemas/${name}`;
/** The schema of one item of a comma-separated parameter. */
const itemRef = (p: Parameter) => (p.schema.items as { $ref: string }).$ref;

describe('the OpenAPI document with declared queries', () => {
  it('is valid OpenAPI 3.1', async () => {
    const result = await new Validator().validate(structuredClone(doc) as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
  });

  it('gives each collection the shared parameters, then its fields, filters and ranges in declared order', () => {
    const creature = INVENTED_QUERIES.creature!;
    expect(parameters('/creature/').map((p) => p.name)).toEqual([
      'limit',
      'offset',
      'q',
      'id',
      'name',
      'lang',
      'fields',
      'sort',
      'facets',
      'summary',
      ...creature.filters.map((f) => f.name),
      ...creature.ranges.map((r) => r.name),
    ]);
    // a kind without declarations takes the shared ones only
    expect(parameters('/ability/').map((p) => p.name)).toEqual(['limit', 'offset', 'q', 'id', 'name', 'lang']);
    // lists are comma-separated: form style, not exploded
    for (const name of ['id', 'name', 'fields', 'type', 'generation', 'is_legendary']) {
      expect(parameter('/creature/', name), name).toMatchObject({
        in: 'query',
        style: 'form',
        explode: false,
        schema: { type: 'array', maxItems: expect.any(Number) },
      });
    }
    expect(parameter('/creature/', 'q').schema).toEqual({ type: 'string', maxLength: 2000 });
    expect(JSON.stringify(parameter('/creature/', 'q'))).toMatch(/ピカチュウ.*pikachú.*皮卡丘/);
  });

  it("lists a small target kind's names and ids, read from the build, and takes any name or id of a large one", () => {
    const typeList = readDist(listFile('type')) as { count: number; results: { name: string; url: string }[] };
    const types = targetValues(typeList)!;
    expect(types.names).toEqual(typeList.results.map((r) => r.name));
    expect(itemRef(parameter('/creature/', 'type'))).toBe(schemaRef('TypeNameOrId'));
    expect(itemRef(parameter('/move/', 'type'))).toBe(schemaRef('TypeNameOrId'));
    expect(doc.components.schemas.TypeNameOrId!.anyOf).toEqual([
      { type: 'string', enum: types.names },
      { type: 'integer', enum: types.ids },
    ]);
    for (const value of ['fire', 'fairy', 10]) expect(valid(schemaRef('TypeNameOrId'), value), String(value)).toBe(true);
    for (const value of ['firee', 'stellar-ish', 999]) expect(valid(schemaRef('TypeNameOrId'), value), String(value)).toBe(false);
    // more entries than can be listed: the form of a name or an id
    expect((readDist(listFile('move')) as { count: number }).count).toBeGreaterThan(MAX_LISTED_VALUES);
    expect(JSON.stringify(doc.components.schemas.MoveNameOrId)).not.toContain('enum');
    for (const value of ['tackle', 'Tackle', 33]) expect(valid(schemaRef('MoveNameOrId'), value), String(value)).toBe(true);
    expect(valid(schemaRef('MoveNameOrId'), 'no spaces')).toBe(false);
  });

  it('lists values only up to MAX_LISTED_VALUES entries, and refuses a value component that would replace a response', () => {
    const entries = (n: number) => ({ count: n, results: Array.from({ length: n }, (_, i) => ({ name: `v${i}`, url: `${base}/x/${i + 1}/` })) });
    expect(targetValues(entries(MAX_LISTED_VALUES))?.ids.length).toBe(MAX_LISTED_VALUES);
    expect(targetValues(entries(MAX_LISTED_VALUES + 1))).toBeNull();
    expect(targetValues({ count: 1, results: [{ url: `${base}/evolution-chain/1/` }] })).toEqual({ names: [], ids: [1] });
    const routes = { queries: { x: { filters: [{ name: 'type', about: 'a type', target: 'type' }], ranges: [], fields: [] } } };
    expect(() => querySchemas(routes, {}, { TypeNameOrId: {} })).toThrow(/TypeNameOrId/);
    expect(Object.keys(querySchemas(routes, {}, {}))).toEqual(['TypeNameOrId']);
  });

  it('takes yes or no as true, false, 1 or 0', () => {
    expect(itemRef(parameter('/creature/', 'is_legendary'))).toBe(schemaRef('YesNo'));
    for (const value of [true, false, 1, 0]) expect(valid(schemaRef('YesNo'), value), String(value)).toBe(true);
    for (const value of [2, 'yes', null]) expect(valid(schemaRef('YesNo'), value), String(value)).toBe(false);
  });

  it('writes a range the way the request logic reads it: the pattern agrees with parseRange on every form', () => {
    expect(parameter('/creature/', 'special-attack').schema).toEqual({ $ref: schemaRef('IntegerRange') });
    const forms = ['100..', '..50', '80..100', '90', '-7..-1', '..-3', '0..0', '..', 'abc', '1.5', '+5', '5...', '1..2..3', '1e3', ''];
    for (const form of forms) {
      const parsed = parseRange('speed', [form]);
      // parseRange reads an empty value as absent, and refuses a reversed range the pattern cannot see
      const accepted = form !== '' && parsed.ok;
      expect(valid(schemaRef('IntegerRange'), form), form).toBe(accepted);
    }
    expect(parseRange('speed', ['5..3']).ok).toBe(false);
  });

  it("takes the kind's fields, or a path below one, as parseFields does", () => {
    const fields = parameter('/creature/', 'fields');
    const { fields: allowed, below } = INVENTED_QUERIES.creature!;
    for (const path of [
      ...allowed,
      'stats.base_stat',
      'types.type.name',
      'types.nope',
      'sprites.front_default.x',
      'weight',
      'sprites',
      'sprites.back_default',
      'idx',
    ]) {
      const schemaOk = new Ajv2020({ strict: false }).validate(fields.schema.items as object, path);
      expect(schemaOk, path).toBe(parseFields('fields', [path], allowed, below).ok);
    }
  });

  it('types list entries from the item: a real creature picked by every field is valid, a wrong value is not', () => {
    const answers = doc.paths['/creature/']!.get.responses['200']!.content!['application/json'].schema as unknown as { anyOf: { $ref: string }[] };
    expect(answers.anyOf.map((a) => a.$ref)).toEqual([schemaRef('PaginatedList'), schemaRef('CreatureListPage')]);
    const page = schemaRef('CreatureListPage');
    const fields = INVENTED_QUERIES.creature!.fields;
    const results = ['bulbasaur', 'charizard', 'pikachu'].map((name): Record<string, unknown> => {
      const item = readDist(itemFile('creature', name)) as { id: number };
      return { name, url: `${base}/creature/${item.id}/`, ...pick(item, fields) };
    });
    expect(Object.keys(results[0]!).sort()).toEqual(['id', 'name', 'sprites', 'stats', 'types', 'url']);
    const answer = { count: 3, next: null, previous: null, results };
    expect(valid(page, answer)).toBe(true);
    // a field of the item, asked alone, and nested under its path
    expect(valid(page, { ...answer, results: results.map(({ name, url, sprites }) => ({ name, url, sprites })) })).toBe(true);
    expect(valid(page, { ...answer, results: [{ ...results[0], types: 'grass' }] })).toBe(false);
    expect(valid(page, { ...answer, results: [{ ...results[0], weight: 69 }] })).toBe(false);
    // an id-only kind's entries have a url and no name
    expect(valid(schemaRef('EvolutionChainListEntry'), { url: `${base}/evolution-chain/1/`, id: 1 })).toBe(true);
    expect(valid(schemaRef('EvolutionChainListEntry'), { name: 'x', url: `${base}/evolution-chain/1/`, id: 1 })).toBe(false);
    // a page without fields is also the shared page; kinds without fields answer that one only
    expect(valid(schemaRef('PaginatedList'), { ...answer, results: results.map(({ name, url }) => ({ name, url })) })).toBe(true);
    expect(valid(schemaRef('PaginatedList'), answer)).toBe(false);
    expect(doc.paths['/ability/']!.get.responses['200']!.content!['application/json'].schema.$ref).toBe(schemaRef('PaginatedList'));
  });

  it('answers a refused value with the 400 body the request logic writes', () => {
    const refused = doc.components.responses.BadParameter!.content['application/json'].schema.$ref;
    expect(refused).toBe(schemaRef('BadParameter'));
    for (const path of ['/creature/', '/move/', '/ability/', '/search/'])
      expect(doc.paths[path]!.get.responses['400']).toEqual({ $ref: '#/components/responses/BadParameter' });
    const vocabulary = { lookup: (t: string) => (t === 'fire' ? 0 : undefined), accepts: 'type: a type name or id, or several separated by commas: fire' };
    const bodies = [parseValues('type', ['fire,firee'], vocabulary), parseRange('speed', ['..']), parseFields('fields', ['weight'], ['id'])].map((p) => {
      if (p.ok) throw new Error('expected a refusal');
      return badParameterBody(p.error);
    });
    for (const body of bodies) expect(valid(refused, body), JSON.stringify(body)).toBe(true);
    expect(valid(refused, { ...bodies[0], error: 'not_found' })).toBe(false);
    expect(valid(refused, { error: 'bad_parameter', parameter: 'type' })).toBe(false);
  });

  it('describes GET /search/: q required, kind among the collections, limit and offset, a ranked page or a 400', () => {
    const search = doc.paths['/search/']!.get;
    expect(parameters('/search/').map((p) => [p.name, p.required ?? false])).toEqual([
      ['q', true],
      ['kind', false],
      ['limit', false],
      ['offset', false],
      ['lang', false],
    ]);
    // the search is over the upstream's collections; the entry, this API's own, is searched by its list's `q`
    const searched = routes.kinds.filter((kind) => !routes.own?.includes(kind));
    expect(routes.own).toEqual(['entry']);
    expect((parameter('/search/', 'kind').schema.items as { enum: string[] }).enum).toEqual(searched.sort());
    expect(search.responses['200']!.content!['application/json'].schema.$ref).toBe(schemaRef('SearchPage'));
    expect(doc.tags.map((t) => t.name)).toContain('search');
    const hit = { name: 'charizard', url: `${base}/creature/6/`, kind: 'creature', matched_name: 'charizard', language: null };
    const translated = { name: 'pikachu', url: `${base}/creature-species/25/`, kind: 'creature-species', matched_name: 'ピカチュウ', language: 'ja-hrkt' };
    const page = { count: 2, next: null, previous: null, results: [hit, translated] };
    expect(valid(schemaRef('SearchPage'), page)).toBe(true);
    expect(valid(schemaRef('SearchPage'), { ...page, results: [{ ...hit, language: undefined }] })).toBe(false);
    expect(valid(schemaRef('SearchPage'), { ...page, results: [{ name: 'charizard', url: hit.url }] })).toBe(false);
  });
});
