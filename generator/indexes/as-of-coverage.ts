/**
 * Where the data disagrees with itself as of a game: an as-of value, made by the same
 * rules as the answers (contract/as-of/), that names a type or ability that did not exist yet then.
 * The answers keep such a value as the data gives it; the coverage map lists every case, for each
 * generation as of its last version group (the generation's own `{v}`).
 */
import { join } from 'node:path';
import { AS_OF_FACT_KINDS, asOfFactsFile, asOfMoveNamesFile, type FactKind, type FactsFile, type MoveNamesFile } from '../../contract/as-of/facts.ts';
import { worldOfFacts, type AsOfWorld } from '../../contract/as-of/world.ts';
import type { VersionGroup } from '../../contract/as-of/versions.ts';
import type { AsOfDisagreement } from '../../schemas/output/coverage.ts';
import { BuildError } from '../build-error.ts';
import { readJsonIfThere } from '../files/folders.ts';

/** The as-of facts of a build, and its moves' names (the facts hold their ids). */
export interface FactsWorld {
  world: AsOfWorld;
  moveNames: ReadonlyMap<number, string>;
}

/** The as-of facts of the build under `root`; null when a file is missing (a build of some kinds only). */
export function readWorld(root: string): FactsWorld | null {
  const files = new Map<FactKind, FactsFile<FactKind>>();
  for (const kind of AS_OF_FACT_KINDS) {
    const file = readBuilt<FactsFile<FactKind>>(root, asOfFactsFile(kind));
    if (file === null) return null;
    files.set(kind, file);
  }
  const names = readBuilt<MoveNamesFile>(root, asOfMoveNamesFile);
  if (names === null) return null;
  return { world: worldOfFacts(<K extends FactKind>(kind: K) => files.get(kind) as unknown as FactsFile<K>), moveNames: new Map(names.records) };
}

function readBuilt<T>(root: string, file: string): T | null {
  const path = join(root, file);
  return readJsonIfThere<T>(path, (error) => {
    throw new BuildError([`${path} cannot be parsed (${error.message})`], { cause: error });
  });
}

/** Every case, oldest generation first, then creatures before moves, each in id order. */
export function asOfDisagreements({ world, moveNames }: FactsWorld): AsOfDisagreement[] {
  return world.versions.generations().flatMap(({ name, vg }) => [...creatureCases(world, name, vg), ...moveCases(world, moveNames, name, vg)]);
}

function creatureCases(world: AsOfWorld, generation: string, vg: VersionGroup): AsOfDisagreement[] {
  return world.creatures.flatMap(([id, creature]) => {
    if (!world.creatureExists(id, vg)) return [];
    const types = world
      .creatureTypes(creature, vg)
      .map(([, type]) => type)
      .filter((type) => !world.typeExists(type, vg));
    const abilities = world.creatureAbilities(creature, vg).flatMap(([, ability]) => (ability !== null && !world.abilityExists(ability, vg) ? [ability] : []));
    const cases: AsOfDisagreement[] = [];
    if (types.length)
      cases.push({ as_of: generation, kind: 'creature', name: creature.name, field: 'types', names: types.map((t) => world.typeName(t) ?? String(t)) });
    if (abilities.length)
      cases.push({
        as_of: generation,
        kind: 'creature',
        name: creature.name,
        field: 'abilities',
        names: abilities.map((a) => world.abilityName(a) ?? String(a)),
      });
    return cases;
  });
}

function moveCases(world: AsOfWorld, moveNames: ReadonlyMap<number, string>, generation: string, vg: VersionGroup): AsOfDisagreement[] {
  return world.moves.flatMap(([id, move]) => {
    if (!world.moveExists(id, vg)) return [];
    const type = world.moveType(move, vg);
    return world.typeExists(type, vg)
      ? []
      : [{ as_of: generation, kind: 'move', name: moveNames.get(id) ?? String(id), field: 'type', names: [world.typeName(type) ?? String(type)] }];
  });
}
