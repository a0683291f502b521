/**
 * A kind's list as of a version group, as the collection's query machinery reads it: which
 * entries existed, and the value filters, range columns and field values that changed over the
 * games, each made by the same rules as the as-of items (edge/as-of/world.ts). Every other
 * filter, range and field is today's, read from the kind's own indexes. Made for each version
 * group at build time (as-of-lists.ts writes them), read at the edge by edge/as-of-collection.ts.
 */
import { MOVE_VALUES, type CreatureStats, type SlotAbility, type SlotType, type StatValue } from '../../edge/as-of/facts.ts';
import { link } from '../../edge/as-of/documents.ts';
import type { VersionGroup } from '../../edge/as-of/versions.ts';
import type { AsOfWorld } from '../../edge/as-of/world.ts';

/** A value filter's values as of the version group: `[name, id, list positions ascending]`, by id. */
export type ValueRows = Array<[name: string, id: number, positions: number[]]>;

export interface AsOfListView {
  /** how many entries the kind's list holds (today's) */
  count: number;
  /** the list positions of the entries that existed, ascending */
  existing: number[];
  /** value filters whose members changed, by parameter name */
  values: Map<string, ValueRows>;
  /** range columns that changed, by parameter name: one number per list position, NaN for none */
  ranges: Map<string, Float64Array>;
  /**
   * declared fields whose values changed: each position's value, as an as-of item holds it; also
   * at the positions of entries that did not exist yet (never shown), so that a field's values
   * are the same for every version group that shares the rules' inputs (a creature's generation)
   */
  fields: Map<string, (position: number) => unknown>;
  /** views with the same key have the same `fields` (a creature's of then change by generation only, a move's by version group) */
  fieldsKey: string;
}

/** What a kind's view is made from: the version group, the facts, each list position's id, the links' base. */
export interface ViewScope {
  vg: VersionGroup;
  world: AsOfWorld;
  ids: ReadonlyArray<number | null>;
  base: string;
  /** each creature's stats (facts.ts StatsFile), for a creature list */
  stats?: ReadonlyMap<number, CreatureStats>;
  /** the creatures of then by generation, kept across the views of one making (a creature's of then change by generation only) */
  creaturesThen?: Map<number, Map<number, CreatureThen>>;
}


/** The view of one of the kinds answered as of a game; null for any other kind. */
export function listView(kind: string, scope: ViewScope): AsOfListView | null {
  if (kind === 'creature') return creatureView(scope);
  if (kind === 'move') return moveView(scope);
  if (kind === 'type') return existenceOnly(scope, (id) => scope.world.typeExists(id, scope.vg));
  if (kind === 'ability') return existenceOnly(scope, (id) => scope.world.abilityExists(id, scope.vg));
  return null;
}

const existingPositions = (ids: ReadonlyArray<number | null>, exists: (id: number) => boolean): number[] =>
  ids.flatMap((id, p) => (id !== null && exists(id) ? [p] : []));

function existenceOnly({ ids }: ViewScope, exists: (id: number) => boolean): AsOfListView {
  return { count: ids.length, existing: existingPositions(ids, exists), values: new Map(), ranges: new Map(), fields: new Map(), fieldsKey: 'none' };
}

/** Members by value id, then the rows in id order. */
function valueRows(members: Map<number, number[]>, nameOf: (id: number) => string | undefined): ValueRows {
  return [...members].sort(([a], [b]) => a - b).map(([id, positions]) => [nameOf(id) ?? String(id), id, positions]);
}

function addMember(members: Map<number, number[]>, id: number, position: number): void {
  const list = members.get(id);
  if (list) list.push(position);
  else members.set(id, [position]);
}

interface CreatureThen {
  types: readonly SlotType[];
  abilities: readonly SlotAbility[];
  stats: readonly StatValue[];
}

function creatureView(scope: ViewScope): AsOfListView {
  const { vg, world, ids } = scope;
  const existing = existingPositions(ids, (id) => world.creatureExists(id, vg));
  const then = scope.creaturesThen?.get(vg.generation) ?? creaturesThen(scope);
  scope.creaturesThen?.set(vg.generation, then);
  const byType = new Map<number, number[]>();
  const byAbility = new Map<number, number[]>();
  for (const p of existing) {
    const held = then.get(p)!;
    for (const [, type] of held.types) addMember(byType, type, p);
    for (const [, ability] of held.abilities) if (ability !== null) addMember(byAbility, ability, p);
  }
  const values = new Map([['type', valueRows(byType, (id) => world.typeName(id))], ['ability', valueRows(byAbility, (id) => world.abilityName(id))]]);
  return { count: ids.length, existing, values, ranges: creatureRanges(scope, then, existing), fields: creatureFields(scope, then), fieldsKey: `generation ${vg.generation}` };
}

/** Every listed creature's types, abilities and stats of then, by list position (those that did not exist yet too: see `fields`). */
function creaturesThen({ vg, world, ids, stats }: ViewScope): Map<number, CreatureThen> {
  const then = new Map<number, CreatureThen>();
  ids.forEach((id, p) => {
    if (id === null) return;
    const facts = world.creature(id);
    const own = stats?.get(id);
    if (!facts || !own) throw new Error(`creature ${id}: no facts or stats in the as-of facts`);
    then.set(p, { types: world.creatureTypes(facts, vg), abilities: world.creatureAbilities(facts, vg), stats: world.creatureStats(own, vg) });
  });
  return then;
}

/**
 * A creature list's `move` filter as of each version group, from the creatures' learnsets
 * (facts.ts LearnsetFile), each read once: for a group and the positions that existed then, the
 * creatures that learn each move in it.
 */
export function learnedByGroup(world: AsOfWorld, ids: ReadonlyArray<number | null>, learnsets: ReadonlyMap<number, readonly number[]>): (vg: VersionGroup, existing: readonly number[]) => ValueRows {
  // by version group id, by move: the positions (ascending) of the creatures that learn it there
  const byGroup = new Map<number, Map<number, number[]>>();
  ids.forEach((id, p) => {
    const pairs = id === null ? undefined : learnsets.get(id);
    for (let at = 0; pairs && at < pairs.length; at += 2) {
      for (const group of groupIds(pairs[at + 1]!)) {
        let byMove = byGroup.get(group);
        if (!byMove) byGroup.set(group, (byMove = new Map()));
        addMember(byMove, pairs[at]!, p);
      }
    }
  });
  return (vg, existing) => {
    const there = new Set(existing);
    const byMove = new Map<number, number[]>();
    for (const [move, positions] of byGroup.get(vg.id) ?? []) {
      const kept = positions.filter((p) => there.has(p));
      if (kept.length) byMove.set(move, kept);
    }
    return valueRows(byMove, (id) => world.move(id)?.name);
  };
}

/** The version group ids of a bit set (facts.ts `inGroups`: bit `id - 1`). */
function groupIds(groups: number): number[] {
  const out: number[] = [];
  for (let id = 1, rest = groups; rest > 0; id++, rest = Math.floor(rest / 2)) if (rest % 2 === 1) out.push(id);
  return out;
}

const TOTAL = 'base_stat_total';

/** Each stat's column (by the stat's name, as the ranges are named) and the base stat total, of then, for the creatures that existed. */
function creatureRanges({ world, ids }: ViewScope, then: Map<number, CreatureThen>, existing: readonly number[]): Map<string, Float64Array> {
  // every stat's column and the total are of then, also where no entry has a value (special-attack in generation I)
  const ranges = new Map([...world.statNames(), TOTAL].map((name) => [name, new Float64Array(ids.length).fill(NaN)]));
  const total = ranges.get(TOTAL)!;
  for (const p of existing) {
    const held = then.get(p)!;
    let sum = 0;
    for (const [stat, base] of held.stats) {
      ranges.get(world.statName(stat)!)![p] = base;
      sum += base;
    }
    if (held.stats.length) total[p] = sum;
  }
  return ranges;
}

function creatureFields({ world, base }: ViewScope, then: Map<number, CreatureThen>): Map<string, (position: number) => unknown> {
  const at = <T>(read: (held: CreatureThen) => T) => (p: number) => {
    const held = then.get(p);
    return held === undefined ? null : read(held);
  };
  return new Map<string, (position: number) => unknown>([
    ['types', at((held) => held.types.map(([slot, type]) => ({ slot, type: link(base, 'type', type, world.typeName(type)!) })))],
    ['abilities', at((held) => held.abilities.map(([slot, ability, hidden]) => ({ ability: ability === null ? null : link(base, 'ability', ability, world.abilityName(ability)!), is_hidden: hidden === 1, slot })))],
    ['stats', at((held) => held.stats.map(([stat, baseStat, effort]) => ({ base_stat: baseStat, effort, stat: link(base, 'stat', stat, world.statName(stat)!) })))],
  ]);
}

const TYPE = MOVE_VALUES.indexOf('type');

function moveView(scope: ViewScope): AsOfListView {
  const { vg, world, ids, base } = scope;
  const existing = existingPositions(ids, (id) => world.moveExists(id, vg));
  // each listed move's values of then (those that did not exist yet too: see `fields`)
  const values = MOVE_VALUES.map(() => new Float64Array(ids.length).fill(NaN));
  const typeAt = new Map<number, number>();
  ids.forEach((id, p) => {
    const move = id === null ? undefined : world.move(id);
    if (!move) return;
    MOVE_VALUES.forEach((_, i) => {
      const value = world.moveValue(move, i, vg);
      if (value !== null) values[i]![p] = value;
    });
    typeAt.set(p, values[TYPE]![p]!);
  });
  const byType = new Map<number, number[]>();
  for (const p of existing) addMember(byType, typeAt.get(p)!, p);
  const ranges = new Map(MOVE_VALUES.flatMap((name, i) => (i === TYPE ? [] : [[name, onlyAt(values[i]!, existing)] as [string, Float64Array]])));
  const number = (i: number) => (p: number) => (Number.isNaN(values[i]![p]!) ? null : values[i]![p]!);
  const fields = new Map<string, (position: number) => unknown>(MOVE_VALUES.map((name, i) => [name, i === TYPE ? typeField(world, base, typeAt) : number(i)]));
  return { count: ids.length, existing, values: new Map([['type', valueRows(byType, (id) => world.typeName(id))]]), ranges, fields, fieldsKey: `version group ${vg.id}` };
}

/** A column with the values at `positions` only, NaN elsewhere. */
function onlyAt(column: Float64Array, positions: readonly number[]): Float64Array {
  const out = new Float64Array(column.length).fill(NaN);
  for (const p of positions) out[p] = column[p]!;
  return out;
}

const typeField = (world: AsOfWorld, base: string, typeAt: Map<number, number>) => (p: number) => {
  const type = typeAt.get(p);
  return type === undefined ? null : link(base, 'type', type, world.typeName(type)!);
};
