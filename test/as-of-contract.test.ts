/**
 * The contract of the answers as of a game holds for real answers: the request logic
 * makes them at the edge, so no build step checks them against their schemas. Here the whole
 * build's answers, from the in-process responder, are checked with the project's ajv against
 * schemas/output/as-of.ts (the four kinds as of four games of three sorts, the matchups, the
 * 404 bodies), type-checked against the `.d.ts` the build wrote, and the docs page's "As of a
 * game" examples answer what their words say.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createResponder } from '../edge/handler.ts';
import { listFile } from '../contract/layout.ts';
import { diskReader } from '../generator/preview/disk-reader.ts';
import { TYPES_FILE } from '../generator/artifacts/typescript-types.ts';
import { AS_OF_ITEMS, AsOfNotFound, Matchups } from '../schemas/output/as-of.ts';
import { NotFound } from '../schemas/output/common.ts';
import { validatorFor } from '../schemas/ajv.ts';
import { sameShapesOnce, typeCheck, type Sample } from './support/type-samples.ts';

const distDir = inject('distDir');
const baseUrl = inject('baseUrl');
const respond = createResponder(diskReader(distDir), { baseUrl });
const decoder = new TextDecoder();

type Kind = keyof typeof AS_OF_ITEMS;
type Doc = Record<string, unknown>;
type Link = { name: string; url: string };

async function get(path: string): Promise<{ status: number; body: unknown; text: string }> {
  const reply = await respond(new Request(`http://localhost${path}`));
  const text = decoder.decode(reply.body as Uint8Array);
  return { status: reply.status, body: JSON.parse(text) as unknown, text };
}

/** The games asked about: a version group, a version and a generation, from generation I to IX. */
const GAMES = ['red-blue', 'firered', 'generation-v', 'scarlet-violet'] as const;

/** Items of a kind to ask about: the list's first, middle and last, and named ones whose past fields the rules apply. */
function keysOf(kind: Kind): string[] {
  const ids = (JSON.parse(readFileSync(join(distDir, listFile(kind)), 'utf8')) as { results: { url: string }[] }).results.map(
    (r) => /\/(-?\d+)\/$/.exec(r.url)![1]!,
  );
  const named: Record<Kind, string[]> = {
    creature: ['clefairy', 'gengar', 'pikachu', 'butterfree', 'magnemite', 'chikorita', 'deoxys-attack'],
    move: ['tackle', 'bite', 'karate-chop', 'gust', 'hypnosis', 'moonblast'],
    type: ['steel', 'fairy', 'ghost', 'dark'],
    ability: ['levitate', 'cursed-body', 'stench', 'pixilate'],
    entry: ['pikachu', 'giratina', 'unown-b', 'eevee', 'clefairy', 'gengar'],
  };
  return [ids[0]!, ids[Math.floor(ids.length / 2)]!, ids.at(-1)!, ...named[kind]];
}

const validate = {
  ...(Object.fromEntries(Object.entries(AS_OF_ITEMS).map(([kind, schema]) => [kind, validatorFor(schema)])) as Record<Kind, (value: unknown) => string | null>),
  matchups: validatorFor(Matchups),
  asOfNotFound: validatorFor(AsOfNotFound),
  notFound: validatorFor(NotFound),
};

/** Every as-of answer asked for, by path: the samples of the checks below. */
const answers = new Map<string, { kind: Kind | 'matchups'; status: number; body: unknown; text: string }>();

beforeAll(async () => {
  for (const kind of Object.keys(AS_OF_ITEMS) as Kind[]) {
    for (const v of GAMES)
      for (const key of keysOf(kind)) answers.set(`/v2/as-of/${v}/${kind}/${key}/`, { kind, ...(await get(`/v2/as-of/${v}/${kind}/${key}/`)) });
  }
  for (const path of [
    '/v2/creature/clefairy/matchups/',
    '/v2/as-of/generation-v/creature/clefairy/matchups/',
    '/v2/as-of/red-blue/creature/charizard/matchups/',
    '/v2/as-of/firered/creature/gengar/matchups/',
  ]) {
    answers.set(path, { kind: 'matchups', ...(await get(path)) });
  }
}, 120_000);

describe('answers as of a game, against schemas/output/as-of.ts (the project’s ajv)', () => {
  it('every item that existed then is valid, for each of the five kinds as of each of four games; one that did not is the 404 body that says so', () => {
    const problems: string[] = [];
    const answered = new Map<string, number>();
    for (const [path, { kind, status, body }] of answers) {
      if (kind === 'matchups') continue;
      const error = status === 200 ? validate[kind](body) : status === 404 ? validate.asOfNotFound(body) : `status ${status}`;
      if (error) problems.push(`${path}: ${error}`);
      if (status === 200) answered.set(`${kind} ${path.split('/')[3]}`, (answered.get(`${kind} ${path.split('/')[3]}`) ?? 0) + 1);
      else expect((body as { detail: string }).detail, path).toMatch(/did not exist as of/);
    }
    expect(problems).toEqual([]);
    // every kind answers items in every game, but abilities, which came in generation III
    const expected = (Object.keys(AS_OF_ITEMS) as Kind[]).flatMap((kind) =>
      GAMES.filter((v) => !(kind === 'ability' && v === 'red-blue')).map((v) => `${kind} ${v}`),
    );
    expect([...answered.keys()].sort()).toEqual(expected.sort());
    for (const count of answered.values()) expect(count).toBeGreaterThanOrEqual(3);
  });

  it('applies the past fields and leaves them out: no answer holds a `past_*` field, and generation I has `special` and no abilities', () => {
    for (const [path, { status, text }] of answers)
      if (status === 200) expect(text, path).not.toMatch(/"past_(types|abilities|stats|values|damage_relations)"/);
    const first = answers.get(`/v2/as-of/red-blue/creature/${keysOf('creature')[0]}/`)!.body as { stats: { stat: Link }[]; abilities: unknown[] };
    expect(first.stats.map((s) => s.stat.name)).toContain('special');
    expect(first.stats.map((s) => s.stat.name)).not.toContain('special-attack');
    expect(first.abilities).toEqual([]);
  });

  it('matchups are valid, today and as of a game; a wrong one is not', () => {
    for (const [path, { kind, status, body }] of answers) {
      if (kind !== 'matchups') continue;
      expect(status, path).toBe(200);
      expect(validate.matchups(body), path).toBeNull();
    }
    const today = answers.get('/v2/creature/clefairy/matchups/')!.body as { defending: { type: Link; multiplier: number }[] };
    expect(validate.matchups({ defending: [{ ...today.defending[0]!, multiplier: '2' }] })).not.toBeNull();
    expect(validate.matchups({ ...today, levitate: true })).not.toBeNull();
  });

  it('the 404s: a game that names nothing and a kind not answered as of a game say so; an unknown name is "Not Found"', async () => {
    for (const path of [
      '/v2/as-of/no-such-game/creature/1/',
      '/v2/as-of/no-such-game/move/',
      '/v2/as-of/red-blue/item/1/',
      '/v2/as-of/red-blue/creature/chikorita/',
      '/v2/as-of/red-blue/creature/chikorita/matchups/',
    ]) {
      const { status, body } = await get(path);
      expect(status, path).toBe(404);
      expect(validate.asOfNotFound(body), path).toBeNull();
    }
    const unknown = await get('/v2/as-of/red-blue/creature/no-such-creature/');
    expect(unknown.status).toBe(404);
    expect(validate.notFound(unknown.body)).toBeNull();
    expect(validate.asOfNotFound({ error: 'missing', detail: 'x' })).not.toBeNull();
  });

  it('reject what an as-of answer is not: today’s item with its past field, a field of the wrong type, a missing field', () => {
    const creature = answers.get('/v2/as-of/generation-v/creature/clefairy/')!.body as Doc;
    const today = JSON.parse(readFileSync(join(distDir, 'v2/creature/35.json'), 'utf8')) as Doc;
    expect(validate.creature(creature)).toBeNull();
    expect(validate.creature(today)).not.toBeNull();
    expect(validate.creature({ ...creature, stats: 'none' })).not.toBeNull();
    const { types: _, ...noTypes } = creature;
    expect(validate.creature(noTypes)).not.toBeNull();
  });
});

describe('answers as of a game, against the .d.ts the build wrote', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'creature-as-of-types-'));
    writeFileSync(join(dir, 'creature-api.d.ts'), readFileSync(join(distDir, TYPES_FILE), 'utf8'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  /** `AsOfByKind['type']` imports `AsOfByKind`. */
  const write = (s: Sample) => `import type { ${s.type.replace(/\[.*$/, '')} } from './creature-api';\nexport const value: ${s.type} = ${s.json};\n`;
  const typeName = (kind: Kind | 'matchups') => (kind === 'matchups' ? 'Matchups' : `${kind[0]!.toUpperCase()}${kind.slice(1)}AsOf`);

  it('type-check every answer above as its type (`CreatureAsOf`, …, `Matchups`, `AsOfNotFound`), and the map by kind names them', () => {
    const samples: Sample[] = [...answers.values()].map((a, i) => ({
      file: `answer-${i}`,
      type: a.status === 200 ? typeName(a.kind) : 'AsOfNotFound',
      json: sameShapesOnce(a.text),
    }));
    samples.push({ file: 'by-kind', type: "AsOfByKind['type']", json: sameShapesOnce(answers.get('/v2/as-of/generation-v/type/steel/')!.text) });
    expect(new Set(samples.map((s) => s.type))).toEqual(
      new Set(['CreatureAsOf', 'MoveAsOf', 'TypeAsOf', 'AbilityAsOf', 'EntryAsOf', 'Matchups', 'AsOfNotFound', "AsOfByKind['type']"]),
    );
    const errors = typeCheck(dir, samples, write);
    expect(Object.fromEntries(errors)).toEqual({});
  }, 120_000);

  it('reject wrong values: a past field, a string multiplier, another error', () => {
    const creature = JSON.parse(answers.get('/v2/as-of/generation-v/creature/clefairy/')!.text) as Doc;
    const wrong: Sample[] = [
      { file: 'wrong-past-types', type: 'CreatureAsOf', json: JSON.stringify({ ...creature, past_types: [] }) },
      {
        file: 'wrong-multiplier',
        type: 'Matchups',
        json: JSON.stringify({ defending: [{ type: { name: 'normal', url: `${baseUrl}/type/1/` }, multiplier: '1' }] }),
      },
      { file: 'wrong-error', type: 'AsOfNotFound', json: JSON.stringify({ error: 'bad_parameter', detail: 'x' }) },
    ];
    const errors = typeCheck(dir, wrong, write);
    for (const w of wrong) expect(errors.get(w.file)?.length ?? 0, w.file).toBeGreaterThan(0);
  }, 120_000);
});

describe('the docs page’s "As of a game" examples, on the whole build', () => {
  const html = readFileSync(join(distDir, 'index.html'), 'utf8');
  const section = /<section id="as-of"[\s\S]*?<\/section>/.exec(html)?.[0] ?? '';
  const examples = [...section.matchAll(/<a data-try href="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
  const body = async <T>(path: string) => {
    const answer = await get(path);
    expect(answer.status, path).toBe(200);
    return answer.body as T;
  };
  const names = (links: Link[]) => links.map((l) => l.name);
  type Defending = { defending: { type: Link; multiplier: number }[] };
  const multipliers = (m: Defending) => Object.fromEntries(m.defending.map((d) => [d.type.name, d.multiplier]));

  it('every example link answers 200', async () => {
    expect(examples.filter((p) => p.startsWith('/v2/as-of/') || p.endsWith('/matchups/')).length).toBeGreaterThanOrEqual(6);
    for (const path of examples) expect((await get(path)).status, path).toBe(200);
  });

  it('clefairy was normal in generation V; generation I had `special` and no abilities; steel resisted ghost and dark before fairy', async () => {
    for (const path of ['/v2/as-of/generation-v/creature/clefairy/', '/v2/as-of/red-blue/creature/bulbasaur/', '/v2/as-of/generation-v/type/steel/'])
      expect(examples).toContain(path);
    const clefairy = await body<{ types: { type: Link }[] }>('/v2/as-of/generation-v/creature/clefairy/');
    expect(clefairy.types.map((t) => t.type.name)).toEqual(['normal']);
    const bulbasaur = await body<{ stats: { stat: Link }[]; abilities: unknown[] }>('/v2/as-of/red-blue/creature/bulbasaur/');
    expect(bulbasaur.stats.map((s) => s.stat.name).sort()).toEqual(['attack', 'defense', 'hp', 'special', 'speed']);
    expect(bulbasaur.abilities).toEqual([]);
    const steel = await body<{ damage_relations: Record<string, Link[]> }>('/v2/as-of/generation-v/type/steel/');
    expect(names(steel.damage_relations.half_damage_from!)).toEqual(expect.arrayContaining(['ghost', 'dark']));
    expect(Object.values(steel.damage_relations).flatMap(names)).not.toContain('fairy');
  });

  it('the matchups say what the page says, and the list holds normal creatures only', async () => {
    const then = multipliers(await body<Defending>('/v2/as-of/generation-v/creature/clefairy/matchups/'));
    expect(then).toMatchObject({ fighting: 2, ghost: 0 });
    expect(then).not.toHaveProperty('fairy');
    expect(multipliers(await body<Defending>('/v2/creature/clefairy/matchups/'))).toMatchObject({ dragon: 0, poison: 2, steel: 2 });
    const list = examples.find((p) => p.startsWith('/v2/as-of/generation-v/creature/?'))!;
    const page = await body<{ count: number; results: { types: { type: Link }[] }[] }>(list);
    expect(page.results.length).toBeGreaterThan(0);
    for (const entry of page.results) expect(entry.types.map((t) => t.type.name)).toContain('normal');
  });
});
