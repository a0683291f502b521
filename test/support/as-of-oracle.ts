/**
 * The oracle of "the game as it was": what `GET /v2/as-of/{v}/{kind}/{id}/` and the
 * creature's `matchups/` should answer, computed here from today's built item documents and the
 * issue's rules alone. It shares no code with the feature (contract/as-of/, the generator's as-of
 * files): an oracle that read the rules through the same code would agree with any mistake in it.
 *
 * `World` reads the documents the rules need, each file once: the version groups, versions and
 * generations (to resolve `{v}`), every type, every move's and every creature's facts (a type's
 * creatures and moves, an ability's creatures and a move's learners are sets over all of them).
 * The text of a creature or move document is kept when it has past entries (each of those is
 * checked); the others are sampled and read again (the creature folder is 160 MB).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { idOfUrl, itemFile, listFile } from '../../contract/layout.ts';

export type Doc = Record<string, unknown>;
export interface Link {
  name: string;
  url: string;
}
export interface TypeSlot {
  slot: number;
  type: Link;
}
export interface AbilitySlot {
  ability: Link | null;
  is_hidden: boolean;
  slot: number;
}
export interface StatEntry {
  base_stat: number;
  effort: number;
  stat: Link;
}
interface PastTypes {
  generation: Link;
  types: TypeSlot[];
}
interface PastAbilities {
  abilities: AbilitySlot[];
  generation: Link;
}
interface PastStats {
  generation: Link;
  stats: StatEntry[];
}
interface MoveEntry {
  move: Link;
  version_group_details: Array<{ version_group: Link }>;
}
interface PastValue {
  version_group: Link;
  [field: string]: unknown;
}
type Relations = Record<string, Link[]>;

/** What a `{v}` stands for: a version group, its `order` and its generation's number. */
export interface Era {
  segment: string;
  group: string;
  order: number;
  generation: number;
}
/** Today, as an era every past entry and every item precedes: the matchups without `as-of`. */
export const TODAY: Era = { segment: 'today', group: '', order: Infinity, generation: Infinity };

/** The number at the end of a link (a generation's number is its id). */
export const idOf = (link: Link): number => {
  const id = idOfUrl(link.url);
  if (id === null) throw new Error(`no id at the end of ${link.url}`);
  return id;
};

/** Of the entries (each of one generation) that `names` accepts, the one of the smallest generation ≥ g. */
function earliestFrom<T extends { generation: Link }>(entries: readonly T[], g: number, names: (entry: T) => boolean = () => true): T | undefined {
  let best: T | undefined;
  for (const entry of entries) {
    const gen = idOf(entry.generation);
    if (gen >= g && names(entry) && (best === undefined || gen < idOf(best.generation))) best = entry;
  }
  return best;
}

/** A creature as the rules about other kinds read it (types, abilities, what it learns where). */
export interface CreatureFacts {
  id: number;
  link: Link;
  /** the `order` of the version group of its first form: it exists as of any v at or after it */
  bornOrder: number;
  types: TypeSlot[];
  pastTypes: PastTypes[];
  abilities: AbilitySlot[];
  pastAbilities: PastAbilities[];
  stats: StatEntry[];
  pastStats: PastStats[];
  hasPast: boolean;
  /** move name → the version groups it has details for */
  learns: Map<string, Set<string>>;
  /** its species (today's: the species' fields did not change over the games) */
  species: Link;
  weight: number;
}

/** True when the creature document has any past types, abilities or stats. */
const hasPast = (doc: Doc): boolean => ['past_types', 'past_abilities', 'past_stats'].some((key) => (doc[key] as unknown[]).length > 0);

export const creatureExists = (creature: { bornOrder: number }, era: Era): boolean => creature.bornOrder <= era.order;

/** `types` as of the era: the earliest past entry at or after its generation, else today's. */
export function typesAsOf(creature: Pick<CreatureFacts, 'types' | 'pastTypes'>, era: Era): TypeSlot[] {
  return earliestFrom(creature.pastTypes, era.generation)?.types ?? creature.types;
}

/** `abilities` as of the era, slot by slot (none before generation III; a null ability leaves its slot out). */
export function abilitiesAsOf(creature: Pick<CreatureFacts, 'abilities' | 'pastAbilities'>, era: Era): AbilitySlot[] {
  if (era.generation < 3) return [];
  const slots = new Set(creature.abilities.map((a) => a.slot));
  for (const past of creature.pastAbilities) for (const a of past.abilities) slots.add(a.slot);
  const out: AbilitySlot[] = [];
  for (const slot of [...slots].sort((a, b) => a - b)) {
    const past = earliestFrom(creature.pastAbilities, era.generation, (entry) => entry.abilities.some((a) => a.slot === slot));
    const entry = past ? past.abilities.find((a) => a.slot === slot) : creature.abilities.find((a) => a.slot === slot);
    if (entry && entry.ability !== null) out.push({ ability: entry.ability, is_hidden: entry.is_hidden, slot: entry.slot });
  }
  return out;
}

const SPECIAL = 'special';
const SPLIT_SPECIALS = new Set(['special-attack', 'special-defense']);

/** `stats` as of the era: each stat's earliest past values at or after it; generation I has one `special`. */
export function statsAsOf(today: StatEntry[], pastStats: PastStats[], era: Era): StatEntry[] {
  const stats = new Map(today.map((s) => [s.stat.name, s.stat]));
  if (era.generation === 1) {
    for (const name of SPLIT_SPECIALS) stats.delete(name);
    const special = earliestFrom(pastStats, 1, (p) => p.stats.some((s) => s.stat.name === SPECIAL));
    const link = special?.stats.find((s) => s.stat.name === SPECIAL)?.stat;
    if (link) stats.set(SPECIAL, link);
  }
  const out: StatEntry[] = [];
  for (const [name, link] of stats) {
    const past = earliestFrom(pastStats, era.generation, (p) => p.stats.some((s) => s.stat.name === name));
    const values = past?.stats.find((s) => s.stat.name === name) ?? today.find((s) => s.stat.name === name);
    if (values) out.push({ base_stat: values.base_stat, effort: values.effort, stat: link });
  }
  return out.sort((a, b) => idOf(a.stat) - idOf(b.stat));
}

/** `moves` as of the era: the details of its version group only, moves left without any dropped. */
function movesAsOf(moves: MoveEntry[], era: Era): MoveEntry[] {
  return moves
    .map((entry) => ({ ...entry, version_group_details: entry.version_group_details.filter((d) => d.version_group.name === era.group) }))
    .filter((entry) => entry.version_group_details.length > 0);
}

/** Today's document with `replaced` values in their keys' places and the keys in `dropped` left out. */
function replaceFields(doc: Doc, replaced: Doc, dropped: readonly string[]): Doc {
  const out: Doc = {};
  for (const [key, value] of Object.entries(doc)) {
    if (dropped.includes(key)) continue;
    out[key] = key in replaced ? replaced[key] : value;
  }
  return out;
}

/** A creature document's types and abilities, today's and past. */
function slotsOf(doc: Doc): Pick<CreatureFacts, 'types' | 'pastTypes' | 'abilities' | 'pastAbilities'> {
  return {
    types: doc['types'] as TypeSlot[],
    pastTypes: doc['past_types'] as PastTypes[],
    abilities: doc['abilities'] as AbilitySlot[],
    pastAbilities: doc['past_abilities'] as PastAbilities[],
  };
}

/** The creature answer as of the era, or null for a 404 (its first form came later). */
export function creatureAsOf(doc: Doc, bornOrder: number, era: Era): Doc | null {
  if (!creatureExists({ bornOrder }, era)) return null;
  const facts = slotsOf(doc);
  const replaced = {
    types: typesAsOf(facts, era),
    abilities: abilitiesAsOf(facts, era),
    stats: statsAsOf(doc['stats'] as StatEntry[], doc['past_stats'] as PastStats[], era),
    moves: movesAsOf(doc['moves'] as MoveEntry[], era),
  };
  return replaceFields(doc, replaced, ['past_types', 'past_abilities', 'past_stats']);
}

const MOVE_FIELDS = ['power', 'pp', 'accuracy', 'effect_chance', 'type'] as const;

/** The move facts other kinds' rules read: when it came and what its type was. */
export interface MoveFacts {
  id: number;
  name: string;
  generation: number;
  type: Link;
  pastValues: PastValue[];
}

/** One field of a move as of the era: the first non-null past value of a later version group, by order, else today's. */
function moveValueAsOf(today: unknown, pastValues: PastValue[], field: string, era: Era, orderOf: (group: Link) => number): unknown {
  const later = pastValues.filter((p) => orderOf(p.version_group) > era.order && p[field] !== null);
  later.sort((a, b) => orderOf(a.version_group) - orderOf(b.version_group));
  return later.length > 0 ? later[0]![field] : today;
}

/** Reads the item documents the rules need, each once, and answers the oracle's questions. */
export class World {
  private readonly texts = new Map<string, string>();
  private readonly lists = new Map<string, readonly Link[]>();
  readonly groupOrder = new Map<string, number>();
  readonly groupGeneration = new Map<string, number>();
  readonly versionGroupOf = new Map<string, string>();
  readonly generations: readonly Link[];
  readonly typeDocs: Doc[];
  readonly typeGeneration = new Map<string, number>();
  readonly typeList: readonly Link[];
  readonly moves: MoveFacts[];
  readonly creatures: CreatureFacts[];
  readonly creatureById = new Map<number, CreatureFacts>();

  readonly distDir: string;
  readonly baseUrl: string;
  constructor(distDir: string, baseUrl: string) {
    this.distDir = distDir;
    this.baseUrl = baseUrl;
    this.readVersions();
    this.generations = this.list('generation');
    this.typeList = this.list('type');
    this.typeDocs = this.ids('type').map((id) => this.doc('type', id));
    for (const type of this.typeDocs) this.typeGeneration.set(type['name'] as string, idOf(type['generation'] as Link));
    this.moves = this.ids('move').map((id) => this.moveFacts(id));
    this.creatures = this.ids('creature').map((id) => this.creatureFacts(id));
    for (const creature of this.creatures) this.creatureById.set(creature.id, creature);
  }

  /** The numeric item files of a kind (every item, listed or not), in id order. */
  ids(kind: string): number[] {
    const names = readdirSync(join(this.distDir, 'v2', kind)).map((file) => file.replace(/\.json$/, ''));
    return names
      .filter((name) => /^-?\d+$/.test(name))
      .map(Number)
      .sort((a, b) => a - b);
  }

  /** An item document, parsed from its text; the text is read once and kept. */
  doc(kind: string, id: number | string): Doc {
    return this.read(kind, id, () => true);
  }

  /** An item document, its text kept for later only when `keep` says so (big folders are read whole). */
  private read(kind: string, id: number | string, keep: (doc: Doc) => boolean): Doc {
    const path = itemFile(kind, id);
    const text = this.texts.get(path) ?? readFileSync(join(this.distDir, path), 'utf8');
    const doc = JSON.parse(text) as Doc;
    if (keep(doc)) this.texts.set(path, text);
    return doc;
  }

  /** A kind's list entries, in list order; each list is read once. */
  list(kind: string): readonly Link[] {
    let entries = this.lists.get(kind);
    if (!entries) this.lists.set(kind, (entries = (JSON.parse(readFileSync(join(this.distDir, listFile(kind)), 'utf8')) as { results: Link[] }).results));
    return entries;
  }

  private readVersions(): void {
    for (const id of this.ids('version-group')) {
      const group = this.doc('version-group', id);
      this.groupOrder.set(group['name'] as string, group['order'] as number);
      this.groupGeneration.set(group['name'] as string, idOf(group['generation'] as Link));
    }
    for (const id of this.ids('version')) {
      const version = this.doc('version', id);
      this.versionGroupOf.set(version['name'] as string, (version['version_group'] as Link).name);
    }
  }

  private moveFacts(id: number): MoveFacts {
    // the moves with past values are all checked: their text is kept for that
    const doc = this.read('move', id, (d) => (d['past_values'] as PastValue[]).length > 0);
    return {
      id,
      name: doc['name'] as string,
      generation: idOf(doc['generation'] as Link),
      type: doc['type'] as Link,
      pastValues: doc['past_values'] as PastValue[],
    };
  }

  /** A creature's facts; its text is kept only when it has past entries (each is checked, the rest sampled). */
  private creatureFacts(id: number): CreatureFacts {
    return this.factsOf(id, this.read('creature', id, hasPast));
  }

  private factsOf(id: number, doc: Doc): CreatureFacts {
    const learns = new Map<string, Set<string>>();
    for (const entry of doc['moves'] as MoveEntry[]) learns.set(entry.move.name, new Set(entry.version_group_details.map((d) => d.version_group.name)));
    return {
      id,
      link: { name: doc['name'] as string, url: `${this.baseUrl}/creature/${id}/` },
      bornOrder: this.bornOrder(doc),
      ...slotsOf(doc),
      stats: doc['stats'] as StatEntry[],
      pastStats: doc['past_stats'] as PastStats[],
      hasPast: hasPast(doc),
      learns,
      species: doc['species'] as Link,
      weight: doc['weight'] as number,
    };
  }

  /** The order of the version group of the creature's first form. */
  private bornOrder(doc: Doc): number {
    const form = this.read('creature-form', idOf((doc['forms'] as Link[])[0]!), () => false);
    return this.orderOf(form['version_group'] as Link);
  }

  orderOf = (group: Link): number => {
    const order = this.groupOrder.get(group.name);
    if (order === undefined) throw new Error(`no version group ${group.name}`);
    return order;
  };

  /** What `{v}` stands for: a version group, a version (its group) or a generation (its last group by order); null: unknown. */
  resolve(segment: string): Era | null {
    const generation = this.generations.find((g) => g.name === segment);
    const group = generation ? this.lastGroupOf(idOf(generation)) : (this.versionGroupOf.get(segment) ?? segment);
    const order = group === undefined ? undefined : this.groupOrder.get(group);
    if (group === undefined || order === undefined) return null;
    return { segment, group, order, generation: this.groupGeneration.get(group)! };
  }

  lastGroupOf(generation: number): string | undefined {
    const groups = [...this.groupGeneration].filter(([, g]) => g === generation).map(([name]) => name);
    return groups.sort((a, b) => this.groupOrder.get(b)! - this.groupOrder.get(a)!)[0];
  }

  typeExists = (type: Link, era: Era): boolean => (this.typeGeneration.get(type.name) ?? Infinity) <= era.generation;

  /** A type's six lists as of the era: the earliest past relations at or after it, less types not yet there. */
  relationsAsOf(type: Doc, era: Era): Relations {
    const past = earliestFrom(type['past_damage_relations'] as Array<{ generation: Link; damage_relations: Relations }>, era.generation);
    const relations = past?.damage_relations ?? (type['damage_relations'] as Relations);
    const out: Relations = {};
    for (const [list, types] of Object.entries(relations)) out[list] = types.filter((t) => this.typeExists(t, era));
    return out;
  }

  moveTypeAsOf(move: MoveFacts, era: Era): Link {
    return moveValueAsOf(move.type, move.pastValues, 'type', era, this.orderOf) as Link;
  }

  /** The move answer as of the era, or null for a 404 (it came in a later generation). */
  moveAsOf(doc: Doc, era: Era): Doc | null {
    if (idOf(doc['generation'] as Link) > era.generation) return null;
    const pastValues = doc['past_values'] as PastValue[];
    const replaced: Doc = {};
    for (const field of MOVE_FIELDS) replaced[field] = moveValueAsOf(doc[field], pastValues, field, era, this.orderOf);
    replaced['learned_by_creature'] = (doc['learned_by_creature'] as Link[]).filter((link) => {
      const creature = this.creatureById.get(idOf(link));
      return creature !== undefined && creatureExists(creature, era) && creature.learns.get(doc['name'] as string)?.has(era.group) === true;
    });
    return replaceFields(doc, replaced, ['past_values']);
  }

  /** The type answer as of the era, or null for a 404. */
  typeAsOf(doc: Doc, era: Era): Doc | null {
    if (!this.typeExists({ name: doc['name'] as string, url: '' }, era)) return null;
    const creature: Doc[] = [];
    for (const c of this.creatures) {
      const slot = creatureExists(c, era) ? typesAsOf(c, era).find((t) => t.type.name === doc['name']) : undefined;
      if (slot) creature.push({ slot: slot.slot, creature: c.link });
    }
    const moves = this.moves
      .filter((m) => m.generation <= era.generation && this.moveTypeAsOf(m, era).name === doc['name'])
      .map((m) => ({ name: m.name, url: `${this.baseUrl}/move/${m.id}/` }));
    return replaceFields(doc, { damage_relations: this.relationsAsOf(doc, era), creature, moves }, ['past_damage_relations']);
  }

  /** The ability answer as of the era, or null for a 404 (before generation III, or before its own). */
  abilityAsOf(doc: Doc, era: Era): Doc | null {
    if (era.generation < 3 || idOf(doc['generation'] as Link) > era.generation) return null;
    const creature: Doc[] = [];
    for (const c of this.creatures) {
      if (!creatureExists(c, era)) continue;
      for (const a of abilitiesAsOf(c, era)) if (a.ability?.name === doc['name']) creature.push({ is_hidden: a.is_hidden, slot: a.slot, creature: c.link });
    }
    return replaceFields(doc, { creature }, []);
  }

  /** The matchups answer: each attacking type of the list there as of the era, against the creature's types then. */
  matchups(creature: CreatureFacts, era: Era): Doc {
    const defending = typesAsOf(creature, era).map((t) => t.type.name);
    const entries = this.typeList
      .filter((t) => this.typeExists(t, era))
      .map((attacking) => {
        const relations = this.relationsAsOf(
          this.typeDocs.find((d) => d['name'] === attacking.name)!,
          era,
        );
        const multiplier = defending.reduce((product, name) => product * factor(relations, name), 1);
        return { type: { name: attacking.name, url: attacking.url }, multiplier };
      });
    return { defending: entries };
  }
}

const has = (relations: Relations, list: string, type: string): boolean => (relations[list] ?? []).some((t) => t.name === type);
/** What an attack with these relations does to one defending type (abilities are not applied). */
const factor = (relations: Relations, defending: string): number => {
  if (has(relations, 'no_damage_to', defending)) return 0;
  if (has(relations, 'double_damage_to', defending)) return 2;
  return has(relations, 'half_damage_to', defending) ? 0.5 : 1;
};

/** A seeded generator (mulberry32): the same sample on every run and machine. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` ids spread over the sorted ids: one drawn from each of `count` equal runs. */
export function spread(ids: readonly number[], count: number, seed: number): number[] {
  const random = seeded(seed);
  const sorted = [...ids].sort((a, b) => a - b);
  const picks: number[] = [];
  for (let run = 0; run < Math.min(count, sorted.length); run++) {
    const from = Math.floor((run * sorted.length) / count),
      to = Math.floor(((run + 1) * sorted.length) / count);
    picks.push(sorted[from + Math.floor(random() * (to - from))]!);
  }
  return picks;
}
