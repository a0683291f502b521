/**
 * `fields=` on a collection's entries (issue 18, 24): which paths a kind takes, and the page's
 * entries made from the field columns the build writes (edge/query/fields.ts `FieldColumnFile`).
 *
 * A kind takes its declared fields, the paths below them its items' schema has (`below`), and,
 * below a declared field that links another kind (`links`), any path that kind takes: on
 * creature, `species.names` is creature-species' `names` for the creature's species. A linked
 * part is merged into the link's object, after its own keys, so `fields=species,species.names`
 * gives `{"species": {"name", "url", "names"}}`; a null link gives nothing. With `lang=`, every
 * `names` value (own or linked) keeps only the entries in that language.
 */
import type { BuildFiles } from './build-files.ts';
import { idOfUrl, queryShape, type QueryShape, type Routes } from './layout.ts';
import type { FullList, ListEntry } from './pagination.ts';
import { compileFields, nestFields, project, type Json } from './query/fields.ts';

type JsonObject = { [key: string]: Json };

/** The paths a kind takes below its declared fields: its items' own, then each link's. */
export function pathsBelow(routes: Pick<Routes, 'queries'>, shape: QueryShape): string[] {
  const own = shape.below ?? [];
  const linked = Object.entries(shape.links ?? {}).flatMap(([field, target]) => targetPaths(routes, target).map((path) => `${field}.${path}`));
  return [...own, ...linked.filter((path) => !own.includes(path))];
}

/** What a linked kind's entries take, without its own links (one step only). */
const targetPaths = (routes: Pick<Routes, 'queries'>, target: string): string[] => ownPaths(queryShape(routes, target));

/** A kind's declared fields and the paths below them its items' schema has. */
const ownPaths = (shape: QueryShape): string[] => [...shape.fields, ...(shape.below ?? [])];

export interface FieldsAsked {
  kind: string;
  shape: QueryShape;
  /** valid paths (parseFields with `pathsBelow`) */
  paths: string[];
  lang: string | null;
}

/** The page's entries (list positions `page`) with the asked fields. */
export async function entriesWithFields(build: BuildFiles, routes: Pick<Routes, 'queries'>, list: FullList, page: number[], asked: FieldsAsked): Promise<Json[]> {
  const { kind, shape, paths, lang } = asked;
  const own = ownPaths(shape);
  // a linked path reaches the link's own column too: it says where each link leads
  const items = await nestedItems(build, kind, shape.fields, page, paths, lang);
  for (const [field, target] of Object.entries(shape.links ?? {})) {
    const rest = paths.filter((p) => p.startsWith(`${field}.`) && !own.includes(p)).map((p) => p.slice(field.length + 1));
    if (rest.length > 0) await mergeLinked(build, kind, { field, target }, page, items, rest, lang);
  }
  const tree = compileFields(paths);
  return page.map((p, i) => {
    const entry: ListEntry = list.results[p]!;
    return { ...(entry as unknown as JsonObject), ...project(items[i], tree) };
  });
}

/**
 * Each position's item, as far as the asked paths reach: every declared field an asked path is
 * at or below, nested under its path from its column in declared order (the item's key order).
 * An undefined position (a link to nothing listed) gives `{}`.
 */
async function nestedItems(build: BuildFiles, kind: string, declared: readonly string[], positions: readonly (number | undefined)[], asked: readonly string[], lang: string | null): Promise<JsonObject[]> {
  const needed = declared.filter((field) => asked.some((path) => path === field || path.startsWith(field + '.')));
  const columns = await Promise.all(needed.map(async (field) => ({ path: field.split('.'), values: (await column(build, kind, field)).values, names: field.split('.').pop() === 'names' })));
  return positions.map((p) => {
    if (p === undefined) return {};
    const held = columns.filter((c) => p < c.values.length);
    return nestFields(held.map((c) => c.path), held.map((c) => (c.names && lang !== null ? onlyLanguage(c.values[p]!, lang) : c.values[p]!)));
  });
}

/** The linked kind's parts each item's link leads to, merged into the link's object. */
async function mergeLinked(build: BuildFiles, kind: string, link: { field: string; target: string }, page: readonly number[], items: JsonObject[], rest: readonly string[], lang: string | null): Promise<void> {
  const links = (await column(build, kind, link.field)).values;
  const targetKeys = await build.listKeys(link.target);
  const targetShape = queryShape((await build.routes()) ?? { queries: {} }, link.target);
  const positions = page.map((p) => {
    const url = (links[p] as { url?: unknown } | null | undefined)?.url;
    const id = typeof url === 'string' ? idOfUrl(url) : null;
    return id === null ? undefined : targetKeys?.positionOfId(id);
  });
  const linked = await nestedItems(build, link.target, targetShape.fields, positions, rest, lang);
  items.forEach((item, i) => {
    const own = item[link.field];
    if (positions[i] === undefined || typeof own !== 'object' || own === null || Array.isArray(own)) return;
    item[link.field] = { ...own, ...linked[i] };
  });
}

async function column(build: BuildFiles, kind: string, field: string) {
  const file = await build.fieldColumn(kind, field);
  // a declared field the build wrote no column for: the build is broken, a 404 like an unreadable file
  if (!file) throw new Error(`${kind}: no column for the field ${field}`);
  return file;
}

/** A `names` list with only the entries in `lang` (`{name, language: {name}}`); anything else as it is. */
export function onlyLanguage(value: Json, lang: string): Json {
  if (!Array.isArray(value)) return value;
  return value.filter((entry) => {
    const language = typeof entry === 'object' && entry !== null && !Array.isArray(entry) ? entry['language'] : undefined;
    return typeof language === 'object' && language !== null && !Array.isArray(language) && language['name'] === lang;
  });
}
