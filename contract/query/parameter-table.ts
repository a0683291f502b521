/**
 * The query parameters of the service, one typed table: for each parameter its name, whether it
 * is given once (the last one counts) or repeated, its cap, its parser, how `next`/`previous`
 * write it back, and its contract (the words and schema the OpenAPI document and the TypeScript
 * types give it; the docs page lists the names). A kind's declared value filters and ranges (contract/layout.ts
 * `QueryShape`) are two entry shapes, `valueFilterParam` and `rangeParam`, made per filter.
 *
 * Everything else derives from here: what each path reads (contract/query/params.ts `collectionParams`,
 * `SEARCH_PARAMS`: Netlify-Vary and the `_redirects` fallback), the reading itself (contract/query/params.ts
 * `readParams`, the one reader of the query), the parsed query's type (`CollectionQuery`), the
 * links (`tableLinkSuffix`, `collectionLinkSuffix`), whether a collection is asked more than a
 * page (`asksAnything`), the sort keys, and the contract (generator/artifacts/openapi.ts and
 * typescript-types.ts walk these tables). A parameter added here is read, linked, cached on and
 * documented; what it does to the answer is its reader's (edge/collection.ts, search-endpoint.ts).
 */
import { canonicalKey, DEFAULT_LIMIT, MAX_LIMIT, NO_QUERIES, type QueryFilter, type QueryRange, type QueryShape } from '../layout.ts';
import { parseLimit, parseOffset } from '../pagination.ts';
import { foldText } from './fold.ts';
import type { Json } from './fields.ts';
import {
  listItems,
  parseFields,
  parseIds,
  parseNameList,
  parseNames,
  parseRange,
  parseSort,
  parseValueGroups,
  parseValues,
  QUERY_LIMITS,
  type IntegerRange,
  type Parsed,
  type SortKey,
  type Vocabulary,
} from './parse.ts';

/**
 * A list's names and ids as a parameter resolves a value against them. The request logic's
 * reader of a list pack (edge/build-files.ts `ListKeys`) is one.
 */
export interface NamedKeys {
  /** each entry's name, undefined where it has none */
  names(): ReadonlyArray<string | undefined>;
  positionOfName(name: string): number | undefined;
  /** the position of a lowercase name or a decimal id */
  positionOf(token: string): number | undefined;
}

/**
 * What the parameters read of a build to resolve names: a kind's list, and the values its filter
 * index holds. The request logic's readers of the build (edge/build-files.ts `CollectionFiles`)
 * answer these calls; null, a kind the build has no such file for.
 */
export interface NameReads {
  listKeys(kind: string): Promise<NamedKeys | null>;
  filterIndex(kind: string): Promise<{ vocabulary(filter: string): Vocabulary | undefined } | null>;
}

/** What a kind's parameters are parsed and described against. */
export interface KindScope {
  /** the path's kind (`search` for the search) */
  kind: string;
  /** its declared query vocabulary (NO_QUERIES for none) */
  shape: QueryShape;
  /** whether its entries are addressed by id alone (no `name` to sort by) */
  idOnly: boolean;
  /** the paths `fields=` takes below the declared ones (contract/query/fields.ts `fieldsBelow`) */
  below: readonly string[];
  /** every kind the service routes */
  kinds: readonly string[];
}

/** What a request's parameters are parsed against: the kind, and the build's files for those that resolve names. */
export interface ReadScope extends KindScope {
  build: NameReads;
}

/** The contract's names a parameter's schema and type refer to (generator/artifacts/openapi.ts). */
export interface ContractScope extends KindScope {
  /** the component naming a value filter's values (`TypeNameOrId`, `YesNo`) */
  valueComponent: (target: string | null) => string;
  /** the component of a range's forms */
  rangeComponent: string;
  /** a component's `$ref` */
  ref: (component: string) => string;
  /** the type of a kind's item (`Creature`) */
  itemType: (kind: string) => string;
}

/** A parameter's contract: what the OpenAPI document and the TypeScript types say of it. */
export interface ParamContract {
  /** its description, shared by the OpenAPI document and the types unless `typeDoc` says otherwise */
  describe: (scope: ContractScope) => string;
  /** its OpenAPI schema; an array is a comma-separated list (`style: form, explode: false`) */
  schema: (scope: ContractScope) => { [key: string]: Json };
  /** its TypeScript type in a query interface */
  type: (scope: ContractScope) => string;
  /** the types' doc comment, where it differs from the description */
  typeDoc?: (scope: ContractScope) => string;
  /** a required parameter (the search's `q`) */
  required?: true;
  /** examples, as OpenAPI names them */
  examples?: { [name: string]: { summary: string; value: Json } };
  /** written once as `#/components/parameters/{name}` and referred to wherever it is taken */
  component?: true;
  /** whether a kind's documents list it (default: always) */
  documented?: (scope: KindScope) => boolean;
}

/** One query parameter. `T`: its parsed value, null when absent. */
export interface QueryParam<T> {
  name: string;
  /** single: given more than once, the last one counts; repeatable: every value is read, in order */
  arity: 'single' | 'repeatable';
  /**
   * Its cap, as contract/query/parse.ts `QUERY_LIMITS` holds it and its parser applies it: items in a
   * list, characters of a text, repeats of a range, the largest page; null when it has none.
   */
  limit: number | null;
  /** its values as given (the last only, for a single one) to its parsed value or a 400's error */
  parse(values: readonly string[], scope: ReadScope): Parsed<T> | Promise<Parsed<T>>;
  /**
   * How `next`/`previous` carry a value: its `name=value` parts, each value encoded. Absent: the
   * page's position (`limit`, `offset`), which contract/pagination.ts `pageLinks` writes first.
   */
  link?(value: NonNullable<T>): string[];
  /**
   * Whether it changes nothing by itself, only how others are read (`lang`: the language of `q`
   * and `fields`): asked alone, the collection's plain page answers, links without it.
   */
  qualifier?: true;
  contract: ParamContract;
}

/** A parameter of any value type, as tables hold them. */
export type AnyParam = QueryParam<unknown>;
/** Named parameters, in the order they are read, cached on and linked. */
export type ParamTable = Readonly<Record<string, AnyParam>>;
/** A table's parsed values by key. */
export type ValuesOf<T extends ParamTable> = { -readonly [K in keyof T]: T[K] extends QueryParam<infer V> ? V : never };

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const encoded = (name: string, value: string | number) => `${name}=${encodeURIComponent(String(value))}`;
/** A list as links write it: one parameter, its items encoded and joined with commas. */
const listLink = (name: string) => (items: readonly (string | number)[]) => [`${name}=${items.map((i) => encodeURIComponent(String(i))).join(',')}`];
const code = (names: readonly string[]) => names.map((n) => `\`${n}\``).join(', ');
const union = (names: readonly string[]) => names.map((n) => JSON.stringify(n)).join(' | ');
const stringList = (max: number, names: readonly string[]) => ({ type: 'array', maxItems: max, items: { type: 'string', enum: [...names] } });

/** A name as the API writes one, and an id: what the documents say `id`, `name` and `lang` take. */
export const NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9-]{0,99}$';
export const MAX_ID = 999_999_999;
/** Forms a range takes, for the documents (contract/query/parse.ts `parseRange`). */
export const RANGE_FORMS = '`100..` (at least), `..50` (at most), `80..100` (both ends included) or `90` (exactly)';

/** The keys `sort` takes on a kind: `id`, `name` (not on a kind addressed by id only), its ranges. */
export const sortKeys = (shape: QueryShape, idOnly: boolean): string[] => [...(idOnly ? ['id'] : ['id', 'name']), ...shape.ranges.map((r) => r.name)];

const limit: QueryParam<number> = {
  name: 'limit',
  arity: 'single',
  limit: MAX_LIMIT,
  parse: (values) => ok(parseLimit(values[0] ?? null)),
  contract: {
    component: true,
    describe: () => `Page size: 1–${MAX_LIMIT}; missing, invalid or ≤ 0 means ${DEFAULT_LIMIT}, above ${MAX_LIMIT} means ${MAX_LIMIT}.`,
    typeDoc: () => `Page size: 1–${MAX_LIMIT}; missing, invalid or ≤ 0 means ${DEFAULT_LIMIT}.`,
    schema: () => ({ type: 'integer', default: DEFAULT_LIMIT, minimum: 1, maximum: MAX_LIMIT }),
    type: () => 'number',
  },
};

const offset: QueryParam<number> = {
  name: 'offset',
  arity: 'single',
  limit: null,
  parse: (values) => ok(parseOffset(values[0] ?? null)),
  contract: {
    component: true,
    describe: () => 'Index of the first entry; missing, invalid or negative means 0.',
    schema: () => ({ type: 'integer', default: 0, minimum: 0 }),
    type: () => 'number',
  },
};

const q: QueryParam<string | null> = {
  name: 'q',
  arity: 'single',
  limit: QUERY_LIMITS.valueLength,
  parse: (values) => ok(values[0] ?? null),
  link: (text) => [encoded('q', text)],
  contract: {
    component: true,
    describe: () =>
      'Keep only the entries with a name containing this text: the API’s own name or any translated name the resource carries ' +
      '(for a creature, also its species’ and its forms’ names). Matching ignores letter case, accents and the width of kana and ' +
      'Latin letters: `ピカチュウ`, `pikachú` and `皮卡丘` all find pikachu. Entries stay in list order; resources without names match nothing.',
    schema: () => ({ type: 'string', maxLength: QUERY_LIMITS.valueLength }),
    type: () => 'string',
  },
};

const id: QueryParam<number[] | null> = {
  name: 'id',
  arity: 'repeatable',
  limit: QUERY_LIMITS.listItems,
  parse: (values) => parseIds('id', values),
  link: listLink('id'),
  contract: {
    component: true,
    describe: () => 'Only the entries with these ids, comma-separated (`1,4,7`): a batch of links in one request, in list order.',
    schema: () => ({ type: 'array', maxItems: QUERY_LIMITS.listItems, items: { type: 'integer', minimum: 0, maximum: MAX_ID } }),
    type: () => 'OneOrMore<number>',
  },
};

const name: QueryParam<string[] | null> = {
  name: 'name',
  arity: 'repeatable',
  limit: QUERY_LIMITS.listItems,
  parse: (values) => parseNames('name', values),
  link: listLink('name'),
  contract: {
    component: true,
    describe: () =>
      'Only the entries with these names, comma-separated (`bulbasaur,charmander`; any letter case): a batch of links in one request, in list order.',
    schema: () => ({ type: 'array', maxItems: QUERY_LIMITS.listItems, items: { type: 'string', pattern: NAME_PATTERN } }),
    type: () => 'OneOrMore<string>',
  },
};

/**
 * The list `lang` is checked against. Every build has it, so a cold start reads it beside the
 * routing table (edge/handler.ts), before anything says which kind the request asks for.
 */
export const languageList = (build: Pick<NameReads, 'listKeys'>): Promise<NamedKeys | null> => build.listKeys('language');

/**
 * `lang=de`: a language by its name in `/language/` (any letter case), or null when absent or
 * empty; a name that is no language is a 400 listing them.
 */
async function parseLanguage(values: readonly string[], { build }: ReadScope): Promise<Parsed<string | null>> {
  const raw = values[0]?.trim().toLowerCase() ?? '';
  if (raw === '') return ok(null);
  const languages = await languageList(build);
  if (languages?.positionOfName(raw) !== undefined) return ok(raw);
  const names = languages?.names().filter((name): name is string => name !== undefined) ?? [];
  return { ok: false, error: { parameter: 'lang', value: raw.slice(0, 100), accepts: `a language by its name in /language/: ${names.join(', ')}` } };
}

const lang: QueryParam<string | null> = {
  name: 'lang',
  arity: 'single',
  limit: null,
  qualifier: true,
  parse: parseLanguage,
  link: (language) => [encoded('lang', language)],
  contract: {
    component: true,
    describe: () =>
      'A language, by its name in `/language/` (`de`, `ja-hrkt`, `zh-hans`): `q` then matches only names in that language (the API’s own name is in ' +
      'none), and every `names` field asked with `fields=` keeps only that language’s entries. An unknown language is a 400.',
    schema: () => ({ type: 'string', pattern: NAME_PATTERN }),
    type: () => 'string',
  },
};

/** What every collection reads, in the order Netlify-Vary names them and links carry them. */
export const COLLECTION_TABLE = { limit, offset, q, id, name, lang } as const;

/** How a dotted field nests in an entry, shown on the kind's first dotted field: ` (`a.b` gives `{"a": {"b": …}}`)`. */
function nestingExample(fields: readonly string[]): string {
  const dotted = fields.find((f) => f.includes('.'));
  if (dotted === undefined) return '';
  const nested = dotted.split('.').reduceRight((inner, key) => `{"${key}": ${inner}}`, '…');
  return ` (\`${dotted}\` gives \`${nested}\`)`;
}

function describeFields({ shape: { fields, links = {} } }: KindScope): string {
  return (
    `Add these fields of each item to its list entry, comma-separated, with exactly the value and shape the item has` +
    `${nestingExample(fields)}. Allowed: ${code(fields)}, ` +
    Object.entries(links)
      .map(
        ([field, target]) =>
          `below \`${field}\` (a link to \`/${target}/\`) any field its entries take, read from the linked ${target} and merged into the link ` +
          `(\`${field}.names\` gives \`{"${field}": {"names": […]}}\`), `,
      )
      .join('') +
    `or a path below one of them that the item has (\`stats.base_stat\`). Any other path, unknown or below a field that has no such part ` +
    `(\`types.nope\`), is a 400 naming it and what is allowed.`
  );
}

/** Entries may carry fields: then `fields` and `sort` are documented. */
const hasFields = ({ shape }: KindScope) => shape.fields.length > 0;

const fields: QueryParam<string[] | null> = {
  name: 'fields',
  arity: 'repeatable',
  limit: QUERY_LIMITS.fieldPaths,
  parse: (values, { shape, below }) => parseFields('fields', values, shape.fields, below),
  link: listLink('fields'),
  contract: {
    documented: hasFields,
    describe: describeFields,
    schema: ({ shape, below }) => stringList(QUERY_LIMITS.fieldPaths, [...shape.fields, ...below]),
    type: ({ kind, below, itemType }) => `OneOrMore<${itemType(kind)}Field${below.length ? ` | ${union(below)}` : ''}>`,
  },
};

const describeSort = (kind: string, keys: readonly string[]) =>
  `Order the ${kind} entries by these keys, comma-separated, each led by \`-\` for descending (\`-height,id\`), at most ${QUERY_LIMITS.sortKeys}: ` +
  `${code(keys)}. Entries without a value come last either way; ties keep list order. An unknown key is a 400 naming the keys.`;

const sort: QueryParam<SortKey[] | null> = {
  name: 'sort',
  arity: 'repeatable',
  limit: QUERY_LIMITS.sortKeys,
  parse: (values, { shape, idOnly }) => parseSort('sort', values, sortKeys(shape, idOnly)),
  link: (keys) => listLink('sort')(keys.map(({ key, descending }) => (descending ? `-${key}` : key))),
  contract: {
    documented: hasFields,
    describe: ({ kind, shape, idOnly }) => describeSort(kind, sortKeys(shape, idOnly)),
    // the types' comment names each key as its type writes it, quoted
    typeDoc: ({ kind, shape, idOnly }) =>
      describeSort(
        kind,
        sortKeys(shape, idOnly).map((k) => JSON.stringify(k)),
      ),
    schema: ({ shape, idOnly }) => {
      const keys = sortKeys(shape, idOnly);
      return stringList(QUERY_LIMITS.sortKeys, [...keys, ...keys.map((k) => `-${k}`)]);
    },
    type: ({ shape, idOnly }) => {
      const keys = union(sortKeys(shape, idOnly));
      return `OneOrMore<${keys} | \`-\${${keys}}\`>`;
    },
  },
};

const filterNames = (shape: QueryShape) => shape.filters.map((f) => f.name);
const rangeNames = (shape: QueryShape) => shape.ranges.map((r) => r.name);

const facets: QueryParam<string[] | null> = {
  name: 'facets',
  arity: 'repeatable',
  limit: QUERY_LIMITS.facets,
  parse: (values, { shape }) => parseNameList('facets', values, filterNames(shape), 'value filters', QUERY_LIMITS.facets),
  link: listLink('facets'),
  contract: {
    documented: (scope) => hasFields(scope) && scope.shape.filters.length > 0,
    describe: ({ shape }) =>
      `Add \`facets\`: for each of these value filters (comma-separated, at most ${QUERY_LIMITS.facets} of ${code(filterNames(shape))}), ` +
      `how many entries of the whole filtered set hold each value, in the target kind’s list order, values held by none left out.`,
    schema: ({ shape }) => stringList(QUERY_LIMITS.facets, filterNames(shape)),
    type: ({ shape }) => `OneOrMore<${union(filterNames(shape))}>`,
  },
};

const summary: QueryParam<string[] | null> = {
  name: 'summary',
  arity: 'repeatable',
  limit: QUERY_LIMITS.summaries,
  parse: (values, { shape }) => parseNameList('summary', values, rangeNames(shape), 'ranges', QUERY_LIMITS.summaries),
  link: listLink('summary'),
  contract: {
    documented: (scope) => hasFields(scope) && scope.shape.ranges.length > 0,
    describe: ({ shape }) =>
      `Add \`summary\`: for each of these ranges (comma-separated, at most ${QUERY_LIMITS.summaries} of ${code(rangeNames(shape))}), ` +
      `\`count\`, \`min\`, \`max\`, \`sum\` and \`avg\` over the whole filtered set; entries without a value are not counted.`,
    schema: ({ shape }) => stringList(QUERY_LIMITS.summaries, rangeNames(shape)),
    type: ({ shape }) => `OneOrMore<${union(rangeNames(shape))}>`,
  },
};

/**
 * What shapes a collection's answer rather than narrows it, read by a kind whose routing-table
 * entry declares queries, after the ones every collection reads.
 */
export const SHAPING_TABLE = { fields, sort, facets, summary } as const;

/** A value filter asked: per repeat, the keys it names (positions in its index's values, or HELD_BY_NONE) and the tokens given. */
export interface ValueAsk {
  filter: QueryFilter;
  groups: number[][];
  tokens: string[][];
}

/** A range asked: the intersection of its repeats. */
export interface RangeAsk {
  range: QueryRange;
  value: IntegerRange;
}

/** A value filter's key for a value that is valid but held by no entry: it matches nothing. */
export const HELD_BY_NONE = -1;
const YES_NO = new Set(['true', 'false', '1', '0']);
const NO_VALUES: Vocabulary = { lookup: () => undefined, accepts: '' };

/** One value filter's keys per repeat and the tokens given; null when absent (see edge/collection.ts's rules). */
async function parseValueFilter(filter: QueryFilter, raw: readonly string[], { build, kind }: ReadScope): Promise<Parsed<ValueAsk | null>> {
  // absent or only empty items (`type=`, `type=,,`): no index is read, but the caps still apply
  if (listItems(raw, false, 1).length === 0) {
    const empty = parseValues(filter.name, raw, NO_VALUES);
    return empty.ok ? ok(null) : empty;
  }
  const index = await build.filterIndex(kind);
  const own = index?.vocabulary(filter.name);
  // a declared filter the build wrote no index for: the build is broken, a fault of ours (a 500), as an unreadable file is
  if (own === undefined) throw new Error(`${kind}: no index for the filter ${filter.name}`);
  // the target kind's list is read only for a value the index does not hold
  const allHeld = listItems(raw, true, QUERY_LIMITS.listItems).every((token) => own.lookup(canonicalKey(token)) !== undefined);
  const target = filter.target === null || allHeld ? null : await build.listKeys(filter.target);
  const vocabulary: Vocabulary = {
    // made only for a 400 body
    get accepts() {
      return own.accepts;
    },
    lookup: (token) => own.lookup(canonicalKey(token)) ?? (heldByNone(canonicalKey(token), filter, target) ? HELD_BY_NONE : undefined),
  };
  const groups = parseValueGroups(filter.name, raw, vocabulary);
  if (!groups.ok) return groups;
  const tokens = raw.map((value) => [...new Set(listItems([value], true))]).filter((t) => t.length > 0);
  return ok(groups.value === null ? null : { filter, groups: groups.value, tokens });
}

/** A token no entry holds that is still a value of the filter: a name or id of its target kind, or yes/no. */
function heldByNone(token: string, filter: QueryFilter, target: NamedKeys | null): boolean {
  if (filter.target === null) return YES_NO.has(token);
  return target?.positionOf(token) !== undefined;
}

/** The entry shape of a kind's value filter (`type=fire,water`): one per declared filter. */
export function valueFilterParam(filter: QueryFilter): QueryParam<ValueAsk | null> {
  const { name: parameter, about, target } = filter;
  return {
    name: parameter,
    arity: 'repeatable',
    limit: QUERY_LIMITS.listItems,
    parse: (values, scope) => parseValueFilter(filter, values, scope),
    // each repeat stays a repeat: repeats are matched together, a repeat's items any of them
    link: ({ tokens }) => tokens.flatMap(listLink(parameter)),
    contract: {
      describe: ({ kind }) =>
        target === null
          ? `Only the ${kind} entries whose \`${parameter}\` is yes (\`true\` or \`1\`) or no (\`false\` or \`0\`).`
          : `Only the ${kind} entries whose \`${parameter}\` is any of these values, each ${about} by name or id, comma-separated ` +
            `(\`a,b\` means either). Given more than once, all of them: \`${parameter}=a,b&${parameter}=c\` is (a or b) and c ` +
            `(at most ${QUERY_LIMITS.repeats} times). A value that names no ${target} is a 400; one that no entry holds gives an empty list.`,
      schema: ({ valueComponent, ref }) => ({ type: 'array', maxItems: QUERY_LIMITS.listItems, items: { $ref: ref(valueComponent(target)) } }),
      type: ({ valueComponent }) => `OneOrMore<${valueComponent(target)}>`,
    },
  };
}

/** A range as links write it: one range, or two that share no number (an intersection left empty). */
function rangeTexts({ min, max }: IntegerRange): string[] {
  if (min !== null && max !== null && min > max) return [`${min}..`, `..${max}`];
  return [min !== null && min === max ? String(min) : `${min ?? ''}..${max ?? ''}`];
}

/** The entry shape of a kind's integer range (`speed=100..`): one per declared range. */
export function rangeParam(range: QueryRange): QueryParam<RangeAsk | null> {
  return {
    name: range.name,
    arity: 'repeatable',
    limit: QUERY_LIMITS.repeats,
    parse: (values) => {
      const value = parseRange(range.name, values);
      return !value.ok ? value : ok(value.value === null ? null : { range, value: value.value });
    },
    // repeats are written as their intersection
    link: ({ value }) => rangeTexts(value).map((text) => encoded(range.name, text)),
    contract: {
      describe: ({ kind }) =>
        `Only the ${kind} entries whose ${range.about} lies in this range: ${RANGE_FORMS}. Given more than once (at most ${QUERY_LIMITS.repeats} times), ` +
        `the intersection (\`100..&..110\`). Entries without a value match no range.`,
      schema: ({ rangeComponent, ref }) => ({ $ref: ref(rangeComponent) }),
      type: ({ rangeComponent }) => rangeComponent,
    },
  };
}

/** A collection's parameters: the fixed ones, then (for a kind that declares queries) the shaping ones, its value filters and its ranges. */
export interface CollectionTable {
  fixed: typeof COLLECTION_TABLE;
  shaping: typeof SHAPING_TABLE | null;
  filters: QueryParam<ValueAsk | null>[];
  ranges: QueryParam<RangeAsk | null>[];
}

/** A kind's table from its routing-table entry (undefined: a kind that declares no queries). */
export function collectionTable(shape: QueryShape | undefined): CollectionTable {
  if (shape === undefined) return PLAIN_TABLE;
  let table = tables.get(shape);
  if (!table)
    tables.set(
      shape,
      (table = { fixed: COLLECTION_TABLE, shaping: SHAPING_TABLE, filters: shape.filters.map(valueFilterParam), ranges: shape.ranges.map(rangeParam) }),
    );
  return table;
}

/** A kind that declares no queries reads the fixed parameters alone. */
const PLAIN_TABLE: CollectionTable = { fixed: COLLECTION_TABLE, shaping: null, filters: [], ranges: [] };
/**
 * Each routing table's shapes live as long as the build's files are served, and a shape's table
 * is the same for every request: made once per shape, not per request (and per `paramsReadAt`).
 */
const tables = new WeakMap<QueryShape, CollectionTable>();

/** Every entry of a collection's table, in order. */
export const collectionEntries = (table: CollectionTable): AnyParam[] => [
  ...Object.values(table.fixed),
  ...Object.values(table.shaping ?? {}),
  ...table.filters,
  ...table.ranges,
];

/** A collection's request, parsed: each fixed and shaping parameter's value (shaping ones null when not read), the filters and ranges asked. */
export type CollectionQuery = ValuesOf<typeof COLLECTION_TABLE> & ValuesOf<typeof SHAPING_TABLE> & { filters: ValueAsk[]; ranges: RangeAsk[] };

/** A value as `next`/`previous` carry it: its parts, each led by `&`; nothing when absent or a page position. */
export function linkParts<T>(param: QueryParam<T>, value: T): string {
  if (value === null || param.link === undefined) return '';
  return param
    .link(value as NonNullable<T>)
    .map((part) => `&${part}`)
    .join('');
}

/**
 * Whether a collection's request asks anything of the list but a page: a parameter that links
 * back (not the page's position) and is no qualifier, given. Nothing asked: the plain page.
 */
export function asksAnything(table: CollectionTable, query: CollectionQuery): boolean {
  const named = [...Object.entries(table.fixed), ...Object.entries(table.shaping ?? {})] as [keyof CollectionQuery, AnyParam][];
  return (
    query.filters.length > 0 || query.ranges.length > 0 || named.some(([key, param]) => param.link !== undefined && !param.qualifier && query[key] !== null)
  );
}

/** What `next`/`previous` carry of a table's parameters after offset and limit, in table order. */
export function tableLinkSuffix<T extends ParamTable>(table: T, values: Partial<ValuesOf<T>>): string {
  return Object.keys(table)
    .map((key) => linkParts(table[key]!, values[key] ?? null))
    .join('');
}

/** What a collection's `next`/`previous` carry after offset and limit: every parameter read, in table order. */
export function collectionLinkSuffix(table: CollectionTable, query: CollectionQuery): string {
  const { filters, ranges } = query;
  const asked = new Map<string, unknown>([
    ...filters.map((f): [string, unknown] => [f.filter.name, f]),
    ...ranges.map((r): [string, unknown] => [r.range.name, r]),
  ]);
  return (
    tableLinkSuffix(table.fixed, query) +
    (table.shaping === null ? '' : tableLinkSuffix(table.shaping, query)) +
    [...table.filters, ...table.ranges].map((param) => linkParts(param, asked.get(param.name) ?? null)).join('')
  );
}

const SEARCH_Q_ACCEPTS = 'a name or the start of one, in any language, e.g. pikachu, ピカチュウ or charzard';

/** The search's text, as given and folded (contract/query/fold.ts). */
export interface SearchText {
  text: string;
  folded: string;
}

const searchQ: QueryParam<SearchText> = {
  name: 'q',
  arity: 'single',
  limit: QUERY_LIMITS.valueLength,
  parse: (values) => {
    const text = values[0] ?? null;
    const folded = text === null ? '' : foldText(text);
    // missing, or folding to nothing: a search needs something to find
    if (text === null || folded === '') return { ok: false, error: { parameter: 'q', value: text ?? '', accepts: SEARCH_Q_ACCEPTS } };
    return ok({ text, folded });
  },
  link: ({ text }) => [encoded('q', text)],
  contract: {
    required: true,
    describe: () =>
      'The text to find, in any language the data carries; case, accents and kana or Latin width are ignored. One or two characters match the start of names only; from four, a typo or two is forgiven.',
    schema: () => ({ type: 'string', minLength: 1, maxLength: QUERY_LIMITS.valueLength }),
    examples: { typo: { summary: 'a name with a typo', value: 'charzard' }, japanese: { summary: 'a Japanese name', value: 'ピカチュウ' } },
    type: () => 'string',
  },
};

function kindVocabulary(kinds: readonly string[]): Vocabulary {
  const position = new Map(kinds.map((kind, i) => [kind, i]));
  return { lookup: (token) => position.get(token), accepts: `kind: a collection's name, or several separated by commas: ${kinds.join(', ')}` };
}

const searchKind: QueryParam<string[] | null> = {
  name: 'kind',
  arity: 'repeatable',
  limit: QUERY_LIMITS.listItems,
  parse: (values, { kinds }) => {
    const keys = parseValues('kind', values, kindVocabulary(kinds));
    return !keys.ok ? keys : ok(keys.value === null ? null : keys.value.map((k) => kinds[k]!));
  },
  link: listLink('kind'),
  contract: {
    describe: () => 'Only resources of these collections, comma-separated (`creature,move`). An unknown collection is a 400.',
    schema: ({ kinds }) => stringList(QUERY_LIMITS.listItems, [...kinds].sort()),
    type: () => 'OneOrMore<ResourceKind>',
  },
};

/** What `GET /v2/search/` reads, in the order Netlify-Vary names them; `limit` and `offset` are the collections' own. */
export const SEARCH_TABLE = {
  q: searchQ,
  kind: searchKind,
  limit: { ...limit, contract: { ...limit.contract, typeDoc: () => 'Page size, as on collections.' } },
  offset: { ...offset, contract: { ...offset.contract, typeDoc: () => 'Index of the first match, as on collections.' } },
  lang: {
    ...lang,
    // written where the search takes it, in its own words: not the collections' component
    contract: {
      schema: lang.contract.schema,
      type: lang.contract.type,
      describe: () =>
        'Only names in this language, by its name in `/language/` (`de`, `ja-hrkt`); the API’s own names are in none. An unknown language is a 400.',
    },
  },
} as const satisfies ParamTable;

/** The scope of a kind that declares nothing, for the search and the contract's shared parameters. */
export const scopeWithout = (kind: string, kinds: readonly string[]): KindScope => ({ kind, shape: NO_QUERIES, idOnly: false, below: [], kinds });
