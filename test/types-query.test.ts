/**
 * The query types of the `.d.ts`, made for the test build with invented declarations
 * (test/support/contract-queries.ts): a client's query object per kind, list entries typed by the
 * fields asked, the search and the 400 body. Real values (items from dist/ cut with the request
 * logic's own `pick`, a 400 body from its own parsers) must compile; deliberate mistakes must not.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TSchema } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { itemFile, metaFile } from '../contract/layout.ts';
import { pick } from '../contract/query/fields.ts';
import { badParameterBody, INTERNAL_BODY, METHOD_NOT_ALLOWED_BODY, REFUSED_BODIES, UNAVAILABLE_BODY } from '../contract/error-body.ts';
import { parseValues } from '../contract/query/parse.ts';
import { buildContract } from '../generator/artifacts/openapi.ts';
import { FacetValueSchema, RangeSummarySchema, readVocabularies } from '../generator/artifacts/query-contract.ts';
import { folderReader } from '../generator/artifacts/artifact.ts';
import { typeDeclarations } from '../generator/artifacts/typescript-types.ts';
import { allResources } from '../generator/resources/index.ts';
import { inventedRoutes } from './support/contract-queries.ts';
import { typeCheck, type Sample } from './support/type-samples.ts';

const distDir = inject('distDir');
const base = inject('baseUrl');
const readDist = (path: string) => JSON.parse(readFileSync(join(distDir, path), 'utf8')) as Record<string, unknown>;

let dir: string;
let declarations: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'creature-query-types-'));
  mkdirSync(dir, { recursive: true });
  const routes = inventedRoutes(distDir);
  const vocabularies = readVocabularies(folderReader(distDir), routes);
  const version = (readDist(metaFile) as { version: string }).version;
  declarations = typeDeclarations({ contract: buildContract(allResources, routes), routes, version, vocabularies });
  writeFileSync(join(dir, 'creature-api.d.ts'), declarations);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const IMPORTS =
  "import type { BadParameter, CreatureQuery, ErrorBody, ListEntry, ListPage, MoveQuery, QueryByKind, SearchPage, SearchQuery } from './creature-api';\n";
/** A sample is a statement using the types; `json` holds its source. */
const source = (file: string, code: string): Sample => ({ file, type: '', json: code });
const check = (samples: Sample[]) => typeCheck(dir, samples, (s) => `${IMPORTS}${s.json}\nexport {};\n`);

const creatureEntry = (name: string, fields: string[]) => {
  const item = readDist(itemFile('creature', name)) as { id: number };
  return JSON.stringify({ name, url: `${base}/creature/${item.id}/`, ...pick(item, fields) });
};

/** A creature's entry with `species.names`, as the API answers it: the species document's names under `species`. */
const linkedEntry = (name: string) => {
  const item = readDist(itemFile('creature', name)) as { id: number; species: { url: string } };
  const species = readDist(itemFile('creature-species', Number(/\/(\d+)\/$/.exec(item.species.url)![1]))) as { names: unknown };
  return JSON.stringify({ name, url: `${base}/creature/${item.id}/`, id: item.id, species: { names: species.names } });
};

describe('the query types', () => {
  it("declare FacetValue and RangeSummary from the answer's schemas: a member per property, with its words", () => {
    for (const [name, schema] of [
      ['FacetValue', FacetValueSchema],
      ['RangeSummary', RangeSummarySchema],
    ] as const) {
      const body = new RegExp(`^export interface ${name} \\{\\n([\\s\\S]*?)\\n\\}`, 'm').exec(declarations)?.[1] ?? '';
      expect(
        [...body.matchAll(/^ {2}(\w+)\??:/gm)].map((m) => m[1]),
        name,
      ).toEqual(Object.keys(schema.properties));
      for (const [key, property] of Object.entries<TSchema>(schema.properties)) expect(body).toContain(`/** ${property.description} */\n  ${key}:`);
    }
  });

  it('declare a query per kind, the fields, the values of small targets and the maps by kind', () => {
    expect(declarations).toMatch(/^export interface CreatureQuery extends CollectionQuery \{/m);
    expect(declarations).toMatch(/^export interface AbilityQuery extends CollectionQuery \{\}/m);
    expect(declarations).toMatch(/^export type CreatureField = "id" \| "types" \| "sprites\.front_default"/m);
    expect(declarations).toMatch(/^export type TypeNameOrId = "normal" \| "fighting" .*"fairy" \| number;$/m);
    expect(declarations).toMatch(/^export type MoveNameOrId = string \| number;$/m);
    expect(declarations).toContain('"special-attack"?: IntegerRange;');
    expect(declarations).toMatch(/^export interface QueryByKind \{/m);
    expect(declarations).toMatch(/^export interface SearchResult \{/m);
    // a 400's body is the shared error body and the fields a 400 has always carried
    expect(declarations).toMatch(/^export interface ErrorBody \{/m);
    expect(declarations).toMatch(/^export type BadParameter = ErrorBody & \{$/m);
  });

  it('accept real queries, entries, pages, searches and 400 bodies', () => {
    const refused = parseValues('type', ['firee'], { lookup: () => undefined, accepts: 'type: a type name or id' });
    if (refused.ok) throw new Error('expected a refusal');
    const page = `{ count: 2, next: null, previous: null, results: [${creatureEntry('bulbasaur', ['id', 'sprites.other.official-artwork.front_default'])}, ${creatureEntry('charizard', ['id', 'sprites.other.official-artwork.front_default'])}] }`;
    const good = [
      source(
        'query',
        `const q: CreatureQuery = { type: ['fire', 10], generation: 'generation-iii', is_legendary: true, move: 'tackle', speed: '100..', 'special-attack': '..50', fields: ['types', 'sprites.front_default', 'stats.base_stat'], limit: 5, q: 'ピカチュウ', id: [1, 4, 7] };`,
      ),
      source(
        'query-forms',
        `const a: CreatureQuery = { speed: '80..100', is_legendary: 0 }; const b: MoveQuery = { power: 90, type: 'water' }; const c: QueryByKind['ability'] = { name: ['stench'] };`,
      ),
      source(
        'entry',
        `const e: ListEntry<'creature', 'types' | 'sprites.front_default'> = ${creatureEntry('bulbasaur', ['types', 'sprites.front_default'])};\nconst t: string = e.types[0]!.type.name; const s: string | null = e.sprites.front_default;`,
      ),
      source(
        'linked',
        `const e: ListEntry<'creature', 'id' | 'species.names'> = ${linkedEntry('bulbasaur')};\nconst n: string = e.species.names[0]!.name; const l: string = e.species.names[0]!.language.name;`,
      ),
      source('page', `const p: ListPage<'creature', 'id' | 'sprites.other.official-artwork.front_default'> = ${page};\nconst n: number = p.results[0]!.id;`),
      source('id-only', `const e: ListEntry<'evolution-chain', 'id'> = { url: '${base}/evolution-chain/1/', id: 1 };`),
      source('plain', `const e: ListEntry<'ability'> = { name: 'stench', url: '${base}/ability/1/' };`),
      source(
        'sort-facets-summary',
        `const q: CreatureQuery = { sort: ['-speed', 'name', '-special-attack'], facets: ['type', 'generation'], summary: 'speed' };\n` +
          `const p: ListPage<'creature'> = { count: 0, next: null, previous: null, facets: { type: [{ name: 'grass', url: '${base}/type/12/', count: 2 }], is_legendary: [{ name: 'true', url: null, count: 1 }] }, summary: { speed: { count: 0, min: null, max: null, sum: 0, avg: null } }, results: [] };`,
      ),
      source(
        'search',
        `const q: SearchQuery = { q: 'charzard', kind: ['creature', 'move'], limit: 5 };\nconst p: SearchPage = { count: 1, next: null, previous: null, results: [{ name: 'pikachu', url: '${base}/creature-species/25/', kind: 'creature-species', matched_name: 'ピカチュウ', language: 'ja-hrkt' }] };`,
      ),
      source('bad-parameter', `const b: BadParameter = ${JSON.stringify(badParameterBody(refused.error))};`),
      source(
        'error-bodies',
        `const bodies: ErrorBody[] = ${JSON.stringify([INTERNAL_BODY, UNAVAILABLE_BODY, METHOD_NOT_ALLOWED_BODY, ...Object.values(REFUSED_BODIES)])};`,
      ),
      source('bad-parameter-is-an-error-body', `const b: BadParameter = ${JSON.stringify(badParameterBody(refused.error))};\nconst e: ErrorBody = b;`),
    ];
    expect(Object.fromEntries(check(good))).toEqual({});
  }, 120_000);

  it('reject wrong ones, each in its own file', () => {
    const wrong = [
      source('wrong-value', `const q: CreatureQuery = { type: 'firee' };`),
      source('wrong-range', `const q: CreatureQuery = { speed: 'fast' };`),
      source('wrong-field', `const q: CreatureQuery = { fields: ['weight'] };`),
      source('wrong-yes-no', `const q: CreatureQuery = { is_legendary: 'yes' };`),
      source('wrong-filter-elsewhere', `const q: MoveQuery = { generation: 'generation-i' };`),
      source('wrong-sort-key', `const q: CreatureQuery = { sort: '-height' };`),
      source('wrong-facet', `const q: CreatureQuery = { facets: ['speed'] };`),
      source('wrong-summary', `const q: CreatureQuery = { summary: ['type'] };`),
      source('wrong-entry-value', `const e: ListEntry<'creature', 'types'> = { name: 'bulbasaur', url: 'u', types: 'grass' };`),
      source('wrong-entry-missing', `const e: ListEntry<'creature', 'types'> = { name: 'bulbasaur', url: 'u' };`),
      source('wrong-entry-extra', `const e: ListEntry<'creature', 'types'> = ${creatureEntry('bulbasaur', ['types', 'weight'])};`),
      source('wrong-entry-not-a-field', `type E = ListEntry<'creature', 'weight'>;`),
      source('wrong-linked-field', `type E = ListEntry<'creature', 'species.nope'>;`),
      source('wrong-linked-value', `const e: ListEntry<'creature', 'species.names'> = { name: 'bulbasaur', url: 'u', species: { names: 'Bisasam' } };`),
      source('wrong-search-no-q', `const q: SearchQuery = { kind: 'creature' };`),
      source('wrong-search-kind', `const q: SearchQuery = { q: 'x', kind: 'creatures' };`),
      source('wrong-bad-parameter', `const b: BadParameter = { error: 'not_found', detail: 'd', parameter: 'type', value: 'x', accepts: 'y' };`),
      source('wrong-bad-parameter-no-detail', `const b: BadParameter = { error: 'bad_parameter', parameter: 'type', value: 'x', accepts: 'y' };`),
      source('wrong-error-body', `const b: ErrorBody = { error: 'internal' };`),
    ];
    const errors = check(wrong);
    for (const w of wrong) expect(errors.get(w.file)?.length ?? 0, w.file).toBeGreaterThan(0);
    expect(errors.get('creature-api')).toBeUndefined();
  }, 120_000);
});
