/**
 * A type's damage relations, now and in past generations, as the upstream computes them:
 * factor 200 is "double", 50 "half", 0 "no"; 100 (normal damage) is listed nowhere. "_to"
 * lists come from the type's own efficacy rows (ordered by target), "_from" lists from the rows
 * that target it (ordered by attacker).
 */
import { runsOf } from '../../lists.ts';
import type { NamedResource } from '../../../schemas/output/common.ts';
import { DAMAGE_RELATION_FIELDS, type DamageRelationField } from '../../../schemas/output/battle.ts';
import type { BuildContext } from '../context.ts';
import type { RecordOf } from '../../model/kinds.ts';

type Direction = 'to' | 'from';
type Degree = 'no' | 'half' | 'double';

const DEGREE_OF_FACTOR: ReadonlyMap<number, Degree> = new Map([
  [0, 'no'],
  [50, 'half'],
  [200, 'double'],
]);
/** The order the upstream looks for an entry to replace in when a past generation overrides it. */
const DEGREES_SEARCHED: readonly Degree[] = ['double', 'half', 'no'];

const field = (degree: Degree, direction: Direction): DamageRelationField => `${degree}_damage_${direction}`;

/** Damage relations as lists of type ids. */
type TypeIdRelations = Record<DamageRelationField, number[]>;

/** One efficacy fact seen from the type being described: the other type, and which way damage goes. */
interface Efficacy {
  direction: Direction;
  otherTypeId: number;
  factor: number;
}

const emptyRelations = (): TypeIdRelations => Object.fromEntries(DAMAGE_RELATION_FIELDS.map((f) => [f, [] as number[]])) as TypeIdRelations;

function add(relations: TypeIdRelations, { direction, otherTypeId, factor }: Efficacy): void {
  const degree = DEGREE_OF_FACTOR.get(factor);
  if (degree) relations[field(degree, direction)].push(otherTypeId);
}

/** Removes the other type's entry in that direction, if any (the first one found). */
function remove(relations: TypeIdRelations, { direction, otherTypeId }: Efficacy): void {
  for (const degree of DEGREES_SEARCHED) {
    const list = relations[field(degree, direction)];
    const at = list.indexOf(otherTypeId);
    if (at >= 0) {
      list.splice(at, 1);
      return;
    }
  }
}

function currentEfficacies(type: RecordOf<'type'>, ctx: BuildContext): Efficacy[] {
  const attackers = ctx.childrenBy('type', 'efficacy', 'target_type_id').get(type.id) ?? [];
  return [
    ...type.efficacy.map((row) => ({ direction: 'to' as const, otherTypeId: row.target_type_id, factor: row.damage_factor })),
    ...attackers.map(({ owner, row }) => ({ direction: 'from' as const, otherTypeId: owner.id, factor: row.damage_factor })),
  ];
}

function currentRelations(type: RecordOf<'type'>, ctx: BuildContext): TypeIdRelations {
  const relations = emptyRelations();
  for (const efficacy of currentEfficacies(type, ctx)) add(relations, efficacy);
  return relations;
}

const toResources = (relations: TypeIdRelations, ctx: BuildContext): Record<DamageRelationField, NamedResource[]> =>
  Object.fromEntries(DAMAGE_RELATION_FIELDS.map((f) => [f, relations[f].map((id) => ctx.ref('type', id))])) as Record<DamageRelationField, NamedResource[]>;

export function damageRelations(type: RecordOf<'type'>, ctx: BuildContext) {
  return toResources(currentRelations(type, ctx), ctx);
}

interface PastEfficacy extends Efficacy {
  generationId: number;
}

/**
 * `past_damage_relations`: for each generation whose efficacy differed, the current relations
 * as they were then. Mirrors the upstream: the type's rows as attacker, then its rows as target,
 * are cut into runs of one generation (consecutive rows, not a sort); each run starts from
 * today's relations without the types introduced after that generation, then each past row
 * replaces the other type's entry in its direction ("to" rows first, then "from" rows).
 */
export function pastDamageRelations(type: RecordOf<'type'>, ctx: BuildContext) {
  const attackers = ctx.childrenBy('type', 'past_efficacy', 'target_type_id').get(type.id) ?? [];
  const past: PastEfficacy[] = [
    ...type.past_efficacy.map((row) => ({
      direction: 'to' as const,
      otherTypeId: row.target_type_id,
      factor: row.damage_factor,
      generationId: row.generation_id,
    })),
    ...attackers.map(({ owner, row }) => ({
      direction: 'from' as const,
      otherTypeId: owner.id,
      factor: row.damage_factor,
      generationId: row.generation_id,
    })),
  ];
  return runsOf(past, (p) => p.generationId).map(([generationId, run]) => {
    const existedThen = (typeId: number) => ctx.get('type', typeId).generation_id <= generationId;
    const relations = currentRelations(type, ctx);
    for (const f of DAMAGE_RELATION_FIELDS) relations[f] = relations[f].filter(existedThen);
    for (const direction of ['to', 'from'] as const) {
      for (const change of run.filter((p) => p.direction === direction)) {
        remove(relations, change);
        add(relations, change);
      }
    }
    return { generation: ctx.ref('generation', generationId), damage_relations: toResources(relations, ctx) };
  });
}
