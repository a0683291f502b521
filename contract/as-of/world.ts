/**
 * The facts of every creature, move, type, ability and stat (contract/as-of/facts.ts), with the version groups, read
 * once per build, and the questions the as-of answers ask of them: what existed as of a version
 * group, and what it was then. Every answer follows rules.ts.
 */
import {
  MOVE_VALUES,
  type AbilityFacts,
  type CreatureFacts,
  type CreatureStats,
  type FactKind,
  type FactsFile,
  type MoveFacts,
  type Relations,
  type SlotAbility,
  type SlotType,
  type StatFacts,
  type StatValue,
  type TypeFacts,
} from './facts.ts';
import { abilitiesAsOf, abilityExists, existsInGeneration, moveFieldAsOf, pastValue, statsAsOf, typesAsOf, type Slotted } from './rules.ts';
import { Versions, type VersionGroup } from './versions.ts';

export interface WorldFiles {
  creatures: FactsFile<'creature'>;
  moves: FactsFile<'move'>;
  types: FactsFile<'type'>;
  abilities: FactsFile<'ability'>;
  stats: FactsFile<'stat'>;
}

const MOVE_TYPE = MOVE_VALUES.indexOf('type');

export const SLOTTED_ABILITY: Slotted<SlotAbility> = { slot: (a) => a[0], empty: (a) => a[1] === null };

/** An entry of a reverse list as of a version group: the record's id and name, and the entry that holds it. */
export interface Held<T> {
  id: number;
  name: string;
  entry: T;
}

/** The world of a build's facts files, each read by `facts` (the build reads its own folder's, at once). */
export function worldOfFacts(facts: <K extends FactKind>(kind: K) => FactsFile<K>): AsOfWorld {
  return new AsOfWorld(new Versions(facts('version-group')), {
    creatures: facts('creature'),
    moves: facts('move'),
    types: facts('type'),
    abilities: facts('ability'),
    stats: facts('stat'),
  });
}

export class AsOfWorld {
  readonly creatures: ReadonlyArray<[number, CreatureFacts]>;
  private readonly creatureById: Map<number, CreatureFacts>;
  private creatureByName: Map<string, number> | null = null;
  readonly moves: ReadonlyArray<[number, MoveFacts]>;
  private readonly moveById: Map<number, MoveFacts>;
  private readonly types: Map<number, TypeFacts>;
  private readonly abilities: Map<number, AbilityFacts>;
  private readonly stats: Map<number, StatFacts>;

  readonly versions: Versions;
  constructor(versions: Versions, files: WorldFiles) {
    this.versions = versions;
    this.creatures = files.creatures.records;
    this.creatureById = new Map(files.creatures.records);
    this.moves = files.moves.records;
    this.moveById = new Map(files.moves.records);
    this.types = new Map(files.types.records);
    this.abilities = new Map(files.abilities.records);
    this.stats = new Map(files.stats.records);
  }

  /** A creature's id from a decimal id or a name (of two with one name, the lower id's, as the files link it); null when it names none. */
  creatureId(key: string): number | null {
    if (/^\d{1,9}$/.test(key)) return this.creatureById.has(Number(key)) ? Number(key) : null;
    if (!this.creatureByName) {
      this.creatureByName = new Map();
      for (const [id, c] of this.creatures) if (!this.creatureByName.has(c.name)) this.creatureByName.set(c.name, id);
    }
    return this.creatureByName.get(key) ?? null;
  }

  creature(id: number): CreatureFacts | undefined {
    return this.creatureById.get(id);
  }

  /** Whether the creature's first form came in the version group asked for or before it. */
  creatureExists(id: number, vg: VersionGroup): boolean {
    const creature = this.creatureById.get(id);
    return creature !== undefined && this.versions.cameBy(creature.born, vg, `creature ${id}`);
  }

  creatureTypes(creature: CreatureFacts, vg: VersionGroup): readonly SlotType[] {
    return typesAsOf(creature.types, creature.pastTypes, vg.generation);
  }

  creatureAbilities(creature: CreatureFacts, vg: VersionGroup): readonly SlotAbility[] {
    return abilitiesAsOf(creature.abilities, creature.pastAbilities, vg.generation, SLOTTED_ABILITY);
  }

  move(id: number): MoveFacts | undefined {
    return this.moveById.get(id);
  }

  moveExists(id: number, vg: VersionGroup): boolean {
    const move = this.moveById.get(id);
    return move !== undefined && existsInGeneration(move.generation, vg.generation);
  }

  /** A move's value of `MOVE_VALUES` (at `index`) as of the version group: the type as its id. */
  moveValue(move: MoveFacts, index: number, vg: VersionGroup): number | null {
    return moveFieldAsOf(
      move.values[index]!,
      move.past,
      vg.order,
      ([at]) => this.versions.orderOf(at) ?? -Infinity,
      ([, values]) => values[index]!,
    );
  }

  moveType(move: MoveFacts, vg: VersionGroup): number {
    return this.moveValue(move, MOVE_TYPE, vg)!;
  }

  typeExists(id: number, vg: VersionGroup): boolean {
    const type = this.types.get(id);
    return type !== undefined && existsInGeneration(type.generation, vg.generation);
  }

  typeName(id: number): string | undefined {
    return this.types.get(id)?.name;
  }

  /** A type's damage relations as of the version group, naming only types that existed then. */
  typeRelations(id: number, vg: VersionGroup): Relations {
    const type = this.types.get(id);
    if (!type) throw new Error(`type ${id} has no as-of facts`);
    const then = pastValue(type.pastRelations, vg.generation) ?? type.relations;
    const existing = (ids: number[]) => ids.filter((t) => this.typeExists(t, vg));
    return {
      no_damage_to: existing(then.no_damage_to),
      half_damage_to: existing(then.half_damage_to),
      double_damage_to: existing(then.double_damage_to),
      no_damage_from: existing(then.no_damage_from),
      half_damage_from: existing(then.half_damage_from),
      double_damage_from: existing(then.double_damage_from),
    };
  }

  creatureStats(stats: CreatureStats, vg: VersionGroup): readonly StatValue[] {
    return statsAsOf(stats.stats, stats.pastStats, vg.generation, ([stat]) => stat);
  }

  abilityName(id: number): string | undefined {
    return this.abilities.get(id)?.name;
  }

  statName(id: number): string | undefined {
    return this.stats.get(id)?.name;
  }

  statNames(): string[] {
    return [...this.stats.values()].map((s) => s.name);
  }

  abilityExists(id: number, vg: VersionGroup): boolean {
    const ability = this.abilities.get(id);
    return ability !== undefined && abilityExists(ability.generation, vg.generation);
  }

  /** The creatures of a type as of the version group, in id order, each with its slot then. */
  creaturesOfType(type: number, vg: VersionGroup): Held<SlotType>[] {
    return this.existingCreatures(vg).flatMap(([id, creature]) => {
      const entry = this.creatureTypes(creature, vg).find(([, t]) => t === type);
      return entry ? [{ id, name: creature.name, entry }] : [];
    });
  }

  /** The creatures with an ability as of the version group, in id order, each with its slot and whether it was hidden then. */
  creaturesWithAbility(ability: number, vg: VersionGroup): Held<SlotAbility>[] {
    return this.existingCreatures(vg).flatMap(([id, creature]) => {
      const entry = this.creatureAbilities(creature, vg).find(([, a]) => a === ability);
      return entry ? [{ id, name: creature.name, entry }] : [];
    });
  }

  /** The ids of the moves of a type as of the version group, in id order (the facts hold no move names: contract/as-of/facts.ts `asOfMoveNamesFile`). */
  movesOfType(type: number, vg: VersionGroup): number[] {
    return this.moves.flatMap(([id, move]) => (existsInGeneration(move.generation, vg.generation) && this.moveType(move, vg) === type ? [id] : []));
  }

  private existingCreatures(vg: VersionGroup): Array<[number, CreatureFacts]> {
    return this.creatures.filter(([id]) => this.creatureExists(id, vg));
  }
}
