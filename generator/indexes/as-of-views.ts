/**
 * A kind's list as of a version group, as the collection's query machinery reads it: which
 * entries existed, and the value filters, range columns and field values that changed over the
 * games, each made by the same rules as the as-of items (contract/as-of/world.ts). Every other
 * filter, range and field is today's, read from the kind's own indexes. Made for each version
 * group at build time (as-of-lists.ts writes them), read at the edge by edge/as-of-collection.ts.
 */
import {
  MOVE_VALUES,
  type AsOfKind,
  type CreatureStats,
  type EntryFacts,
  type FactKind,
  type SlotAbility,
  type SlotType,
  type StatValue,
} from '../../contract/as-of/facts.ts';
import { existsInGeneration } from '../../contract/as-of/rules.ts';
import { link } from '../../contract/as-of/documents.ts';
import type { VersionGroup } from '../../contract/as-of/versions.ts';
import type { AsOfWorld } from '../../contract/as-of/world.ts';

/** A value filter's values as of the version group: `[name, id, list positions ascending]`, by id. */
export type ValueRows = Array<[name: string, id: number, positions: number[]]>;

export interface AsOfListView {
  /** how many entries the kind's list holds (today's) */
  count: number;
  /** the list positions of the entries that existed, ascending */
  existing: number[];
  /** value filters whose members changed, by parameter name */
  values: Map<string, ValueRows>;
  /**
   * range columns as of the game, by parameter name: one number per list position, NaN for none; like
   * `fields`, also at the positions of entries that did not exist yet (never read: a list as of a
   * game answers over `existing`)
   */
  ranges: Map<string, Float64Array>;
  /**
   * declared fields as of the game: each position's value, as an as-of item holds it; also at the
   * positions of entries that did not exist yet (never shown), so that a field's values are the
   * same for every version group that shares the rules' inputs (a creature's generation)
   */
  fields: Map<string, FieldOfThen>;
  /** views with the same key have the same `fields` (a creature's as of the game change by generation only, a move's by version group) */
  fieldsKey: string;
}

/**
 * A declared field as of the game at each list position: what the entry held (the same key, the same
 * value; undefined where no entry is listed) and the value an as-of item shows. The rules hand
 * back today's arrays themselves where nothing changed (contract/as-of/rules.ts), so a creature's
 * stats are the same key in most generations: as-of-lists.ts writes each key's text once.
 */
export interface FieldOfThen {
  key(position: number): unknown;
  value(position: number): unknown;
}

/** A field read from what each position held then: `pick` what it shows (its key), `show` it as the item does. */
function fieldOf<T, H>(then: ReadonlyMap<number, T>, pick: (held: T) => H, show: (held: H) => unknown): FieldOfThen {
  return {
    key: (p) => {
      const held = then.get(p);
      return held === undefined ? undefined : pick(held);
    },
    value: (p) => {
      const held = then.get(p);
      return held === undefined ? null : show(pick(held));
    },
  };
}

/** What a part of a view is made from, besides the kind's list: facts, and the creatures' stats or learnsets (contract/as-of/facts.ts). */
export type ViewInput = FactKind | 'stats' | 'learnsets';

/**
 * A part of a kind's view: what it is made from and what it makes (value filters, fields, and
 * whether the ranges). A part none of whose inputs an edit wrote again is the served view's
 * (as-of-lists.ts): a creature's base stat edited makes the stats part again, not its types or
 * its move filter. Every view holds its parts' filters and fields in this order.
 */
export interface ViewPart {
  name: string;
  reads: readonly ViewInput[];
  values: readonly string[];
  fields: readonly string[];
  /** the ranges it makes: those named, or (true) every range the kind's other parts do not name */
  ranges: boolean | readonly string[];
}

/** Whether a part of a kind's view makes the range `name` (ViewPart `ranges`). */
export function makesRange(parts: readonly ViewPart[], part: Pick<ViewPart, 'ranges'>, name: string): boolean {
  if (typeof part.ranges !== 'boolean') return part.ranges.includes(name);
  return part.ranges && !parts.some((other) => typeof other.ranges !== 'boolean' && other.ranges.includes(name));
}

const CREATURE_KINDS_PART = {
  name: 'types and abilities',
  reads: ['version-group', 'creature', 'type', 'ability'],
  values: ['type', 'ability'],
  fields: ['types', 'abilities'],
  ranges: false,
} as const satisfies ViewPart;
const CREATURE_STATS_READS = ['version-group', 'creature', 'stat', 'stats'] as const;

/** The kinds answered as of a game: their views' parts, and for a creature list the inputs of its `move` filter (learnedByGroup). */
export const VIEW_PARTS = {
  creature: [CREATURE_KINDS_PART, { name: 'stats', reads: CREATURE_STATS_READS, values: [], fields: ['stats'], ranges: true }],
  // an entry is its creature's: the creature's parts (its total a field too), and its species' place in its chain
  entry: [
    CREATURE_KINDS_PART,
    { name: 'stats', reads: CREATURE_STATS_READS, values: [], fields: ['stats', 'base_stat_total'], ranges: true },
    { name: 'evolution', reads: ['version-group', 'entry'], values: ['evolution_trigger'], fields: ['evolution.stage'], ranges: ['stage'] },
  ],
  move: [{ name: 'values', reads: ['version-group', 'move', 'type'], values: ['type'], fields: MOVE_VALUES, ranges: true }],
  type: [{ name: 'existence', reads: ['version-group', 'type'], values: [], fields: [], ranges: false }],
  ability: [{ name: 'existence', reads: ['version-group', 'ability'], values: [], fields: [], ranges: false }],
} as const satisfies Record<AsOfKind, readonly ViewPart[]>;
/**
 * What a creature list's `move` filter of each version group (learnedByGroup, a file of its own)
 * is made from. Not the moves' facts: the filter holds move ids, and an answer names them from
 * today's `move` filter (edge/as-of-collection.ts), so a move renamed makes no list as of the game again.
 */
export const MOVE_FILTER_INPUTS: Pick<ViewPart, 'reads' | 'fields' | 'ranges'> = {
  reads: ['version-group', 'creature', 'learnsets'],
  fields: [],
  ranges: false,
};

/** What a kind's view is made from: the version group, the facts, each list position's id, the links' base. */
export interface ViewScope {
  vg: VersionGroup;
  world: AsOfWorld;
  ids: ReadonlyArray<number | null>;
  base: string;
  /** the names of the parts to make (VIEW_PARTS): the view holds only theirs */
  parts: ReadonlySet<string>;
  /** each creature's stats (contract/as-of/facts.ts StatsFile), for a creature list's stats part */
  stats?: ReadonlyMap<number, CreatureStats>;
  /** the creatures as of the game by generation, kept across the views of one making (a creature's as of the game change by generation only) */
  creaturesThen?: Map<number, CreaturesThen>;
  /** each entry's facts, for an entry list's evolution part */
  entries?: ReadonlyMap<number, EntryFacts>;
}

/** The view of one of the kinds answered as of a game, with the parts of `scope.parts` only. */
export function listView(kind: AsOfKind, scope: ViewScope): AsOfListView {
  if (kind === 'creature') return creatureView(scope);
  if (kind === 'entry') return entryView(scope);
  if (kind === 'move') return moveView(scope);
  if (kind === 'type') return existenceOnly(scope, (id) => scope.world.typeExists(id, scope.vg));
  return existenceOnly(scope, (id) => scope.world.abilityExists(id, scope.vg));
}

const existingPositions = (ids: ReadonlyArray<number | null>, exists: (id: number) => boolean): number[] =>
  ids.flatMap((id, p) => (id !== null && exists(id) ? [p] : []));

function existenceOnly({ ids }: ViewScope, exists: (id: number) => boolean): AsOfListView {
  return { count: ids.length, existing: existingPositions(ids, exists), values: new Map(), ranges: new Map(), fields: new Map(), fieldsKey: 'none' };
}

/** A move filter as of the game's value name: none (MOVE_FILTER_INPUTS). */
const UNNAMED = '';

/** Members by value id, then the rows in id order. */
function valueRows(members: Map<number, number[]>, nameOf: (id: number) => string | undefined): ValueRows {
  return [...members].sort(([a], [b]) => a - b).map(([id, positions]) => [nameOf(id) ?? String(id), id, positions]);
}

function addMember(members: Map<number, number[]>, id: number, position: number): void {
  const list = members.get(id);
  if (list) list.push(position);
  else members.set(id, [position]);
}

interface KindsThen {
  types: readonly SlotType[];
  abilities: readonly SlotAbility[];
}

/** Every listed creature's types and abilities, and its stats, as of the game, by list position (those that did not exist yet too: see `fields`); each part made when first asked. */
export interface CreaturesThen {
  kinds?: Map<number, KindsThen>;
  stats?: Map<number, readonly StatValue[]>;
  /** the range columns made from `stats` (a view takes a copy of the map: an entry's adds its `stage`) */
  ranges?: Map<string, Float64Array>;
}

const [KINDS_PART, STATS_PART] = VIEW_PARTS.creature;
const EVOLUTION_PART = VIEW_PARTS.entry[2];

const creatureView = (scope: ViewScope): AsOfListView => creatureParts(scope).view;

/** A creature list's view, and what each position held then (its parts made when first asked). */
function creatureParts(scope: ViewScope): { view: AsOfListView; then: CreaturesThen } {
  const { vg, world, ids, parts } = scope;
  const existing = existingPositions(ids, (id) => world.creatureExists(id, vg));
  const then = scope.creaturesThen?.get(vg.generation) ?? {};
  scope.creaturesThen?.set(vg.generation, then);
  const view: AsOfListView = { count: ids.length, existing, values: new Map(), ranges: new Map(), fields: new Map(), fieldsKey: `generation ${vg.generation}` };
  if (parts.has(KINDS_PART.name)) addKindsPart(view, scope, (then.kinds ??= kindsThen(scope)));
  if (parts.has(STATS_PART.name)) {
    const stats = (then.stats ??= statsThen(scope));
    view.ranges = new Map((then.ranges ??= creatureRanges(scope, stats)));
    view.fields.set(
      'stats',
      fieldOf(
        stats,
        (held) => held,
        (held) => held.map(([stat, baseStat, effort]) => ({ base_stat: baseStat, effort, stat: link(scope.base, 'stat', stat, world.statName(stat)!) })),
      ),
    );
  }
  return { view, then };
}

/** An entry's view: its creature's with its total as a field of its own, and its species' place in its chain as of the game. */
function entryView(scope: ViewScope): AsOfListView {
  const { view, then } = creatureParts(scope);
  if (scope.parts.has(STATS_PART.name) && then.stats) {
    view.fields.set(
      TOTAL,
      fieldOf(
        then.stats,
        (held) => held,
        (held) => held.reduce((sum, [, base]) => sum + base, 0),
      ),
    );
  }
  if (scope.parts.has(EVOLUTION_PART.name)) addEvolutionPart(view, scope);
  return view;
}

/**
 * The `stage` range and the `evolution.stage` field (counting the species above that existed),
 * and the `evolution_trigger` filter (an evolution from a species that did not exist yet is none).
 */
function addEvolutionPart(view: AsOfListView, { vg, ids, entries }: ViewScope): void {
  const existed = (generation: number) => existsInGeneration(generation, vg.generation);
  const factsAt = (p: number) => {
    const facts = entries?.get(ids[p]!);
    if (!facts) throw new Error(`entry ${ids[p]}: no facts in the as-of facts`);
    return facts;
  };
  const stage = new Float64Array(ids.length).fill(NaN);
  const stages = new Map<number, number>();
  ids.forEach((id, p) => {
    if (id === null) return;
    stages.set(p, (stage[p] = 1 + factsAt(p).above.filter(existed).length));
  });
  const byTrigger = new Map<number, number[]>();
  const names = new Map<number, string>();
  for (const p of view.existing) {
    const { above, triggers } = factsAt(p);
    const parent = above.at(-1);
    if (parent === undefined || !existed(parent)) continue;
    for (const [trigger, name] of triggers) {
      addMember(byTrigger, trigger, p);
      names.set(trigger, name);
    }
  }
  view.ranges.set('stage', stage);
  view.values.set(
    'evolution_trigger',
    valueRows(byTrigger, (id) => names.get(id)),
  );
  view.fields.set(
    'evolution.stage',
    fieldOf(
      stages,
      (held) => held,
      (held) => held,
    ),
  );
}

function kindsThen({ vg, world, ids }: ViewScope): Map<number, KindsThen> {
  const then = new Map<number, KindsThen>();
  ids.forEach((id, p) => {
    if (id === null) return;
    const facts = world.creature(id);
    if (!facts) throw new Error(`creature ${id}: no facts in the as-of facts`);
    then.set(p, { types: world.creatureTypes(facts, vg), abilities: world.creatureAbilities(facts, vg) });
  });
  return then;
}

function statsThen({ vg, world, ids, stats }: ViewScope): Map<number, readonly StatValue[]> {
  const then = new Map<number, readonly StatValue[]>();
  ids.forEach((id, p) => {
    if (id === null) return;
    const own = stats?.get(id);
    if (!own) throw new Error(`creature ${id}: no stats in the as-of facts`);
    then.set(p, world.creatureStats(own, vg));
  });
  return then;
}

/** The `type` and `ability` filters and the `types` and `abilities` fields as of the game. */
function addKindsPart(view: AsOfListView, { world, base }: ViewScope, then: Map<number, KindsThen>): void {
  const byType = new Map<number, number[]>();
  const byAbility = new Map<number, number[]>();
  for (const p of view.existing) {
    const held = then.get(p)!;
    for (const [, type] of held.types) addMember(byType, type, p);
    for (const [, ability] of held.abilities) if (ability !== null) addMember(byAbility, ability, p);
  }
  view.values.set(
    'type',
    valueRows(byType, (id) => world.typeName(id)),
  );
  view.values.set(
    'ability',
    valueRows(byAbility, (id) => world.abilityName(id)),
  );
  view.fields.set(
    'types',
    fieldOf(
      then,
      (held) => held.types,
      (types) => types.map(([slot, type]) => ({ slot, type: link(base, 'type', type, world.typeName(type)!) })),
    ),
  );
  view.fields.set(
    'abilities',
    fieldOf(
      then,
      (held) => held.abilities,
      (abilities) =>
        abilities.map(([slot, ability, hidden]) => ({
          ability: ability === null ? null : link(base, 'ability', ability, world.abilityName(ability)!),
          is_hidden: hidden === 1,
          slot,
        })),
    ),
  );
}

/**
 * A creature list's `move` filter as of each version group, from the creatures' learnsets
 * (contract/as-of/facts.ts LearnsetFile), each read once: for a group and the positions that existed then, the
 * creatures that learn each move in it. Its rows are by move id, with no names (MOVE_FILTER_INPUTS).
 */
export function learnedByGroup(
  ids: ReadonlyArray<number | null>,
  learnsets: ReadonlyMap<number, readonly number[]>,
): (vg: VersionGroup, existing: readonly number[]) => ValueRows {
  // by version group id, by move: the positions (ascending) of the creatures that learn it there
  const byGroup = new Map<number, Map<number, number[]>>();
  ids.forEach((id, p) => {
    const pairs = id === null ? undefined : learnsets.get(id);
    for (let at = 0; pairs && at < pairs.length; at += 2) {
      for (const group of groupIds(pairs[at + 1]!)) {
        let byMove = byGroup.get(group);
        if (!byMove) byGroup.set(group, (byMove = new Map<number, number[]>()));
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
    return valueRows(byMove, () => UNNAMED);
  };
}

/** The version group ids of a bit set (contract/as-of/facts.ts `inGroups`: bit `id - 1`). */
function groupIds(groups: number): number[] {
  const out: number[] = [];
  for (let id = 1, rest = groups; rest > 0; id++, rest = Math.floor(rest / 2)) if (rest % 2 === 1) out.push(id);
  return out;
}

const TOTAL = 'base_stat_total';

/** Each stat's column (by the stat's name, as the ranges are named) and the base stat total, as of the game. */
function creatureRanges({ world, ids }: ViewScope, then: Map<number, readonly StatValue[]>): Map<string, Float64Array> {
  // every stat's column and the total are as of the game, also where no entry has a value (special-attack in generation I)
  const ranges = new Map([...world.statNames(), TOTAL].map((name) => [name, new Float64Array(ids.length).fill(NaN)]));
  const total = ranges.get(TOTAL)!;
  for (const [p, held] of then) {
    let sum = 0;
    for (const [stat, base] of held) {
      ranges.get(world.statName(stat)!)![p] = base;
      sum += base;
    }
    if (held.length) total[p] = sum;
  }
  return ranges;
}

const TYPE = MOVE_VALUES.indexOf('type');

function moveView(scope: ViewScope): AsOfListView {
  const { vg, world, ids, base } = scope;
  const existing = existingPositions(ids, (id) => world.moveExists(id, vg));
  // each listed move's values as of the game (those that did not exist yet too: see `fields`)
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
  const ranges = new Map(MOVE_VALUES.flatMap((name, i) => (i === TYPE ? [] : [[name, values[i]!] as [string, Float64Array]])));
  const number = (i: number): FieldOfThen => ({ key: (p) => values[i]![p], value: (p) => (Number.isNaN(values[i]![p]!) ? null : values[i]![p]!) });
  const typeField = fieldOf(
    typeAt,
    (type) => type,
    (type) => link(base, 'type', type, world.typeName(type)!),
  );
  const fields = new Map<string, FieldOfThen>(MOVE_VALUES.map((name, i) => [name, i === TYPE ? typeField : number(i)]));
  return {
    count: ids.length,
    existing,
    values: new Map([['type', valueRows(byType, (id) => world.typeName(id))]]),
    ranges,
    fields,
    fieldsKey: `version group ${vg.id}`,
  };
}
