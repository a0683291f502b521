/**
 * Filters, `q` and search, checked against an oracle computed here from
 * the built item documents themselves, not from the indexes or the declarations that made them:
 * - every value of every filter of `creature`, `creature-species` and `move` (and of `ability`
 *   and `item`), every distinct value of each range as `v..v`, and seeded random pairs, answer
 *   exactly the items the documents say, in list order;
 * The thousands of queries go to the request module in-process (the preview's reader over the
 * same dist/, without sockets, to keep CI short); a few go over HTTP to the running preview.
 * - every translated name of every species finds it through `q`;
 * - English names with one typo find the intended entry in the top three of `/v2/search/`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createResponder } from '../edge/handler.ts';
import { itemFile, listFile } from '../edge/layout.ts';
import { diskReader } from '../generator/preview/disk-reader.ts';
import type { FullList } from '../edge/pagination.ts';

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
const one = (field: string): Values => (item) => [ref(item[field])].filter((n): n is string => n !== null);
const flag = (field: string): Values => (item) => [item[field] as boolean];
const field = (name: string): NumberOf => (item) => item[name] as number | null;

interface Docs {
  /** an item document by kind and id */
  get(kind: string, id: number): Doc;
}

const idOf = (url: string) => Number(/\/(\d+)\/?$/.exec(url)![1]);

/** The species of a creature, from its `species` link. */
const speciesOf = (item: Doc, docs: Docs) => docs.get('creature-species', idOf((item.species as { url: string }).url));
const throughSpecies = (values: Values): Values => (item, docs) => values(speciesOf(item, docs), docs);
/** A list of links (`egg_groups`, `attributes`): their names. */
const many = (field: string): Values => (item) => (item[field] as Array<{ name: string }>).map((link) => link.name);
const stat = (name: string): NumberOf => (item) => (item.stats as Array<{ base_stat: number; stat: { name: string } }>).find((s) => s.stat.name === name)?.base_stat ?? null;

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
    ranges: Object.fromEntries(['hp', 'attack', 'defense', 'special-attack', 'special-defense', 'speed'].map((s) => [s, stat(s)])),
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
    ranges: {},
  },
  move: {
    values: {
      type: one('type'),
      damage_class: one('damage_class'),
      generation: one('generation'),
      target: one('target'),
      ailment: (item) => [ref((item.meta as Doc | null)?.ailment)].filter((n): n is string => n !== null),
    },
    ranges: { power: field('power'), accuracy: field('accuracy'), pp: field('pp'), priority: field('priority') },
  },
  ability: { values: { generation: one('generation'), is_main_series: flag('is_main_series') }, ranges: {} },
  item: { values: { category: one('category'), attribute: many('attributes') }, ranges: {} },
};

class DistDocs implements Docs {
  private readonly cache = new Map<string, Doc>();
  get(kind: string, id: number): Doc {
    const key = `${kind}/${id}`;
    let doc = this.cache.get(key);
    if (!doc) this.cache.set(key, (doc = JSON.parse(readFileSync(join(distDir, itemFile(kind, id)), 'utf8')) as Doc));
    return doc;
  }
}

const docs = new DistDocs();
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

/** A small seeded generator, so a failing sample can be run again. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
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
      const expected = facts.names.filter((_, i) => va.some((v) => facts.values.get(a)![i]!.includes(v)) && vb.some((v) => facts.values.get(b)![i]!.includes(v)));
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
    case 0: return name.slice(0, at) + name.slice(at + 1);
    case 1: return name.slice(0, at) + name[at] + name.slice(at);
    case 2: return name.slice(0, at) + name[at + 1] + name[at] + name.slice(at + 2);
    default: return name.slice(0, at) + (name[at] === 'e' ? 'a' : 'e') + name.slice(at + 1);
  }
}

describe('search that forgives typos', () => {
  // Narrowed to species: unnarrowed, a typo that is also a prefix of another name ranks that
  // name first, as it should (`kubu`, kubfu misspelt, begins eiscue's German name Kubuin, and
  // eiscue's two creatures and species fill the top three).
  it('a sample of species names with one typo finds the species in the top three', async () => {
    const random = seeded(660);
    const names = listOf('creature-species').results.map((e) => e.name!).filter((n) => /^[a-z]{5,}$/.test(n));
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
    for (const path of ['creature/?type=fire&generation=generation-i', 'creature-species/?q=%E3%83%94%E3%82%AB%E3%83%81%E3%83%A5%E3%82%A6', 'move/?damage_class=special&type=electric&power=90..']) {
      expect(await fetchJson(path), path).toEqual(await getJson(path));
    }
  });
});
