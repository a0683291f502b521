/**
 * Filters, `q` and search, checked against an oracle computed here from
 * the built item documents themselves, not from the indexes or the declarations that made them:
 * - every value of every filter of `creature`, `creature-species`, `move` and `entry` (and of `ability`
 *   and `item`), every distinct value of each range as `v..v`, and seeded random pairs, answer
 *   exactly the items the documents say, in list order;
 * The thousands of queries go to the request module in-process (the preview's reader over the
 * same dist/, without sockets, to keep CI short); a few go over HTTP to the running preview.
 * - every translated name of every species finds it through `q`;
 * - English names with one typo find the intended entry in the top three of `/v2/search/`;
 * - every sort key of `creature`, `creature-species`, `move` and `entry` both ways, every
 *   facet and summary of those kinds over the whole list and seeded filtered sets, all-of
 *   repeats, and each of the upstream's GraphQL example questions this API answers in one GET.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createResponder } from '../edge/handler.ts';
import { idOfUrl, itemFile, listFile, routesFile, type Routes } from '../contract/layout.ts';
import { testConfig } from './support/config.ts';
import { diskReader } from '../generator/preview/disk-reader.ts';
import { seeded } from './support/seeded.ts';
import { facetOf, orderedBy, summaryOf } from './support/query-rules.ts';
import type { FullList } from '../contract/pagination.ts';
import { QUERY_LIMITS } from '../contract/query/parse.ts';
import { distDocs, expectedEntry, expectedEvolution } from './support/entry-oracle.ts';

const previewUrl = inject('previewUrl');
const distDir = inject('distDir');
const baseUrl = inject('baseUrl');
const respond = createResponder(diskReader(distDir), { baseUrl });
const decoder = new TextDecoder();

type Ref = { name: string; url: string } | null;
type Doc = Record<string, unknown>;
/** What the documents say an item holds for one filter: names of linked resources, or yes/no. */
type Values = (item: Doc, docs: Docs) => Array<string | boolean>;
/** What the documents say an item's number is for one range filter; null: none. */
type NumberOf = (item: Doc, docs: Docs) => number | null;

const ref = (value: unknown) => (value as Ref)?.name ?? null;
const refs = (value: unknown, key: string) => (value as Doc[]).map((entry) => ref(entry[key])).filter((n): n is string => n !== null);
const one =
  (field: string): Values =>
  (item) =>
    [ref(item[field])].filter((n): n is string => n !== null);
const flag =
  (field: string): Values =>
  (item) => [item[field] as boolean];
const field =
  (name: string): NumberOf =>
  (item) =>
    item[name] as number | null;

interface Docs {
  /** an item document by kind and id */
  get(kind: string, id: number): Doc;
}

const idOf = (url: string) => idOfUrl(url)!;

/** The species of a creature, from its `species` link. */
const speciesOf = (item: Doc, docs: Docs) => docs.get('creature-species', idOf((item.species as { url: string }).url));
const throughSpecies =
  (values: Values): Values =>
  (item, docs) =>
    values(speciesOf(item, docs), docs);
/** An entry's creature: the document of the same id. */
const creatureOf = (item: Doc, docs: Docs) => docs.get('creature', item.id as number);
const entrySpecies = (item: Doc, docs: Docs) => speciesOf(creatureOf(item, docs), docs);
const throughCreature =
  (values: Values): Values =>
  (item, docs) =>
    values(creatureOf(item, docs), docs);
const throughEntrySpecies =
  (values: Values): Values =>
  (item, docs) =>
    values(entrySpecies(item, docs), docs);
const throughCreatureNumber =
  (of: NumberOf): NumberOf =>
  (item, docs) =>
    of(creatureOf(item, docs), docs);
/** A list of links (`egg_groups`, `attributes`): their names. */
const many =
  (field: string): Values =>
  (item) =>
    (item[field] as Array<{ name: string }>).map((link) => link.name);
const stat =
  (name: string): NumberOf =>
  (item) =>
    (item.stats as Array<{ base_stat: number; stat: { name: string } }>).find((s) => s.stat.name === name)?.base_stat ?? null;
const statTotal: NumberOf = (item) => {
  const stats = item.stats as Array<{ base_stat: number }>;
  return stats.length === 0 ? null : stats.reduce((sum, s) => sum + s.base_stat, 0);
};
const fieldsOf = (...names: string[]): Record<string, NumberOf> => Object.fromEntries(names.map((n) => [n, field(n)]));

/** An item's `cost` is not in its document (it has per-game `prices`): the oracle reads the data set's own table. */
const itemCosts = (() => {
  let costs: Map<number, number> | null = null;
  return (): Map<number, number> => {
    if (costs !== null) return costs;
    const [header, ...rows] = readFileSync(join(testConfig().dataDir, 'csv/items.csv'), 'utf8')
      .trim()
      .split(/\r?\n/)
      .map((line) => line.split(','));
    const at = (name: string) => header!.indexOf(name);
    return (costs = new Map(rows.map((row) => [Number(row[at('id')]), Number(row[at('cost')])])));
  };
})();

/** The oracle: each filter of each kind, as the issue names it, read off the documents. */
const ORACLE: Record<string, { values: Record<string, Values>; ranges: Record<string, NumberOf> }> = {
  creature: {
    values: {
      type: (item) => refs(item.types, 'type'),
      ability: (item) => refs(item.abilities, 'ability'),
      move: (item) => refs(item.moves, 'move'),
      species: one('species'),
      is_default: flag('is_default'),
      generation: throughSpecies(one('generation')),
      color: throughSpecies(one('color')),
      shape: throughSpecies(one('shape')),
      habitat: throughSpecies(one('habitat')),
      egg_group: throughSpecies(many('egg_groups')),
      is_legendary: throughSpecies(flag('is_legendary')),
      is_mythical: throughSpecies(flag('is_mythical')),
      is_baby: throughSpecies(flag('is_baby')),
    },
    ranges: {
      ...Object.fromEntries(['hp', 'attack', 'defense', 'special-attack', 'special-defense', 'speed'].map((s) => [s, stat(s)])),
      base_stat_total: statTotal,
      ...fieldsOf('base_experience', 'height', 'weight'),
    },
  },
  // read off the creature's, species' and chain's documents, as the entry's oracle does
  entry: {
    values: {
      type: throughCreature((item) => refs(item.types, 'type')),
      ability: throughCreature((item) => refs(item.abilities, 'ability')),
      move: throughCreature((item) => refs(item.moves, 'move')),
      species: throughCreature(one('species')),
      is_default: throughCreature(flag('is_default')),
      generation: throughEntrySpecies(one('generation')),
      color: throughEntrySpecies(one('color')),
      shape: throughEntrySpecies(one('shape')),
      habitat: throughEntrySpecies(one('habitat')),
      egg_group: throughEntrySpecies(many('egg_groups')),
      growth_rate: throughEntrySpecies(one('growth_rate')),
      is_legendary: throughEntrySpecies(flag('is_legendary')),
      is_mythical: throughEntrySpecies(flag('is_mythical')),
      is_baby: throughEntrySpecies(flag('is_baby')),
      evolution_trigger: (item, docs) =>
        distinct((expectedEvolution(docs, entrySpecies(item, docs)).from?.evolution_details ?? []).map((d) => ref((d as Doc).trigger)!)),
    },
    ranges: {
      ...Object.fromEntries(['hp', 'attack', 'defense', 'special-attack', 'special-defense', 'speed'].map((s) => [s, throughCreatureNumber(stat(s))])),
      // every creature has stats: the entry's total is never missing
      base_stat_total: (item, docs) => expectedEntry(docs, item.id as number).base_stat_total as number,
      ...Object.fromEntries(['base_experience', 'height', 'weight'].map((n) => [n, throughCreatureNumber(field(n))])),
      ...Object.fromEntries(
        ['base_happiness', 'capture_rate', 'gender_rate', 'hatch_counter', 'order'].map((n) => [
          n,
          (item: Doc, docs: Docs) => field(n)(entrySpecies(item, docs), docs),
        ]),
      ),
      stage: (item, docs) => expectedEvolution(docs, entrySpecies(item, docs)).stage,
    },
  },
  'creature-species': {
    values: {
      generation: one('generation'),
      color: one('color'),
      shape: one('shape'),
      habitat: one('habitat'),
      egg_group: many('egg_groups'),
      growth_rate: one('growth_rate'),
      is_legendary: flag('is_legendary'),
      is_mythical: flag('is_mythical'),
      is_baby: flag('is_baby'),
    },
    ranges: fieldsOf('base_happiness', 'capture_rate', 'gender_rate', 'hatch_counter', 'order'),
  },
  move: {
    values: {
      type: one('type'),
      damage_class: one('damage_class'),
      generation: one('generation'),
      target: one('target'),
      ailment: (item) => [ref((item.meta as Doc | null)?.ailment)].filter((n): n is string => n !== null),
    },
    ranges: fieldsOf('power', 'accuracy', 'pp', 'priority', 'effect_chance'),
  },
  ability: { values: { generation: one('generation'), is_main_series: flag('is_main_series') }, ranges: {} },
  item: {
    values: { category: one('category'), attribute: many('attributes') },
    ranges: { cost: (item) => itemCosts().get(item.id as number) ?? null, fling_power: field('fling_power') },
  },
  berry: {
    values: { firmness: one('firmness'), natural_gift_type: one('natural_gift_type') },
    ranges: fieldsOf('growth_time', 'max_harvest', 'natural_gift_power', 'size', 'smoothness', 'soil_dryness'),
  },
};

const docs: Docs = distDocs(distDir);
const listOf = (kind: string) => JSON.parse(readFileSync(join(distDir, listFile(kind)), 'utf8')) as FullList;

/** An answer of the request module, in-process. */
async function getJson(path: string): Promise<{ status: number; body: Doc }> {
  const reply = await respond({ method: 'GET', url: `${new URL(baseUrl).origin}/v2/${path}`, headers: new Headers() });
  return { status: reply.status, body: JSON.parse(decoder.decode(reply.body ?? new Uint8Array())) as Doc };
}

/** An answer of the running preview, over HTTP. */
async function fetchJson(path: string): Promise<{ status: number; body: Doc }> {
  const response = await fetch(`${previewUrl}/v2/${path}`);
  return { status: response.status, body: (await response.json()) as Doc };
}

/** The names a collection answers for a query, the whole filtered list in one page. */
async function answered(kind: string, query: string): Promise<string[]> {
  const { status, body } = await getJson(`${kind}/?${query}&limit=100000`);
  expect(status, `${kind}/?${query}`).toBe(200);
  const results = body.results as Array<{ name: string }>;
  expect(body.count, `${kind}/?${query} count`).toBe(results.length);
  return results.map((r) => r.name);
}

/** A kind's listed items with what the oracle says of each filter. */
interface Facts {
  names: string[];
  values: Map<string, Array<Array<string | boolean>>>;
  numbers: Map<string, Array<number | null>>;
}

function factsOf(kind: string): Facts {
  const list = listOf(kind).results;
  const items = list.map((entry) => docs.get(kind, idOf(entry.url)));
  const oracle = ORACLE[kind]!;
  return {
    names: list.map((entry) => entry.name!),
    values: new Map(Object.entries(oracle.values).map(([name, of]) => [name, items.map((item) => of(item, docs))])),
    numbers: new Map(Object.entries(oracle.ranges).map(([name, of]) => [name, items.map((item) => of(item, docs))])),
  };
}

const wire = (value: string | boolean) => String(value);
const distinct = <T>(values: Iterable<T>) => [...new Set(values)];

describe.each(Object.keys(ORACLE))('%s filters against the documents', (kind) => {
  let facts: Facts;
  beforeAll(() => {
    facts = factsOf(kind);
  });

  it('every value of every value filter', async () => {
    for (const [filter, perItem] of facts.values) {
      for (const value of distinct(perItem.flat())) {
        const expected = facts.names.filter((_, i) => perItem[i]!.includes(value));
        expect(await answered(kind, `${filter}=${encodeURIComponent(wire(value))}`), `${kind} ${filter}=${wire(value)}`).toEqual(expected);
      }
    }
  });

  it('every distinct number of every range filter, and open ranges around the median', async () => {
    for (const [filter, perItem] of facts.numbers) {
      const numbers = distinct(perItem.filter((n): n is number => n !== null)).sort((a, b) => a - b);
      for (const n of numbers) {
        const expected = facts.names.filter((_, i) => perItem[i] === n);
        expect(await answered(kind, `${filter}=${n}..${n}`), `${kind} ${filter}=${n}..${n}`).toEqual(expected);
      }
      const median = numbers[numbers.length >> 1]!;
      const atLeast = facts.names.filter((_, i) => perItem[i] !== null && perItem[i]! >= median);
      const atMost = facts.names.filter((_, i) => perItem[i] !== null && perItem[i]! <= median);
      expect(await answered(kind, `${filter}=${median}..`)).toEqual(atLeast);
      expect(await answered(kind, `${filter}=..${median}`)).toEqual(atMost);
    }
  });

  it('seeded random pairs of filters (all of them) with two values each (any of them)', async () => {
    const random = seeded(18);
    const filters = [...facts.values.keys()];
    if (filters.length < 2) return;
    for (let sample = 0; sample < 60; sample++) {
      const [a, b] = [filters[Math.floor(random() * filters.length)]!, filters[Math.floor(random() * filters.length)]!];
      if (a === b) continue;
      const pick = (filter: string) => {
        const values = distinct(facts.values.get(filter)!.flat());
        return distinct([values[Math.floor(random() * values.length)]!, values[Math.floor(random() * values.length)]!]);
      };
      const [va, vb] = [pick(a), pick(b)];
      const expected = facts.names.filter(
        (_, i) => va.some((v) => facts.values.get(a)![i]!.includes(v)) && vb.some((v) => facts.values.get(b)![i]!.includes(v)),
      );
      const query = `${a}=${va.map(wire).map(encodeURIComponent).join(',')}&${b}=${vb.map(wire).map(encodeURIComponent).join(',')}`;
      expect(await answered(kind, query), `${kind}/?${query}`).toEqual(expected);
    }
  });
});

describe('names in any language', () => {
  it('every translated name of every species finds it with q', async () => {
    const list = listOf('creature-species').results;
    const misses: string[] = [];
    for (const entry of list) {
      const species = docs.get('creature-species', idOf(entry.url));
      for (const { name } of species.names as Array<{ name: string }>) {
        const found = await answered('creature-species', `q=${encodeURIComponent(name)}`);
        if (!found.includes(entry.name!)) misses.push(`${name} → ${entry.name}`);
      }
    }
    expect(misses).toEqual([]);
  });
});

/** One typo, chosen by the generator: a letter dropped, doubled, swapped with the next, or replaced. */
function typo(name: string, random: () => number): string {
  const at = 1 + Math.floor(random() * (name.length - 2));
  switch (Math.floor(random() * 4)) {
    case 0:
      return name.slice(0, at) + name.slice(at + 1);
    case 1:
      return name.slice(0, at) + name[at] + name.slice(at);
    case 2:
      return name.slice(0, at) + name[at + 1] + name[at] + name.slice(at + 2);
    default:
      return name.slice(0, at) + (name[at] === 'e' ? 'a' : 'e') + name.slice(at + 1);
  }
}

describe('search that forgives typos', () => {
  // Narrowed to species: unnarrowed, a typo that is also a prefix of another name ranks that
  // name first, as it should (`kubu`, kubfu misspelt, begins eiscue's German name Kubuin, and
  // eiscue's two creatures and species fill the top three).
  it('a sample of species names with one typo finds the species in the top three', async () => {
    const random = seeded(660);
    const names = listOf('creature-species')
      .results.map((e) => e.name!)
      .filter((n) => /^[a-z]{5,}$/.test(n));
    const misses: string[] = [];
    const sample = Array.from({ length: 300 }, () => names[Math.floor(random() * names.length)]!);
    for (const name of sample) {
      const q = typo(name, random);
      const { status, body } = await getJson(`search/?q=${encodeURIComponent(q)}&kind=creature-species&limit=3`);
      expect(status).toBe(200);
      const top = (body.results as Array<{ name: string }>).map((r) => r.name);
      if (!top.includes(name)) misses.push(`${q} → ${name}: ${top.join(', ')}`);
    }
    expect(misses).toEqual([]);
  });

  it('over HTTP: charzard finds charizard first, and a filter and q answer as in-process', async () => {
    const { body } = await fetchJson('search/?q=charzard');
    expect((body.results as Array<{ name: string }>)[0]!.name).toBe('charizard');
    for (const path of [
      'creature/?type=fire&generation=generation-i',
      'creature-species/?q=%E3%83%94%E3%82%AB%E3%83%81%E3%83%A5%E3%82%A6',
      'move/?damage_class=special&type=electric&power=90..',
    ]) {
      expect(await fetchJson(path), path).toEqual(await getJson(path));
    }
  });
});

/** A sort key's value per listed item, as the documents say: the name, the id, or a range's number. */
function keyValues(kind: string, facts: Facts, key: string): Array<string | number | null> {
  if (key === 'name') return facts.names;
  if (key === 'id') return listOf(kind).results.map((entry) => idOf(entry.url));
  return facts.numbers.get(key)!;
}

/** The names of these list positions (ascending) in the order of the keys: no value last either way, ties in list order. */
function sortedBy(facts: Facts, positions: number[], keys: Array<{ values: Array<string | number | null>; descending: boolean }>): string[] {
  return orderedBy(
    positions,
    keys.map(({ values, descending }) => ({ of: (p: number) => values[p]!, descending })),
  ).map((p) => facts.names[p]!);
}

/** The list positions a value filter's value holds, by the documents. */
const holding = (facts: Facts, filter: string, value: string | boolean) =>
  facts.names.flatMap((_, p) => (facts.values.get(filter)![p]!.includes(value) ? [p] : []));

const routes = () => JSON.parse(readFileSync(join(distDir, routesFile), 'utf8')) as Routes;

/**
 * What `facets` should say of one filter over these positions: counts by the documents, in the
 * target's list order, then values its list does not show (type `shadow`), by id.
 */
function expectedFacet(kind: string, facts: Facts, filter: string, positions: number[]) {
  const target = routes().queries[kind]!.filters.find((f) => f.name === filter)!.target;
  const counts = new Map<string, number>();
  for (const p of positions) for (const v of distinct(facts.values.get(filter)![p]!)) counts.set(wire(v), (counts.get(wire(v)) ?? 0) + 1);
  return facetOf(
    counts,
    target,
    () => listOf(target!).results.map((entry) => ({ name: entry.name!, id: idOf(entry.url) })),
    (name) => itemId(target!, name),
    baseUrl,
  );
}

/** The id of a kind's item by name, from its document. */
const itemId = (kind: string, name: string): number => (JSON.parse(readFileSync(join(distDir, itemFile(kind, name)), 'utf8')) as { id: number }).id;

/** What `summary` should say of one range over these positions. */
const expectedSummary = (facts: Facts, range: string, positions: number[]) => summaryOf(positions.map((p) => facts.numbers.get(range)![p]!));

describe.each(['creature', 'creature-species', 'move', 'entry'])('%s sort, facets and summaries against the documents', (kind) => {
  let facts: Facts;
  let all: number[];
  beforeAll(() => {
    facts = factsOf(kind);
    all = facts.names.map((_, p) => p);
  });

  it('every sort key, ascending and descending, over the whole list', async () => {
    for (const key of ['id', 'name', ...facts.numbers.keys()]) {
      for (const descending of [false, true]) {
        const expected = sortedBy(facts, all, [{ values: keyValues(kind, facts, key), descending }]);
        expect(await answered(kind, `sort=${descending ? '-' : ''}${key}`), `${kind} sort=${descending ? '-' : ''}${key}`).toEqual(expected);
      }
    }
  });

  it('seeded two- and three-key sorts over filtered sets, paged', async () => {
    const random = seeded(24);
    const keys = ['id', 'name', ...facts.numbers.keys()];
    const filters = [...facts.values.keys()];
    for (let sample = 0; sample < 30; sample++) {
      const filter = filters[Math.floor(random() * filters.length)]!;
      const values = distinct(facts.values.get(filter)!.flat());
      const value = values[Math.floor(random() * values.length)]!;
      const chosen = distinct(Array.from({ length: 2 + Math.floor(random() * 2) }, () => keys[Math.floor(random() * keys.length)]!));
      const asked = chosen.map((key) => ({ key, descending: random() < 0.5 }));
      const sort = asked.map(({ key, descending }) => `${descending ? '-' : ''}${key}`).join(',');
      const expected = sortedBy(
        facts,
        holding(facts, filter, value),
        asked.map(({ key, descending }) => ({ values: keyValues(kind, facts, key), descending })),
      );
      const query = `${filter}=${encodeURIComponent(wire(value))}&sort=${sort}`;
      expect(await answered(kind, query), `${kind}/?${query}`).toEqual(expected);
      const { body } = await getJson(`${kind}/?${query}&offset=3&limit=5`);
      expect(
        (body.results as Array<{ name: string }>).map((r) => r.name),
        `${kind}/?${query} page`,
      ).toEqual(expected.slice(3, 8));
    }
  });

  it('every facet and every summary over the whole list and over one value of each filter', async () => {
    const filters = [...facts.values.keys()],
      ranges = [...facts.numbers.keys()];
    const sets: Array<[string, number[]]> = [['', all]];
    for (const filter of filters) {
      const values = distinct(facts.values.get(filter)!.flat());
      const value = values[values.length >> 1]!;
      sets.push([`&${filter}=${encodeURIComponent(wire(value))}`, holding(facts, filter, value)]);
    }
    for (const [narrowing, positions] of sets) {
      for (let i = 0; i < filters.length; i += 5) {
        const asked = filters.slice(i, i + 5);
        const { status, body } = await getJson(`${kind}/?limit=1&facets=${asked.join(',')}${narrowing}`);
        expect(status).toBe(200);
        expect(body.facets, `${kind} facets=${asked.join(',')}${narrowing}`).toEqual(
          Object.fromEntries(asked.map((f) => [f, expectedFacet(kind, facts, f, positions)])),
        );
      }
      // as many ranges as a query may summarize at once
      for (let i = 0; i < ranges.length; i += QUERY_LIMITS.summaries) {
        const asked = ranges.slice(i, i + QUERY_LIMITS.summaries);
        const { body } = await getJson(`${kind}/?limit=1&summary=${asked.join(',')}${narrowing}`);
        expect(body.summary, `${kind} summary${narrowing}`).toEqual(Object.fromEntries(asked.map((r) => [r, expectedSummary(facts, r, positions)])));
      }
    }
  });

  it('a filter given twice means both of its values; a range given twice, the intersection', async () => {
    const random = seeded(3);
    for (const [filter, perItem] of facts.values) {
      const values = distinct(perItem.flat());
      for (let sample = 0; sample < 5; sample++) {
        const [a, b, c] = [0, 1, 2].map(() => values[Math.floor(random() * values.length)]!);
        const expected = facts.names.filter((_, p) => (perItem[p]!.includes(a!) || perItem[p]!.includes(b!)) && perItem[p]!.includes(c!));
        const query = `${filter}=${encodeURIComponent(wire(a!))},${encodeURIComponent(wire(b!))}&${filter}=${encodeURIComponent(wire(c!))}`;
        expect(await answered(kind, query), `${kind}/?${query}`).toEqual(expected);
      }
    }
    for (const [range, perItem] of facts.numbers) {
      const numbers = distinct(perItem.filter((n): n is number => n !== null)).sort((x, y) => x - y);
      const [low, high] = [numbers[numbers.length >> 2]!, numbers[(3 * numbers.length) >> 2]!];
      const expected = facts.names.filter((_, p) => perItem[p] !== null && perItem[p]! >= low && perItem[p]! <= high);
      expect(await answered(kind, `${range}=${low}..&${range}=..${high}`), `${kind} ${range}`).toEqual(expected);
    }
  });
});

describe('the upstream’s GraphQL example questions, one GET each', () => {
  let creatures: Facts;
  let species: Facts;
  beforeAll(() => {
    creatures = factsOf('creature');
    species = factsOf('creature-species');
  });
  const positions = (facts: Facts, test: (p: number) => boolean) => facts.names.flatMap((_, p) => (test(p) ? [p] : []));

  it('pokemon_stats.gql: the tallest and the heaviest three default creatures', async () => {
    const defaults = holding(creatures, 'is_default', true);
    for (const key of ['height', 'weight']) {
      const expected = sortedBy(creatures, defaults, [{ values: creatures.numbers.get(key)!, descending: true }]).slice(0, 3);
      const { body } = await getJson(`creature/?is_default=true&sort=-${key}&limit=3`);
      expect((body.results as Array<{ name: string }>).map((r) => r.name)).toEqual(expected);
    }
  });

  it('best_poison_grass_pokemon.gql: grass and poison creatures, strongest by total base stats first', async () => {
    const both = positions(creatures, (p) => ['grass', 'poison'].every((t) => creatures.values.get('type')![p]!.includes(t)));
    const expected = sortedBy(creatures, both, [{ values: creatures.numbers.get('base_stat_total')!, descending: true }]);
    expect(expected.length).toBeGreaterThan(5);
    expect(await answered('creature', 'type=grass&type=poison&sort=-base_stat_total')).toEqual(expected);
  });

  it('weakestPokemonAbleToBeatFireRedAlone.gql: generation-I creatures learning strength, cut and surf, lowest base experience first', async () => {
    const learners = positions(
      creatures,
      (p) =>
        creatures.values.get('generation')![p]!.includes('generation-i') &&
        ['strength', 'cut', 'surf'].every((m) => creatures.values.get('move')![p]!.includes(m)),
    );
    const expected = sortedBy(creatures, learners, [{ values: creatures.numbers.get('base_experience')!, descending: false }]);
    expect(expected.length).toBeGreaterThan(3);
    expect(await answered('creature', 'generation=generation-i&move=strength&move=cut&move=surf&sort=base_experience')).toEqual(expected);
  });

  it('gen3_species.gql: species per generation, one facet', async () => {
    const { body } = await getJson('creature-species/?facets=generation&limit=1');
    expect(body.facets).toEqual({
      generation: expectedFacet(
        'creature-species',
        species,
        'generation',
        species.names.map((_, p) => p),
      ),
    });
    expect((body.facets as { generation: Array<{ count: number }> }).generation.reduce((sum, g) => sum + g.count, 0)).toBe(species.names.length);
  });

  it('pokemon_stats.gql: the average base happiness, one summary', async () => {
    const { body } = await getJson('creature-species/?summary=base_happiness&limit=1');
    expect(body.summary).toEqual({
      base_happiness: expectedSummary(
        species,
        'base_happiness',
        species.names.map((_, p) => p),
      ),
    });
  });

  it('answers the same over HTTP on the preview', async () => {
    const query = 'creature/?type=grass&type=poison&sort=-base_stat_total&facets=generation&summary=speed,base_stat_total&limit=5';
    expect((await fetchJson(query)).body).toEqual((await getJson(query)).body);
  });
});
