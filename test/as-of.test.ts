/**
 * "The game as it was", checked against an oracle (test/support/as-of-oracle.ts) that
 * works each answer out from today's built item documents and the rules, sharing no code
 * with the feature. Each `{v}` is a generation (all nine), four version groups and two versions:
 * - the creature answer for every creature with past types, abilities or stats and a seeded 20
 *   others (ids ≥ 10001 among them); the move answer for every move with past values and 10
 *   others; every type; a seeded 30 abilities; a 404 wherever the item did not exist yet; and
 *   seeded samples of each, with matchups, as of every other version group;
 * - the matchups of the same creatures today and as of each generation;
 * - the named cases, as plain assertions with their values read from the documents;
 * - how `{v}` resolves (a version, a generation, an unknown segment or kind) and that a name and
 *   an id give the same bytes.
 * Requests go to the request module in-process over the global setup's build; a few go over
 * HTTP to the preview. A failure names the request and the first paths where it differs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createResponder } from '../edge/handler.ts';
import { listFile } from '../contract/layout.ts';
import { diskReader } from '../generator/preview/disk-reader.ts';
import { differences } from './support/examples.ts';
import {
  TODAY,
  World,
  abilitiesAsOf,
  creatureAsOf,
  creatureExists,
  idOf,
  spread,
  typesAsOf,
  type CreatureFacts,
  type Doc,
  type Era,
  type Link,
} from './support/as-of-oracle.ts';

const distDir = inject('distDir');
const baseUrl = inject('baseUrl');
const previewUrl = inject('previewUrl');
const respond = createResponder(diskReader(distDir), { baseUrl });
const decoder = new TextDecoder();

// none the last of its generation, which would repeat that generation's answers byte for byte:
// red-blue before yellow, colosseum between emerald and xd, black-white before the creatures
// black-2-white-2 brought, sword-shield before legends-arceus (generation-viii's last)
const GROUPS = ['red-blue', 'colosseum', 'black-white', 'sword-shield'];
const VERSIONS = ['firered', 'sapphire'];
const GENERATIONS = (JSON.parse(readFileSync(join(distDir, listFile('generation')), 'utf8')) as { results: Link[] }).results.map((g) => g.name);
// firered stands for firered-leafgreen, generation-iii's last group: the same answers as generation-iii,
// so it is checked in the resolution test alone (byte for byte against its group)
const SEGMENTS = [...GENERATIONS, ...GROUPS, ...VERSIONS.filter((v) => v !== 'firered')];
const SEED = 33;

let world: World;
let eras: Era[];
let creatureIds: number[];
let moveIds: number[];
let abilityIds: number[];
let requests = 0;

beforeAll(() => {
  world = new World(distDir, baseUrl);
  eras = SEGMENTS.map((segment) => world.resolve(segment) ?? failResolve(segment));
  const pastCreatures = world.creatures.filter((c) => c.hasPast).map((c) => c.id);
  const others = world.creatures.filter((c) => !c.hasPast).map((c) => c.id);
  // the alternative forms (ids from 10001) are a quarter of the creatures: 6 of the 20
  creatureIds = [
    ...pastCreatures,
    ...spread(
      others.filter((id) => id < 10001),
      14,
      SEED,
    ),
    ...spread(
      others.filter((id) => id >= 10001),
      6,
      SEED,
    ),
  ];
  const pastMoves = world.moves.filter((m) => m.pastValues.length > 0).map((m) => m.id);
  moveIds = [
    ...pastMoves,
    ...spread(
      world.moves.filter((m) => m.pastValues.length === 0).map((m) => m.id),
      10,
      SEED,
    ),
  ];
  abilityIds = spread(world.ids('ability'), 30, SEED);
});

afterAll(() => console.log(`[as-of] ${requests} requests in-process`));

const failResolve = (segment: string): never => {
  throw new Error(`the oracle cannot resolve ${segment}`);
};

interface Answer {
  status: number;
  contentType: string;
  text: string;
}

/** One GET to the request module, in-process. */
async function get(path: string): Promise<Answer> {
  requests++;
  const reply = await respond({ method: 'GET', url: `${new URL(baseUrl).origin}/v2/${path}`, headers: new Headers() });
  return { status: reply.status, contentType: reply.headers['content-type'] ?? '', text: decoder.decode(reply.body ?? new Uint8Array()) };
}

async function getJson(path: string): Promise<Doc> {
  const answer = await get(path);
  expect(answer.status, `GET /v2/${path}: ${answer.text.slice(0, 200)}`).toBe(200);
  return JSON.parse(answer.text) as Doc;
}

/** A 404 with a JSON body, as the answer for something that did not exist yet. */
async function expect404(path: string): Promise<Answer> {
  const answer = await get(path);
  expect(isJson404(answer), `GET /v2/${path}: ${answer.status} ${answer.contentType} ${answer.text.slice(0, 120)}`).toBe(true);
  return answer;
}

const isJson404 = (answer: Answer): boolean => answer.status === 404 && answer.contentType.startsWith('application/json') && parsed(answer.text) !== undefined;
/** The JSON value of a body, undefined when it is not JSON. */
const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

/** The first place where two equal values list their keys in another order, as a path. */
function keyOrderAt(expected: unknown, actual: unknown, path = ''): string | null {
  if (expected === null || actual === null || typeof expected !== 'object' || typeof actual !== 'object') return null;
  const e = expected as Record<string, unknown>,
    a = actual as Record<string, unknown>;
  if (!Array.isArray(e) && Object.keys(e).join() !== Object.keys(a).join())
    return `${path || '/'}: keys ${Object.keys(e).join(',')}, found ${Object.keys(a).join(',')}`;
  for (const key of Object.keys(e)) {
    const inner = keyOrderAt(e[key], a[key], `${path}/${key}`);
    if (inner) return inner;
  }
  return null;
}

/** How the answer to `path` departs from the oracle's (null: a 404 JSON), as one line; null when it does not. */
function mismatch(path: string, expected: Doc | null, answer: Answer): string | null {
  const request = `GET /v2/${path}`;
  if (expected === null) return isJson404(answer) ? null : `${request}: expected a 404 JSON, found ${answer.status} ${answer.contentType}`;
  if (answer.status !== 200) return `${request}: expected 200, found ${answer.status} ${answer.text.slice(0, 120)}`;
  // the answers are compact JSON: equal text is the quick way to equal values in the same key order
  if (answer.text === JSON.stringify(expected)) return null;
  const actual = parsed(answer.text);
  if (actual === undefined) return `${request}: the body is not JSON: ${answer.text.slice(0, 120)}`;
  const found = differences(expected, actual, 3);
  if (found.length > 0) return `${request}: ${found.join('; ')}`;
  const order = keyOrderAt(expected, actual);
  return order === null ? null : `${request}: ${order}`;
}

/** The mismatches of one test, the first few kept whole (a broken rule fails hundreds of requests alike). */
class Mismatches {
  private readonly lines: string[] = [];
  private count = 0;
  add(line: string | null): void {
    if (line === null) return;
    this.count++;
    if (this.lines.length < 12) this.lines.push(line);
  }
  /** [] when every request matched */
  report(): string[] {
    return this.count > this.lines.length ? [...this.lines, `… ${this.count} mismatching requests in all`] : this.lines;
  }
}

async function check(mismatches: Mismatches, path: string, expected: Doc | null): Promise<void> {
  mismatches.add(mismatch(path, expected, await get(path)));
}

/** Each of `ids` of a kind as of one segment against the oracle's answer (null: a 404); the mismatches, none when all match. */
async function checkEach(segment: string, kind: string, ids: readonly number[], expected: (id: number, era: Era) => Doc | null): Promise<string[]> {
  const era = eras.find((e) => e.segment === segment)!;
  const mismatches = new Mismatches();
  for (const id of ids) await check(mismatches, `as-of/${segment}/${kind}/${id}/`, expected(id, era));
  return mismatches.report();
}

describe("as of each v, the answers are the oracle's", () => {
  it('creature: every one with past entries and 20 others, as of every v', async () => {
    const mismatches = new Mismatches();
    for (const id of creatureIds) {
      // one parse per creature for all the eras: the checked documents are 110 MB
      const doc = world.doc('creature', id);
      const born = world.creatureById.get(id)!.bornOrder;
      for (const era of eras) await check(mismatches, `as-of/${era.segment}/creature/${id}/`, creatureAsOf(doc, born, era));
    }
    expect(mismatches.report()).toEqual([]);
  });

  it.each(SEGMENTS)('move: every one with past values and 10 others, as of %s', async (segment) => {
    expect(await checkEach(segment, 'move', moveIds, (id, era) => world.moveAsOf(world.doc('move', id), era))).toEqual([]);
  });

  it.each(SEGMENTS)('type: every one, as of %s', async (segment) => {
    const ids = world.typeDocs.map((doc) => doc['id'] as number);
    expect(await checkEach(segment, 'type', ids, (id, era) => world.typeAsOf(world.doc('type', id), era))).toEqual([]);
  });

  it.each(SEGMENTS)('ability: a seeded 30, as of %s', async (segment) => {
    expect(await checkEach(segment, 'ability', abilityIds, (id, era) => world.abilityAsOf(world.doc('ability', id), era))).toEqual([]);
  });

  it('every other version group (the DLC groups and the remakes among them): seeded samples of each kind, and matchups', async () => {
    const mismatches = new Mismatches();
    const named = new Set(eras.map((era) => era.group));
    const others = [...world.groupOrder.keys()].filter((group) => !named.has(group));
    const creatures = spread(creatureIds, 12, SEED),
      moves = spread(moveIds, 8, SEED),
      abilities = spread(abilityIds, 4, SEED);
    const types = world.typeDocs.map((doc) => doc['id'] as number);
    for (const group of others) {
      const era = world.resolve(group)!;
      for (const id of creatures) {
        const c = world.creatureById.get(id)!;
        await check(mismatches, `as-of/${group}/creature/${id}/`, creatureAsOf(world.doc('creature', id), c.bornOrder, era));
        await check(mismatches, `as-of/${group}/creature/${id}/matchups/`, creatureExists(c, era) ? world.matchups(c, era) : null);
      }
      for (const id of moves) await check(mismatches, `as-of/${group}/move/${id}/`, world.moveAsOf(world.doc('move', id), era));
      for (const id of types) await check(mismatches, `as-of/${group}/type/${id}/`, world.typeAsOf(world.doc('type', id), era));
      for (const id of abilities) await check(mismatches, `as-of/${group}/ability/${id}/`, world.abilityAsOf(world.doc('ability', id), era));
    }
    expect(others.length).toBeGreaterThan(10);
    expect(mismatches.report()).toEqual([]);
  });
});

describe('matchups', () => {
  it("of the same creatures, today and as of each generation, are the products of the types' relations then", async () => {
    const mismatches = new Mismatches();
    const generations = eras.filter((era) => GENERATIONS.includes(era.segment));
    for (const id of creatureIds) {
      const creature = world.creatureById.get(id)!;
      await check(mismatches, `creature/${id}/matchups/`, world.matchups(creature, TODAY));
      for (const era of generations) {
        const expected = creatureExists(creature, era) ? world.matchups(creature, era) : null;
        await check(mismatches, `as-of/${era.segment}/creature/${id}/matchups/`, expected);
      }
    }
    expect(mismatches.report()).toEqual([]);
  });
});

const namesOf = (links: Array<{ name: string }>) => links.map((l) => l.name);
const statNames = (doc: Doc) => (doc['stats'] as Array<{ stat: Link }>).map((s) => s.stat.name);
const generationOf = (doc: Doc) => idOf(doc['generation'] as Link);

describe("the issue's named cases", () => {
  it('clefairy as of generation-v is normal, listed by normal then; fairy is not there yet', async () => {
    const clefairy = world.doc('creature', world.creatures.find((c) => c.link.name === 'clefairy')!.id);
    const past = (clefairy['past_types'] as Array<{ generation: Link; types: Array<{ type: Link }> }>).find((p) => p.generation.name === 'generation-v')!;
    expect(namesOf(past.types.map((t) => t.type))).toEqual(['normal']);
    const asOf = await getJson('as-of/generation-v/creature/clefairy/');
    expect(asOf['types']).toEqual(past.types);
    const normal = await getJson('as-of/generation-v/type/normal/');
    const listed = (normal['creature'] as Array<{ creature: Link }>).map((c) => c.creature);
    expect(listed).toContainEqual({ name: 'clefairy', url: `${baseUrl}/creature/${clefairy['id'] as number}/` });
    expect(generationOf(world.doc('type', 'fairy'))).toBeGreaterThan(5);
    await expect404('as-of/generation-v/type/fairy/');
  });

  it('a creature as of generation-i has special and no special-attack or special-defense', async () => {
    const bulbasaur = world.doc('creature', 1);
    const pastStats = bulbasaur['past_stats'] as Array<{ generation: Link; stats: Array<{ base_stat: number; stat: Link }> }>;
    const special = pastStats.find((p) => p.generation.name === 'generation-i')!.stats.find((s) => s.stat.name === 'special')!;
    const asOf = await getJson('as-of/generation-i/creature/1/');
    expect(statNames(asOf)).toContain('special');
    expect(statNames(asOf)).not.toContain('special-attack');
    expect(statNames(asOf)).not.toContain('special-defense');
    expect((asOf['stats'] as Array<{ base_stat: number; stat: Link }>).find((s) => s.stat.name === 'special')?.base_stat).toBe(special.base_stat);
  });
});

describe("the issue's named cases: what was not there yet", () => {
  it("steel is not there as of generation-i, and normal's relations then name no steel", async () => {
    expect(generationOf(world.doc('type', 'steel'))).toBeGreaterThan(1);
    await expect404('as-of/generation-i/type/steel/');
    const relationNames = (doc: Doc) => Object.values(doc['damage_relations'] as Record<string, Link[]>).flatMap(namesOf);
    // today's normal names steel: without it the check below would prove nothing
    expect(relationNames(world.doc('type', 'normal'))).toContain('steel');
    expect(relationNames(await getJson('as-of/generation-i/type/normal/'))).not.toContain('steel');
  });

  it('an ability is not there as of generation-ii, though it is as of its own generation', async () => {
    const ability = world.doc('ability', abilityIds[0]!);
    await expect404(`as-of/generation-ii/ability/${ability['id'] as number}/`);
    await expect404(`as-of/generation-ii/ability/${ability['name'] as string}/`);
    await getJson(`as-of/${(ability['generation'] as Link).name}/ability/${ability['id'] as number}/`);
  });
});

/** The status and bytes of two requests that should answer alike. */
async function expectSameBytes(path: string, other: string): Promise<void> {
  const [a, b] = [await get(path), await get(other)];
  expect(a.status, `GET /v2/${path}`).toBe(200);
  expect({ path: other, status: b.status, text: b.text }).toEqual({ path: other, status: 200, text: a.text });
}

describe('resolution of {v}', () => {
  it('a version answers as its version group', async () => {
    for (const version of VERSIONS) {
      const group = world.versionGroupOf.get(version)!;
      for (const item of ['creature/35', 'move/33', 'type/1']) await expectSameBytes(`as-of/${group}/${item}/`, `as-of/${version}/${item}/`);
    }
  });

  it('a generation answers as its last version group by order', async () => {
    const last = world.lastGroupOf(idOf(world.generations.find((g) => g.name === 'generation-iv')!))!;
    for (const item of ['creature/35', 'move/33', 'type/1', 'ability/1', 'creature/35/matchups']) {
      await expectSameBytes(`as-of/${last}/${item}/`, `as-of/generation-iv/${item}/`);
    }
  });

  it('an unknown v or kind is a 404 JSON naming the segment', async () => {
    for (const [path, segment] of [
      ['as-of/nope/creature/1/', 'nope'],
      ['as-of/red-blue/berry/1/', 'berry'],
    ] as const) {
      expect((await expect404(path)).text).toContain(segment);
    }
  });

  it('by name and by id give the same bytes', async () => {
    const pairs: Array<[string, string]> = [];
    for (const [kind, id] of [
      ['creature', 35],
      ['move', 33],
      ['type', 1],
      ['ability', 1],
    ] as const) {
      pairs.push([`as-of/generation-iv/${kind}/${id}/`, `as-of/generation-iv/${kind}/${world.doc(kind, id)['name'] as string}/`]);
    }
    pairs.push(
      ['creature/35/matchups/', 'creature/clefairy/matchups/'],
      ['as-of/red-blue/creature/35/matchups/', 'as-of/red-blue/creature/clefairy/matchups/'],
    );
    for (const [byId, byName] of pairs) await expectSameBytes(byId, byName);
  });
});

describe('over HTTP', () => {
  it('the preview serves the same answers', async () => {
    const paths = ['as-of/generation-v/creature/35/', 'as-of/generation-i/type/normal/', 'creature/35/matchups/', 'as-of/nope/creature/1/'];
    for (const path of paths) {
      const [local, served] = [await get(path), await fetch(`${previewUrl}/v2/${path}`)];
      expect({ path, status: served.status, text: await served.text() }).toEqual({ path, status: local.status, text: local.text });
    }
  });
});

/**
 * The lists as of each v (`/v2/as-of/{v}/{kind}/`), against the same oracle: which entries
 * existed, the filters whose members changed (creature type, ability and move; move type), the
 * fields of then (a creature's types, abilities and stats; a move's power, pp, accuracy and
 * type), the stat ranges, `count` and the pages' links.
 */
describe("as of each v, the lists are the oracle's", () => {
  type Entry = Link & Doc;
  const listed = (kind: string): Link[] => (JSON.parse(readFileSync(join(distDir, listFile(kind)), 'utf8')) as { results: Link[] }).results;
  const names = async (path: string): Promise<string[]> => ((await getJson(path))['results'] as Entry[]).map((e) => e.name);
  const creaturesWhere = (era: Era, holds: (c: CreatureFacts) => boolean): string[] =>
    listed('creature').flatMap((link) => {
      const c = world.creatureById.get(idOf(link))!;
      return creatureExists(c, era) && holds(c) ? [link.name] : [];
    });

  it('creature: what existed, and each type, a sample of abilities and moves as of then, with count and as-of page links', async () => {
    const problems = new Mismatches();
    const types = listed('type').map((t) => t.name);
    const abilities = spread(world.ids('ability'), 8, SEED).map((id) => world.doc('ability', id)['name'] as string);
    const listedCreatures = new Set(listed('creature').map(idOf));
    const moves = [
      'surf',
      'tackle',
      'hyper-beam',
      ...spread(
        world.moves.map((m) => m.id),
        4,
        SEED,
      ).map((id) => world.moves.find((m) => m.id === id)!.name),
    ];
    for (const era of eras) {
      const base = `as-of/${era.segment}/creature/`;
      const all = creaturesWhere(era, () => true);
      const first = await getJson(`${base}?limit=2`);
      problems.add(first['count'] === all.length ? null : `${base}: count ${String(first['count'])}, the oracle ${all.length}`);
      problems.add(first['next'] === (all.length > 2 ? `${baseUrl}/${base}?offset=2&limit=2` : null) ? null : `${base}: next ${String(first['next'])}`);
      const same = async (path: string, expected: string[]) => {
        const found = await names(path);
        problems.add(
          found.join() === expected.join()
            ? null
            : `GET /v2/${path}: ${found.length} names, the oracle ${expected.length}; first apart: ${found.find((n, i) => n !== expected[i]) ?? expected[found.length]}`,
        );
      };
      for (const type of types)
        await same(
          `${base}?type=${type}&limit=100000`,
          creaturesWhere(era, (c) => typesAsOf(c, era).some((t) => t.type.name === type)),
        );
      for (const ability of abilities)
        await same(
          `${base}?ability=${ability}&limit=100000`,
          creaturesWhere(era, (c) => abilitiesAsOf(c, era).some((a) => a.ability?.name === ability)),
        );
      for (const move of moves)
        await same(
          `${base}?move=${move}&limit=100000`,
          creaturesWhere(era, (c) => c.learns.get(move)?.has(era.group) === true),
        );
      // the move facet of then: every move learned then, by id, named and linked as today's move list names it
      const learners = new Map<string, number>();
      for (const c of world.creatures) {
        if (!creatureExists(c, era) || !listedCreatures.has(c.id)) continue;
        for (const [move, groups] of c.learns) if (groups.has(era.group)) learners.set(move, (learners.get(move) ?? 0) + 1);
      }
      const expectedFacet = listed('move').flatMap((link) => (learners.has(link.name) ? [{ ...link, count: learners.get(link.name)! }] : []));
      const facet = ((await getJson(`${base}?facets=move&limit=1`))['facets'] as Record<string, unknown>)['move'];
      problems.add(
        JSON.stringify(facet) === JSON.stringify(expectedFacet) ? null : `GET /v2/${base}?facets=move: ${differences(expectedFacet, facet, 3).join('; ')}`,
      );
    }
    expect(problems.report()).toEqual([]);
  });

  it('creature: the fields and stat ranges of then, for every creature with past entries and a sample of others', async () => {
    const problems = new Mismatches();
    const sample = [
      ...new Set([
        ...world.creatures.filter((c) => c.hasPast),
        ...spread(
          world.creatures.map((c) => c.id),
          20,
          SEED,
        ).map((id) => world.creatureById.get(id)!),
      ]),
    ];
    // what the fields read of each document, parsed once for every v
    const slim = new Map(
      sample.map((c) => {
        const doc = world.doc('creature', c.id);
        return [
          c.id,
          { ...Object.fromEntries(['name', 'types', 'past_types', 'abilities', 'past_abilities', 'stats', 'past_stats'].map((k) => [k, doc[k]])), moves: [] },
        ] as const;
      }),
    );
    for (const era of eras) {
      const expected = new Map(
        sample.flatMap((c) => {
          const doc = creatureAsOf(slim.get(c.id)!, c.bornOrder, era);
          return doc ? [[doc['name'] as string, doc] as const] : [];
        }),
      );
      // in batches of 100 ids: a parameter's value is capped at 2,000 characters
      const results: Entry[] = [];
      const path = `as-of/${era.segment}/creature/?fields=types,abilities,stats&limit=100000&id=…`;
      for (let at = 0; at < sample.length; at += 100) {
        const ids = sample
          .slice(at, at + 100)
          .map((c) => c.id)
          .join(',');
        results.push(...((await getJson(`as-of/${era.segment}/creature/?id=${ids}&fields=types,abilities,stats&limit=100000`))['results'] as Entry[]));
      }
      problems.add(results.length === expected.size ? null : `GET /v2/${path}: ${results.length} entries, the oracle ${expected.size}`);
      for (const entry of results) {
        const doc = expected.get(entry.name);
        // the fields in the kind's declared order, which is the item's key order
        const wanted = doc && { name: entry.name, url: entry.url, abilities: doc['abilities'], stats: doc['stats'], types: doc['types'] };
        problems.add(JSON.stringify(entry) === JSON.stringify(wanted) ? null : `GET /v2/${path}: ${entry.name}: ${differences(wanted, entry, 3).join('; ')}`);
      }
      // a range reads the stats of then: each sampled creature's base stat total finds it, and special-attack matches nothing in generation I
      for (const [name, doc] of [...expected].slice(0, 12)) {
        const total = (doc['stats'] as Array<{ base_stat: number }>).reduce((sum, s) => sum + s.base_stat, 0);
        const found = await names(`as-of/${era.segment}/creature/?base_stat_total=${total}..${total}&limit=100000`);
        problems.add(found.includes(name) ? null : `${era.segment}: base_stat_total=${total}..${total} leaves out ${name}`);
      }
      if (era.generation === 1)
        problems.add(
          (await getJson(`as-of/${era.segment}/creature/?special-attack=0..&limit=1`))['count'] === 0
            ? null
            : `${era.segment}: special-attack matches creatures`,
        );
    }
    expect(problems.report()).toEqual([]);
  });

  it('move: what existed, its type filter, and the values of then as fields', async () => {
    const problems = new Mismatches();
    const docs = new Map(world.moves.map((m) => [m.id, world.doc('move', m.id)]));
    for (const era of eras) {
      const path = `as-of/${era.segment}/move/?fields=power,pp,accuracy,type&limit=100000`;
      const results = new Map(((await getJson(path))['results'] as Entry[]).map((e) => [e.name, e]));
      const expected = listed('move').flatMap((link) => {
        const doc = world.moveAsOf(docs.get(idOf(link))!, era);
        return doc ? [{ name: link.name, url: link.url, accuracy: doc['accuracy'], pp: doc['pp'], power: doc['power'], type: doc['type'] }] : [];
      });
      problems.add(results.size === expected.length ? null : `GET /v2/${path}: ${results.size} moves, the oracle ${expected.length}`);
      for (const wanted of expected)
        problems.add(
          JSON.stringify(results.get(wanted.name)) === JSON.stringify(wanted)
            ? null
            : `GET /v2/${path}: ${wanted.name}: ${differences(wanted, results.get(wanted.name), 3).join('; ')}`,
        );
      const normal = expected.filter((m) => (m.type as Link).name === 'normal').map((m) => m.name);
      const found = await names(`as-of/${era.segment}/move/?type=normal&limit=100000`);
      problems.add(found.join() === normal.join() ? null : `${era.segment}: type=normal lists ${found.length} moves, the oracle ${normal.length}`);
    }
    expect(problems.report()).toEqual([]);
  });

  it('type and ability: what existed', async () => {
    const problems = new Mismatches();
    for (const era of eras) {
      for (const kind of ['type', 'ability'] as const) {
        const expected = listed(kind)
          .filter((link) => (kind === 'type' ? world.typeAsOf(world.doc(kind, idOf(link)), era) : world.abilityAsOf(world.doc(kind, idOf(link)), era)) !== null)
          .map((l) => l.name);
        const found = await names(`as-of/${era.segment}/${kind}/?limit=100000`);
        problems.add(found.join() === expected.join() ? null : `${era.segment} ${kind}: ${found.length} listed, the oracle ${expected.length}`);
      }
    }
    expect(problems.report()).toEqual([]);
  });
});
