/**
 * The query indexes a build writes, read from the data cut's build (made once by the
 * global setup; read only): each file decodes with the request side's own loaders, its positions
 * are the list's, known facts hold (bulbasaur is grass and poison, of generation I; tackle is
 * physical; pichu's species is a baby), every translated species name is in the species search
 * index, and every field column and range holds exactly what the items hold. What the routing
 * table declares is checked against the items and the index files, not against the declaration
 * that wrote it. Also the build-time check of declared fields, on invented items. And the packed
 * all-kinds search index of the full test build: the kinds' files packed in the routing table's
 * order, answering as they do.
 */
import fc from 'fast-check';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import {
  fieldColumnFile,
  filterIndexFile,
  idOfUrl,
  itemFile,
  linkOf,
  listFile,
  listPackFile,
  routesFile,
  searchIndexFile,
  searchPackFile,
  type QueryShape,
  type Routes,
} from '../contract/layout.ts';
import type { FullList } from '../contract/pagination.ts';
import { decodeFilterPack, type FilterIndexFile, unpackFilterIndex } from '../contract/filter-pack.ts';
import { FilterIndex } from '../edge/query/filter.ts';
import { FieldColumn, isNamesField } from '../contract/field-column.ts';
import { decodeListPack, NO_LINK } from '../contract/list-pack.ts';
import { jsonBytes } from '../contract/raw-json.ts';
import { ListKeys } from '../edge/build-files.ts';
import { foldText } from '../contract/query/fold.ts';
import { packSearchFiles, SearchColumns, type SearchIndexFile } from '../contract/search-index.ts';
import { decodeSearchPack, encodeSearchPack } from '../contract/search-pack.ts';
import { SearchIndex } from '../edge/query/search.ts';
import { createContext } from '../generator/resources/context.ts';
import { KindQuery } from '../generator/indexes/query-facts.ts';
import { allKinds } from '../generator/model/kinds.ts';
import type { FieldPath } from '../generator/resources/query.ts';

/** the cut's build: every kind, each with at least one item, built as the full data set is */
const out = inject('cutDistDir');

const read = <T>(rel: string): T => JSON.parse(readFileSync(join(out, rel), 'utf8')) as T;
const routes = read<Routes>(routesFile);
const shapeOf = (kind: string): QueryShape => routes.queries[kind]!;
/** A kind's filter index as the build wrote it, decoded with the request side's loader; `readFilterFile` is it in the build's form. */
const packedFilters = (kind: string) => decodeFilterPack(readFileSync(join(out, filterIndexFile(kind))));
const readFilterFile = (kind: string): FilterIndexFile => unpackFilterIndex(packedFilters(kind));
const lists = new Map<string, FullList>();
const list = (kind: string): FullList => {
  let kindList = lists.get(kind);
  if (!kindList) lists.set(kind, (kindList = read<FullList>(listFile(kind))));
  return kindList;
};
const idOf = (url: string) => Number(/\/(-?\d+)\/$/.exec(url)![1]);
type Doc = Record<string, unknown>;
const items = new Map<string, Doc[]>();
/** The kind's listed items, in list order, as the build wrote them. */
const listedItems = (kind: string): Doc[] => {
  let docs = items.get(kind);
  if (!docs) items.set(kind, (docs = list(kind).results.map((entry) => read<Doc>(itemFile(kind, idOf(entry.url))))));
  return docs;
};
const filters = (kind: string) => new FilterIndex(packedFilters(kind));
const positionOf = (kind: string, name: string) => {
  const position = list(kind).results.findIndex((entry) => entry.name === name);
  expect(position, `${kind} ${name} is in the cut`).toBeGreaterThanOrEqual(0);
  return position;
};

/** The list positions holding one value of a value filter. */
function holders(kind: string, filter: string, value: string): number[] {
  const index = filters(kind);
  const key = index.vocabulary(filter)?.lookup(value);
  expect(key, `${kind} ${filter}=${value}`).toBeDefined();
  return index.select({ values: [{ filter, keys: [key!] }] });
}

/** The value at a dotted path through objects. */
const valueAt = (doc: unknown, path: string): unknown => path.split('.').reduce<unknown>((at, key) => (at as Doc)[key], doc);
const decoder = new TextDecoder();
const columnOf = (kind: string, field: string, lang: string | null = null) => new FieldColumn(readFileSync(join(out, fieldColumnFile(kind, field, lang))));

/** A names field's column per language: one for each language its lists use, each list in that language only. */
function expectLanguageColumns(kind: string, field: string, docs: readonly Doc[]): void {
  type Name = { language: { name: string } };
  const languages = [...new Set(docs.flatMap((doc) => (valueAt(doc, field) as Name[]).map((n) => n.language.name)))].sort();
  const files = readdirSync(join(out, fieldColumnFile(kind, field, 'x'), '..')).filter((name) => name.startsWith(`${field}~`));
  expect(files.sort(), `${kind} ${field}`).toEqual(languages.map((lang) => `${field}~${lang}.jsonl`).sort());
  for (const lang of languages) {
    const column = columnOf(kind, field, lang);
    const unequal = docs.filter(
      (doc, p) => decoder.decode(jsonBytes(column.raw(p))) !== JSON.stringify((valueAt(doc, field) as Name[]).filter((n) => n.language.name === lang)),
    );
    expect(unequal.map((doc) => `${kind} ${String(doc.id)} ${field} ${lang}`)).toEqual([]);
  }
}

/** A dotted path's keys as places in the item's own key order, level by level (`[3, 0]`: the 4th key, then its 1st). */
const keyPlaces = (doc: unknown, path: string): number[] => {
  let at = doc;
  return path.split('.').map((key) => {
    const place = Object.keys(at ?? {}).indexOf(key);
    at = (at as Doc | null)?.[key];
    return place;
  });
};
/** Whether `a` comes before `b`, comparing place by place (a path comes before the paths below it). */
const before = (a: readonly number[], b: readonly number[]): boolean => {
  const differ = a.findIndex((place, level) => place !== b[level]);
  return differ < 0 ? a.length < b.length : differ < b.length && a[differ]! < b[differ]!;
};

/** What the items say against what the routing table declares of a kind; each problem as a line. */
function declarationProblems(kind: string): string[] {
  const shape = shapeOf(kind);
  const problems: string[] = [];
  for (const filter of shape.filters) problems.push(...filterValueProblems(filter.from ?? kind, filter.name, filter.target));
  for (const doc of listedItems(kind)) {
    const places = shape.fields.map((field) => keyPlaces(doc, field));
    shape.fields.forEach((field, i) => {
      if (places[i]!.includes(-1)) problems.push(`${kind} ${String(doc.id)}: field ${field} is not in the item`);
      else if (i > 0 && !before(places[i - 1]!, places[i]!)) problems.push(`${kind} ${String(doc.id)}: field ${field} is out of the item's key order`);
    });
    for (const [field, target] of Object.entries(shape.links ?? {})) {
      const link = valueAt(doc, field) as { url: string } | null;
      if (link !== null && linkOf(link.url)?.kind !== target) problems.push(`${kind} ${String(doc.id)}: ${field} links ${link.url}, not a ${target}`);
    }
  }
  for (const path of shape.below ?? []) {
    if (!shape.fields.some((field) => path.startsWith(`${field}.`))) problems.push(`${kind}: ${path} is below no declared field`);
  }
  return problems;
}

/** A filter's values in its index: with a target, each an item of that kind by name and id; without, yes/no. */
function filterValueProblems(kind: string, filter: string, target: string | null): string[] {
  const rows = readFilterFile(kind).values[filter]!.values;
  if (target === null) {
    const yesNo = new Map([
      ['false', 0],
      ['true', 1],
    ]);
    return rows.filter(([name, id]) => yesNo.get(name) !== id).map(([name]) => `${kind} ${filter}: ${name} is not yes or no`);
  }
  return rows
    .filter(([name, id]) => id === null || !existsSync(join(out, itemFile(target, id))) || read<Doc>(itemFile(target, id)).name !== name)
    .map(([name, id]) => `${kind} ${filter}: ${name} (${String(id)}) is no ${target}`);
}

describe('the query index files of a build', () => {
  it('are written for every kind built, each as the routing table declares it', () => {
    expect(Object.keys(routes.queries)).toEqual(routes.kinds);
    expect([...routes.kinds].sort()).toEqual(allKinds.map((k) => k.kind).sort());
    for (const kind of routes.kinds) {
      const declared = shapeOf(kind);
      const file = readFilterFile(kind);
      // a filter read from another kind's index is in that one's file, not in this one's
      const own = declared.filters.filter((f) => f.from === undefined);
      expect(Object.keys(file.values), kind).toEqual(own.map((f) => f.name));
      expect(Object.keys(file.ranges), kind).toEqual(declared.ranges.map((r) => r.name));
      for (const filter of declared.filters) {
        const values = readFilterFile(filter.from ?? kind).values[filter.name];
        expect(values?.target, `${kind} ${filter.name}`).toBe(filter.target ?? undefined);
      }
      const wholeColumns = readdirSync(join(out, fieldColumnFile(kind, 'id'), '..')).filter((name) => !name.includes('~'));
      expect(wholeColumns.sort()).toEqual(declared.fields.map((f) => `${f}.jsonl`).sort());
    }
  });

  it('declare what the items bear out: filter values are items of the target kind, fields in the item’s key order, links into the linked kind', () => {
    expect(routes.kinds.flatMap(declarationProblems)).toEqual([]);
    // a filter read from another kind's index: the two lists hold the same ids in the same order
    const ids = (kind: string) => (JSON.parse(readFileSync(join(out, listFile(kind)), 'utf8')) as FullList).results.map((e) => e.url);
    const borrowed = routes.kinds.flatMap((kind) => shapeOf(kind).filters.flatMap((f) => (f.from ? [[kind, f.from] as const] : [])));
    expect(borrowed).toContainEqual(['entry', 'creature']);
    for (const [kind, from] of borrowed) expect(ids(kind).map((url) => idOfUrl(url))).toEqual(ids(from).map((url) => idOfUrl(url)));
    // what is checked is there to check: targets, yes/no filters, nested fields and links
    const shapes = routes.kinds.map(shapeOf);
    expect(shapes.flatMap((s) => s.filters).filter((f) => f.target === null).length).toBeGreaterThan(0);
    expect(shapes.flatMap((s) => s.fields).filter((f) => f.includes('.')).length).toBeGreaterThan(0);
    expect(shapes.filter((s) => Object.keys(s.links ?? {}).length > 0).length).toBeGreaterThan(0);
  });

  it('count and position every listed item in list order: values, ranges, search ids and field columns', () => {
    for (const kind of routes.kinds) {
      const { count, results } = list(kind);
      const file = readFilterFile(kind);
      const index = new FilterIndex(packedFilters(kind));
      expect(file.count, kind).toBe(count);
      for (const [name, { values }] of Object.entries(file.values)) {
        for (const [value, , gaps] of values) {
          let position = -1;
          const positions = gaps.map((gap) => (position += gap + 1));
          expect(
            positions.every((p) => p < count),
            `${kind} ${name}=${value}`,
          ).toBe(true);
          expect(index.select({ values: [{ filter: name, keys: [values.findIndex((v) => v[0] === value)] }] })).toEqual(positions);
        }
      }
      for (const column of Object.values(file.ranges)) expect(column.length).toBe(count);
      for (const field of shapeOf(kind).fields) expect(columnOf(kind, field).count).toBe(count);
      if (routes.idOnly.includes(kind)) continue;
      const search = read<SearchIndexFile>(searchIndexFile(kind));
      expect(search.format).toBe('search-index/2');
      expect(search.kinds.map((k) => k.kind)).toEqual([kind]);
      expect(search.kinds[0]!.ids, kind).toEqual(results.map((entry) => idOf(entry.url)));
      const columns = new SearchColumns(packSearchFiles([search]));
      expect(Array.from({ length: columns.resourceCount }, (_, r) => columns.resourceName(r))).toEqual(results.map((e) => e.name));
    }
    // the type list holds the 18 battle types of 21 (the cut keeps the types table whole): the indexes too
    expect(readFilterFile('type').count).toBe(18);
  });

  it('has no search index for a kind without names', () => {
    expect(routes.idOnly).toContain('evolution-chain');
    for (const kind of routes.idOnly) expect(existsSync(join(out, searchIndexFile(kind))), kind).toBe(false);
  });

  it('knows what the items say: bulbasaur is grass and poison of generation I, tackle is physical, pichu is a baby', () => {
    const bulbasaur = positionOf('creature', 'bulbasaur');
    for (const [filter, value] of [
      ['type', 'grass'],
      ['type', 'poison'],
      ['type', '12'],
      ['generation', 'generation-i'],
      ['generation', '1'],
      ['egg_group', 'monster'],
      ['is_default', 'true'],
    ]) {
      expect(holders('creature', filter!, value!), `${filter}=${value}`).toContain(bulbasaur);
    }
    expect(holders('creature', 'type', 'fire')).not.toContain(bulbasaur);
    expect(holders('move', 'damage_class', 'physical')).toContain(positionOf('move', 'tackle'));
    expect(holders('move', 'damage_class', 'special')).not.toContain(positionOf('move', 'tackle'));
    // a yes/no filter's true side (the cut keeps no legendary species: babies, of the kept chains, show it)
    expect(holders('creature-species', 'is_baby', 'true')).toContain(positionOf('creature-species', 'pichu'));
    expect(holders('creature-species', 'is_baby', '1')).not.toContain(positionOf('creature-species', 'pikachu'));
    expect(holders('creature', 'is_baby', 'true')).toContain(positionOf('creature', 'pichu'));
    expect(holders('creature-species', 'is_baby', 'true').map((p) => list('creature-species').results[p]!.name)).toEqual(
      listedItems('creature-species')
        .filter((s) => s.is_baby === true)
        .map((s) => s.name),
    );
    // a three-filter query and a range, as the request side asks them
    const index = filters('creature');
    const key = (filter: string, value: string) => index.vocabulary(filter)!.lookup(value)!;
    const fastFire = index.select({
      values: [
        { filter: 'type', keys: [key('type', 'fire')] },
        { filter: 'generation', keys: [key('generation', 'generation-i')] },
      ],
      ranges: [{ filter: 'speed', range: { min: 100, max: null } }],
    });
    // the oracle, from the items: generation I's species are 1 to 151
    const expected = listedItems('creature').filter(
      (c) =>
        (c.types as Array<{ type: { name: string } }>).some((t) => t.type.name === 'fire') &&
        idOf((c.species as { url: string }).url) <= 151 &&
        (c.stats as Array<{ base_stat: number; stat: { name: string } }>).find((s) => s.stat.name === 'speed')!.base_stat >= 100,
    );
    expect(fastFire.map((p) => list('creature').results[p]!.name)).toEqual(expected.map((c) => c.name));
    expect(expected.map((c) => c.name)).toEqual(expect.arrayContaining(['charizard', 'charizard-mega-x']));
    // charmeleon is fire and of generation I too: the speed range is what leaves it out
    expect(holders('creature', 'type', 'fire')).toContain(positionOf('creature', 'charmeleon'));
    expect(fastFire).not.toContain(positionOf('creature', 'charmeleon'));
  });

  it('holds every translated name of every species in the species search index, and creatures are found by their species’ names', () => {
    const columns = new SearchColumns(packSearchFiles([read<SearchIndexFile>(searchIndexFile('creature-species'))]));
    const namesOf = (columns: SearchColumns, resource: number) => {
      const folded = new Set<string>();
      for (let entry = 0; entry < columns.entryCount; entry++) if (columns.entryResource[entry] === resource) folded.add(columns.foldedName(entry));
      return folded;
    };
    const missing: string[] = [];
    listedItems('creature-species').forEach((species, resource) => {
      const held = namesOf(columns, resource);
      for (const { name } of species.names as Array<{ name: string }>)
        if (foldText(name) !== '' && !held.has(foldText(name))) missing.push(`${String(species.name)}: ${name}`);
    });
    expect(missing).toEqual([]);
    const creatures = new SearchColumns(packSearchFiles([read<SearchIndexFile>(searchIndexFile('creature'))]));
    expect([...namesOf(creatures, positionOf('creature', 'pikachu'))]).toEqual(expect.arrayContaining(['pikachu', 'ピカチュウ', '皮卡丘']));
    // a form's full name (Mega Charizard X) finds its creature
    expect([...namesOf(creatures, positionOf('creature', 'charizard-mega-x'))]).toEqual(expect.arrayContaining(['charizard', 'mega charizard x']));
  });

  it('packs each kind’s list as it is, and each link’s target id as the items hold it', () => {
    const baseUrl = new URL(list('creature').results[0]!.url).origin + '/v2';
    for (const kind of routes.kinds) {
      const keys = new ListKeys(decodeListPack(readFileSync(join(out, listPackFile(kind)))), baseUrl);
      expect(
        Array.from({ length: keys.count }, (_, p) => keys.entry(p)),
        kind,
      ).toEqual(list(kind).results);
      for (const field of Object.keys(shapeOf(kind).links ?? {})) {
        const linked = listedItems(kind).map((doc) => valueAt(doc, field) as { url: string } | null);
        expect([...keys.linkIds(field)!], `${kind} ${field}`).toEqual(linked.map((link) => (link === null ? NO_LINK : idOf(link.url))));
      }
    }
  });

  it('holds in each field column and range exactly what the items hold', () => {
    for (const kind of routes.kinds) {
      const docs = listedItems(kind);
      for (const field of shapeOf(kind).fields) {
        const column = columnOf(kind, field);
        expect([column.header.format, column.header.kind, column.header.field]).toEqual(['field-column/3', kind, field]);
        // each entry's bytes are the item's value's own JSON text
        const unequal = docs.filter((doc, p) => decoder.decode(jsonBytes(column.raw(p))) !== JSON.stringify(valueAt(doc, field)));
        expect(unequal.map((doc) => `${kind} ${String(doc.id)} ${field}`)).toEqual([]);
        if (isNamesField(field)) expectLanguageColumns(kind, field, docs);
      }
    }
    const stat = (doc: Doc, name: string) => (doc.stats as Array<{ base_stat: number; stat: { name: string } }>).find((s) => s.stat.name === name)!.base_stat;
    const creatureRanges = readFilterFile('creature').ranges;
    for (const name of ['hp', 'attack', 'defense', 'special-attack', 'special-defense', 'speed']) {
      expect(creatureRanges[name], name).toEqual(listedItems('creature').map((doc) => stat(doc, name)));
    }
    const moveRanges = readFilterFile('move').ranges;
    for (const name of ['power', 'accuracy', 'pp', 'priority']) expect(moveRanges[name], name).toEqual(listedItems('move').map((doc) => doc[name]));
  });
});

describe('the packed search index of a full build', () => {
  // the full build the test run made (test/support/global-setup.ts): every kind, the real names
  const full = inject('distDir');
  const readFull = <T>(rel: string): T => JSON.parse(readFileSync(join(full, rel), 'utf8')) as T;
  const routes = readFull<Routes>(routesFile);
  // the search is over the upstream's kinds: a kind of this API's own (the entry) is searched by its list's `q` only
  const named = routes.kinds.filter((kind) => !routes.idOnly.includes(kind) && !routes.own?.includes(kind));
  const kindFiles = named.flatMap((kind) => {
    try {
      return [readFull<SearchIndexFile>(searchIndexFile(kind))];
    } catch {
      return [];
    }
  });
  const packed = new SearchIndex(decodeSearchPack(readFileSync(join(full, searchPackFile))));
  const fromFiles = SearchIndex.fromFiles(...kindFiles);

  it('holds every named kind’s search file, packed in the routing table’s order', () => {
    expect(kindFiles.length).toBeGreaterThan(40);
    expect(packed.kinds).toEqual(kindFiles.map((file) => file.kinds[0]!.kind));
    expect(packed.kinds).toEqual(named.filter((kind) => packed.kinds.includes(kind)));
    expect([packed.resourceCount, packed.entryCount]).toEqual([fromFiles.resourceCount, fromFiles.entryCount]);
    // the bytes the writer wrote are the kinds' files packed and encoded, nothing else
    expect(readFileSync(join(full, searchPackFile)).equals(encodeSearchPack(packSearchFiles(kindFiles)))).toBe(true);
  });

  it('answers hundreds of real queries, typos and kind= included, hit for hit as the kinds’ own files', () => {
    const columns = new SearchColumns(packSearchFiles(kindFiles));
    const queries = new Set<string>(['charzard', 'pikachu', 'ピカチュウ', 'pi', 'a', 'mega', 'potion', 'ember', 'thunder', 'route']);
    // names through the whole index: each as it is, its start, and three typos of it
    for (let entry = 0; entry < columns.entryCount; entry += 397) {
      const name = columns.foldedName(entry);
      queries.add(name).add(name.slice(0, 3));
      if (name.length >= 4)
        queries
          .add(name.slice(0, 1) + name.slice(2))
          .add(name.slice(0, 1) + name[2] + name[1] + name.slice(3))
          .add(`${name.slice(0, -1)}x`);
    }
    expect(queries.size).toBeGreaterThan(400);
    const kindSets = [undefined, new Set(['creature']), new Set(['move', 'item', 'location']), new Set(named.slice(0, 20))];
    let hits = 0;
    [...queries].forEach((query, i) => {
      const kinds = kindSets[i % kindSets.length];
      const [a, b] = [fromFiles.search(query, { kinds }), packed.search(query, { kinds })];
      expect(b.count, query).toBe(a.count);
      expect(b.hits(0, 50), query).toEqual(a.hits(0, 50));
      hits += a.count;
    });
    expect(hits).toBeGreaterThan(queries.size);
  }, 120_000);
});

describe('the build-time check of declared fields', () => {
  const ctx = createContext('http://x/v2', new Map(), { sprites: new Set(), cries: new Set() });
  const item = { id: 7, name: 'seven', generation: { name: 'generation-i', url: 'http://x/v2/generation/1/' }, sprites: { front: 'a', back: null } };

  it('gives each field the item’s value, null included', () => {
    const query = new KindQuery('ability', { filters: [], fields: ['id', 'generation', 'sprites.back'] });
    expect(query.facts({ id: 7 }, item, ctx)).toMatchObject({ fields: [7, item.generation, null] });
  });

  it('names kind, id and field when fields are declared out of the item’s order or are missing', () => {
    const outOfOrder = new KindQuery('ability', { filters: [], fields: ['id', 'sprites.front', 'generation'] });
    expect(outOfOrder.facts({ id: 7 }, item, ctx)).toEqual({ problem: expect.stringMatching(/^ability 7: field generation: .*key order/) });
    const missing = new KindQuery('ability', { filters: [], fields: ['id', 'sprites.side'] });
    expect(missing.facts({ id: 7 }, item, ctx)).toEqual({ problem: 'ability 7: field sprites.side is not in the item' });
  });

  it('checks each key order once: an item of an order proven before passes, one of another order is still refused', () => {
    const query = new KindQuery('ability', { filters: [], fields: ['id', 'generation', 'sprites.back'] });
    expect(query.facts({ id: 7 }, item, ctx)).toMatchObject({ fields: [7, item.generation, null] });
    const sameOrder = { ...item, id: 8, generation: null, sprites: { front: null, back: 'b' } };
    expect(query.facts({ id: 8 }, sameOrder, ctx)).toMatchObject({ fields: [8, null, 'b'] });
    const otherOrder = { id: 9, name: 'nine', sprites: { back: 'c', front: null }, generation: item.generation };
    expect(query.facts({ id: 9 }, otherOrder, ctx)).toEqual({ problem: expect.stringMatching(/^ability 9: field .*key order/) });
    // other keys beside the declared one, in another order: along the declared fields the order is the proven one
    const innerOrder = { ...item, id: 10, sprites: { back: 'd', front: null, side: 'e' } };
    expect(query.facts({ id: 10 }, innerOrder, ctx)).toMatchObject({ fields: [10, item.generation, 'd'] });
  });

  it('refuses a link into another kind than the filter declares', () => {
    const wrong = new KindQuery('ability', {
      filters: [{ name: 'generation', about: 'a generation', target: 'region', values: ({ item: doc }) => [(doc as typeof item).generation] }],
      fields: ['id'],
    });
    expect(wrong.facts({ id: 7 }, item, ctx)).toEqual({ problem: expect.stringMatching(/^ability 7: filter generation: .* is no link to region/) });
  });

  it("names kind and id when the declaration's own code throws, and keeps what it threw", () => {
    const bug = new TypeError('values is not iterable');
    const throwing = new KindQuery('ability', {
      filters: [
        {
          name: 'generation',
          about: 'a generation',
          target: 'generation',
          values: () => {
            throw bug;
          },
        },
      ],
      fields: ['id'],
    });
    expect(throwing.facts({ id: 7 }, item, ctx)).toEqual({ problem: 'ability 7: values is not iterable', thrown: bug });
  });
});

describe('the query vocabulary', () => {
  it('types field paths from the item’s schema: a typo or a path some item lacks fails the type check', () => {
    type Item = { id: number; sprites: { front: string | null; other: { art: string } | null }; stats: { base: number }[]; note?: string };
    const fine: FieldPath<Item>[] = ['id', 'sprites', 'sprites.front', 'sprites.other', 'stats'];
    // @ts-expect-error a typo
    const typo: FieldPath<Item>[] = ['sprits'];
    // @ts-expect-error a path through a part that may be null
    const throughNull: FieldPath<Item>[] = ['sprites.other.art'];
    // @ts-expect-error a path into a list (fields= reaches list elements by projection, not by declaration)
    const intoList: FieldPath<Item>[] = ['stats.base'];
    // @ts-expect-error a key the schema leaves optional
    const optional: FieldPath<Item>[] = ['note'];
    expect([fine, typo, throughNull, intoList, optional].map((paths) => paths.length)).toEqual([5, 1, 1, 1, 1]);
  });

  it('reads an id from a resource link in one place, negative ids included', () => {
    expect(linkOf('http://x/v2/move-ailment/-1/')).toEqual({ kind: 'move-ailment', id: -1 });
    expect(idOfUrl('http://x/v2/creature/25')).toBe(25);
    expect(idOfUrl('http://x/v2/creature/pikachu/')).toBeNull();
  });

  it('reads links by scanning exactly as the pattern /\\/([a-z0-9-]+)\\/(-?\\d+)\\/?$/ reads them', () => {
    const pattern = /\/([a-z0-9-]+)\/(-?\d+)\/?$/;
    const byPattern = (url: string) => {
      const match = pattern.exec(url);
      return match === null ? null : { kind: match[1]!, id: Number(match[2]) };
    };
    // single characters, and pieces that make links often
    const pieces = fc.oneof(fc.constantFrom(...'/-0123456789azAZ_.:'.split('')), fc.constantFrom('/move-ailment', '/12', '/-3/', '/x/7', 'http://h/v2'));
    fc.assert(
      fc.property(
        fc.array(pieces, { maxLength: 12 }).map((c) => c.join('')),
        (url) => {
          expect(linkOf(url)).toEqual(byPattern(url));
          expect(idOfUrl(url)).toEqual(byPattern(url)?.id ?? null);
        },
      ),
      { numRuns: 20000 },
    );
    for (const url of ['/a/-0', '/a/0000000000000000000012/', '/a/99999999999999999999/', 'http://x/v2/a--b/-5/', '//5/', '/a/5//', '/A/5/', '/a/-/']) {
      expect(linkOf(url), url).toEqual(byPattern(url));
    }
  });
});
