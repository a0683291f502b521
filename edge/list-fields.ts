/**
 * `fields=` on a collection's entries: which paths a kind takes, and the page's
 * entries made from the field columns the build writes (contract/field-column.ts).
 *
 * A kind takes its declared fields, the paths below them its items' schema has (`below`), and,
 * below a declared field that links another kind (`links`), any path that kind takes: on
 * creature, `species.names` is creature-species' `names` for the creature's species. A linked
 * part is merged into the link's object, after its own keys, so `fields=species,species.names`
 * gives `{"species": {"name", "url", "names"}}`; a null link gives nothing. With `lang=`, every
 * `names` value (own or linked) keeps only the entries in that language.
 */
import { readAhead, type CollectionFiles, type ListKeys } from './build-files.ts';
import { queryShape, type QueryShape, type Routes } from '../contract/layout.ts';
import type { ListEntry } from '../contract/pagination.ts';
import { isNamesField, onlyLanguage, type ColumnReader } from '../contract/field-column.ts';
import { compileFields, defineKey, nestField, ownPaths, project, type FieldTree, type PartObject } from '../contract/query/fields.ts';
import { NO_LINK } from '../contract/list-pack.ts';
import type { Parsed } from '../contract/query/parse.ts';
import { isText, type JsonPart } from '../contract/raw-json.ts';

export interface FieldsAsked {
  kind: string;
  shape: QueryShape;
  /** valid paths (parseFields with contract/query/fields.ts `fieldsBelow`) */
  paths: string[];
  lang: string | null;
}

/**
 * The page's entries (list positions `page`) with the asked fields. A field the answer takes
 * whole is the column's bytes, spliced into the answer as they are (contract/raw-json.ts);
 * only where a path below it is asked, or a link is followed, are the page's values parsed.
 */
export async function entriesWithFields(
  build: CollectionFiles,
  routes: Pick<Routes, 'queries'>,
  keys: ListKeys,
  page: number[],
  asked: FieldsAsked,
): Promise<JsonPart[]> {
  const { kind, shape, paths, lang } = asked;
  const followed = followedLinks(shape, paths).map((link) => ({ ...link, ids: linkIds(keys, kind, link.field) }));
  const items = await nestedItems(build, kind, shape.fields, page, {
    paths: ownPathsAsked(paths, followed),
    // a link's own value asked too is parsed, so the linked parts can be merged into it
    parsed: followed.map((link) => link.field),
    lang,
    links: new Map(followed.map((link) => [link.field, link.ids])),
  });
  for (const link of followed) await mergeLinked(build, link, page, items, lang);
  const tree = compileFields(paths);
  return page.map((p, i) => {
    const entry: ListEntry = keys.entry(p);
    return withParts(entry as unknown as PartObject, project(items[i], tree));
  });
}

/** Where each entry's link leads (the list pack's ids); a declared link the build packed none for is a broken build. */
function linkIds(keys: ListKeys, kind: string, field: string): Int32Array {
  const ids = keys.linkIds(field);
  if (ids === undefined) throw new Error(`${kind}: the list pack holds no link ${field}`);
  return ids;
}

/**
 * The asked paths the kind's own columns answer: all but those only a followed link's target
 * answers (`species.names`), whose link the list pack already holds (contract/list-pack.ts).
 */
function ownPathsAsked(paths: readonly string[], followed: readonly FollowedLink[]): string[] {
  const linked = new Set(followed.flatMap((link) => link.rest.map((rest) => `${link.field}.${rest}`)));
  return paths.filter((path) => !linked.has(path));
}

/** A link the asked paths go through, with the paths asked of its target kind. */
interface FollowedLink {
  field: string;
  target: string;
  rest: string[];
}

/** The links the asked paths go through. */
function followedLinks(shape: QueryShape, paths: readonly string[]): FollowedLink[] {
  const own = ownPaths(shape);
  return Object.entries(shape.links ?? {})
    .map(([field, target]) => ({
      field,
      target,
      rest: paths.filter((p) => p.startsWith(`${field}.`) && !own.includes(p)).map((p) => p.slice(field.length + 1)),
    }))
    .filter((link) => link.rest.length > 0);
}

/** The declared fields an asked path is at or below: the columns the entries are made from. */
const fieldsReached = (declared: readonly string[], paths: readonly string[]): string[] =>
  declared.filter((field) => paths.some((path) => path === field || path.startsWith(field + '.')));

/**
 * Starts reading every file `entriesWithFields` will wait on for these paths, without waiting:
 * a cold start then reads them side by side instead of one after another (each read is a fetch
 * at the edge). A failed read is left to the call that waits on it. Only a `names` column waits
 * for `lang` (it names the file, so it must be a language already checked; an invalid one reads
 * nothing): the others start now, where waiting for the language list put them 10-20 ms into a
 * fresh process's first answer.
 */
export function startFieldReads(
  build: CollectionFiles,
  routes: Pick<Routes, 'queries'>,
  asked: Omit<FieldsAsked, 'lang'>,
  lang: Promise<Parsed<string | null>>,
): void {
  const start = (kind: string, shape: QueryShape, paths: readonly string[], followed: readonly FollowedLink[]) => {
    for (const field of fieldsReached(shape.fields, ownPathsAsked(paths, followed))) {
      if (!isNamesField(field)) readAhead(build.fieldColumn(kind, field));
      else
        readAhead(
          lang.then((parsed) =>
            !parsed.ok ? null : inLanguage(field, parsed.value) ? build.languageColumn(kind, field, parsed.value) : build.fieldColumn(kind, field),
          ),
        );
    }
  };
  const followed = followedLinks(asked.shape, asked.paths);
  start(asked.kind, asked.shape, asked.paths, followed);
  for (const link of followed) {
    readAhead(build.listKeys(link.target));
    const shape = queryShape(routes, link.target);
    start(link.target, shape, link.rest, followedLinks(shape, link.rest));
  }
}

/** Whether a field's values are read from its column in `lang` (a `names` field, a language asked). */
const inLanguage = (field: string, lang: string | null): lang is string => lang !== null && isNamesField(field);

/**
 * What `nestedItems` makes: the asked paths, the declared fields to parse even when taken whole,
 * the language, and the links followed: a link field no asked path reads of its own is an empty
 * object where the link leads somewhere (null where it leads nowhere), for the linked parts.
 */
interface NestAsked {
  paths: readonly string[];
  parsed: readonly string[];
  lang: string | null;
  links?: ReadonlyMap<string, Int32Array>;
}

/**
 * Each position's item, as far as the asked paths reach: every declared field an asked path is
 * at or below, nested under its path from its column in declared order (the item's key order).
 * An undefined position (a link to nothing listed) gives `{}`.
 */
async function nestedItems(
  build: CollectionFiles,
  kind: string,
  declared: readonly string[],
  positions: readonly (number | undefined)[],
  asked: NestAsked,
): Promise<PartObject[]> {
  const { paths, parsed, lang, links } = asked;
  const tree = compileFields(paths);
  const reached = fieldsReached(declared, paths);
  const needed = declared.filter((field) => reached.includes(field) || links?.has(field));
  const columns = await Promise.all(
    needed.map(async (field) => ({
      path: field.split('.'),
      values: reached.includes(field)
        ? await columnValues(build, kind, field, takesWhole(tree, field) && !parsed.includes(field), lang)
        : linkBases(links!.get(field)!),
    })),
  );
  return positions.map((p) => {
    const item: PartObject = {};
    if (p === undefined) return item;
    // a position past a column's end (none in a sound build) leaves that field out
    for (const c of columns) if (p < c.values.count) nestField(item, c.path, c.values.at(p));
    return item;
  });
}

/** A link's value where no column is read: an object for the linked parts to go into, or null for no link. */
const linkBases = (ids: Int32Array): { count: number; at: (p: number) => JsonPart } => ({ count: ids.length, at: (p) => (ids[p] === NO_LINK ? null : {}) });

/** A column's entries as an answer takes them: bytes (`whole`) or parsed; a `names` field's in `lang` only. */
async function columnValues(
  build: CollectionFiles,
  kind: string,
  field: string,
  whole: boolean,
  lang: string | null,
): Promise<{ count: number; at: (p: number) => JsonPart }> {
  let values: ColumnReader | null = null;
  if (inLanguage(field, lang)) {
    values = await build.languageColumn(kind, field, lang);
    // no column in that language (no entry has a name in it): each value of the whole one, filtered
    if (values === null) {
      const all = await column(build, kind, field);
      return { count: all.count, at: (p) => onlyLanguage(all.value(p), lang) };
    }
  }
  values ??= await column(build, kind, field);
  return { count: values.count, at: whole ? (p) => values.raw(p) : (p) => values.value(p) };
}

/** Whether the tree takes the whole value at a field's path (the path, or one above it, asked). */
function takesWhole(tree: FieldTree, field: string): boolean {
  let node: FieldTree | true | undefined = tree;
  for (const key of field.split('.')) {
    node = node.get(key);
    if (node === undefined) return false;
    if (node === true) return true;
  }
  return false;
}

/** The linked kind's parts each item's link leads to (`rest`: the paths below the link), merged into the link's object. */
async function mergeLinked(
  build: CollectionFiles,
  link: FollowedLink & { ids: Int32Array },
  page: readonly number[],
  items: PartObject[],
  lang: string | null,
): Promise<void> {
  const targetKeys = await build.listKeys(link.target);
  const targetShape = queryShape((await build.routes()) ?? { queries: {} }, link.target);
  const positions = page.map((p) => (p >= link.ids.length || link.ids[p] === NO_LINK ? undefined : targetKeys?.positionOfId(link.ids[p]!)));
  const linked = await nestedItems(build, link.target, targetShape.fields, positions, { paths: link.rest, parsed: [], lang });
  items.forEach((item, i) => {
    const own = item[link.field];
    if (positions[i] === undefined || typeof own !== 'object' || own === null || Array.isArray(own) || isText(own)) return;
    item[link.field] = withParts(own, linked[i]!);
  });
}

async function column(build: CollectionFiles, kind: string, field: string): Promise<ColumnReader> {
  const file = await build.fieldColumn(kind, field);
  // a declared field the build wrote no column for: the build is broken, a 404 like an unreadable file
  if (!file) throw new Error(`${kind}: no column for the field ${field}`);
  return file;
}

/**
 * The list entry's keys, then the fields': a new object filled key by key, which V8 keeps as a
 * small fast object where a spread of two made a large dictionary one (a third of what an answer
 * allocated, and slower to write out).
 */
function withParts(entry: PartObject, parts: PartObject): PartObject {
  const out: PartObject = {};
  for (const key in entry) defineKey(out, key, entry[key]!);
  for (const key in parts) defineKey(out, key, parts[key]!);
  return out;
}
