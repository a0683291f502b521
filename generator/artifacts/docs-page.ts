/**
 * The docs page at `/`: site/ copied into dist/, each file served at its own path with its type.
 * index.html is filled in at build time with what only the build knows (the resources, their
 * counts and an example of each, the base URL), so the page reads nothing but the API it tries.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { servedItem } from '../../contract/borrowed-field.ts';
import { coverageFile, idOfUrl, itemFile, listFile, type QueryShape, type Routes } from '../../contract/layout.ts';
import { COLLECTION_PARAMS } from '../../contract/query/params.ts';
import type { FullList } from '../../contract/pagination.ts';
import { resources as battle } from '../resources/battle/index.ts';
import { resources as creatures } from '../resources/creatures/index.ts';
import { resources as items } from '../resources/items/index.ts';
import { resources as moves } from '../resources/moves/index.ts';
import { resources as species } from '../resources/species/index.ts';
import { resources as world } from '../resources/world/index.ts';
import type { AnyResource } from '../resources/define.ts';
import type { Artifact, ArtifactContext, ArtifactMaker } from './artifact.ts';
import { asOfFieldsTable } from './as-of-page.ts';
import { changesSection } from './changes-page.ts';
import { databaseSection, siteLibraries } from './database-page.ts';
import type { CoverageMap } from '../../schemas/output/coverage.ts';
import { coverageSection } from './coverage-page.ts';
import { buildContract, type JsonValue } from './openapi.ts';
import { fromGraphqlSection } from './graphql-page.ts';
import { escapeHtml, referenceSection, resourceAnchor, tryLink, type ReferenceExample } from './reference.ts';

export const siteDir = fileURLToPath(new URL('../../site/', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

/** The resource groups as the resources are organised in the source, in reading order. */
const GROUPS: { title: string; resources: readonly AnyResource[] }[] = [
  { title: 'Creatures', resources: creatures },
  { title: 'Species and evolution', resources: species },
  { title: 'Moves and contests', resources: moves },
  { title: 'Battle', resources: battle },
  { title: 'Games and world', resources: world },
  { title: 'Items and berries', resources: items },
];

const number = (n: number) => n.toLocaleString('en-US');

/** What the page says about one kind, all from the build's own files. */
export interface KindSummary {
  kind: string;
  count: number;
  idOnly: boolean;
  /** the first entry's path, by name when it has one, e.g. `/v2/creature/bulbasaur` */
  example: string | null;
  subresources: string[];
  /** the first entry's id, for subresource examples */
  exampleId: string | null;
}

/** The id at the end of an item URL (`…/creature/1/` → `1`), as a file key; null for none or a negative one (`unknown`, -1), which is no example. */
const idOf = (url: string) => {
  const id = idOfUrl(url);
  return id === null || id < 0 ? null : String(id);
};

export function summarize(ctx: Pick<ArtifactContext, 'read' | 'routes' | 'meta'>, kind: string): KindSummary {
  const list = JSON.parse(ctx.read(listFile(kind)) ?? 'null') as FullList;
  const first = list.results[0];
  const idOnly = ctx.routes.idOnly.includes(kind);
  const exampleId = first ? idOf(first.url) : null;
  const key = first ? (!idOnly && first.name !== undefined ? first.name : exampleId) : null;
  return {
    kind,
    count: ctx.meta.counts[kind] ?? list.count,
    idOnly,
    example: key === null ? null : `/v2/${kind}/${key}`,
    subresources: ctx.routes.subresources[kind] ?? [],
    exampleId,
  };
}

function resourceRow(s: KindSummary): string {
  const examples = s.example === null ? [] : [tryLink(s.example, s.example.slice(`/v2/${s.kind}/`.length))];
  if (s.exampleId !== null) for (const sub of s.subresources) examples.push(tryLink(`/v2/${s.kind}/${s.exampleId}/${sub}`, `${s.exampleId}/${sub}`));
  const tag = s.idOnly ? '<span class="tag">id only</span>' : '';
  return (
    `<tr><th scope="row">${tryLink(`/v2/${s.kind}/`, `${s.kind}/`)}${tag}</th>` +
    `<td class="n">${number(s.count)}</td><td>${examples.join(', ') || '—'}</td>` +
    `<td><a class="ref-link" href="#${resourceAnchor(s.kind)}">fields</a></td></tr>`
  );
}

/** The kinds by the page's groups, in reading order; a kind no group names yet goes under "Other". */
function groupKinds(kinds: readonly string[]): { title: string; kinds: string[] }[] {
  const known = new Set(kinds);
  const placed = new Set<string>();
  const groups = GROUPS.map((g) => ({
    title: g.title,
    kinds: g.resources.map((r) => r.kind as string).filter((k) => known.has(k) && !placed.has(k) && placed.add(k)),
  }));
  const rest = kinds.filter((k) => !placed.has(k));
  if (rest.length) groups.push({ title: 'Other', kinds: rest });
  return groups;
}

export function resourceTables(summaries: readonly KindSummary[]): string {
  const byKind = new Map(summaries.map((s) => [s.kind, s]));
  const groups = groupKinds(summaries.map((s) => s.kind));
  const tables = groups
    .filter((g) => g.kinds.length)
    .map(
      (g) =>
        `<div class="card"><table><caption>${escapeHtml(g.title)}</caption>` +
        `<thead><tr><th scope="col">List</th><th scope="col" class="n">Items</th><th scope="col">Example</th><th scope="col">Reference</th></tr></thead>` +
        `<tbody>${g.kinds.map((k) => resourceRow(byKind.get(k)!)).join('')}</tbody></table></div>`,
    );
  return `<div class="groups">${tables.join('\n')}</div>`;
}

/** What a file served beside the API is, from its name, for the downloads list. */
function describeDownload(path: string): string {
  if (/openapi\.json$/.test(path)) return 'the OpenAPI 3.1 document of every path and response';
  if (/\.d\.ts$/.test(path)) return 'TypeScript types of every response';
  if (/\.(tar\.gz|tgz|zip)$/.test(path)) return 'every file of /v2 in one archive';
  if (/\.sqlite\.gz$/.test(path)) return 'the database gzip’d, for a whole download';
  return '';
}

const NDJSON = /\/([a-z0-9-]+)\.ndjson\.gz$/;

const fileLink = (route: string, text = route) =>
  /\.json$/.test(route) ? tryLink(route, text) : `<a href="${escapeHtml(route)}" download>${escapeHtml(text)}</a>`;

/** The downloads' card of the database: what it is, and where the page says more. */
const databaseCard = (route: string) =>
  `<div class="card"><h3>The database</h3><p>${fileLink(route)}: every collection as tables with foreign keys, names searchable in every language, and views; ` +
  `<a href="#database">its tables, and a box to query it here</a>.</p></div>`;

/** The database download, the one site route served by ranges; null when the build made none. */
const databaseRoute = (ctx: Pick<ArtifactContext, 'routes'>): string | null =>
  Object.keys(ctx.routes.site).find((route) => ctx.routes.site[route]?.ranges) ?? null;

/**
 * The files other makers serve (OpenAPI, types, bulk downloads), as far as they ran before this
 * one; this maker is registered last so that it sees them all. A collection's NDJSON file is
 * shown by its collection's name, in one compact list.
 */
export function downloadsSection(ctx: Pick<ArtifactContext, 'routes'>, own: ReadonlySet<string>): { nav: string; section: string } {
  const routes = Object.keys(ctx.routes.site)
    .filter((route) => !own.has(route))
    .sort();
  if (!routes.length) return { nav: '', section: '' };
  const perKind = routes.flatMap((r) => (NDJSON.exec(r) ? [{ route: r, kind: NDJSON.exec(r)![1]! }] : [])).sort((a, b) => (a.kind < b.kind ? -1 : 1));
  const database = databaseRoute(ctx);
  const single = routes
    .filter((r) => !NDJSON.test(r) && r !== database)
    .map((route) => {
      const what = describeDownload(route);
      return `<li>${fileLink(route)}${what ? `: ${escapeHtml(what)}` : ''}</li>`;
    });
  const parts = [];
  if (single.length) parts.push(`<div class="card"><h3>Documents and the whole API</h3><ul>${single.join('')}</ul></div>`);
  if (database) parts.push(databaseCard(database));
  if (perKind.length) {
    const links = perKind.map((d) => `<li>${fileLink(d.route, d.kind)}</li>`).join('');
    parts.push(
      `<div class="card"><h3>One file per collection</h3>` +
        `<p>Every item’s full response, one JSON document a line, gzip: <code>{resource}.ndjson.gz</code>.</p>` +
        `<ul class="kinds">${links}</ul></div>`,
    );
  }
  return {
    nav: '<li><a href="#downloads">Downloads</a></li>',
    section:
      `<section id="downloads" class="downloads" aria-labelledby="downloads-title"><h2 id="downloads-title">Downloads and documents</h2>` +
      `<div class="downloads-grid">${parts.join('')}</div></section>`,
  };
}

/** Fills `{{name}}` placeholders; one the page names but the build does not know is an error. */
export function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{([a-z_]+)\}\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`site/index.html names {{${name}}}, which the docs page maker does not fill`);
    return value;
  });
}

/** Each kind's example response as served: the first item of its list, by name when it has one. */
function referenceExamples(ctx: Pick<ArtifactContext, 'read' | 'routes' | 'meta'>, summaries: readonly KindSummary[]) {
  const out: Record<string, ReferenceExample> = {};
  for (const s of summaries) {
    if (s.example === null || s.exampleId === null) continue;
    const text = servedText(ctx.read, itemFile(s.kind, s.exampleId));
    if (text === null) throw new Error(`${itemFile(s.kind, s.exampleId)}, the first item of its list, was not written`);
    out[s.kind] = { path: s.example, body: JSON.parse(text) as JsonValue, bytes: Buffer.byteLength(text) };
  }
  return out;
}

/** A file of the build as served, with a field it borrows from another file spliced in (contract/borrowed-field.ts); null when there is none. */
function servedText(read: (rel: string) => string | null, rel: string): string | null {
  const text = read(rel);
  if (text === null) return null;
  const bytes = (path: string) => {
    const other = read(path);
    return other === null ? null : Buffer.from(other);
  };
  return Buffer.from(servedItem(Buffer.from(text), bytes)).toString('utf8');
}

/** an item of the build: a named kind's has its id and name */
type Item = { id?: number; name?: string; [key: string]: JsonValue | undefined };
const code = (text: string) => `<code>${escapeHtml(text)}</code>`;

/**
 * The confusions users of the upstream service report most, each with the request that answers
 * it. The figures in the text are read from the build's own files, so they are this data's; a
 * point whose example is missing from the data is left out rather than written without one.
 */
export function goodToKnow(readFile: ArtifactContext['read']): string {
  const read = (path: string) => {
    const text = readFile(path);
    return text === null ? null : (JSON.parse(text) as Item);
  };
  const points: string[] = [];
  const creatures = (read(listFile('creature'))?.results ?? []) as { name?: string; url: string }[];
  const first = creatures[0] ? read(itemFile('creature', idOf(creatures[0].url) ?? '')) : null;
  if (first && typeof first.height === 'number' && typeof first.weight === 'number') {
    const path = `/v2/creature/${String(first.name)}`;
    points.push(
      `<li><strong>Height is in decimetres, weight in hectograms.</strong> ${tryLink(path)} answers ` +
        `${code(`"height": ${first.height}`)} (${first.height / 10} m) and ${code(`"weight": ${first.weight}`)} (${first.weight / 10} kg): divide both by 10.</li>`,
    );
  }
  const deoxys = read(itemFile('creature-species', 'deoxys'));
  const variety = (deoxys?.varieties as { is_default: boolean; creature: { name: string } }[] | undefined)?.find((v) => v.is_default);
  if (variety && variety.creature.name !== 'deoxys') {
    points.push(
      `<li><strong>A species name is not always a creature name.</strong> ${tryLink('/v2/creature/deoxys')} is a 404: ` +
        `the species’ default variety is ${code(variety.creature.name)}. Ask the species, ${tryLink('/v2/creature-species/deoxys')}, ` +
        `and read ${code('varieties')}: the entry with ${code('"is_default": true')} links the creature.</li>`,
    );
  }
  const firstForm = creatures.findIndex((c) => (idOfUrl(c.url) ?? 0) >= 10001);
  if (firstForm > 0) {
    const path = `/v2/creature/?offset=${Math.max(0, firstForm - 2)}&limit=4`;
    points.push(
      `<li><strong>Ids are not contiguous.</strong> Varieties other than a species’ default (megas, regional forms) start at ` +
        `${code('10001')}, right after the last species number, and every collection may have gaps: ${tryLink(path)} shows the jump. ` +
        `Follow ${code('next')} (or ask for a large ${code('limit')}) instead of counting from 1 to ${code('count')}.</li>`,
    );
  }
  const species = (read(listFile('creature-species'))?.results ?? []) as { name?: string; url: string }[];
  for (const entry of species.slice(0, 50)) {
    const item = read(itemFile('creature-species', idOf(entry.url) ?? ''));
    const chainUrl = (item?.evolution_chain as { url?: string } | undefined)?.url;
    const chainId = chainUrl ? idOf(chainUrl) : null;
    if (!item || chainId === null || chainId === String(item.id)) continue;
    points.push(
      `<li><strong>An evolution chain’s id is not a species id.</strong> ${tryLink(`/v2/creature-species/${String(item.name)}`)} ` +
        `(species ${String(item.id)}) belongs to chain ${chainId}: read ${code('evolution_chain.url')} from the species, ` +
        `then ${tryLink(`/v2/evolution-chain/${chainId}`)}.</li>`,
    );
    break;
  }
  const firstSpecies = species[0] ? read(itemFile('creature-species', idOf(species[0].url) ?? '')) : null;
  const entries = (firstSpecies?.flavor_text_entries ?? []) as { flavor_text: string }[];
  const broken = entries.find((e) => /[\n\f]/.test(e.flavor_text));
  if (firstSpecies && broken) {
    points.push(
      `<li><strong>Flavor text keeps the games’ line and page breaks.</strong> In ${tryLink(`/v2/creature-species/${String(firstSpecies.name)}`)} ` +
        `an entry reads ${code(JSON.stringify(broken.flavor_text))}: ${code('\\n')} is a line break, ${code('\\f')} (form feed) a new page, ` +
        `and some texts hold U+00AD soft hyphens. Replace each with a space (and drop soft hyphens) before showing it as one paragraph.</li>`,
    );
  }
  if (!points.length) return '';
  return (
    `<section id="good-to-know" aria-labelledby="good-to-know-title"><h2 id="good-to-know-title">Good to know</h2>` +
    `<div class="card"><ul class="good">${points.join('')}</ul></div></section>`
  );
}

const listOf = (items: string[]) => (items.length ? items.join(', ') : '—');
/** The parameters every collection takes, as the page writes them. */
const sharedParams = COLLECTION_PARAMS.map(code).join(', ');

/** One row of the query table: what a collection takes besides the parameters all share. */
function queryRow(kind: string, queries: QueryShape): string {
  const filters = queries.filters.map(
    (f) => `${code(f.name)} (${escapeHtml(f.about)}${f.target === null ? '' : `: <a href="#${resourceAnchor(f.target)}">${escapeHtml(f.target)}</a>`})`,
  );
  const ranges = queries.ranges.map((r) => `${code(r.name)} (${escapeHtml(r.about)})`);
  return (
    `<tr><th scope="row">${tryLink(`/v2/${kind}/`, `${kind}/`)}</th>` +
    `<td>${listOf(filters)}</td><td>${listOf(ranges)}</td><td>${listOf([...queries.fields.map(code), ...linkedFields(queries)])}</td></tr>`
  );
}

/** A declared link's fields, as the page writes them: `species.…` (any field of a creature-species entry). */
const linkedFields = (queries: QueryShape): string[] =>
  Object.entries(queries.links ?? {}).map(
    ([field, target]) => `${code(`${field}.…`)} (any field of <a href="#${resourceAnchor(target)}">${escapeHtml(target)}</a>, e.g. ${code(`${field}.names`)})`,
  );

/** Each collection's filters, ranges and fields, from the routing table the request logic reads. */
export function queryParameters(routes: Pick<Routes, 'kinds' | 'queries'>, kinds: readonly string[]): string {
  const declared = kinds.filter((k) => {
    const q = routes.queries[k];
    return q !== undefined && q.filters.length + q.ranges.length + q.fields.length > 0;
  });
  if (!declared.length) {
    return `<p class="card">No collection of this build declares filters, ranges or fields: each takes ${sharedParams}.</p>`;
  }
  return (
    `<div class="card table-scroll"><table class="fields queries" id="query-parameters">` +
    `<caption>What each collection takes besides ${sharedParams}; a filter’s values are the entries of the collection it links to. ` +
    `Commas mean any (${code('type=grass,fire')}); a filter given twice means both (${code('type=grass&type=poison')}), a range given twice the intersection. ` +
    `${code('sort')} takes ${code('id')}, ${code('name')} and the ranges (${code('-')} for descending), ${code('facets')} the filters, ${code('summary')} the ranges.</caption>` +
    `<thead><tr><th scope="col">Collection</th><th scope="col">Filters</th><th scope="col">Ranges</th><th scope="col">Fields</th></tr></thead>` +
    `<tbody>${declared.map((k) => queryRow(k, routes.queries[k]!)).join('')}</tbody></table></div>`
  );
}

/** site/ file name → the route it answers at (index.html at `/`). */
const routeOf = (file: string) => (file === 'index.html' ? '/' : `/${file}`);

export const docsPage: ArtifactMaker = {
  name: 'docs page',
  make(ctx) {
    const sources = new Map(
      readdirSync(siteDir)
        .filter((f) => statSync(join(siteDir, f)).isFile())
        .sort()
        .map((f) => [f, join(siteDir, f)]),
    );
    if (!sources.has('index.html')) throw new Error(`${siteDir} has no index.html`);
    for (const library of siteLibraries()) sources.set(library.path, library.from);
    const own = new Set([...sources.keys()].map(routeOf));
    const downloads = downloadsSection(ctx, own);
    const databaseAt = databaseRoute(ctx);
    const database = databaseAt ? databaseSection(databaseAt) : { nav: '', section: '' };
    const coverage = coverageSection(JSON.parse(ctx.read(coverageFile) ?? 'null') as CoverageMap | null);
    const summaries = ctx.routes.kinds.map((k) => summarize(ctx, k));
    const pageOrder = groupKinds(ctx.routes.kinds).flatMap((g) => g.kinds);
    const contract = buildContract(ctx.resources, ctx.routes);
    const reference = referenceSection({
      contract,
      routes: ctx.routes,
      kinds: pageOrder,
      examples: referenceExamples(ctx, summaries),
    });
    const values: Record<string, string> = {
      base_url: escapeHtml(ctx.baseUrl),
      version: escapeHtml(ctx.meta.version),
      upstream_commit: escapeHtml(ctx.meta.upstream_commit),
      kind_count: String(ctx.routes.kinds.length),
      id_only: ctx.routes.idOnly.map((k) => `<code>${escapeHtml(k)}</code>`).join(', ') || 'none',
      resources: resourceTables(summaries),
      good_to_know: goodToKnow(ctx.read),
      query_parameters: queryParameters(ctx.routes, pageOrder),
      as_of_fields: asOfFieldsTable(contract, pageOrder),
      from_graphql: fromGraphqlSection(),
      reference,
      changes: changesSection(ctx.read),
      coverage_nav: coverage.nav,
      coverage: coverage.section,
      downloads_nav: downloads.nav,
      downloads: downloads.section,
      database_nav: database.nav,
      database: database.section,
    };
    return [...sources].map(([file, from]): Artifact => {
      const type = TYPES[extname(file)];
      if (type === undefined) throw new Error(`site/${file}: no content type known for ${extname(file) || 'a file without extension'}`);
      const source = readFileSync(from);
      const body = file === 'index.html' ? fillTemplate(source.toString('utf8'), values) : new Uint8Array(source);
      return { path: file, body, route: routeOf(file), contentType: type };
    });
  },
};
