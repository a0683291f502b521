/**
 * Queries as of a game ("queries work as of v"), checked against the documents of then.
 * Seeded queries over the creature and move lists as of every generation and a few version
 * groups, each combining any of: value filters of then (a creature's `type`, `ability` and
 * `move`, a move's `type`) and of today (`generation`, `egg_group`, `damage_class`), a range of
 * then (a stat, `base_stat_total`, a move's `power`, `pp`, `accuracy`) or of today, a sort of one
 * to three keys, facets, summaries, `fields` and a page. The answer each should give is worked
 * out here from the oracle's facts of then (test/support/as-of-oracle.ts: a creature's types,
 * abilities, stats and moves, a move's values, by the rules from today's built documents)
 * and today's species documents; it shares no code with the query engine or the views the build
 * made. Requests go to the request module in-process over the global setup's build; a failure
 * names the request and where it departs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createResponder } from '../edge/handler.ts';
import { routesFile, type Routes } from '../contract/layout.ts';
import { diskReader } from '../generator/preview/disk-reader.ts';
import { differences } from './support/examples.ts';
import { seeded } from './support/seeded.ts';
import { facetOf, orderedBy, summaryOf } from './support/query-rules.ts';
import { abilitiesAsOf, creatureExists, idOf, statsAsOf, typesAsOf, World, type Doc, type Era, type Link } from './support/as-of-oracle.ts';

const distDir = inject('distDir');
const baseUrl = inject('baseUrl');
const respond = createResponder(diskReader(distDir), { baseUrl });
const decoder = new TextDecoder();

/** A listed item that existed as of an era, with what the queries read of it then. */
interface Then {
  link: Link;
  id: number;
  /** the value filters' values, by filter */
  values: Record<string, string[]>;
  /** the ranges' numbers (and any other sort key's), by name; null where it has none */
  numbers: Record<string, number | null>;
  /** the fields a query may show, by name */
  fields: Doc;
}

/** What the seeded queries of a kind ask, and the kind's entries of then. */
interface KindQueries {
  kind: string;
  valueFilters: readonly string[];
  ranges: readonly string[];
  sortKeys: readonly string[];
  facets: readonly string[];
  summaries: readonly string[];
  /** fields a query may ask, in the item's key order (the order an entry shows them) */
  fields: readonly string[];
  /** the kind's entries that existed as of the era, in list order */
  then(era: Era): Then[];
}

const STATS = ['hp', 'attack', 'defense', 'special-attack', 'special-defense', 'speed'] as const;
const QUERIES_PER_ERA = 14;

let world: World;
let routes: Routes;

beforeAll(() => {
  world = new World(distDir, baseUrl);
  routes = JSON.parse(readFileSync(join(distDir, routesFile), 'utf8')) as Routes;
});

/** Today's species facts a creature's filters read: its generation and egg groups, each document read once. */
const speciesFacts = (() => {
  const known = new Map<string, { generation: string; eggGroups: string[] }>();
  return (species: Link) => {
    let facts = known.get(species.url);
    if (!facts) {
      const doc = world.doc('creature-species', idOf(species));
      known.set(species.url, (facts = { generation: (doc['generation'] as Link).name, eggGroups: (doc['egg_groups'] as Link[]).map((g) => g.name) }));
    }
    return facts;
  };
})();

const CREATURE_RANGES = [...STATS, 'base_stat_total'];
const CREATURES: KindQueries = {
  kind: 'creature',
  valueFilters: ['type', 'ability', 'move', 'generation', 'egg_group'],
  ranges: CREATURE_RANGES,
  sortKeys: ['id', 'name', 'weight', ...CREATURE_RANGES],
  facets: ['type', 'ability', 'generation', 'egg_group'],
  summaries: CREATURE_RANGES,
  fields: ['stats', 'types'],
  then: (era) =>
    world.list('creature').flatMap((link) => {
      const c = world.creatureById.get(idOf(link))!;
      if (!creatureExists(c, era)) return [];
      const types = typesAsOf(c, era);
      const stats = statsAsOf(c.stats, c.pastStats, era);
      const species = speciesFacts(c.species);
      const numbers: Record<string, number | null> = {
        weight: c.weight,
        base_stat_total: stats.length === 0 ? null : stats.reduce((sum, s) => sum + s.base_stat, 0),
      };
      for (const stat of STATS) numbers[stat] = stats.find((s) => s.stat.name === stat)?.base_stat ?? null;
      const values = {
        type: types.map((t) => t.type.name),
        ability: abilitiesAsOf(c, era).map((a) => a.ability!.name),
        move: [...c.learns].filter(([, groups]) => groups.has(era.group)).map(([move]) => move),
        generation: [species.generation],
        egg_group: species.eggGroups,
      };
      return [{ link, id: c.id, values, numbers, fields: { stats, types } }];
    }),
};

const MOVE_RANGES = ['power', 'pp', 'accuracy', 'priority', 'effect_chance'];
const moveDocs = (() => {
  let docs: Map<number, Doc> | null = null;
  return () => (docs ??= new Map(world.moves.map((m) => [m.id, world.doc('move', m.id)])));
})();
const MOVES: KindQueries = {
  kind: 'move',
  valueFilters: ['type', 'damage_class', 'generation'],
  ranges: MOVE_RANGES,
  sortKeys: ['id', 'name', ...MOVE_RANGES],
  facets: ['type', 'damage_class', 'generation'],
  summaries: MOVE_RANGES,
  fields: ['accuracy', 'power', 'type'],
  then: (era) =>
    world.list('move').flatMap((link) => {
      const doc = world.moveAsOf(moveDocs().get(idOf(link))!, era);
      if (doc === null) return [];
      const name = (field: string) => (doc[field] as Link | null)?.name ?? null;
      const values = { type: [name('type')], damage_class: [name('damage_class')], generation: [name('generation')] };
      const numbers = Object.fromEntries(MOVE_RANGES.map((r) => [r, doc[r] as number | null]));
      return [
        {
          link,
          id: idOf(link),
          numbers,
          values: Object.fromEntries(Object.entries(values).map(([f, v]) => [f, v.filter((x): x is string => x !== null)])),
          fields: { accuracy: doc['accuracy'], power: doc['power'], type: doc['type'] },
        },
      ];
    }),
};

/** Type and ability lists of then: which existed is all that changes; their filters and fields are today's. */
const todays = (kind: 'type' | 'ability', filters: readonly string[], existed: (doc: Doc, era: Era) => boolean): KindQueries => {
  let docs: Map<number, Doc> | null = null;
  return {
    kind,
    valueFilters: filters,
    ranges: [],
    sortKeys: ['id', 'name'],
    facets: filters,
    summaries: [],
    fields: ['generation'],
    then: (era) => {
      docs ??= new Map(world.list(kind).map((link) => [idOf(link), world.doc(kind, idOf(link))]));
      return world.list(kind).flatMap((link) => {
        const doc = docs!.get(idOf(link))!;
        if (!existed(doc, era)) return [];
        const values = Object.fromEntries(filters.map((f) => [f, [(doc[f] as Link | null)?.name].filter((n): n is string => n !== undefined)]));
        return [{ link, id: idOf(link), values, numbers: {}, fields: { generation: doc['generation'] } }];
      });
    },
  };
};
const TYPES = todays('type', ['generation', 'move_damage_class'], (doc, era) => world.typeAsOf(doc, era) !== null);
const ABILITIES = todays('ability', ['generation'], (doc, era) => world.abilityAsOf(doc, era) !== null);

interface Asked {
  filters: Array<{ filter: string; values: string[] }>;
  range: { name: string; low: number; high: number } | null;
  sort: Array<{ key: string; descending: boolean }>;
  facets: string[];
  summary: string[];
  /** the fields shown, in the item's key order */
  fields: string[];
  offset: number;
  limit: number;
}

/** A seeded query over what existed then: values drawn from those the entries of then hold, so most queries match some. */
function drawQuery(random: () => number, of: KindQueries, entries: readonly Then[]): Asked {
  const pick = <T>(from: readonly T[]): T => from[Math.floor(random() * from.length)]!;
  const some = <T>(from: readonly T[], most: number): T[] => [...new Set(Array.from({ length: 1 + Math.floor(random() * most) }, () => pick(from)))];
  const filters = some(of.valueFilters, 2)
    .filter(() => random() < 0.8)
    .map((filter) => {
      const held = [...new Set(entries.flatMap((e) => e.values[filter]!))];
      return { filter, values: held.length === 0 ? [] : some(held, 2) };
    })
    .filter((f) => f.values.length > 0);
  let range: Asked['range'] = null;
  if (of.ranges.length > 0 && random() < 0.5) {
    const name = pick(of.ranges);
    const numbers = entries
      .map((e) => e.numbers[name])
      .filter((n): n is number => n !== null)
      .sort((a, b) => a - b);
    if (numbers.length > 0)
      range = { name, low: numbers[Math.floor(random() * numbers.length * 0.5)]!, high: numbers[Math.floor(numbers.length * (0.5 + random() * 0.5))]! };
  }
  return {
    filters,
    range,
    sort: random() < 0.85 ? some(of.sortKeys, 3).map((key) => ({ key, descending: random() < 0.5 })) : [],
    facets: random() < 0.7 ? some(of.facets, 2) : [],
    summary: of.summaries.length > 0 && random() < 0.7 ? some(of.summaries, 2) : [],
    fields: random() < 0.4 ? of.fields.filter(() => random() < 0.6) : [],
    offset: random() < 0.5 ? 0 : Math.floor(random() * 6),
    limit: 3 + Math.floor(random() * 8),
  };
}

function queryString(q: Asked): string {
  const parts = q.filters.map(({ filter, values }) => `${filter}=${values.map(encodeURIComponent).join(',')}`);
  if (q.range) parts.push(`${q.range.name}=${q.range.low}..${q.range.high}`);
  if (q.sort.length > 0) parts.push(`sort=${q.sort.map(({ key, descending }) => `${descending ? '-' : ''}${key}`).join(',')}`);
  if (q.facets.length > 0) parts.push(`facets=${q.facets.join(',')}`);
  if (q.summary.length > 0) parts.push(`summary=${q.summary.join(',')}`);
  if (q.fields.length > 0) parts.push(`fields=${[...q.fields].reverse().join(',')}`);
  parts.push(`offset=${q.offset}`, `limit=${q.limit}`);
  return parts.join('&');
}

/** The value a sort key reads of an entry: its id, its name or a number (null: none). */
const keyOf = (c: Then, key: string): string | number | null => (key === 'id' ? c.id : key === 'name' ? c.link.name : c.numbers[key]!);

/** Entries (in list order) in the order of the keys: none last either way, ties in list order. */
const sortedBy = (entries: readonly Then[], keys: Asked['sort']): Then[] =>
  orderedBy(
    entries,
    keys.map(({ key, descending }) => ({ of: (e: Then) => keyOf(e, key), descending })),
  );

/** A facet's counts over the matching entries, in its target's list order, then values the list does not show by id. */
function expectedFacet(kind: string, filter: string, matching: readonly Then[]) {
  const target = routes.queries[kind]!.filters.find((f) => f.name === filter)!.target;
  const counts = new Map<string, number>();
  for (const e of matching) for (const value of new Set(e.values[filter])) counts.set(value, (counts.get(value) ?? 0) + 1);
  return facetOf(
    counts,
    target,
    () => world.list(target!).map((link) => ({ name: link.name, id: idOf(link) })),
    (name) => world.doc(target!, name)['id'] as number,
    baseUrl,
  );
}

const expectedSummary = (range: string, matching: readonly Then[]) => summaryOf(matching.map((e) => e.numbers[range]!));

/** What the answer to `q` should hold, worked out from the entries of then. */
function expectedAnswer(q: Asked, kind: string, entries: readonly Then[]): Doc {
  const inRange = (n: number | null | undefined) => q.range === null || (n !== null && n !== undefined && n >= q.range.low && n <= q.range.high);
  const matching = entries.filter(
    (e) => q.filters.every(({ filter, values }) => values.some((v) => e.values[filter]!.includes(v))) && inRange(q.range && e.numbers[q.range.name]),
  );
  const page = sortedBy(matching, q.sort).slice(q.offset, q.offset + q.limit);
  return {
    count: matching.length,
    ...(q.facets.length > 0 ? { facets: Object.fromEntries(q.facets.map((f) => [f, expectedFacet(kind, f, matching)])) } : {}),
    ...(q.summary.length > 0 ? { summary: Object.fromEntries(q.summary.map((r) => [r, expectedSummary(r, matching)])) } : {}),
    results: page.map((e) => ({ ...e.link, ...Object.fromEntries(q.fields.map((f) => [f, e.fields[f]])) })),
  };
}

/** The parts of an answer the oracle works out (its page links are checked by test/as-of.test.ts). */
const checkedParts = (body: Doc): Doc => Object.fromEntries(['count', 'facets', 'summary', 'results'].filter((k) => k in body).map((k) => [k, body[k]]));

const SEGMENTS = () => [...world.list('generation').map((g) => g.name), 'red-blue', 'black-white', 'x-y'];

describe('queries as of a game, against the documents of then', () => {
  it.each([CREATURES, MOVES, TYPES, ABILITIES].map((of) => [of.kind, of] as const))(
    `%s: ${QUERIES_PER_ERA} seeded queries as of each generation and three version groups (filters, a range, sorts, facets, summaries, fields and pages of then)`,
    async (kind, of) => {
      const problems: string[] = [];
      let asked = 0,
        matchedSome = 0;
      for (const [n, segment] of SEGMENTS().entries()) {
        const entries = of.then(world.resolve(segment)!);
        const random = seeded(3300 + n);
        for (let i = 0; i < QUERIES_PER_ERA; i++) {
          const q = drawQuery(random, of, entries);
          const path = `as-of/${segment}/${kind}/?${queryString(q)}`;
          const reply = await respond({ method: 'GET', url: `${new URL(baseUrl).origin}/v2/${path}`, headers: new Headers() });
          const text = decoder.decode(reply.body ?? new Uint8Array());
          asked++;
          if (reply.status !== 200) {
            problems.push(`GET /v2/${path}: ${reply.status} ${text.slice(0, 160)}`);
            continue;
          }
          const expected = expectedAnswer(q, kind, entries);
          if ((expected['count'] as number) > 0) matchedSome++;
          const found = checkedParts(JSON.parse(text) as Doc);
          if (JSON.stringify(found) !== JSON.stringify(expected))
            problems.push(`GET /v2/${path}: ${differences(expected, found, 3).join('; ') || 'the keys in another order'}`);
        }
      }
      expect(problems.slice(0, 8), `${problems.length} of ${asked} queries departed`).toEqual([]);
      // most of the drawn queries match some entries: an oracle of empty answers would prove little
      expect(matchedSome).toBeGreaterThan(asked / 2);
    },
  );
});
