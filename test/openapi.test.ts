/**
 * The OpenAPI document the build writes (`{base}/openapi.json`): a real OpenAPI validator accepts
 * it, it covers every path the routing table answers, its components are the build's output
 * schemas written once each, and every path it lists answers 200 on the running preview for
 * real examples, with a body the document's own schema accepts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { listFile, notFoundFile, routesFile, type Routes } from '../contract/layout.ts';
import { AS_OF_ITEMS } from '../schemas/output/as-of.ts';
import { allResources } from '../generator/resources/index.ts';
import {
  buildContract,
  exampleFromList,
  OPENAPI_FILE,
  OPENAPI_ROUTE,
  openApiDocument,
  outputSchemaModules,
  pascalCase,
  type JsonSchema,
  type JsonValue,
} from '../generator/artifacts/openapi.ts';
import { readVocabularies } from '../generator/artifacts/query-contract.ts';
import { folderReader } from '../generator/artifacts/artifact.ts';
import { createAjv } from '../schemas/ajv.ts';
import { undescribedProperties } from './support/descriptions.ts';

const distDir = inject('distDir');
const origin = inject('previewUrl');
const base = inject('baseUrl');

const readDist = (path: string) => JSON.parse(readFileSync(join(distDir, path), 'utf8')) as unknown;
const routes = readDist(routesFile) as Routes;
const AS_OF_KINDS = Object.keys(AS_OF_ITEMS);
const doc = readDist(OPENAPI_FILE) as {
  openapi: string;
  servers: { url: string }[];
  paths: Record<string, PathItem>;
  components: { schemas: Record<string, JsonSchema>; parameters: Record<string, Parameter>; responses: Record<string, { headers?: Record<string, unknown> }> };
};
interface Parameter {
  name: string;
  in: string;
  examples?: Record<string, { value: string | number }>;
}
interface Operation {
  operationId: string;
  parameters?: ({ $ref: string } | Parameter)[];
  responses: Record<string, { $ref?: string; content?: { 'application/json': { schema: { $ref: string } } } }>;
}
type PathItem = { get: Operation; parameters?: Parameter[] };

/** Follows a local `$ref` (`#/a/b`) in the document. */
function resolvePointer(ref: string): unknown {
  if (!ref.startsWith('#/')) throw new Error(`not a local reference: ${ref}`);
  let node: unknown = doc;
  for (const part of ref.slice(2).split('/')) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !(key in node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

function* refs(value: unknown, path = ''): Generator<[string, string]> {
  if (Array.isArray(value)) for (let i = 0; i < value.length; i++) yield* refs(value[i], `${path}/${i}`);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') yield [v, path];
      else yield* refs(v, `${path}/${k}`);
    }
  }
}

/** The components an operation answers with a status: one, or any of several. */
const responseSchemas = (op: Operation, status: string): string[] => {
  const response = op.responses[status];
  const resolved = (response?.$ref ? resolvePointer(response.$ref) : response) as
    { content?: { 'application/json': { schema: { $ref?: string; anyOf?: { $ref: string }[] } } } } | undefined;
  const schema = resolved?.content?.['application/json'].schema;
  return schema?.anyOf ? schema.anyOf.map((s) => s.$ref) : schema?.$ref ? [schema.$ref] : [];
};
/**
 * The document's 200 (or other) schema of an operation, as a component name: the last when it
 * names several (a collection's own page, which also accepts every page of the shared shape).
 */
const responseSchema = (op: Operation, status: string) => responseSchemas(op, status).at(-1);

describe('the OpenAPI document', () => {
  it('is accepted by an OpenAPI validator as 3.1, and a broken copy is not', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(doc.openapi).toBe('3.1.0');

    // the validator checks something: a path whose response lacks its required description fails
    const broken = structuredClone(doc) as unknown as { paths: Record<string, { get: { responses: Record<string, Record<string, unknown>> } }> };
    delete broken.paths['/creature/']!.get.responses['200']!.description;
    expect((await new Validator().validate(broken as unknown as Record<string, unknown>)).valid).toBe(false);
  });

  it('every $ref points at something in the document', () => {
    const dangling = [...refs(doc)].filter(([ref]) => resolvePointer(ref) === undefined).map(([ref, at]) => `${at}: ${ref}`);
    expect(dangling).toEqual([]);
  });

  it('is served by the preview at /v2/openapi.json as JSON, the same bytes as the file', async () => {
    const response = await fetch(`${origin}${OPENAPI_ROUTE}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.text()).toBe(readFileSync(join(distDir, OPENAPI_FILE), 'utf8'));
  });

  it("names the build's base URL as its server", () => {
    expect(doc.servers).toEqual([{ url: base }]);
  });

  it('is what the code makes from the schemas and the built lists (the file is not stale)', async () => {
    const examples = Object.fromEntries(
      routes.kinds.flatMap((k) => {
        const e = exampleFromList(readDist(listFile(k)) as { results: { name?: string; url: string }[] });
        return e ? [[k, e]] : [];
      }),
    );
    const version = (readDist('v2/meta.json') as { version: string }).version;
    const vocabularies = readVocabularies(folderReader(distDir), routes);
    const made = openApiDocument({ baseUrl: base, version, routes, contract: buildContract(allResources, routes), examples, vocabularies });
    expect(JSON.parse(JSON.stringify(made))).toEqual(doc);
  });
});

describe('paths', () => {
  const keyOf = (kind: string) => (routes.idOnly.includes(kind) ? '{id}' : '{idOrName}');

  it('are exactly the root, meta, the downloads, search, and every collection, item and subresource of the routing table', () => {
    const expected = ['/', '/meta/', '/meta/coverage/', '/downloads/', '/changes/', '/changes/{commit}', '/search/'];
    for (const kind of routes.kinds) {
      expected.push(`/${kind}/`, `/${kind}/${keyOf(kind)}`);
      for (const sub of routes.subresources[kind] ?? []) expected.push(`/${kind}/${keyOf(kind)}/${sub}`);
    }
    // the four kinds as of a game, and a creature's matchups today and then
    for (const kind of AS_OF_KINDS) expected.push(`/as-of/{v}/${kind}/`, `/as-of/{v}/${kind}/{idOrName}`);
    expected.push('/creature/{idOrName}/matchups', '/as-of/{v}/creature/{idOrName}/matchups');
    expect(Object.keys(doc.paths).sort()).toEqual(expected.sort());
    // id-only kinds, as the README says, and the creature encounters subresource
    expect(routes.idOnly.sort()).toEqual(['characteristic', 'contest-effect', 'evolution-chain', 'machine', 'super-contest-effect']);
    expect(doc.paths['/creature/{idOrName}/encounters']).toBeDefined();
    expect(doc.paths['/evolution-chain/{id}']).toBeDefined();
  });

  it('collections take limit, offset, q, id, name and their own fields, filters and ranges, and answer their page or a 400', () => {
    for (const kind of routes.kinds) {
      const op = doc.paths[`/${kind}/`]!.get;
      const params = (op.parameters ?? []).map((p) => ('$ref' in p ? (resolvePointer(p.$ref) as Parameter) : p));
      const queries = routes.queries[kind] ?? { filters: [], ranges: [], fields: [] };
      const shaping = queries.fields.length
        ? ['fields', 'sort', ...(queries.filters.length ? ['facets'] : []), ...(queries.ranges.length ? ['summary'] : [])]
        : [];
      const own = [...shaping, ...queries.filters.map((f) => f.name), ...queries.ranges.map((r) => r.name)];
      expect(
        params.map((p) => `${p.in}:${p.name}`),
        kind,
      ).toEqual(['limit', 'offset', 'q', 'id', 'name', 'lang', ...own].map((n) => `query:${n}`));
      const pages = ['PaginatedList', ...(queries.fields.length ? [`${pascalCase(kind)}ListPage`] : [])];
      expect(responseSchemas(op, '200'), kind).toEqual(pages.map((p) => `#/components/schemas/${p}`));
      expect(responseSchema(op, '400'), kind).toBe('#/components/schemas/BadParameter');
    }
    const limit = doc.components.parameters.limit as unknown as { schema: JsonSchema };
    expect(limit.schema).toMatchObject({ type: 'integer', default: 20, maximum: 100000 });
  });

  it('items answer the resource named after their kind, or 404 with the "Not Found" body', () => {
    for (const kind of routes.kinds) {
      const op = doc.paths[`/${kind}/${keyOf(kind)}`]!.get;
      expect(responseSchema(op, '200'), kind).toBe(`#/components/schemas/${pascalCase(kind)}`);
      expect(responseSchema(op, '404'), kind).toBe('#/components/schemas/NotFound');
    }
    expect(doc.components.schemas.NotFound).toEqual({ const: 'Not Found', type: 'string' });
    expect(responseSchema(doc.paths['/creature/{idOrName}/encounters']!.get, '200')).toBe('#/components/schemas/CreatureEncounters');
  });

  it('as of a game: a list takes {v} and every parameter of the kind’s list and answers its pages; an item answers its as-of schema; a 404 is either body', () => {
    const asOfNotFound = ['#/components/schemas/NotFound', '#/components/schemas/AsOfNotFound'];
    for (const kind of AS_OF_KINDS) {
      const list = doc.paths[`/as-of/{v}/${kind}/`]!;
      expect(
        list.parameters?.map((p) => `${p.in}:${p.name}`),
        kind,
      ).toEqual(['path:v']);
      expect(list.get.parameters, kind).toEqual(doc.paths[`/${kind}/`]!.get.parameters);
      expect(responseSchemas(list.get, '200'), kind).toEqual(responseSchemas(doc.paths[`/${kind}/`]!.get, '200'));
      expect(responseSchema(list.get, '400'), kind).toBe('#/components/schemas/BadParameter');
      expect(responseSchemas(list.get, '404'), kind).toEqual(asOfNotFound);
      const item = doc.paths[`/as-of/{v}/${kind}/{idOrName}`]!;
      expect(
        item.parameters?.map((p) => `${p.in}:${p.name}`),
        kind,
      ).toEqual(['path:v', 'path:idOrName']);
      expect(responseSchema(item.get, '200'), kind).toBe(`#/components/schemas/${pascalCase(kind)}AsOf`);
      expect(responseSchemas(item.get, '404'), kind).toEqual(asOfNotFound);
      expect(doc.components.schemas[`${pascalCase(kind)}AsOf`]!.description, kind).toMatch(/Every other field is today’s/);
    }
    expect(responseSchema(doc.paths['/creature/{idOrName}/matchups']!.get, '200')).toBe('#/components/schemas/Matchups');
    expect(responseSchemas(doc.paths['/as-of/{v}/creature/{idOrName}/matchups']!.get, '404')).toEqual(asOfNotFound);
    expect(doc.components.schemas.Matchups!.description).toMatch(/levitate.*not applied/);
    const v = doc.paths['/as-of/{v}/creature/{idOrName}']!.parameters![0]!;
    expect(Object.values(v.examples ?? {}).map((e) => e.value)).toEqual(['firered-leafgreen', 'emerald', 'generation-iv']);
  });

  it('every operation lists the errors of any path, 405, 431, 500 and 503, each the one shared ErrorBody; a 400 is ErrorBody with its own fields', () => {
    const errorBody = '#/components/schemas/ErrorBody';
    for (const [template, item] of Object.entries(doc.paths)) {
      for (const status of ['405', '431', '500', '503']) expect(responseSchemas(item.get, status), `${template} ${status}`).toEqual([errorBody]);
    }
    expect(doc.components.schemas.ErrorBody).toMatchObject({
      type: 'object',
      required: ['error', 'detail'],
      properties: { error: { type: 'string' }, detail: { type: 'string' } },
    });
    expect(doc.components.schemas.BadParameter!.allOf).toEqual([
      { $ref: errorBody },
      expect.objectContaining({ required: ['error', 'parameter', 'value', 'accepts'] }),
    ]);
    expect(Object.keys(doc.components.responses.MethodNotAllowed!.headers ?? {})).toContain('Allow');
    expect(Object.keys(doc.components.responses.Unavailable!.headers ?? {})).toContain('Retry-After');
  });
});

describe('components', () => {
  const schemas = doc.components.schemas;

  it('have readable names, one per resource and the shared shapes', () => {
    for (const name of Object.keys(schemas)) expect(name).toMatch(/^[A-Z][A-Za-z0-9]*$/);
    for (const name of [
      'Creature',
      'CreatureSpecies',
      'EvolutionChain',
      'ChainLink',
      'PaginatedList',
      'NotFound',
      'NamedResource',
      'ApiResource',
      'Meta',
      'RootIndex',
    ]) {
      expect(schemas, name).toHaveProperty(name);
    }
    for (const kind of routes.kinds) expect(schemas, kind).toHaveProperty(pascalCase(kind));
  });

  it('write each named shape once: no component holds an inline copy of another', () => {
    const bodies = new Map(Object.entries(schemas).map(([name, s]) => [JSON.stringify(s), name]));
    const copies: string[] = [];
    const visit = (value: JsonValue, path: string, top: boolean) => {
      if (value === null || typeof value !== 'object') return;
      if (!top && !Array.isArray(value)) {
        const twin = bodies.get(JSON.stringify(value));
        if (twin && typeof value.type === 'object') copies.push(`${path} repeats ${twin}`);
      }
      for (const [k, v] of Object.entries(value)) visit(v, `${path}/${k}`, false);
    };
    for (const [name, s] of Object.entries(schemas)) visit(s, name, true);
    expect(copies).toEqual([]);
    expect(schemas.Creature!.properties).toMatchObject({ species: { $ref: '#/components/schemas/NamedResource' } });
    expect(schemas.ChainLink!.properties).toMatchObject({ evolves_to: { items: { $ref: '#/components/schemas/ChainLink' } } });
  });

  it('describe every property of every component, at any depth, in words of their own', () => {
    expect(undescribedProperties(schemas)).toEqual([]);
    const properties = (name: string) => schemas[name]!.properties as Record<string, JsonSchema>;
    expect(properties('Creature').height!.description).toMatch(/decimetres/);
    expect(properties('Creature').weight!.description).toMatch(/hectograms/);
    // a shared shape used by a field: a reference, and what this field's link points to
    expect(properties('Creature').species).toEqual({ $ref: '#/components/schemas/NamedResource', description: expect.stringMatching(/\/creature-species\//) });
    expect(properties('NamedResource').url!.description).toMatch(/URL/);
    // one sentence said twice in a component is a sign of copy and paste, not of meaning
    for (const [name, schema] of Object.entries(schemas)) {
      const texts = Object.values((schema.properties ?? {}) as Record<string, JsonSchema>).map((p) => p.description);
      expect(new Set(texts).size, name).toBe(texts.length);
    }
  });

  it('the description check finds a property without a description anywhere: nested, in array items, in a nullable variant', () => {
    const described = { type: 'integer', description: 'a described number' };
    const fixture: Record<string, JsonValue> = {
      Top: { type: 'object', properties: { ok: described, bare: { type: 'string' } } },
      Nested: { type: 'object', properties: { inner: { type: 'object', description: 'an object with fields', properties: { deep: { type: 'boolean' } } } } },
      InArray: { type: 'array', items: { type: 'object', properties: { item: { type: 'null' } } } },
      Nullable: { anyOf: [{ type: 'object', properties: { variant: { type: 'string', description: 'short' } } }, { type: 'null' }] },
    };
    expect(undescribedProperties(fixture)).toEqual(['Top.bare', 'Nested.inner.deep', 'InArray[].item', 'Nullable|0.variant']);
  });

  it('name shapes from every module of schemas/output/', () => {
    const files = readdirSync(join(import.meta.dirname, '../schemas/output'))
      .filter((f) => f.endsWith('.ts'))
      .map((f) => f.slice(0, -3));
    expect(Object.keys(outputSchemaModules).sort()).toEqual(files.sort());
  });

  it("leave the build's schemas as they were, so each still compiles in one ajv", () => {
    const before = JSON.stringify(allResources.map((r) => r.schema));
    buildContract(allResources, routes);
    expect(JSON.stringify(allResources.map((r) => r.schema))).toBe(before);
    const ajv = createAjv();
    for (const r of allResources) expect(() => ajv.compile(r.schema), r.kind).not.toThrow();
  });
});

describe('every path answers 200 on the preview with a body its schema accepts', () => {
  let validate: (ref: string, value: unknown) => string | null;
  beforeAll(() => {
    const ajv = new Ajv2020({ strict: false, allErrors: false });
    ajv.addFormat('uri', /^https?:\/\/[^\s]+$/);
    ajv.addFormat('date-time', { validate: (s: string) => !Number.isNaN(Date.parse(s)) });
    ajv.addSchema({ $id: 'https://contract.invalid/openapi.json', components: { schemas: doc.components.schemas } });
    const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
    validate = (ref, value) => {
      let check = compiled.get(ref);
      if (!check) compiled.set(ref, (check = ajv.compile({ $ref: `https://contract.invalid/openapi.json${ref}` })));
      return check(value) ? null : ajv.errorsText(check.errors);
    };
  });

  const fetchJson = async (path: string) => {
    const response = await fetch(`${origin}/v2${path}`);
    return { status: response.status, body: (await response.json()) as unknown };
  };

  it('for each example the document names, the last item of each kind, and list pages', async () => {
    const problems: string[] = [];
    let checked = 0;
    for (const [template, item] of Object.entries(doc.paths)) {
      // the search needs a `q`: its own test below
      if (template === '/search/') continue;
      // the suite's build has no change report: test/changes.test.ts answers one from invented reports
      if (template === '/changes/{commit}') continue;
      const op = item.get;
      const schema = responseSchema(op, '200')!;
      const params = item.parameters ?? [];
      const urls: string[] = [];
      if (!params.length) {
        urls.push(template);
        if (!['/', '/meta/', '/meta/coverage/', '/changes/'].includes(template)) urls.push(`${template}?limit=5&offset=3`, `${template}?q=e&limit=2`);
      } else {
        // each path parameter's every example, the others at their first (`{v}` and `{idOrName}` of an as-of path)
        const examplesOf = (p: Parameter) => Object.values(p.examples ?? {}).map((e) => String(e.value));
        const fill = (p: Parameter, value: string) => params.reduce((t, q) => t.replace(`{${q.name}}`, q === p ? value : examplesOf(q)[0]!), template);
        for (const p of params) {
          expect(examplesOf(p).length, `${template} {${p.name}} has examples`).toBeGreaterThan(0);
          for (const value of examplesOf(p)) urls.push(fill(p, value));
        }
        // also the last item, whose id is 10001+ for kinds that have such ids (as of an older game it may not have existed)
        const key = params.find((p) => p.name === 'id' || p.name === 'idOrName');
        if (key && !template.startsWith('/as-of/')) {
          const list = readDist(listFile(template.split('/')[1]!)) as { results: { url: string }[] };
          urls.push(fill(key, /\/(-?\d+)\/$/.exec(list.results.at(-1)!.url)![1]!));
        }
      }
      for (const url of urls) {
        const { status, body } = await fetchJson(url);
        checked++;
        if (status !== 200) problems.push(`${url}: ${status}`);
        else {
          const error = validate(schema, body);
          if (error) problems.push(`${url}: ${schema} says ${error}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan((Object.keys(doc.paths).length - 1) * 2);
  });

  it('the search answers its page, best first, and a 400 without q, as the document says', async () => {
    const found = await fetchJson('/search/?q=charzard');
    expect(found.status).toBe(200);
    expect(validate('#/components/schemas/SearchPage', found.body)).toBeNull();
    expect((found.body as { results: { name: string }[] }).results[0]?.name).toBe('charizard');
    const missing = await fetchJson('/search/');
    expect(missing.status).toBe(400);
    expect(validate('#/components/schemas/BadParameter', missing.body)).toBeNull();
    expect(missing.body).toMatchObject({ error: 'bad_parameter', detail: expect.any(String), parameter: 'q' });
    expect(
      validate('#/components/schemas/BadParameter', { error: 'bad_parameter', parameter: 'q', value: '', accepts: 'a name' }),
      'without a detail',
    ).not.toBeNull();
  });

  it('a 405 answers the shared ErrorBody, as the document says', async () => {
    const response = await fetch(`${origin}/v2/creature/1`, { method: 'DELETE' });
    expect(response.status).toBe(405);
    const body = (await response.json()) as unknown;
    expect(validate(responseSchema(doc.paths['/creature/{idOrName}']!.get, '405')!, body)).toBeNull();
    expect(body).toMatchObject({ error: 'method_not_allowed' });
  });

  it("each collection's fields, filters and ranges answer as the document says: entries with every field, a 400 for a value or range it refuses", async () => {
    const problems: string[] = [];
    for (const [kind, queries] of Object.entries(routes.queries)) {
      const op = doc.paths[`/${kind}/`]!.get;
      const asked: string[] = [];
      if (queries.fields.length) asked.push(`/${kind}/?fields=${queries.fields.join(',')}&limit=3`);
      const filter = queries.filters.find((f) => f.target !== null);
      if (filter) asked.push(`/${kind}/?${filter.name}=1&limit=3`);
      for (const url of asked) {
        const { status, body } = await fetchJson(url);
        const error = status === 200 ? validate(responseSchema(op, '200')!, body) : `status ${status}`;
        if (error) problems.push(`${url}: ${error}`);
      }
      const refused = [
        ...(filter ? [`/${kind}/?${filter.name}=no-such-${filter.name}`] : []),
        ...(queries.ranges[0] ? [`/${kind}/?${queries.ranges[0].name}=..`] : []),
        ...(queries.fields.length ? [`/${kind}/?fields=no_such_field`] : []),
      ];
      for (const url of refused) {
        const { status, body } = await fetchJson(url);
        const error = status === 400 ? validate(responseSchema(op, '400')!, body) : `status ${status}`;
        if (error) problems.push(`${url}: ${error}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('an as-of list with fields, a facet, a summary or a sort answers its page as the document says; an unknown game the 404 body that says so', async () => {
    for (const url of [
      '/as-of/generation-v/creature/?type=normal&fields=types,stats&facets=type&summary=speed&limit=3',
      '/as-of/red-blue/move/?fields=power,type&sort=-power&limit=3',
    ]) {
      const op = doc.paths[`/as-of/{v}/${url.split('/')[3]}/`]!.get;
      const { status, body } = await fetchJson(url);
      expect(status, url).toBe(200);
      expect(validate(responseSchema(op, '200')!, body), url).toBeNull();
    }
    for (const url of ['/as-of/no-such-game/creature/', '/as-of/no-such-game/creature/1']) {
      const { status, body } = await fetchJson(url);
      expect(status, url).toBe(404);
      expect(validate('#/components/schemas/AsOfNotFound', body), url).toBeNull();
    }
  });

  it("an unknown item answers 404 with the document's NotFound body; a wrong creature fails its schema", async () => {
    const { status, body } = await fetchJson('/creature/no-such-creature');
    expect(status).toBe(404);
    expect(validate('#/components/schemas/NotFound', body)).toBeNull();
    expect(body).toEqual(readDist(notFoundFile));
    const creature = (await fetchJson('/creature/1')).body as Record<string, unknown>;
    expect(validate('#/components/schemas/Creature', creature)).toBeNull();
    expect(validate('#/components/schemas/Creature', { ...creature, id: '1' })).not.toBeNull();
    const { species: _, ...noSpecies } = creature;
    expect(validate('#/components/schemas/Creature', noSpecies)).not.toBeNull();
  });
});
