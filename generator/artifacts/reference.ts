/**
 * The docs page's reference: one section per resource (its paths, a table of its fields, an
 * excerpt of a real response) and one per shared shape, all written from the contract's named
 * JSON Schemas (openapi.ts `buildContract`), the same ones the OpenAPI document and the `.d.ts`
 * carry, so the page says what the schemas say. Pure functions: the caller reads the files.
 */
import type { Routes } from '../../contract/layout.ts';
import { RESOURCE_SUMMARIES } from '../../schemas/output/summaries.ts';
import {
  AS_OF_NOT_FOUND,
  BAD_PARAMETER,
  ERROR_BODY,
  MATCHUPS,
  META,
  DOWNLOADS,
  NOT_FOUND,
  PAGINATED_LIST,
  ROOT_INDEX,
  SEARCH_PAGE,
  type Contract,
  type JsonSchema,
  type JsonValue,
} from './openapi.ts';

const REF_PREFIX = '#/components/schemas/';

export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A link the docs page's try box opens in place (site/docs.js reads `data-try`). */
export const tryLink = (path: string, text = path) => `<a data-try href="${escapeHtml(path)}">${escapeHtml(text)}</a>`;

/** The page fragment of a resource's reference (`#ref-creature`) and of a shape's (`#shape-NamedResource`). */
export const resourceAnchor = (kind: string) => `ref-${kind}`;
export const shapeAnchor = (component: string) => `shape-${component}`;

/** The named shapes a reference links to, gathered while it is written; resources' own components link to their section. */
class Shapes extends Set<string> {
  readonly resourceOf: ReadonlyMap<string, string>;
  /** every component, for the parts of an `allOf` that name one */
  readonly schemas: Readonly<Record<string, JsonSchema>>;
  constructor(resourceOf: ReadonlyMap<string, string>, schemas: Readonly<Record<string, JsonSchema>>) {
    super();
    this.resourceOf = resourceOf;
    this.schemas = schemas;
  }
}

const isSchema = (v: JsonValue | undefined): v is JsonSchema => typeof v === 'object' && v !== null && !Array.isArray(v);
const refName = (schema: JsonSchema) => (typeof schema.$ref === 'string' && schema.$ref.startsWith(REF_PREFIX) ? schema.$ref.slice(REF_PREFIX.length) : null);

/** Descriptions are written with `code` in backticks; everything else is text. */
export function describeHtml(text: string): string {
  return text
    .split('`')
    .map((part, i) => (i % 2 === 1 ? `<code>${escapeHtml(part)}</code>` : escapeHtml(part)))
    .join('');
}

interface Row {
  /** dotted path below the shape, e.g. `other.home.front_default` */
  name: string;
  type: string;
  nullable: boolean;
  description: string;
}

/** A type as HTML: named shapes are links to their section; `shapes` collects the names met. */
function typeHtml(schema: JsonSchema, shapes: Shapes): { html: string; nullable: boolean } {
  const ref = refName(schema);
  if (ref !== null) {
    const kind = shapes.resourceOf.get(ref);
    if (kind === undefined) shapes.add(ref);
    return { html: `<a href="#${kind === undefined ? shapeAnchor(ref) : resourceAnchor(kind)}">${escapeHtml(ref)}</a>`, nullable: false };
  }
  const variants = [...(Array.isArray(schema.anyOf) ? schema.anyOf : []), ...(Array.isArray(schema.oneOf) ? schema.oneOf : [])].filter(isSchema);
  if (variants.length) {
    const nullable = variants.some((v) => v.type === 'null');
    const rest = variants.filter((v) => v.type !== 'null').map((v) => typeHtml(v, shapes).html);
    return { html: rest.join(' or ') || 'null', nullable };
  }
  if ('const' in schema) return { html: `<code>${escapeHtml(JSON.stringify(schema.const))}</code>`, nullable: false };
  switch (schema.type) {
    case 'array': {
      const item = isSchema(schema.items) ? typeHtml(schema.items, shapes) : { html: 'any', nullable: false };
      return { html: `array of ${item.html}${item.nullable ? ' or null' : ''}`, nullable: false };
    }
    case 'string':
      return { html: schema.format === 'uri' ? 'string (URL)' : schema.format === 'date-time' ? 'string (date-time)' : 'string', nullable: false };
    case 'object': {
      const values = isSchema(schema.patternProperties) ? Object.values(schema.patternProperties).filter(isSchema) : [];
      if (values.length && !isSchema(schema.properties)) return { html: `object: any key → ${typeHtml(values[0]!, shapes).html}`, nullable: false };
      return { html: 'object', nullable: false };
    }
    case undefined:
      return { html: Array.isArray(schema.allOf) ? 'object' : 'any', nullable: false };
    default:
      // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a JSON Schema `type` is a name or a list of names
      return { html: escapeHtml(String(schema.type)), nullable: false };
  }
}

/**
 * The properties a schema shows as fields: its own, or those of the parts of an `allOf`, a named
 * part's too (a 400's body is the shared error body and its own fields), a later part's field
 * taking the place of an earlier one of the same name.
 */
function propertiesOf(schema: JsonSchema, schemas: Readonly<Record<string, JsonSchema>>): Record<string, JsonSchema> | null {
  if (isSchema(schema.properties)) return schema.properties as Record<string, JsonSchema>;
  if (!Array.isArray(schema.allOf)) return null;
  const merged: Record<string, JsonSchema> = {};
  for (const part of schema.allOf.filter(isSchema)) {
    const ref = refName(part);
    const own = ref === null ? part : schemas[ref];
    if (own && isSchema(own.properties)) Object.assign(merged, own.properties);
  }
  return Object.keys(merged).length ? merged : null;
}

/** Every field of a shape; an inline object's fields follow it with dotted names. */
function rows(schema: JsonSchema, shapes: Shapes, prefix = ''): Row[] {
  const out: Row[] = [];
  for (const [key, value] of Object.entries(propertiesOf(schema, shapes.schemas) ?? {})) {
    const name = prefix + key;
    const { html, nullable } = typeHtml(value, shapes);
    out.push({ name, type: html, nullable, description: typeof value.description === 'string' ? value.description : '' });
    if (refName(value) === null && propertiesOf(value, shapes.schemas)) out.push(...rows(value, shapes, `${name}.`));
  }
  return out;
}

function fieldsTable(component: string, schema: JsonSchema, shapes: Shapes): string {
  const list = rows(schema, shapes);
  if (!list.length) {
    const { html } = typeHtml(schema, shapes);
    return `<p>The whole body is ${html}.</p>`;
  }
  const body = list
    .map((r) => {
      const depth = r.name.split('.').length - 1;
      return (
        `<tr${depth ? ` class="nested"` : ''}><th scope="row"><code>${escapeHtml(r.name)}</code></th>` +
        `<td>${r.type}</td><td>${r.nullable ? 'yes' : 'no'}</td><td>${describeHtml(r.description)}</td></tr>`
      );
    })
    .join('');
  return (
    `<div class="table-scroll"><table class="fields"><caption>Fields of <code>${escapeHtml(component)}</code></caption>` +
    `<thead><tr><th scope="col">Field</th><th scope="col">Type</th><th scope="col">Nullable</th><th scope="col">Description</th></tr></thead>` +
    `<tbody>${body}</tbody></table></div>`
  );
}

const MAX_ITEMS = 2;
const MAX_KEYS = 8;

/**
 * A response cut down for reading: arrays keep their first two entries and objects below the
 * top their first eight fields, each cut marked with what was left out. JSON layout otherwise.
 */
export function excerpt(value: JsonValue, indent = ''): string {
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (!value.length) return '[]';
    const shown = value.slice(0, MAX_ITEMS).map((v) => inner + excerpt(v, inner));
    const more = value.length - shown.length;
    return `[\n${shown.join(',\n')}${more ? `,\n${inner}… ${more} more` : ''}\n${indent}]`;
  }
  if (isSchema(value)) {
    const keys = Object.keys(value);
    if (!keys.length) return '{}';
    const limit = indent === '' ? keys.length : MAX_KEYS;
    const shown = keys.slice(0, limit).map((k) => `${inner}${JSON.stringify(k)}: ${excerpt(value[k]!, inner)}`);
    const more = keys.length - shown.length;
    return `{\n${shown.join(',\n')}${more ? `,\n${inner}… ${more} more ${more === 1 ? 'field' : 'fields'}` : ''}\n${indent}}`;
  }
  return JSON.stringify(value);
}

/** What the reference needs to know about one resource's real example. */
export interface ReferenceExample {
  /** the request, e.g. `/v2/creature/bulbasaur` */
  path: string;
  /** the response as served */
  body: JsonValue;
  /** its size as served, in bytes */
  bytes: number;
}

export interface ReferenceInput {
  contract: Contract;
  routes: Routes;
  /** kinds in the order the page shows them */
  kinds: readonly string[];
  examples: Readonly<Record<string, ReferenceExample | undefined>>;
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;

function resourceSection(kind: string, input: ReferenceInput, shapes: Shapes): string {
  const { contract, routes } = input;
  const component = contract.items[kind]!;
  const schema = contract.schemas[component]!;
  const key = routes.idOnly.includes(kind) ? '{id}' : '{id or name}';
  const paths = [
    `<li><code>GET /v2/${escapeHtml(kind)}/</code>: a page of links to every ${escapeHtml(kind)} (<a href="#${shapeAnchor(PAGINATED_LIST)}">${PAGINATED_LIST}</a>)</li>`,
    `<li><code>GET /v2/${escapeHtml(kind)}/${key}</code>: one ${escapeHtml(kind)} (<code>${escapeHtml(component)}</code>, below)</li>`,
  ];
  for (const [sub, subComponent] of Object.entries(contract.subresources[kind] ?? {})) {
    shapes.add(subComponent);
    paths.push(
      `<li><code>GET /v2/${escapeHtml(kind)}/${key}/${escapeHtml(sub)}</code>: <a href="#${shapeAnchor(subComponent)}">${escapeHtml(subComponent)}</a></li>`,
    );
  }
  const example = input.examples[kind];
  const exampleHtml = example
    ? `<details class="example"><summary>Example: <code>${escapeHtml(example.path)}</code> (an excerpt)</summary>` +
      `<pre class="json" tabindex="0">${escapeHtml(excerpt(example.body))}</pre>` +
      `<p>Long lists show their first ${MAX_ITEMS} entries and nested objects their first ${MAX_KEYS} fields. ` +
      `The whole response (${kib(example.bytes)}): ${tryLink(example.path)}.</p></details>`
    : '';
  const id = resourceAnchor(kind);
  return (
    `<article id="${id}" class="card ref" aria-labelledby="${id}-title">` +
    `<h3 id="${id}-title"><code>${escapeHtml(kind)}</code></h3>` +
    `<p>${describeHtml(RESOURCE_SUMMARIES[kind] ?? (typeof schema.description === 'string' ? schema.description : ''))}</p>` +
    `<ul class="paths">${paths.join('')}</ul>` +
    fieldsTable(component, schema, shapes) +
    exampleHtml +
    `</article>`
  );
}

/** What the documents every collection shares are, for their sections. */
const SHARED_DOCUMENTS: Record<string, string> = {
  [ROOT_INDEX]: '`GET /v2/`: every collection’s URL by its name.',
  [META]: '`GET /v2/meta/`: what was built, from which data, and the bulk downloads.',
  [DOWNLOADS]: '`GET /v2/downloads/`: every download (the database, the archive, each collection’s file) with its size and SHA-256.',
  [PAGINATED_LIST]:
    '`GET /v2/{resource}/`: one page of a collection (`limit`, `offset`, `q`, `id`, `name`, its filters and ranges). With `fields=`, each entry also carries the fields asked.',
  [SEARCH_PAGE]: '`GET /v2/search/?q=`: a ranked page of matches from every collection (`kind`, `limit`, `offset`).',
  [ERROR_BODY]:
    'The body of every error but the 404’s `"Not Found"`: a `405`, `431`, `500` or `503`, and with fields of its own a `400` and a `404` that says what was not found.',
  [BAD_PARAMETER]: 'The body of a 400: a query parameter’s value was not understood; the error body, with what the parameter takes.',
  [NOT_FOUND]: 'The body of every 404: a JSON string.',
};

function shapeSection(component: string, schema: JsonSchema, shapes: Shapes): string {
  const id = shapeAnchor(component);
  const intro = SHARED_DOCUMENTS[component] ?? (typeof schema.description === 'string' ? schema.description : '');
  return (
    `<article id="${id}" class="card ref" aria-labelledby="${id}-title">` +
    `<h4 id="${id}-title"><code>${escapeHtml(component)}</code></h4>` +
    (intro ? `<p>${describeHtml(intro)}</p>` : '') +
    fieldsTable(component, schema, shapes) +
    `</article>`
  );
}

/** The answers as of a game the reference describes: each shown kind's as-of item, the matchups, the 404 body. */
const asOfDocuments = (contract: Contract, kinds: readonly string[]): string[] =>
  [...kinds.flatMap((kind) => contract.asOf[kind] ?? []), MATCHUPS, AS_OF_NOT_FOUND].filter((name) => name in contract.schemas);

/**
 * The reference as HTML: a resource index, a section per resource, then every named shape they
 * use (found while writing them, so a shape no resource reaches is not listed) and the shared
 * documents (root, meta, page, 404).
 */
export function referenceSection(input: ReferenceInput): string {
  const shapes = new Shapes(new Map(Object.entries(input.contract.items).map(([kind, name]) => [name, kind])), input.contract.schemas);
  const resources = input.kinds.map((kind) => resourceSection(kind, input, shapes));
  const resourceComponents = new Set(Object.values(input.contract.items));
  const shared = [ROOT_INDEX, META, PAGINATED_LIST, SEARCH_PAGE, ERROR_BODY, BAD_PARAMETER, NOT_FOUND];
  const asOf = asOfDocuments(input.contract, input.kinds);
  for (const name of [...shared, ...asOf]) shapes.add(name);
  // shapes reference further shapes: write until no new one turns up
  const written = new Map<string, string>();
  for (let pending = [...shapes]; pending.length; pending = [...shapes].filter((s) => !written.has(s))) {
    for (const name of pending) {
      const schema = input.contract.schemas[name];
      if (schema === undefined || resourceComponents.has(name)) {
        written.set(name, '');
        continue;
      }
      written.set(name, shapeSection(name, schema, shapes));
    }
  }
  const shapeNames = [...written.keys()].filter((n) => written.get(n) && !shared.includes(n) && !asOf.includes(n)).sort();
  const index = input.kinds.map((k) => `<li><a href="#${resourceAnchor(k)}">${escapeHtml(k)}</a></li>`).join('');
  const shapeIndex = shapeNames.map((n) => `<li><a href="#${shapeAnchor(n)}">${escapeHtml(n)}</a></li>`).join('');
  return (
    `<section id="reference" aria-labelledby="reference-title"><h2 id="reference-title">Reference</h2>` +
    `<p>Every field of every response, with its type, whether it can be <code>null</code>, and what it means. ` +
    `The build writes this from the same schemas that check each response, and that make the OpenAPI document and the TypeScript types, so it says what is served. ` +
    `A type in a link is a shape used in several places, described once below.</p>` +
    `<nav aria-label="Resources in the reference"><ul class="kinds">${index}</ul></nav>` +
    resources.join('') +
    `<h3 id="shared-documents">Documents every collection shares</h3>` +
    shared.map((n) => written.get(n) ?? '').join('') +
    (asOf.length ? `<h3 id="as-of-documents">Answers as of a game</h3>${asOf.map((n) => written.get(n) ?? '').join('')}` : '') +
    `<h3 id="shapes">Shared shapes</h3><nav aria-label="Shared shapes"><ul class="kinds">${shapeIndex}</ul></nav>` +
    shapeNames.map((n) => written.get(n)!).join('') +
    `</section>`
  );
}
