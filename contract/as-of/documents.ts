/**
 * An item as of a version group, made from today's document (or the build's as-of document of
 * it, facts.ts) by the rules (rules.ts, world.ts): the fields that changed over the games take
 * their values as of the game, the `past_*` field that held those values goes, and every other field is
 * today's, in today's key order.
 */
import type { CreatureAsOfDocument, EntryAsOfDocument, MoveAsOfDocument, Past, SlotAbility } from './facts.ts';
import { asOfMoveNamesFile, inGroups, RELATION_KEYS } from './facts.ts';
import { abilitiesAsOf, existsInGeneration, moveFieldAsOf, multiplier, statsAsOf, typesAsOf } from './rules.ts';
import type { Versions, VersionGroup } from './versions.ts';
import type { AsOfWorld } from './world.ts';

type Doc = Record<string, unknown>;
type Link = { name: string; url: string };

/** What an as-of item is made with: the version group, the version groups' order, the links' base. */
export interface AsOf {
  vg: VersionGroup;
  versions: Versions;
  /** `{base_url}`, e.g. `http://localhost:8080/v2` */
  base: string;
}

/** What an answer over every creature is made with (a type's or an ability's creatures, matchups): also the facts of every kind. */
export interface AsOfAll extends AsOf {
  world: AsOfWorld;
}

/** The id at the end of a link (`…/generation/4/` → 4). */
export function idOfLink(url: string): number {
  const match = /\/(-?\d+)\/?$/.exec(url);
  if (!match) throw new Error(`not a resource link: ${url}`);
  return Number(match[1]);
}

/** `{name, url}` of a resource, as today's documents link it. */
export const link = (base: string, kind: string, id: number, name: string): Link => ({ name, url: `${base}/${kind}/${id}/` });

/** `past_*` entries with their generation's number: the rules' form. */
function byGeneration<T>(entries: unknown, field: string): Past<T>[] {
  return (entries as Doc[]).map((entry) => [idOfLink((entry.generation as Link).url), entry[field] as T]);
}

/** Today's document with `changes` applied and the keys in `gone` left out, in today's key order. */
function withChanges(item: Doc, changes: Doc, gone: readonly string[]): Doc {
  const out: Doc = {};
  for (const [key, value] of Object.entries(item)) {
    if (gone.includes(key)) continue;
    out[key] = Object.hasOwn(changes, key) ? changes[key] : value;
  }
  return out;
}

type AbilityEntry = { ability: Link | null; is_hidden: boolean; slot: number };
type StatEntry = { base_stat: number; effort: number; stat: Link };

/** A creature's `types`, `abilities` and `stats` as of generation `g`, from today's and the `past_*` values its item holds. */
function battleValuesAsOf(today: Doc, past: { types: unknown; abilities: unknown; stats: unknown }, g: number) {
  return {
    types: typesAsOf(today.types as Doc[], byGeneration<Doc[]>(past.types, 'types'), g),
    abilities: abilitiesAsOf(today.abilities as AbilityEntry[], byGeneration<AbilityEntry[]>(past.abilities, 'abilities'), g, {
      slot: (a) => a.slot,
      empty: (a) => a.ability === null,
    }),
    stats: statsAsOf(today.stats as StatEntry[], byGeneration<StatEntry[]>(past.stats, 'stats'), g, (s) => idOfLink(s.stat.url)),
  };
}

/** A creature as of `vg`; `moveName` names a move by id (contract/as-of/facts.ts `asOfMoveNamesFile`: the document holds ids only). */
export function creatureAsOf(doc: CreatureAsOfDocument, { vg, base }: AsOf, moveName: (id: number) => string | undefined): Doc {
  const item = doc.item;
  return withChanges(
    item,
    {
      ...battleValuesAsOf(item, { types: item.past_types, abilities: item.past_abilities, stats: item.past_stats }, vg.generation),
      moves: movesIn(doc, vg, base, moveName),
    },
    ['past_types', 'past_abilities', 'past_stats'],
  );
}

type Evolution = { chain: unknown; stage: number; from: unknown; to: unknown[] };

/**
 * An entry as of `vg`: its creature's values then, only the forms and varieties that had come,
 * its species' place among the species of its chain that existed, and the dex text of the
 * versions `{v}` stands for (`versions`, Versions `versionsNamed`).
 */
export function entryAsOf(item: Doc, doc: EntryAsOfDocument, { vg, versions }: AsOf, versionNames: readonly string[]): Doc {
  const g = vg.generation;
  const battle = battleValuesAsOf(item, doc.past, g);
  const existed = (generation: number) => existsInGeneration(generation, g);
  const came = (born: readonly number[], what: string) => (_: unknown, i: number) => versions.cameBy(born[i]!, vg, `entry ${String(item.id)} ${what}`);
  const evolution = item.evolution as Evolution;
  const parent = doc.above.at(-1);
  return withChanges(
    item,
    {
      ...battle,
      base_stat_total: (battle.stats as StatEntry[]).reduce((sum, s) => sum + s.base_stat, 0),
      varieties: (item.varieties as unknown[]).filter(came(doc.varieties, 'variety')),
      forms: (item.forms as unknown[]).filter(came(doc.forms, 'form')),
      evolution: {
        ...evolution,
        stage: 1 + doc.above.filter(existed).length,
        from: parent !== undefined && existed(parent) ? evolution.from : null,
        to: evolution.to.filter((_, i) => existed(doc.below[i]!)),
      },
      flavor_text_entries: (item.flavor_text_entries as Array<{ version: Link }>).filter((entry) => versionNames.includes(entry.version.name)),
    },
    [],
  );
}

/** A move's name by id, for the answer about `owner`; a move with none is a fault of the build. */
function namedMove(id: number, moveName: (id: number) => string | undefined, owner: string): string {
  const name = moveName(id);
  if (name === undefined) throw new Error(`${owner}: move ${id} has no name in ${asOfMoveNamesFile}`);
  return name;
}

/** A creature's moves in one version group, each with that group's details only; moves it did not learn there are left out. */
function movesIn(doc: CreatureAsOfDocument, vg: VersionGroup, base: string, moveName: (id: number) => string | undefined): Doc[] {
  const group = link(base, 'version-group', vg.id, vg.name);
  const out: Doc[] = [];
  for (const [id, ...details] of doc.moves) {
    const here: Doc[] = [];
    for (let at = 0; at < details.length; at += 4) {
      if (details[at] !== vg.id) continue;
      const [level, method, order] = [details[at + 1]!, details[at + 2]!, details[at + 3]!];
      const methodName = doc.methods[String(method)];
      if (methodName === undefined) throw new Error(`creature ${String(doc.item.id)}: learn method ${method} has no name in its as-of document`);
      here.push({
        level_learned_at: level,
        move_learn_method: link(base, 'move-learn-method', method, methodName),
        order: order < 0 ? null : order,
        version_group: group,
      });
    }
    if (!here.length) continue;
    out.push({ move: link(base, 'move', id, namedMove(id, moveName, `creature ${String(doc.item.id)}`)), version_group_details: here });
  }
  return out;
}

const MOVE_FIELDS = ['power', 'pp', 'accuracy', 'effect_chance', 'type'] as const;

export function moveAsOf(item: Doc, doc: MoveAsOfDocument, { vg, versions }: AsOf): Doc {
  const past = item.past_values as Doc[];
  const orderOf = (entry: Doc) => versions.orderOf(idOfLink((entry.version_group as Link).url)) ?? -Infinity;
  const changes: Doc = {};
  for (const field of MOVE_FIELDS) changes[field] = moveFieldAsOf(item[field], past, vg.order, orderOf, (entry) => entry[field] ?? null);
  const learnedThen = new Set(
    doc.learners.filter(([creature, groups, born]) => inGroups(groups, vg.id) && versions.cameBy(born, vg, `creature ${creature}`)).map(([c]) => c),
  );
  changes.learned_by_creature = (item.learned_by_creature as Link[]).filter((l) => learnedThen.has(idOfLink(l.url)));
  return withChanges(item, changes, ['past_values']);
}

/** A type as of `vg`; `moveName` names a move by id (contract/as-of/facts.ts `asOfMoveNamesFile`). */
export function typeAsOf(item: Doc, { vg, world, base }: AsOfAll, moveName: (id: number) => string | undefined): Doc {
  const id = item.id as number;
  const relations = world.typeRelations(id, vg);
  const typeLinks = (ids: number[]) => ids.map((t) => link(base, 'type', t, world.typeName(t)!));
  const damage: Doc = {};
  for (const key of RELATION_KEYS) damage[key] = typeLinks(relations[key]);
  return withChanges(
    item,
    {
      damage_relations: damage,
      creature: world.creaturesOfType(id, vg).map((c) => ({ slot: c.entry[0], creature: link(base, 'creature', c.id, c.name) })),
      moves: world.movesOfType(id, vg).map((move) => link(base, 'move', move, namedMove(move, moveName, `type ${id}`))),
    },
    ['past_damage_relations'],
  );
}

export function abilityAsOf(item: Doc, { vg, world, base }: AsOfAll): Doc {
  const held = world.creaturesWithAbility(item.id as number, vg);
  const entry = (a: SlotAbility) => ({ is_hidden: a[2] === 1, slot: a[0] });
  return withChanges(item, { creature: held.map((c) => ({ ...entry(c.entry), creature: link(base, 'creature', c.id, c.name) })) }, []);
}

/** `{"defending": […]}`: each listed type that existed, and what its attacks do to the creature's types as of the version group. */
export function matchups(creature: number, listedTypes: readonly number[], { vg, world, base }: AsOfAll): Doc {
  const facts = world.creature(creature);
  if (!facts) throw new Error(`creature ${creature} has no as-of facts`);
  const defending = world.creatureTypes(facts, vg).map(([, type]) => type);
  const out: Doc[] = [];
  for (const attacking of listedTypes) {
    if (!world.typeExists(attacking, vg)) continue;
    out.push({ type: link(base, 'type', attacking, world.typeName(attacking)!), multiplier: multiplier(world.typeRelations(attacking, vg), defending) });
  }
  return { defending: out };
}
