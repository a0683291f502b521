/**
 * The entry as of a game, against an oracle that shares no code with it: the entry oracle of
 * today's documents (test/support/entry-oracle.ts) with the as-of oracle's creature rules
 * (test/support/as-of-oracle.ts) applied, and the dex text, forms, varieties and chain of then read
 * off the version, form, creature and species documents. A seeded sample of creatures (and the
 * named cases), as of every generation, a version group and two versions; the list as of a game
 * for its own filters.
 */
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createResponder } from '../edge/handler.ts';
import { diskReader } from '../generator/preview/disk-reader.ts';
import { differences } from './support/examples.ts';
import { expectedEntry, pathTo, type ChainLink, type DocSource } from './support/entry-oracle.ts';
import { abilitiesAsOf, creatureExists, idOf, spread, statsAsOf, typesAsOf, World, type Doc, type Era, type Link } from './support/as-of-oracle.ts';

const distDir = inject('distDir');
const baseUrl = inject('baseUrl');
const respond = createResponder(diskReader(distDir), { baseUrl });
const decoder = new TextDecoder();

const NAMED = [25, 26, 172, 133, 196, 487, 201, 439, 122, 10100];
const SEED = 46;

let world: World;
let docs: DocSource;
let sample: number[];
let segments: string[];

beforeAll(() => {
  world = new World(distDir, baseUrl);
  docs = { get: (kind, id) => world.doc(kind, id) };
  const ids = world.creatures.map((c) => c.id);
  sample = [...new Set([...NAMED, ...spread(ids, 30, SEED)])];
  segments = [...world.generations.map((g) => g.name), 'gold-silver', 'red', 'heartgold'];
});

async function get(path: string): Promise<{ status: number; body: unknown; text: string }> {
  const reply = await respond({ method: 'GET', url: `${new URL(baseUrl).origin}/v2/${path}`, headers: new Headers() });
  const text = decoder.decode(reply.body ?? new Uint8Array());
  return { status: reply.status, body: JSON.parse(text) as unknown, text };
}

/** The versions `{v}` stands for: the version itself, or every version of the group it names. */
function versionsOf(segment: string, era: Era): string[] {
  if (world.versionGroupOf.has(segment)) return [segment];
  return [...world.versionGroupOf].filter(([, group]) => group === era.group).map(([version]) => version);
}

const speciesGeneration = (species: Link) => idOf(world.doc('creature-species', idOf(species))['generation'] as Link);

/** The entry of creature `id` as of the era, or null when its creature did not exist then. */
function expectedAsOf(id: number, segment: string, era: Era): Doc | null {
  const creature = world.creatureById.get(id)!;
  if (!creatureExists(creature, era)) return null;
  const today = expectedEntry(docs, id);
  const stats = statsAsOf(creature.stats, creature.pastStats, era);
  const versions = versionsOf(segment, era);
  const existed = (species: Link) => speciesGeneration(species) <= era.generation;
  const evolution = today.evolution as { chain: { url: string }; from: { species: Link } | null; to: Array<{ species: Link }> };
  const chain = world.doc('evolution-chain', idOf(evolution.chain as Link))['chain'] as ChainLink;
  const above = pathTo(chain, (today.species as Link).name)
    .slice(0, -1)
    .map((link) => link.species);
  const parent = above.at(-1);
  const replaced: Doc = {
    types: typesAsOf(creature, era),
    abilities: abilitiesAsOf(creature, era),
    stats,
    base_stat_total: stats.reduce((sum, s) => sum + s.base_stat, 0),
    varieties: (today.varieties as Array<{ creature: Link }>).filter((v) => creatureExists(world.creatureById.get(idOf(v.creature))!, era)),
    forms: (today.forms as Array<{ url: string }>).filter(
      (f) => world.orderOf(world.doc('creature-form', idOf(f as Link))['version_group'] as Link) <= era.order,
    ),
    evolution: {
      ...evolution,
      stage: 1 + above.filter(existed).length,
      from: parent !== undefined && existed(parent) ? evolution.from : null,
      to: evolution.to.filter((step) => existed(step.species)),
    },
    flavor_text_entries: (today.flavor_text_entries as Array<{ version: Link }>).filter((e) => versions.includes(e.version.name)),
  };
  return Object.fromEntries(Object.entries(today).map(([key, value]) => [key, key in replaced ? replaced[key] : value]));
}

describe('the entry as of a game', () => {
  it('of a seeded sample and the named cases, as of every generation, a version group and two versions', async () => {
    const problems: string[] = [];
    let answered = 0;
    for (const segment of segments) {
      const era = world.resolve(segment)!;
      for (const id of sample) {
        const expected = expectedAsOf(id, segment, era);
        const { status, body, text } = await get(`as-of/${segment}/entry/${id}/`);
        if (expected === null) {
          if (status !== 404 || !(body as { detail: string }).detail.includes('did not exist as of'))
            problems.push(`${segment} ${id}: ${status}, not the 404 that says so`);
          continue;
        }
        answered++;
        if (status !== 200) problems.push(`${segment} ${id}: ${status}`);
        else if (text !== JSON.stringify(expected)) problems.push(`${segment} ${id}: ${differences(expected, body, 3).join('; ')}`);
      }
    }
    expect(problems).toEqual([]);
    expect(answered).toBeGreaterThan(segments.length * 10);
  });

  it('the issue’s cases: pikachu as of generation I evolves from nothing, its dex text is red’s as of red; a name gives the id’s bytes', async () => {
    const pikachu = (await get('as-of/generation-i/entry/pikachu/')).body as { evolution: { stage: number; from: unknown }; forms: unknown[] };
    expect(pikachu.evolution).toMatchObject({ stage: 1, from: null });
    const red = (await get('as-of/red/entry/bulbasaur/')).body as { flavor_text_entries: Array<{ version: Link }> };
    expect(red.flavor_text_entries.length).toBeGreaterThan(0);
    expect(new Set(red.flavor_text_entries.map((e) => e.version.name))).toEqual(new Set(['red']));
    expect((await get('as-of/platinum/entry/giratina/')).text).toBe((await get('as-of/platinum/entry/487/')).text);
    expect((await get('as-of/red-blue/entry/pichu/')).status).toBe(404);
  });

  it('the list as of a game answers its own filters with the values of then', async () => {
    for (const segment of ['generation-i', 'generation-ii', 'generation-iv']) {
      const era = world.resolve(segment)!;
      const { body } = await get(`as-of/${segment}/entry/?limit=100000&fields=evolution.stage,base_stat_total`);
      const results = (body as { results: Array<{ url: string; evolution: { stage: number }; base_stat_total: number }> }).results;
      const existing = world.creatures.filter((c) => creatureExists(c, era)).map((c) => c.id);
      expect(results.map((r) => idOf(r as unknown as Link)).sort((a, b) => a - b)).toEqual(existing);
      const wrong = results.filter((r) => {
        const expected = expectedAsOf(idOf(r as unknown as Link), segment, era)!;
        return r.evolution.stage !== (expected.evolution as { stage: number }).stage || r.base_stat_total !== expected.base_stat_total;
      });
      expect(wrong.map((r) => `${segment} ${r.url}`)).toEqual([]);
      const byTrade = (await get(`as-of/${segment}/entry/?evolution_trigger=trade&limit=100000`)).body as { results: Array<{ url: string }> };
      const trades = existing.filter((id) => {
        const from = (expectedAsOf(id, segment, era)!.evolution as { from: { evolution_details: Array<{ trigger: Link }> } | null }).from;
        return from?.evolution_details.some((d) => d.trigger.name === 'trade') ?? false;
      });
      expect(byTrade.results.map((r) => idOf(r as unknown as Link))).toEqual(trades);
    }
  });
});
