/**
 * The API's contract as documents: the JSON Schemas of every response, named and shared, and the
 * OpenAPI 3.1 document built on them (`{base_url}/openapi.json`). Both come from the TypeBox
 * schemas in schemas/output/ that validate every document the build writes, so the contract
 * cannot drift from what is served. The TypeScript types (typescript-types.ts) read the same
 * components.
 *
 * Names: a resource's response is named after its kind (`creature-species` → CreatureSpecies);
 * any other shape is named after the constant it is exported as from schemas/output/, matched by
 * object identity (TypeBox keeps the very objects it is given). So the schemas need no `$id`,
 * which would clash when one ajv instance compiles several resources that share a shape.
 */
import { Kind, Type, type Static, type TSchema } from '@sinclair/typebox';
import { idOfUrl, listFile, queryShape, upstreamKinds, type DownloadsIndex, type Meta, type Routes } from '../../contract/layout.ts';
import * as asOfSchemas from '../../schemas/output/as-of.ts';
import { AS_OF_ITEMS, AsOfNotFound, Matchups } from '../../schemas/output/as-of.ts';
import * as battle from '../../schemas/output/battle.ts';
import * as berries from '../../schemas/output/berries.ts';
import * as common from '../../schemas/output/common.ts';
import { describedFrom } from '../../schemas/output/common.ts';
import * as changes from '../../schemas/output/changes.ts';
import * as contests from '../../schemas/output/contests.ts';
import * as changeList from '../../schemas/output/change-list.ts';
import { ChangeList } from '../../schemas/output/change-list.ts';
import { ChangeReport } from '../../schemas/output/changes.ts';
import * as coverage from '../../schemas/output/coverage.ts';
import { CoverageMap } from '../../schemas/output/coverage.ts';
import * as creatures from '../../schemas/output/creatures.ts';
import * as encounters from '../../schemas/output/encounters.ts';
import * as entry from '../../schemas/output/entry.ts';
import * as evolution from '../../schemas/output/evolution.ts';
import * as items from '../../schemas/output/items.ts';
import * as moves from '../../schemas/output/moves.ts';
import * as speciesTraits from '../../schemas/output/species-traits.ts';
import * as species from '../../schemas/output/species.ts';
import * as sprites from '../../schemas/output/sprites.ts';
import * as summaries from '../../schemas/output/summaries.ts';
import * as world from '../../schemas/output/world.ts';
import { RESOURCE_SUMMARIES } from '../../schemas/output/summaries.ts';
import { compileFields, type FieldTree } from '../../contract/query/fields.ts';
import { fieldsBelow } from '../../contract/query/fields.ts';
import type { AnyResource } from '../resources/define.ts';
import type { ArtifactContext, ArtifactMaker } from './artifact.ts';
import {
  collectionEntries,
  collectionTable,
  COLLECTION_TABLE,
  MAX_ID,
  NAME_PATTERN,
  scopeWithout,
  SEARCH_TABLE,
  type AnyParam,
  type ContractScope,
  type KindScope,
} from '../../contract/query/parameter-table.ts';
import {
  BadParameterSchema,
  RANGE_PATTERN,
  aggregateProperties,
  readVocabularies,
  SearchPageSchema,
  SearchResultSchema,
  type Vocabularies,
} from './query-contract.ts';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonSchema = { [key: string]: JsonValue };

/** Every module of schemas/output/ by file name: their exported constants name the shared shapes. */
export const outputSchemaModules: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  battle,
  berries,
  changes,
  common,
  contests,
  creatures,
  encounters,
  entry,
  evolution,
  items,
  moves,
  'species-traits': speciesTraits,
  species,
  sprites,
  summaries,
  world,
  // the documents about the data, made by the build itself: the change reports, the coverage map
  'change-list': changeList,
  coverage,
  // the answers as of a game, made at the edge
  'as-of': asOfSchemas,
};

/** `GET {base}/meta/`: what was built (contract/layout.ts `Meta`, which the handler reads). */
export const MetaSchema = Type.Object(
  {
    upstream_commit: Type.String({
      description: 'The commit of the upstream data set the responses were built from; every answer carries it as `X-Data-Version` too.',
    }),
    built_at: Type.String({ format: 'date-time', description: 'When the build ran, in UTC (ISO 8601). Reproducible builds set it from SOURCE_DATE_EPOCH.' }),
    version: Type.String({ description: 'This API’s own version (of the code that made the responses), not the data’s.' }),
    base_url: Type.String({ format: 'uri', description: 'The base URL every link in every response starts with (ends in `/v2`).' }),
    counts: Type.Record(Type.String(), Type.Integer({ minimum: 0, description: 'How many items the collection has.' }), {
      description: 'Each collection’s item count, by its path segment (`creature`, `move`, ...): the same number as its list’s `count`.',
    }),
    downloads: Type.Object(
      {
        archive: Type.String({
          format: 'uri',
          description: 'URL of one `.tar.gz` archive holding every file of the API, named after the version and the upstream commit.',
        }),
        collections: Type.Record(Type.String(), Type.String({ format: 'uri', description: 'URL of the collection’s gzip’d NDJSON file.' }), {
          description: 'Per collection (by path segment), the URL of a gzip’d NDJSON file: every item’s full response, one JSON document a line.',
        }),
        database: Type.Optional(
          Type.String({
            format: 'uri',
            description:
              'URL of the whole API as one SQLite database (a table per collection, foreign keys, a full-text search over every name, views), named after the version and the upstream commit. Served uncompressed, and by byte ranges (`Range`, `206`). `/downloads/` lists its size and SHA-256.',
          }),
        ),
        database_gzip: Type.Optional(
          Type.String({
            format: 'uri',
            description: 'URL of the same database gzip’d, for a whole download: its name with `.gz`. `/downloads/` lists its size and SHA-256.',
          }),
        ),
      },
      { additionalProperties: false, description: 'Bulk reads, rebuilt with every build: the whole API in one archive, and each collection in one file.' },
    ),
    deploy_date: Type.String({
      pattern: '^[0-9]+$',
      description:
        'The upstream service’s own key, kept for clients written against it: the build time (`built_at`) in Unix seconds, as a string. A client can drop its cache when it changes.',
    }),
    hash: Type.String({ description: 'The upstream service’s own key: the commit of the data set, the same as `upstream_commit`.' }),
    tag: Type.Union([Type.String(), Type.Null()], {
      description: 'The upstream service’s own key: the release tag of that commit; null, because the pinned commit is not a tagged release.',
    }),

    changes: Type.Object(
      {
        list: Type.String({ format: 'uri', description: 'URL of `/changes/`: every data version’s change report, newest first.' }),
        latest: Type.Union([Type.String({ format: 'uri' }), Type.Null()], {
          description: 'URL of the change report of this build’s data version; null when none was made for it.',
        }),
      },
      { additionalProperties: false, description: 'What each data version changed.' },
    ),
  },
  { additionalProperties: false },
);
/** `GET {base}/downloads/`: every download of the build, with its size and hash (contract/layout.ts `DownloadsIndex`). */
export const DownloadsSchema = Type.Object(
  {
    data_version: Type.String({ description: 'The commit of the upstream data set the files were made from.' }),
    version: Type.String({ description: 'This API’s own version (of the code that made the files).' }),
    downloads: Type.Array(
      Type.Object(
        {
          type: Type.Union([Type.Literal('database'), Type.Literal('database-gzip'), Type.Literal('archive'), Type.Literal('collection')], {
            description:
              'The whole API as one SQLite database (`database`: uncompressed, read by byte ranges; `database-gzip`: the same file gzip’d, for a whole download), as one archive of every answer, or one collection’s items as gzip’d NDJSON.',
          }),
          kind: Type.Optional(Type.String({ description: 'The collection’s path segment (`creature`); absent for the database and the archive.' })),
          url: Type.String({ format: 'uri', description: 'Where to download it.' }),
          bytes: Type.Integer({ minimum: 0, description: 'Its size in bytes, as served (the gzip’d files compressed).' }),
          sha256: Type.String({ pattern: '^[0-9a-f]{64}$', description: 'The SHA-256 of its bytes, in hex.' }),
          content_type: Type.String({ description: 'Its media type: `application/vnd.sqlite3`, or `application/gzip`.' }),
          data_version: Type.String({ description: 'The commit of the upstream data set it was made from.' }),
        },
        { additionalProperties: false },
      ),
      { description: 'The database first, its gzip’d copy, then the archive, then each collection in the routing table’s order.' },
    ),
  },
  { additionalProperties: false },
);
const downloadsMatch: [Static<typeof DownloadsSchema>, DownloadsIndex] extends [DownloadsIndex, Static<typeof DownloadsSchema>] ? true : never = true;
void downloadsMatch;

// the schema and the interface the build writes must describe the same object: a field added to
// one and not the other fails the type check here
const metaMatches: [Static<typeof MetaSchema>, Meta] extends [Meta, Static<typeof MetaSchema>] ? true : never = true;
void metaMatches;

/** `GET {base}/`: every collection of the upstream's kinds, by name (as upstream, `meta` included). */
export const rootIndexSchema = (routes: Routes) =>
  Type.Object(
    Object.fromEntries(
      [...upstreamKinds(routes), 'meta'].sort().map((k) => [
        k,
        Type.String({
          format: 'uri',
          description:
            k === 'meta'
              ? 'URL of `/meta/`: what was built, from which data, and the bulk downloads.'
              : `URL of the \`/${k}/\` collection: a paginated list of links to every ${k}.`,
        }),
      ]),
    ),
    { additionalProperties: false },
  );

/** `creature-species` → `CreatureSpecies`. */
export const pascalCase = (kebab: string) =>
  kebab
    .split(/[-_\s]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');

export const componentRef = (name: string) => `#/components/schemas/${name}`;

/** The named schemas of the API. */
export interface Contract {
  /** component name → JSON Schema 2020-12 (OpenAPI 3.1 dialect); `$ref`s point at `#/components/schemas/…` */
  schemas: Record<string, JsonSchema>;
  /** kind → the component of its item response */
  items: Record<string, string>;
  /** kind → subresource → the component of its response */
  subresources: Record<string, Record<string, string>>;
  /** kind → the component of its item as of a game (`/as-of/{v}/{kind}/{id or name}`) */
  asOf: Record<string, string>;
}

/** Fixed names of the documents every kind shares. */
export const PAGINATED_LIST = 'PaginatedList';
export const NOT_FOUND = 'NotFound';
export const META = 'Meta';
export const COVERAGE_MAP = 'CoverageMap';
export const DOWNLOADS = 'Downloads';
export const CHANGE_LIST = 'ChangeList';
export const CHANGE_REPORT = 'ChangeReport';
export const ROOT_INDEX = 'RootIndex';
export const BAD_PARAMETER = 'BadParameter';
export const SEARCH_PAGE = 'SearchPage';
export const SEARCH_RESULT = 'SearchResult';
export const MATCHUPS = 'Matchups';
export const AS_OF_NOT_FOUND = 'AsOfNotFound';
export const ERROR_BODY = 'ErrorBody';
/** `creature` → `CreatureAsOf`: the component of a kind's item as of a game. */
export const asOfComponent = (kind: string) => `${pascalCase(kind)}AsOf`;

const isSchema = (value: unknown): value is TSchema => typeof value === 'object' && value !== null && Kind in value;

/** Keywords whose value is copied as it is (no subschema inside). */
const VALUE_KEYWORDS = new Set([
  'type',
  'required',
  'const',
  'enum',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'title',
  'description',
  'default',
]);
const SCHEMA_MAP_KEYWORDS = new Set(['properties', 'patternProperties']);
const SCHEMA_LIST_KEYWORDS = new Set(['anyOf', 'allOf', 'oneOf', 'prefixItems']);
const SCHEMA_KEYWORDS = new Set(['items', 'not', 'additionalProperties']);

const asJson = (value: unknown): JsonValue => JSON.parse(JSON.stringify(value)) as JsonValue;

/**
 * The components being named and written: which schema object has which name, and each
 * component's converted body. Names follow object identity (see the module comment); inside a
 * `Type.Recursive` shape, where TypeBox copied the objects, structure stands in for identity.
 */
class ComponentSet {
  private readonly nameOf = new Map<object, string>();
  private readonly claimed = new Map<string, object>();
  /** an object shape's JSON → the one exported name it equals, or null when several do */
  private readonly byStructure = new Map<string, string | null>();
  /** `$id` of a recursive schema → its component (TypeBox's `Type.Recursive` refers to itself by `$id`) */
  private readonly idNames = new Map<string, string>();
  readonly schemas: Record<string, JsonSchema> = {};

  /** @param summaries component → what it is, for the resources' responses */
  private readonly summaries: ReadonlyMap<string, string>;
  constructor(summaries: ReadonlyMap<string, string>) {
    this.summaries = summaries;
  }

  claim(name: string, schema: object): void {
    const holder = this.claimed.get(name);
    if (holder !== undefined && holder !== schema) throw new Error(`two different schemas would both be named ${name}`);
    this.claimed.set(name, schema);
    if (!this.nameOf.has(schema)) this.nameOf.set(schema, name);
  }

  /** Once every shape is claimed: the structural names (roots excepted) and the `$id`s. */
  sealNames(roots: ReadonlySet<object>): void {
    for (const [name, schema] of this.claimed) {
      if (roots.has(schema) || (schema as { type?: unknown }).type !== 'object') continue;
      const key = JSON.stringify(schema);
      const known = this.byStructure.get(key);
      const own = this.nameOf.get(schema);
      this.byStructure.set(key, known === undefined || known === own ? (own ?? name) : null);
    }
    for (const [schema, name] of this.nameOf) {
      const id = (schema as { $id?: unknown }).$id;
      if (typeof id === 'string') this.idNames.set(id, name);
    }
  }

  define(name: string, schema: TSchema): void {
    if (name in this.schemas) return;
    this.schemas[name] = {}; // claimed before its body is made, so a cycle ends here
    const summary = this.summaries.get(name);
    const body = this.convertBody(schema);
    this.schemas[name] = summary === undefined ? body : { description: summary, ...body };
  }

  private nameFor(schema: TSchema): string | undefined {
    return this.nameOf.get(schema) ?? this.byStructure.get(JSON.stringify(schema)) ?? undefined;
  }

  /** A schema inside another: a reference when it is a named shape, its body otherwise. */
  private convert(schema: TSchema): JsonSchema {
    // a shared shape used with a meaning of its own: a reference plus this field's description
    const base = describedFrom(schema);
    if (base !== schema && typeof schema.description === 'string') {
      const baseName = this.nameFor(base);
      if (baseName !== undefined) {
        this.define(baseName, base);
        return { $ref: componentRef(baseName), description: schema.description };
      }
    }
    let name = this.nameFor(schema);
    if (name === undefined && typeof schema.$id === 'string') {
      name = pascalCase(schema.$id);
      this.claim(name, schema);
      this.idNames.set(schema.$id, name);
    }
    if (name === undefined) return this.convertBody(schema);
    this.define(name, schema);
    return { $ref: componentRef(name) };
  }

  /** A schema's own keywords, subschemas converted; a keyword this does not know stops it. */
  private convertBody(schema: TSchema): JsonSchema {
    const out: JsonSchema = {};
    for (const [key, value] of Object.entries(schema)) {
      if (key === '$id') continue;
      if (key === '$ref') {
        const target = typeof value === 'string' ? this.idNames.get(value) : undefined;
        if (target === undefined) throw new Error(`a $ref to ${JSON.stringify(value)} names no known schema`);
        out.$ref = componentRef(target);
      } else if (SCHEMA_MAP_KEYWORDS.has(key)) {
        out[key] = Object.fromEntries(Object.entries(value as Record<string, TSchema>).map(([k, v]) => [k, this.convert(v)]));
      } else if (SCHEMA_LIST_KEYWORDS.has(key)) {
        out[key] = (value as TSchema[]).map((v) => this.convert(v));
      } else if (SCHEMA_KEYWORDS.has(key) && typeof value === 'object' && value !== null) {
        out[key] = this.convert(value as TSchema);
      } else if (VALUE_KEYWORDS.has(key) || SCHEMA_KEYWORDS.has(key)) {
        out[key] = asJson(value);
      } else {
        throw new Error(`the JSON Schema keyword ${JSON.stringify(key)} is not supported by the contract documents`);
      }
    }
    return out;
  }
}

/** Each resource's response and its subresources' responses, named, in kind and path order. */
function resourceRoots(resources: readonly AnyResource[]): Pick<Contract, 'items' | 'subresources'> & { roots: [string, TSchema][] } {
  const items: Record<string, string> = {};
  const subresources: Record<string, Record<string, string>> = {};
  const roots: [string, TSchema][] = [];
  for (const resource of [...resources].sort((a, b) => (a.kind < b.kind ? -1 : 1))) {
    const name = pascalCase(resource.kind);
    items[resource.kind] = name;
    roots.push([name, resource.schema]);
    for (const [sub, def] of Object.entries<{ schema: TSchema }>(resource.subresources ?? {}).sort(([a], [b]) => (a < b ? -1 : 1))) {
      const subName = name + pascalCase(sub);
      (subresources[resource.kind] ??= {})[sub] = subName;
      roots.push([subName, def.schema]);
    }
  }
  return { items, subresources, roots };
}

/**
 * Names every schema a resource response is made of and converts them to plain JSON Schemas
 * where each named shape is written once and referenced by `$ref`. A keyword this does not know
 * stops it, so a constraint is never dropped from the documents silently.
 */
export function buildContract(resources: readonly AnyResource[], routes: Routes): Contract {
  const { items, subresources, roots } = resourceRoots(resources);
  const summaries = new Map(Object.entries(items).flatMap(([kind, name]) => (RESOURCE_SUMMARIES[kind] ? [[name, RESOURCE_SUMMARIES[kind]]] : [])));
  const components = new ComponentSet(summaries);
  for (const [name, schema] of roots) components.claim(name, schema);
  const fixed: [string, TSchema][] = [
    [PAGINATED_LIST, common.PaginatedList],
    [NOT_FOUND, common.NotFound],
    [META, MetaSchema],
    [COVERAGE_MAP, CoverageMap],
    [DOWNLOADS, DownloadsSchema],
    [CHANGE_LIST, ChangeList],
    [CHANGE_REPORT, ChangeReport],
    [ROOT_INDEX, rootIndexSchema(routes)],
    [ERROR_BODY, common.ErrorBody],
    [BAD_PARAMETER, BadParameterSchema],
    [SEARCH_PAGE, SearchPageSchema],
    [SEARCH_RESULT, SearchResultSchema],
    ...Object.entries(AS_OF_ITEMS).map(([kind, schema]): [string, TSchema] => [asOfComponent(kind), schema]),
    [MATCHUPS, Matchups],
    [AS_OF_NOT_FOUND, AsOfNotFound],
  ];
  for (const [name, schema] of fixed) components.claim(name, schema);
  for (const module of Object.keys(outputSchemaModules).sort()) {
    const exports = outputSchemaModules[module]!;
    for (const name of Object.keys(exports).sort()) {
      const value = exports[name];
      if (isSchema(value)) components.claim(name, value);
    }
  }
  components.sealNames(new Set(roots.map(([, schema]) => schema)));
  for (const [name, schema] of [...roots, ...fixed]) components.define(name, schema);
  const sorted = Object.fromEntries(
    Object.keys(components.schemas)
      .sort()
      .map((name) => [name, components.schemas[name]!]),
  );
  const asOf = Object.fromEntries(Object.keys(AS_OF_ITEMS).map((kind) => [kind, asOfComponent(kind)]));
  return { schemas: sorted, items, subresources, asOf };
}

/** A real item of a kind, named in the document so a reader (or Swagger UI) can try it. */
export interface KindExample {
  id: number;
  name?: string;
}

/** A collection's first entry with a positive id (some kinds start at -1, `unknown`), as an example. */
export function exampleFromList(list: { results: { name?: string; url: string }[] }): KindExample | null {
  const entries = list.results.flatMap((r) => {
    const id = idOfUrl(r.url);
    return id === null ? [] : [{ id, name: r.name }];
  });
  const chosen = entries.find((e) => e.id > 0) ?? entries[0];
  if (!chosen) return null;
  return chosen.name === undefined ? { id: chosen.id } : { id: chosen.id, name: chosen.name };
}

export interface OpenApiInput {
  baseUrl: string;
  version: string;
  routes: Routes;
  contract: Contract;
  examples: Record<string, KindExample>;
  /** the values of the filters' small target kinds, read from the build (query-contract.ts) */
  vocabularies: Vocabularies;
}

const HEADERS = {
  ETag: { description: 'A hash of the body; send it back as If-None-Match to get 304 Not Modified.', schema: { type: 'string' } },
  'X-Data-Version': { description: 'The upstream data set commit the answer was built from.', schema: { type: 'string' } },
  'Cache-Control': { description: 'How long the answer may be cached.', schema: { type: 'string' } },
} as const;
const headerRefs = Object.fromEntries(Object.keys(HEADERS).map((h) => [h, { $ref: `#/components/headers/${h}` }]));

const answerSchema = (schema: string | readonly string[]): JsonSchema =>
  typeof schema === 'string' ? { $ref: componentRef(schema) } : { anyOf: schema.map((s) => ({ $ref: componentRef(s) })) };
/** A 200 answering one component, or any of several. */
const ok = (description: string, schema: string | readonly string[]) => ({
  description,
  headers: headerRefs,
  content: {
    'application/json': { schema: answerSchema(schema) },
  },
});
const notFoundRef = { $ref: '#/components/responses/NotFound' };
const badParameterRef = { $ref: '#/components/responses/BadParameter' };

/**
 * An error answer whose body is the shared ErrorBody: with the headers of every answer it
 * carries (`common`: a fault has no data version, the build's meta may be what failed; a 503
 * at the CDN no ETag either) and its own.
 */
const errorResponse = (description: string, common: ReadonlyArray<keyof typeof HEADERS>, own: Record<string, JsonValue> = {}): JsonValue => ({
  description,
  headers: { ...Object.fromEntries(common.map((h) => [h, headerRefs[h]!])), ...own },
  content: { 'application/json': { schema: { $ref: componentRef(ERROR_BODY) } } },
});
const EVERY_HEADER = Object.keys(HEADERS) as Array<keyof typeof HEADERS>;

/** The error answers of any path, whatever it serves (`#/components/responses/…`), by status. */
const PATH_ERRORS: Record<string, [name: string, response: JsonValue]> = {
  '405': [
    'MethodNotAllowed',
    errorResponse(
      'A method other than GET or HEAD, on any path: the API is read-only (`method_not_allowed`). `Allow` names the methods it answers.',
      EVERY_HEADER,
      { Allow: { description: 'The methods the API answers: `GET, HEAD`.', schema: { type: 'string' } } },
    ),
  ],
  '431': ['HeaderTooLarge', errorResponse('The request’s headers are larger than the server reads (`header_too_large`).', ['ETag', 'Cache-Control'])],
  '500': [
    'Internal',
    errorResponse(
      'A fault of ours, not the request’s: a broken build or a bug (`internal`). It was logged; the answer is stored nowhere (`Cache-Control: no-store`).',
      ['ETag', 'Cache-Control'],
    ),
  ],
  '503': [
    'Unavailable',
    errorResponse(
      'At the CDN, the deploy’s own files could not be read just now (`unavailable`); stored nowhere. Ask again after `Retry-After`.',
      ['Cache-Control'],
      { 'Retry-After': { description: 'Seconds to wait before asking again.', schema: { type: 'integer' } } },
    ),
  ],
};

/** Every operation of `paths` with the error answers of any path besides its own. */
function withPathErrors(paths: Record<string, JsonValue>): Record<string, JsonValue> {
  const refs = Object.fromEntries(Object.entries(PATH_ERRORS).map(([status, [name]]) => [status, { $ref: `#/components/responses/${name}` }]));
  for (const item of Object.values(paths) as Array<{ get?: { responses?: Record<string, JsonValue> } }>) {
    if (item.get) item.get.responses = { ...item.get.responses, ...refs };
  }
  return paths;
}

const DESCRIPTION = `A read-only JSON reference API for game creatures: stats, types, moves, abilities, species,
forms, evolution chains and everything they link to. Every answer is a static file made at build time.

- **Collections**: \`GET /{resource}/\` is a paginated list of links. \`limit\` 1–100000 (missing, invalid or ≤ 0 → 20;
  above 100000 → 100000), \`offset\` ≥ 0 (missing, invalid or negative → 0); \`next\` and \`previous\` carry both.
  \`q\` keeps the entries with a name holding the text, in any language the data carries (case, accents and kana
  or Latin width ignored); \`id=1,4,7\` and \`name=a,b\` ask for a batch; \`fields=\` adds fields of each item to its entry;
  each collection's filters (\`type=fire,water\`, \`generation=3\`) and ranges (\`speed=100..\`) narrow it. A value the
  collection does not understand is a 400 whose body names the parameter, the value and what it accepts; unknown
  parameters are ignored.
- **Search**: \`GET /search/?q=\` finds resources of every collection by any of their names, ranked and typo-forgiving.
- **Items**: \`GET /{resource}/{id or name}\`, with or without a trailing slash, any letter case. Evolution chains,
  machines, characteristics, contest effects and super contest effects have ids only.
- **Errors**: anything else answers 404 with the JSON body \`"Not Found"\`. Every other error answers one shape, \`ErrorBody\`:
  \`{"error": code, "detail": a sentence}\`, with the fields its code carries besides (a 400's \`parameter\`, \`value\` and
  \`accepts\`): methods other than GET and HEAD answer 405, a fault of ours 500, an unreadable deploy 503.
- **Naming**: the upstream's product word is \`creature\` in every path, field and lowercase identifier.`;

/**
 * A kind's parameters as the contract names what they take (contract/query/parameter-table.ts
 * `ContractScope`): its value components, the range form, its item's type.
 */
export function contractScope(scope: KindScope, itemType: (kind: string) => string): ContractScope {
  return { ...scope, valueComponent, rangeComponent: INTEGER_RANGE, ref: componentRef, itemType };
}

/** A query parameter as OpenAPI writes one, from its table entry: a comma list is `form`, not exploded. */
export function parameterObject(param: AnyParam, scope: ContractScope): JsonSchema {
  const { contract } = param;
  const schema = contract.schema(scope);
  return {
    name: param.name,
    in: 'query',
    required: contract.required ?? false,
    ...(schema.type === 'array' ? { style: 'form', explode: false } : {}),
    description: contract.describe(scope),
    schema,
    ...(contract.examples === undefined ? {} : { examples: contract.examples }),
  };
}

/** A parameter where a path takes it: a reference to its component when it has one, else written out. */
const parameterAt = (param: AnyParam, scope: ContractScope): JsonValue =>
  param.contract.component ? { $ref: `#/components/parameters/${param.name}` } : parameterObject(param, scope);

/** The query parameters of every collection (`#/components/parameters/…`): the table's components. */
const collectionParameterComponents = (): Record<string, JsonSchema> =>
  Object.fromEntries(
    Object.values(COLLECTION_TABLE).map((param) => [
      param.name,
      parameterObject(
        param,
        contractScope(scopeWithout('', []), () => ''),
      ),
    ]),
  );

/** `/` and `/meta/`. */
const META_PATHS: Record<string, JsonValue> = {
  '/': {
    get: {
      operationId: 'getRoot',
      summary: 'Every collection',
      tags: ['meta'],
      responses: { '200': ok('Each collection’s URL by name.', ROOT_INDEX) },
    },
  },
  '/meta/': {
    get: {
      operationId: 'getMeta',
      summary: 'What was built',
      tags: ['meta'],
      responses: { '200': ok('The upstream commit, build time, version, base URL and each collection’s size.', META) },
    },
  },
  '/meta/coverage/': {
    get: {
      operationId: 'getCoverage',
      summary: 'What the data lacks',
      tags: ['meta'],
      description:
        'The coverage map: for creature, creature-species, move, ability and item, per generation, the share of items whose each field is null, empty or missing, and whose names and flavor texts lack English or one of the five next largest languages.',
      responses: { '200': ok('Each covered kind’s fields by generation, with the items lacking each.', COVERAGE_MAP) },
    },
  },
  '/downloads/': {
    get: {
      operationId: 'listDownloads',
      summary: 'Every download',
      tags: ['meta'],
      description:
        'The bulk downloads of this build: the SQLite database, the archive of every answer, and each collection’s NDJSON file, each with its URL, size, SHA-256 and media type.',
      responses: { '200': ok('Each download with its size and hash.', DOWNLOADS) },
    },
  },
  '/changes/': {
    get: {
      operationId: 'listChanges',
      summary: 'What each data version changed',
      tags: ['meta'],
      responses: { '200': ok('The data versions with a change report, newest first, each with its summary counts.', CHANGE_LIST) },
    },
  },
  '/changes/{commit}': {
    get: {
      operationId: 'getChanges',
      summary: 'What one data version changed',
      tags: ['meta'],
      parameters: [
        {
          name: 'commit',
          in: 'path',
          required: true,
          description: 'The upstream commit the version is built from (`to`): 40 hex digits, or a prefix of 7 or more that starts one listed version only.',
          schema: { type: 'string', pattern: '^[0-9a-fA-F]{7,40}$' },
        },
      ],
      responses: {
        '200': ok('The tables that differ, and the items added, removed and changed by kind, with the field paths that changed.', CHANGE_REPORT),
        '404': notFoundRef,
      },
    },
  },
};

/** The path parameter that names an item: its id, or (for kinds with names) its id or name, with a real example. */
function itemKeyParameter(idOnly: boolean, example: KindExample | undefined): JsonSchema {
  const parameter: JsonSchema = idOnly
    ? { name: 'id', in: 'path', required: true, description: 'The numeric id.', schema: { type: 'integer' } }
    : {
        name: 'idOrName',
        in: 'path',
        required: true,
        description: 'The numeric id or the name (lowercase, hyphenated; any letter case is accepted).',
        schema: { type: 'string' },
      };
  if (example) {
    parameter.examples = {
      id: { summary: 'by id', value: idOnly ? example.id : String(example.id) },
      ...(example.name !== undefined && !idOnly ? { name: { summary: 'by name', value: example.name } } : {}),
    };
  }
  return parameter;
}

/** The component of a yes/no filter's values and of a range's forms. */
export const YES_NO = 'YesNo';
export const INTEGER_RANGE = 'IntegerRange';
/**
 * The component naming what a value filter takes: its target kind's names and ids
 * (`GenerationNameOrId`; `…Value` would be the response of `encounter-condition-value`), or yes/no.
 */
export const valueComponent = (target: string | null) => (target === null ? YES_NO : `${pascalCase(target)}NameOrId`);

/** What a value filter takes: a target kind's names and ids, listed when the kind is small; or yes/no. */
function valueSchema(target: string | null, vocabularies: Vocabularies): JsonSchema {
  if (target === null) {
    return { description: 'Yes or no: `true` or `1` for yes, `false` or `0` for no.', anyOf: [{ type: 'boolean' }, { type: 'integer', enum: [0, 1] }] };
  }
  const values = vocabularies[target];
  if (values === undefined) {
    return {
      description: `A ${target}, by name (any letter case) or id; \`/${target}/\` lists them all.`,
      anyOf: [
        { type: 'string', pattern: NAME_PATTERN },
        { type: 'integer', minimum: 0, maximum: MAX_ID },
      ],
    };
  }
  const byId: JsonSchema = { type: 'integer', enum: values.ids };
  return {
    description: `A ${target}, by name (any letter case) or id: one of the ${values.ids.length} entries of \`/${target}/\`.`,
    anyOf: values.names.length ? [{ type: 'string', enum: values.names }, byId] : [byId],
  };
}

/** The schemas the query parameters name, by component: each target kind's values, yes/no, the range form. */
export function querySchemas(
  routes: Pick<Routes, 'queries'>,
  vocabularies: Vocabularies,
  taken: Readonly<Record<string, unknown>>,
): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const queries of Object.values(routes.queries)) {
    for (const filter of queries.filters) out[valueComponent(filter.target)] ??= valueSchema(filter.target, vocabularies);
    if (queries.ranges.length) {
      out[INTEGER_RANGE] ??= {
        type: 'string',
        pattern: RANGE_PATTERN,
        description: 'An integer range: `100..` (at least), `..50` (at most), `80..100` (both ends included) or `90` (exactly); bounds may be negative.',
      };
    }
  }
  for (const name of Object.keys(out)) if (name in taken) throw new Error(`the query schema ${name} would replace the response component of the same name`);
  return out;
}

/** A collection's query parameters, as its table lists them: those its documents list (contract/query/parameter-table.ts `documented`). */
function collectionParameters(kind: string, routes: Routes, contract: Contract): JsonValue[] {
  const queries = routes.queries[kind];
  const scope = contractScope(
    { kind, shape: queryShape(routes, kind), idOnly: routes.idOnly.includes(kind), below: queries ? fieldsBelow(routes, queries) : [], kinds: routes.kinds },
    (k) => contract.items[k]!,
  );
  return collectionEntries(collectionTable(queries))
    .filter((param) => param.contract.documented?.(scope) ?? true)
    .map((param) => parameterAt(param, scope));
}

const sortedByName = <T>(record: Readonly<Record<string, T>>): Record<string, T> =>
  Object.fromEntries(
    Object.keys(record)
      .sort()
      .map((key) => [key, record[key]!]),
  );

/**
 * The components a kind's collection answers: the shared page, and when its entries may carry
 * fields, its own page too (a page without `fields=` is both).
 */
function listPageComponents(kind: string, routes: Pick<Routes, 'queries'>, contract: Contract): string | string[] {
  return queryShape(routes, kind).fields.length ? [PAGINATED_LIST, `${contract.items[kind]}ListPage`] : PAGINATED_LIST;
}

/** The object a schema describes, through a `$ref`, a nullable variant or an array's items (then `inArray`). */
function objectOf(schema: JsonSchema, schemas: Readonly<Record<string, JsonSchema>>, where: string): { object: JsonSchema; inArray: boolean } {
  const ref = typeof schema.$ref === 'string' ? schema.$ref.slice(componentRef('').length) : undefined;
  const resolved = ref === undefined ? schema : schemas[ref];
  if (resolved === undefined) throw new Error(`${where}: ${schema.$ref as string} names no component`);
  if (typeof resolved.properties === 'object' && resolved.properties !== null) return { object: resolved, inArray: false };
  if (resolved.type === 'array' && typeof resolved.items === 'object' && resolved.items !== null && !Array.isArray(resolved.items)) {
    return { object: objectOf(resolved.items, schemas, where).object, inArray: true };
  }
  for (const variant of Array.isArray(resolved.anyOf) ? resolved.anyOf : []) {
    if (typeof variant === 'object' && variant !== null && !Array.isArray(variant) && variant.type !== 'null') return objectOf(variant, schemas, where);
  }
  throw new Error(`${where} is a declared field below something that is not an object in the item's schema`);
}

/**
 * A list entry's fields, from the item's own schema: a declared field is its property as the
 * item has it; the part above a dotted one (`sprites` of `sprites.front_default`) an object of
 * only the fields below, none required (a path through a null is absent from the entry).
 */
function entryFields(tree: FieldTree, owner: JsonSchema, schemas: Readonly<Record<string, JsonSchema>>, where: string): Record<string, JsonValue> {
  const { object } = objectOf(owner, schemas, where);
  const properties = object.properties as Record<string, JsonSchema>;
  const out: Record<string, JsonValue> = {};
  for (const [key, below] of tree) {
    const property = properties[key];
    if (property === undefined) throw new Error(`${where}.${key} is a declared field the item's schema does not have`);
    if (below === true) {
      out[key] = property;
      continue;
    }
    const part: JsonSchema = { type: 'object', properties: entryFields(below, property, schemas, `${where}.${key}`), additionalProperties: false };
    const description = `${typeof property.description === 'string' ? property.description : `The item’s \`${key}\`.`} Here only with the fields asked.`;
    out[key] = objectOf(property, schemas, where).inArray ? { type: 'array', description, items: part } : { description, ...part };
  }
  return out;
}

/**
 * An entry's fields with each declared link's object (`species`) open to the linked kind's
 * fields (`species.names`): the link's own keys, then the linked kind's entry fields, none
 * required (each is there only when asked).
 */
function withLinkedFields(kind: string, own: Record<string, JsonValue>, routes: Pick<Routes, 'queries'>, contract: Contract): Record<string, JsonValue> {
  const out = { ...own };
  for (const [field, target] of Object.entries(queryShape(routes, kind).links ?? {})) {
    const property = own[field] as JsonSchema | undefined;
    const targetItem = contract.items[target];
    if (property === undefined || targetItem === undefined) continue;
    const linkObject = objectOf(property, contract.schemas, `${kind}.${field}`).object;
    const linked = entryFields(compileFields(queryShape(routes, target).fields), contract.schemas[targetItem]!, contract.schemas, target);
    const nullable = Array.isArray(property.anyOf) && property.anyOf.some((v) => typeof v === 'object' && v !== null && !Array.isArray(v) && v.type === 'null');
    const object: JsonSchema = {
      type: 'object',
      description: `${typeof property.description === 'string' ? property.description : `The item’s \`${field}\`.`} Below it, any field \`/${target}/\` entries take, read from the linked resource.`,
      properties: { ...(linkObject.properties as Record<string, JsonValue>), ...linked },
      additionalProperties: false,
    };
    out[field] = nullable ? { anyOf: [object, { type: 'null' }] } : object;
  }
  return out;
}

/** For each kind whose entries may carry fields: its list page and its entry, typed from the item's schema. */
export function listPageSchemas(routes: Pick<Routes, 'queries' | 'kinds' | 'idOnly'>, contract: Contract): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  const page = contract.schemas[PAGINATED_LIST]!;
  for (const kind of [...routes.kinds].sort()) {
    const { fields } = queryShape(routes, kind);
    const item = contract.items[kind];
    if (!fields.length || item === undefined) continue;
    const link = contract.schemas[routes.idOnly.includes(kind) ? 'ApiResource' : 'NamedResource']!;
    const entry = `${item}ListEntry`;
    out[entry] = {
      type: 'object',
      description: `An entry of a \`/${kind}/\` page: the link, and the fields \`fields=\` asked with the value the item has. A path below a declared field (\`stats.base_stat\`) gives only that part of it.`,
      required: link.required ?? [],
      properties: {
        ...(link.properties as Record<string, JsonValue>),
        ...withLinkedFields(kind, entryFields(compileFields(fields), contract.schemas[item]!, contract.schemas, kind), routes, contract),
      },
      additionalProperties: false,
    };
    const results = (page.properties as Record<string, JsonSchema>).results!;
    out[`${item}ListPage`] = {
      ...page,
      properties: {
        ...(page.properties as Record<string, JsonValue>),
        ...(aggregateProperties(queryShape(routes, kind)) as Record<string, JsonValue>),
        results: { type: 'array', description: results.description ?? '', items: { $ref: componentRef(entry) } },
      },
    };
  }
  return out;
}

/** `GET /search/`: every collection's names, ranked. */
function searchPaths(kinds: readonly string[]): Record<string, JsonValue> {
  const scope = contractScope(scopeWithout('search', kinds), () => '');
  return {
    '/search/': {
      get: {
        operationId: 'search',
        summary: 'Find resources by name',
        tags: ['search'],
        parameters: Object.values(SEARCH_TABLE).map((param) => parameterAt(param, scope)),
        responses: { '200': ok('A page of matches, best first.', SEARCH_PAGE), '400': badParameterRef },
      },
    },
  };
}

/** A kind's paths: its collection, its items, and each subresource of an item. */
function kindPaths(kind: string, { routes, contract, examples }: Pick<OpenApiInput, 'routes' | 'contract' | 'examples'>): Record<string, JsonValue> {
  const name = contract.items[kind];
  if (name === undefined) throw new Error(`the kind ${kind} is routed but has no response schema`);
  const idOnly = routes.idOnly.includes(kind);
  const key = idOnly ? 'id' : 'idOrName';
  const keyParameter = itemKeyParameter(idOnly, examples[kind]);
  const paths: Record<string, JsonValue> = {
    [`/${kind}/`]: {
      get: {
        operationId: `list${name}`,
        summary: `List ${kind}`,
        tags: [kind],
        parameters: collectionParameters(kind, routes, contract),
        responses: {
          '200': ok(
            `A page of links to ${kind} resources${queryShape(routes, kind).fields.length ? ', with the fields asked' : ''}.`,
            listPageComponents(kind, routes, contract),
          ),
          '400': badParameterRef,
        },
      },
    },
    [`/${kind}/{${key}}`]: {
      parameters: [keyParameter],
      get: {
        operationId: `get${name}`,
        summary: `One ${kind}`,
        tags: [kind],
        responses: { '200': ok(`The ${kind}.`, name), '404': notFoundRef },
      },
    },
  };
  for (const sub of routes.subresources[kind] ?? []) {
    const subName = contract.subresources[kind]?.[sub];
    if (subName === undefined) throw new Error(`the subresource ${kind}/${sub} is routed but has no response schema`);
    paths[`/${kind}/{${key}}/${sub}`] = {
      parameters: [keyParameter],
      get: {
        operationId: `get${subName}`,
        summary: `The ${sub} of one ${kind}`,
        tags: [kind],
        responses: { '200': ok(`The ${sub} of the ${kind}.`, subName), '404': notFoundRef },
      },
    };
  }
  return paths;
}

/** The game an as-of path asks about; its examples are games in which every as-of kind's example item existed. */
const AS_OF_VERSION_PARAMETER: JsonSchema = {
  name: 'v',
  in: 'path',
  required: true,
  description:
    'The game: a version group (`red-blue`), a version (`firered` means its version group, `firered-leafgreen`), or a generation ' +
    '(`generation-iv` means its last version group by `order`, `heartgold-soulsilver`); any letter case. `/version-group/`, `/version/` and `/generation/` list them.',
  schema: { type: 'string', pattern: NAME_PATTERN },
  examples: {
    versionGroup: { summary: 'a version group', value: 'firered-leafgreen' },
    version: { summary: 'a version', value: 'emerald' },
    generation: { summary: 'a generation', value: 'generation-iv' },
  },
};
const asOfNotFoundRef = { $ref: '#/components/responses/AsOfNotFound' };

/** What an as-of answer is, for its operation's description. */
const AS_OF_RULES =
  'Today’s item with the fields that changed over the games as they were in `{v}` (each field’s description says whether it is as of `{v}` or today’s), ' +
  'and its `past_*` field left out, since it is applied. Links are the linked resources’ own URLs. An item that did not exist as of `{v}`, and a `{v}` that names no game, ' +
  'answer 404 with a body that says so; an id or name that names nothing answers `"Not Found"`.';

/** `/as-of/{v}/{kind}/` and `/as-of/{v}/{kind}/{id or name}` of one kind answered as of a game. */
function asOfKindPaths(kind: string, { routes, contract, examples }: Pick<OpenApiInput, 'routes' | 'contract' | 'examples'>): Record<string, JsonValue> {
  const name = contract.items[kind]!;
  const component = contract.asOf[kind]!;
  return {
    [`/as-of/{v}/${kind}/`]: {
      parameters: [AS_OF_VERSION_PARAMETER],
      get: {
        operationId: `list${component}`,
        summary: `List ${kind} as of a game`,
        tags: ['as-of'],
        description:
          `The list of \`/${kind}/\` as it was in \`{v}\`: the same parameters and the same page, over the ${kind} resources that existed then, ` +
          'with every filter, range, sort, facet, summary and `fields` value read as of `{v}`; `count` counts what existed. ' +
          'Entries link to today’s items; `next` and `previous` stay as of `{v}`.',
        parameters: collectionParameters(kind, routes, contract),
        responses: {
          '200': ok(`A page of links to the ${kind} resources that existed as of \`{v}\`.`, listPageComponents(kind, routes, contract)),
          '400': badParameterRef,
          '404': asOfNotFoundRef,
        },
      },
    },
    [`/as-of/{v}/${kind}/{idOrName}`]: {
      parameters: [AS_OF_VERSION_PARAMETER, itemKeyParameter(false, examples[kind])],
      get: {
        operationId: `get${component}`,
        summary: `One ${kind} as of a game`,
        tags: ['as-of'],
        description: AS_OF_RULES,
        responses: { '200': ok(`The ${kind} as it was in \`{v}\`.`, component), '404': asOfNotFoundRef },
      },
    },
    ...(kind === 'creature' ? matchupPaths(name, itemKeyParameter(false, examples[kind])) : {}),
  };
}

/** A creature's type matchups, today and as of a game. */
function matchupPaths(name: string, keyParameter: JsonSchema): Record<string, JsonValue> {
  const operation = (id: string, when: string) => ({
    operationId: id,
    summary: `A creature’s type matchups, ${when}`,
    tags: ['as-of'],
    description: `For every type of the type list that existed ${when}, what its moves do to the creature: the product over the creature’s types of 2, 0.5 or 0 from the type’s damage relations. Abilities (levitate) are not applied.`,
  });
  return {
    '/creature/{idOrName}/matchups': {
      parameters: [keyParameter],
      get: {
        ...operation(`get${name}${MATCHUPS}`, 'in the newest games'),
        responses: { '200': ok('The creature’s matchups in the newest games.', MATCHUPS), '404': notFoundRef },
      },
    },
    '/as-of/{v}/creature/{idOrName}/matchups': {
      parameters: [AS_OF_VERSION_PARAMETER, keyParameter],
      get: {
        ...operation(`get${name}${MATCHUPS}AsOf`, 'as of `{v}`'),
        responses: { '200': ok('The creature’s matchups as of `{v}`.', MATCHUPS), '404': asOfNotFoundRef },
      },
    },
  };
}

/** The as-of paths of the kinds this build routes. */
function asOfPaths(input: Pick<OpenApiInput, 'routes' | 'contract' | 'examples'>): Record<string, JsonValue> {
  const kinds = Object.keys(input.contract.asOf).filter((kind) => input.routes.kinds.includes(kind) && !input.routes.idOnly.includes(kind));
  return Object.assign({}, ...kinds.map((kind) => asOfKindPaths(kind, input))) as Record<string, JsonValue>;
}

/** A tag per kind, with the kind's summary, after the `meta` tag. */
function tags(kinds: readonly string[]): JsonValue[] {
  return [
    { name: 'meta', description: 'The root index and what was built' },
    { name: 'search', description: 'Finding resources of every collection by any of their names, ranked and typo-forgiving' },
    {
      name: 'as-of',
      description: 'Creatures, moves, types and abilities as they were in a game (a version group, a version or a generation), and a creature’s type matchups',
    },
    ...[...kinds].sort().map((k) => {
      const summary = RESOURCE_SUMMARIES[k];
      if (summary === undefined) throw new Error(`the kind ${k} has no summary in schemas/output/summaries.ts`);
      return { name: k, description: summary };
    }),
  ];
}

/** The OpenAPI 3.1 document: every path the service answers, over the contract's components. */
export function openApiDocument(input: OpenApiInput): JsonSchema {
  const { baseUrl, version, routes, contract } = input;
  const paths: Record<string, JsonValue> = { ...META_PATHS, ...searchPaths(upstreamKinds(routes)) };
  for (const kind of [...routes.kinds].sort()) Object.assign(paths, kindPaths(kind, input));
  Object.assign(paths, asOfPaths(input));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Creature reference API',
      version,
      description: DESCRIPTION,
      license: { name: 'Game data facts from the PokéAPI data set (its code: BSD-3-Clause)', url: 'https://github.com/PokeAPI/pokeapi' },
    },
    servers: [{ url: baseUrl }],
    // an open API: no request needs credentials
    security: [],
    tags: tags(routes.kinds),
    paths: withPathErrors(paths),
    components: {
      schemas: sortedByName({ ...contract.schemas, ...querySchemas(routes, input.vocabularies, contract.schemas), ...listPageSchemas(routes, contract) }),
      parameters: collectionParameterComponents(),
      headers: HEADERS,
      responses: {
        NotFound: {
          description: 'No such resource: the body is the JSON string "Not Found".',
          headers: headerRefs,
          content: { 'application/json': { schema: { $ref: componentRef(NOT_FOUND) } } },
        },
        BadParameter: {
          description:
            'A query parameter was not understood: a value that names nothing, a malformed range, an unknown field, or a list past its caps. ' +
            'The body is the shared error body (`error` is `bad_parameter`, `detail` a sentence) with the parameter, the value and what the parameter accepts.',
          headers: headerRefs,
          content: { 'application/json': { schema: { $ref: componentRef(BAD_PARAMETER) } } },
        },
        ...Object.fromEntries(Object.values(PATH_ERRORS)),
        AsOfNotFound: {
          description:
            'Not found as of a game: a `{v}` that names no version group, version or generation, or an item that did not exist then, is a body that says which; ' +
            'an id or name that names nothing at all is the JSON string "Not Found".',
          headers: headerRefs,
          content: { 'application/json': { schema: answerSchema([NOT_FOUND, AS_OF_NOT_FOUND]) } },
        },
      },
    },
  };
}

export const OPENAPI_FILE = 'v2/openapi.json';
export const OPENAPI_ROUTE = '/v2/openapi.json';

/** Reads one real example per kind from the lists the build just wrote. */
function readExamples(read: ArtifactContext['read'], kinds: readonly string[]): Record<string, KindExample> {
  const out: Record<string, KindExample> = {};
  for (const kind of kinds) {
    const list = JSON.parse(read(listFile(kind)) ?? 'null') as { results: { name?: string; url: string }[] };
    const example = exampleFromList(list);
    if (example) out[kind] = example;
  }
  return out;
}

export const openApiMaker: ArtifactMaker = {
  name: 'openapi',
  async make(ctx) {
    const contract = buildContract(ctx.resources, ctx.routes);
    const examples = readExamples(ctx.read, ctx.routes.kinds);
    const vocabularies = readVocabularies(ctx.read, ctx.routes);
    const document = openApiDocument({ baseUrl: ctx.baseUrl, version: ctx.meta.version, routes: ctx.routes, contract, examples, vocabularies });
    return [{ path: OPENAPI_FILE, body: `${JSON.stringify(document, null, 2)}\n`, route: OPENAPI_ROUTE, contentType: 'application/json; charset=utf-8' }];
  },
};
