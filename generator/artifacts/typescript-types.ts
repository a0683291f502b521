/**
 * TypeScript declarations of every response (`{base_url}/creature-api.d.ts`), written from the
 * same named JSON Schemas as the OpenAPI document (openapi.ts `buildContract`), so a type, its
 * OpenAPI component and the build's validation are one declaration.
 *
 * A small emitter rather than json-schema-to-typescript: the contract uses a closed set of
 * keywords (object, array, anyOf, allOf, const, $ref and scalars), and writing them directly
 * gives one plain declaration per component in a stable order, without the generator's
 * per-definition boilerplate comments or a formatter pass. A keyword it does not know stops it,
 * so a schema it cannot express never becomes a type that accepts too much.
 */
import { queryShape, type Routes } from '../../contract/layout.ts';
import { fieldsBelow } from '../../contract/query/fields.ts';
import {
  collectionEntries,
  collectionTable,
  COLLECTION_TABLE,
  RANGE_FORMS,
  scopeWithout,
  SEARCH_TABLE,
  type AnyParam,
  type ContractScope,
} from '../../contract/query/parameter-table.ts';
import type { ArtifactMaker } from './artifact.ts';
import {
  AS_OF_NOT_FOUND,
  BAD_PARAMETER,
  buildContract,
  ERROR_BODY,
  CHANGE_LIST,
  CHANGE_REPORT,
  contractScope,
  COVERAGE_MAP,
  DOWNLOADS,
  MATCHUPS,
  META,
  NOT_FOUND,
  PAGINATED_LIST,
  ROOT_INDEX,
  SEARCH_PAGE,
  SEARCH_RESULT,
  valueComponent,
  type Contract,
  type JsonSchema,
  type JsonValue,
} from './openapi.ts';
import { FacetValueSchema, RangeSummarySchema, readVocabularies, type Vocabularies } from './query-contract.ts';

/** Operator precedence of a rendered type, to know when it needs parentheses. */
const Prec = { Union: 0, Intersection: 1, Primary: 2 } as const;
type Prec = (typeof Prec)[keyof typeof Prec];
interface Rendered {
  text: string;
  prec: Prec;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const propertyKey = (key: string) => (IDENTIFIER.test(key) ? key : JSON.stringify(key));
const REF_PREFIX = '#/components/schemas/';
/** Keywords that say nothing a TypeScript type can check (formats, bounds, documentation). */
const IGNORED = new Set([
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
  'default',
  'description',
  'required',
  'additionalProperties',
  'properties',
  'patternProperties',
  'items',
  'type',
]);

const isSchema = (value: JsonValue | undefined): value is JsonSchema => typeof value === 'object' && value !== null && !Array.isArray(value);
const wrap = (r: Rendered, min: number) => (r.prec < min ? `(${r.text})` : r.text);
const join = (parts: Rendered[], op: ' | ' | ' & ', prec: Prec): Rendered =>
  parts.length === 1 ? parts[0]! : { text: parts.map((p) => wrap(p, prec + 1)).join(op), prec };

function docComment(description: string, indent: string): string {
  const text = description.replace(/\*\//g, '*\\/'); // a `*/` inside would end the comment
  const lines = text.split('\n');
  return lines.length === 1 ? `${indent}/** ${text} */\n` : `${indent}/**\n${lines.map((l) => `${indent} * ${l}`.trimEnd()).join('\n')}\n${indent} */\n`;
}

/** One schema as a TypeScript type. `names` are the components a `$ref` may name. */
export function renderType(schema: JsonSchema, names: ReadonlySet<string>, indent = ''): Rendered {
  for (const key of Object.keys(schema)) {
    if (!IGNORED.has(key) && !['$ref', 'const', 'enum', 'anyOf', 'oneOf', 'allOf'].includes(key)) {
      throw new Error(`the keyword ${JSON.stringify(key)} cannot be written as a TypeScript type`);
    }
  }
  const parts: Rendered[] = [];
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.startsWith(REF_PREFIX) ? schema.$ref.slice(REF_PREFIX.length) : '';
    if (!names.has(name)) throw new Error(`a $ref to ${schema.$ref} names no component`);
    parts.push({ text: name, prec: Prec.Primary });
  }
  if ('const' in schema) parts.push({ text: JSON.stringify(schema.const), prec: Prec.Primary });
  if (Array.isArray(schema.enum))
    parts.push(
      join(
        schema.enum.map((v) => ({ text: JSON.stringify(v), prec: Prec.Primary })),
        ' | ',
        Prec.Union,
      ),
    );
  for (const key of ['anyOf', 'oneOf'] as const) {
    const list = schema[key];
    if (Array.isArray(list))
      parts.push(
        join(
          list.filter(isSchema).map((s) => renderType(s, names, indent)),
          ' | ',
          Prec.Union,
        ),
      );
  }
  if (Array.isArray(schema.allOf))
    parts.push(
      join(
        schema.allOf.filter(isSchema).map((s) => renderType(s, names, indent)),
        ' & ',
        Prec.Intersection,
      ),
    );
  // `type` narrows only when nothing above already said what the value is (a const carries its own
  // type; the objects of an allOf, as TypeBox's Intersect writes one, carry theirs)
  const saidByParts = Array.isArray(schema.allOf) && schema.type === 'object' && !isSchema(schema.properties);
  if (schema.type !== undefined && !('const' in schema) && !Array.isArray(schema.enum) && !saidByParts) {
    const types = (Array.isArray(schema.type) ? schema.type : [schema.type]) as string[];
    parts.push(
      join(
        types.map((t) => renderTypeKeyword(t, schema, names, indent)),
        ' | ',
        Prec.Union,
      ),
    );
  } else if (parts.length === 0) {
    parts.push({ text: 'unknown', prec: Prec.Primary });
  }
  return join(parts, ' & ', Prec.Intersection);
}

function renderTypeKeyword(type: string, schema: JsonSchema, names: ReadonlySet<string>, indent: string): Rendered {
  switch (type) {
    case 'string':
      return { text: 'string', prec: Prec.Primary };
    case 'integer':
    case 'number':
      return { text: 'number', prec: Prec.Primary };
    case 'boolean':
      return { text: 'boolean', prec: Prec.Primary };
    case 'null':
      return { text: 'null', prec: Prec.Primary };
    case 'array': {
      const item = isSchema(schema.items) ? renderType(schema.items, names, indent) : { text: 'unknown', prec: Prec.Primary };
      return { text: item.prec === Prec.Primary ? `${item.text}[]` : `Array<${item.text}>`, prec: Prec.Primary };
    }
    case 'object':
      return { text: renderObject(schema, names, indent), prec: Prec.Primary };
    default:
      throw new Error(`the type ${JSON.stringify(type)} cannot be written as a TypeScript type`);
  }
}

function renderObject(schema: JsonSchema, names: ReadonlySet<string>, indent: string): string {
  const inner = `${indent}  `;
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const lines: string[] = [];
  const properties = isSchema(schema.properties) ? schema.properties : {};
  for (const [key, value] of Object.entries(properties)) {
    if (!isSchema(value)) continue;
    const doc = typeof value.description === 'string' ? docComment(value.description, inner) : '';
    lines.push(`${doc}${inner}${propertyKey(key)}${required.has(key) ? '' : '?'}: ${renderType(value, names, inner).text};`);
  }
  // any further key: the values `patternProperties` or `additionalProperties` allow
  const extra: Rendered[] = [];
  if (isSchema(schema.patternProperties)) {
    for (const value of Object.values(schema.patternProperties)) if (isSchema(value)) extra.push(renderType(value, names, inner));
  }
  if (isSchema(schema.additionalProperties)) extra.push(renderType(schema.additionalProperties, names, inner));
  else if (schema.additionalProperties !== false && lines.length === 0 && extra.length === 0) extra.push({ text: 'unknown', prec: Prec.Primary });
  if (extra.length && lines.length) {
    // a property would have to fit the index signature too; the contract has no such object
    throw new Error('an object with both named properties and pattern or additional properties cannot be typed exactly');
  }
  if (extra.length) lines.push(`${inner}[key: string]: ${join(extra, ' | ', Prec.Union).text};`);
  return lines.length ? `{\n${lines.join('\n')}\n${indent}}` : '{}';
}

/** A component as an exported declaration: an interface for a plain object, a type alias otherwise. */
function declaration(name: string, schema: JsonSchema, names: ReadonlySet<string>, doc: string | undefined): string {
  const text = [typeof schema.description === 'string' ? schema.description : '', doc ?? ''].filter(Boolean).join('\n\n');
  const comment = text ? docComment(text, '') : '';
  const isPlainObject = schema.type === 'object' && !('$ref' in schema) && !('anyOf' in schema) && !('allOf' in schema) && !('oneOf' in schema);
  if (isPlainObject) return `${comment}export interface ${name} ${renderObject(schema, names, '')}\n`;
  return `${comment}export type ${name} = ${renderType(schema, names, '').text};\n`;
}

export interface TypesInput {
  contract: Contract;
  routes: Routes;
  version: string;
  /** the values of the filters' small target kinds, read from the build (query-contract.ts) */
  vocabularies: Vocabularies;
}

/** A query parameter as a member of a query interface, from its table entry: its words, its name, its type. */
function queryMember(param: AnyParam, scope: ContractScope): string {
  const { contract } = param;
  const doc = (contract.typeDoc ?? contract.describe)(scope);
  return `${docComment(doc, '  ')}  ${propertyKey(param.name)}${contract.required ? '' : '?'}: ${contract.type(scope)};`;
}

/** A query interface of a table's parameters. */
const queryInterface = (doc: string, name: string, params: readonly AnyParam[], scope: ContractScope, extending = '') =>
  `${docComment(doc, '')}export interface ${name}${extending} {${params.length ? `\n${params.map((p) => queryMember(p, scope)).join('\n')}\n` : ''}}\n`;

/** An object schema of the answer (edge/query/facets.ts, summary.ts), declared as the contract's schemas are. */
const answerDeclaration = (name: string, schema: unknown, doc: string) => declaration(name, JSON.parse(JSON.stringify(schema)) as JsonSchema, new Set(), doc);

/**
 * Generic helpers of the query types, written as they are: a list entry typed by the fields
 * asked is the item's type cut down to those paths, nested as the item nests them. The query
 * interfaces every collection and the search take come from their tables
 * (contract/query/parameter-table.ts), `FacetValue` and `RangeSummary` from the answer's schemas.
 */
function queryHelpers(scope: ContractScope): string {
  return `/** One value, or several (sent comma-separated, meaning any of them). */
export type OneOrMore<T> = T | readonly T[];

/** Yes or no, as a yes/no filter takes it. */
export type YesNo = boolean | 0 | 1 | 'true' | 'false' | '1' | '0';

/** An integer range as a range filter takes it: ${RANGE_FORMS}. */
export type IntegerRange = number | \`\${number}\` | \`\${number}..\` | \`..\${number}\` | \`\${number}..\${number}\`;

${queryInterface('Query parameters every collection takes.', 'CollectionQuery', Object.values(COLLECTION_TABLE), scope)}
${queryInterface('`GET /search/`: the query.', 'SearchQuery', Object.values(SEARCH_TABLE), scope)}
${QUERY_TYPE_HELPERS}
${answerDeclaration('FacetValue', FacetValueSchema, "One value's count in `facets`.")}
${answerDeclaration('RangeSummary', RangeSummarySchema, "One range's numbers in `summary`, over the whole filtered set.")}`;
}

const QUERY_TYPE_HELPERS = `type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
/** The value below a dotted path: through an array, each element's part. */
type Below<V, Rest extends string> = V extends readonly (infer E)[] ? Array<Below<E, Rest>> : V extends object ? AtPath<V, Rest> : never;
/** The part of \`T\` at one dotted path, nested as \`T\` nests it; optional where the way there may be null. */
export type AtPath<T, P extends string> = P extends \`\${infer Head}.\${infer Rest}\`
  ? Head extends keyof T
    ? null extends T[Head] ? { [K in Head]?: Below<T[K], Rest> } : { [K in Head]: Below<T[K], Rest> }
    : never
  : P extends keyof T ? { [K in P]: T[K] } : never;
/** The parts of \`T\` at every path of \`F\`, merged. */
export type Picked<T, F extends string> = [F] extends [never] ? {} : UnionToIntersection<F extends string ? AtPath<T, F> : never>;

/** An entry of a collection's list: its link, and the fields asked with \`fields=\` (e.g. \`ListEntry<'creature', 'types' | 'sprites.front_default'>\`). */
export type ListEntry<K extends ResourceKind, F extends FieldByKind[K] = never> = (K extends IdOnlyKind ? ApiResource : NamedResource) & Picked<ResourceByKind[K] & LinkedByKind[K], F>;

/** A page of a collection whose entries carry the fields \`F\`. */
export interface ListPage<K extends ResourceKind, F extends FieldByKind[K] = never> extends Omit<PaginatedList, 'results'> {
  /** With \`facets=\`: per filter asked, each value's count over the whole filtered set. */
  facets?: Record<string, FacetValue[]>;
  /** With \`summary=\`: per range asked, its numbers over the whole filtered set. */
  summary?: Record<string, RangeSummary>;
  /** This page’s entries in list order (or the order of \`sort\`), each its link and the fields asked. */
  results: ListEntry<K, F>[];
}
`;

/** What a filter's value may be: its target kind's names (listed when the kind is small) or an id; or yes/no. */
function valueType(target: string | null, vocabularies: Vocabularies): string {
  if (target === null) return 'YesNo';
  const names = vocabularies[target]?.names;
  return names === undefined || names.length === 0 ? 'string | number' : `${names.map((n) => JSON.stringify(n)).join(' | ')} | number`;
}

/** A kind's query interface (its table's parameters beyond every collection's) and its field union. */
function kindQueryDeclarations(kind: string, routes: Routes, contract: Contract): string {
  const name = contract.items[kind]!;
  const queries = routes.queries[kind];
  const shape = queryShape(routes, kind);
  const scope = contractScope(
    { kind, shape, idOnly: routes.idOnly.includes(kind), below: queries ? fieldsBelow(routes, queries) : [], kinds: routes.kinds },
    (k) => contract.items[k]!,
  );
  const fixed = new Set<AnyParam>(Object.values(COLLECTION_TABLE));
  const own = collectionEntries(collectionTable(queries)).filter((param) => !fixed.has(param) && (param.contract.documented?.(scope) ?? true));
  const query = queryInterface(`\`GET /${kind}/\`: the query.`, `${name}Query`, own, scope, ' extends CollectionQuery');
  const field = shape.fields.length
    ? `${docComment(`A field \`/${kind}/\` list entries may carry.`, '')}export type ${name}Field = ${shape.fields.map((f) => JSON.stringify(f)).join(' | ')};\n`
    : '';
  return `${query}${field}`;
}

/** The query types: helpers, each filter target's values, each kind's query and fields, and the maps by kind. */
function queryDeclarations(routes: Routes, contract: Contract, vocabularies: Vocabularies, taken: ReadonlySet<string>): string[] {
  const kinds = [...routes.kinds].sort();
  const valueTypes = new Map<string, string>();
  for (const kind of kinds) for (const f of queryShape(routes, kind).filters) if (f.target !== null) valueTypes.set(valueComponent(f.target), f.target);
  const values = [...valueTypes]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(
      ([typeName, target]) =>
        `${docComment(`A ${target}, by name or id, as a filter takes it.`, '')}export type ${typeName} = ${valueType(target, vocabularies)};\n`,
    );
  const own = kinds.map((kind) => kindQueryDeclarations(kind, routes, contract));
  const declared = [...[...values, ...own].join('\n').matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => m[1]!);
  for (const name of declared) if (taken.has(name)) throw new Error(`the query type ${name} has the name of a response type`);
  const linksOf = (kind: string) =>
    Object.entries(queryShape(routes, kind).links ?? {}).filter(
      ([, target]) => contract.items[target] !== undefined && queryShape(routes, target).fields.length,
    );
  // a linked kind's declared fields below the link: `species.${CreatureSpeciesField}`
  const fieldsOf = (kind: string) =>
    queryShape(routes, kind).fields.length
      ? [`${contract.items[kind]}Field`, ...linksOf(kind).map(([field, target]) => `\`${field}.\${${contract.items[target]}Field}\``)].join(' | ')
      : 'never';
  const linkedOf = (kind: string) => {
    const links = linksOf(kind);
    if (links.length === 0) return '{}';
    const members = links.map(
      ([field, target]) =>
        `${docComment(`\`${field}\` links a ${target}: \`fields=${field}.names\` reads its fields.`, '    ')}    ${JSON.stringify(field)}: ${contract.items[target]};\n`,
    );
    return `{\n${members.join('')}  }`;
  };
  const map = (name: string, doc: string, member: (kind: string) => [doc: string, type: string]) => {
    const members = kinds.map((k) => {
      const [memberDoc, type] = member(k);
      return `${docComment(memberDoc, '  ')}  ${JSON.stringify(k)}: ${type};`;
    });
    return `${docComment(doc, '')}export interface ${name} {\n${members.join('\n')}\n}\n`;
  };
  return [
    queryHelpers(contractScope(scopeWithout('', routes.kinds), (k) => contract.items[k]!)),
    ...values,
    ...own,
    map('QueryByKind', 'Each collection’s query, by its path segment.', (k) => [`What \`GET /${k}/\` takes.`, `${contract.items[k]}Query`]),
    map('FieldByKind', 'The fields each collection’s list entries may carry (`never`: none).', (k) => [
      `The fields \`/${k}/\` entries may carry.`,
      fieldsOf(k),
    ]),
    map('LinkedByKind', 'What each collection’s declared links lead to: `fields=species.names` reads the linked resource’s fields.', (k) => [
      `The links of \`/${k}/\` entries.`,
      linkedOf(k),
    ]),
    `/** The collections addressed by id alone, whose entries have a \`url\` and no \`name\`. */\nexport type IdOnlyKind = ${
      routes.idOnly.length
        ? [...routes.idOnly]
            .sort()
            .map((k) => JSON.stringify(k))
            .join(' | ')
        : 'never'
    };\n`,
  ];
}

/** The kinds answered as of a game that this build routes, with their as-of component, by kind. */
const asOfKinds = (contract: Contract, routes: Pick<Routes, 'kinds'>): [string, string][] =>
  Object.entries(contract.asOf)
    .filter(([kind]) => routes.kinds.includes(kind))
    .sort(([a], [b]) => (a < b ? -1 : 1));

/** The map from a kind answered as of a game to its as-of item, and the union of those kinds. */
function asOfDeclarations(contract: Contract, routes: Pick<Routes, 'kinds'>): string {
  const members = asOfKinds(contract, routes).map(
    ([kind, name]) => `${docComment(`\`GET /as-of/{v}/${kind}/{id or name}\` answers a \`${name}\`.`, '  ')}  ${JSON.stringify(kind)}: ${name};`,
  );
  const doc =
    'Each collection answered as of a game (`{v}`: a version group, a version or a generation), by its path segment. ' +
    'Its list, `GET /as-of/{v}/{kind}/`, takes the query `QueryByKind[kind]` and answers a `ListPage` of the kind, with the values as of `{v}`.';
  return `${docComment(doc, '')}export interface AsOfByKind {\n${members.join('\n')}\n}\n\nexport type AsOfKind = keyof AsOfByKind;\n`;
}

/** The whole declaration file: the responses by route first, then the shapes they share. */
export function typeDeclarations({ contract, routes, version, vocabularies }: TypesInput): string {
  const names = new Set(Object.keys(contract.schemas));
  const docs = new Map<string, string>();
  const first = new Set<string>();
  const describe = (name: string, doc: string) => {
    if (!docs.has(name)) docs.set(name, doc);
    first.add(name);
  };
  describe(ROOT_INDEX, '`GET /` (the base URL): every collection’s URL by name.');
  describe(META, '`GET /meta/`: what was built.');
  describe(COVERAGE_MAP, '`GET /meta/coverage/`: what the data lacks, by kind, generation and field.');
  describe(DOWNLOADS, '`GET /downloads/`: every download, with its size and SHA-256.');
  describe(CHANGE_LIST, '`GET /changes/`: the data versions with a change report, newest first.');
  describe(CHANGE_REPORT, '`GET /changes/{commit}`: what one data version changed.');
  describe(PAGINATED_LIST, '`GET /{resource}/`: a page of a collection (`limit`, `offset`, `q`, the batches `id` and `name`, its filters and `fields`).');
  describe(NOT_FOUND, 'The body of every 404.');
  // its schema says what it is
  describe(ERROR_BODY, '');
  describe(BAD_PARAMETER, 'The body of a 400: a query parameter’s value was not understood.');
  describe(SEARCH_PAGE, '`GET /search/?q=`: a ranked page of matches.');
  describe(SEARCH_RESULT, 'One match of a search.');
  for (const kind of [...routes.kinds].sort()) {
    const name = contract.items[kind];
    if (name === undefined) throw new Error(`the kind ${kind} has no response schema`);
    describe(name, `\`GET /${kind}/{${routes.idOnly.includes(kind) ? 'id' : 'id or name'}}\``);
    for (const sub of routes.subresources[kind] ?? []) {
      const subName = contract.subresources[kind]?.[sub];
      if (subName) describe(subName, `\`GET /${kind}/{id or name}/${sub}\``);
    }
  }
  // the answers as of a game: their schemas say which route answers them
  for (const name of [...asOfKinds(contract, routes).map(([, n]) => n), MATCHUPS, AS_OF_NOT_FOUND]) describe(name, '');
  const order = [...first, ...[...names].filter((n) => !first.has(n)).sort()];
  const byKind = [...routes.kinds]
    .sort()
    .map(
      (k) =>
        `${docComment(`\`GET /${k}/{${routes.idOnly.includes(k) ? 'id' : 'id or name'}}\` answers a \`${contract.items[k]}\`.`, '  ')}  ${JSON.stringify(k)}: ${contract.items[k]};`,
    );
  return [
    `/**
 * Types of every response of the Creature reference API ${version}, generated by the build from the
 * schemas that validate each response. Do not edit: build again.
 */
`,
    ...order.map((name) => declaration(name, contract.schemas[name]!, names, docs.get(name))),
    `/** Each collection's item response, by the collection's path segment. */
export interface ResourceByKind {
${byKind.join('\n')}
}
`,
    'export type ResourceKind = keyof ResourceByKind;\n',
    asOfDeclarations(contract, routes),
    ...queryDeclarations(routes, contract, vocabularies, names),
  ].join('\n');
}

export const TYPES_FILE = 'v2/creature-api.d.ts';
export const TYPES_ROUTE = '/v2/creature-api.d.ts';

export const typeScriptTypesMaker: ArtifactMaker = {
  name: 'typescript types',
  async make(ctx) {
    const vocabularies = readVocabularies(ctx.read, ctx.routes);
    const body = typeDeclarations({ contract: buildContract(ctx.resources, ctx.routes), routes: ctx.routes, version: ctx.meta.version, vocabularies });
    // text/plain: browsers show it rather than download it, and there is no registered TypeScript type
    return [{ path: TYPES_FILE, body, route: TYPES_ROUTE, contentType: 'text/plain; charset=utf-8' }];
  },
};
