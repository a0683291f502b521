/**
 * The resources that classify species: habitat, shape, egg group, growth rate and gender
 * (color, the first of them, is in creature-color.ts). Each lists its species by id, as the
 * upstream's reverse relations do.
 */
import { CreatureHabitat, CreatureShape, EggGroup, Gender, GrowthRate } from '../../../schemas/output/species-traits.ts';
import type { NamedResource } from '../../../schemas/output/common.ts';
import type { BuildContext } from '../context.ts';
import { descriptions, languageId, names } from '../shapes.ts';
import type { RecordOf } from '../../model/kinds.ts';
import { defineResource } from '../define.ts';
import { evolutionsBy } from './evolution.ts';

type Species = RecordOf<'creature-species'>;

const speciesRefs = (ctx: BuildContext, species: readonly Species[] | undefined): NamedResource[] =>
  (species ?? []).map((s) => ctx.ref('creature-species', s.id));

export const creatureHabitat = defineResource({
  kind: 'creature-habitat',
  schema: CreatureHabitat,
  emit: (habitat, ctx) => ({
    id: habitat.id,
    name: habitat.name,
    names: names(ctx, habitat.names),
    creature_species: ctx.refsWhere('creature-species', 'habitat_id', habitat.id),
  }),
});

export const creatureShape = defineResource({
  kind: 'creature-shape',
  schema: CreatureShape,
  emit: (shape, ctx) => ({
    id: shape.id,
    name: shape.name,
    awesome_names: shape.prose.map((p) => ({ awesome_name: p.awesome_name, language: ctx.ref('language', languageId(p)) })),
    names: names(ctx, shape.prose),
    creature_species: ctx.refsWhere('creature-species', 'shape_id', shape.id),
  }),
});

export const eggGroup = defineResource({
  kind: 'egg-group',
  schema: EggGroup,
  emit: (group, ctx) => ({
    id: group.id,
    name: group.name,
    names: names(ctx, group.prose),
    creature_species: speciesRefs(
      ctx,
      ctx
        .childrenBy('creature-species', 'egg_groups', 'egg_group_id')
        .get(group.id)
        ?.map(({ owner }) => owner),
    ),
  }),
});

export const growthRate = defineResource({
  kind: 'growth-rate',
  schema: GrowthRate,
  emit: (rate, ctx) => ({
    id: rate.id,
    name: rate.name,
    formula: rate.formula,
    // the prose table's `name` is what the upstream serves as the rate's description
    descriptions: descriptions(
      ctx,
      rate.prose.map((p) => ({ ...p, description: p.name })),
    ),
    levels: rate.levels.map((l) => ({ level: l.level, experience: l.experience })),
    creature_species: ctx.refsWhere('creature-species', 'growth_rate_id', rate.id),
  }),
  query: () => ({ filters: [], fields: ['id', 'formula'] }),
});

/**
 * Which gender rates (eighths female, -1 genderless) make a species able to be of each gender,
 * keyed by the gender's name as the upstream does: a species of rate 1..7 is listed under both.
 */
const canBeOfGender: Readonly<Record<string, (rate: number) => boolean>> = {
  female: (rate) => rate > 0,
  male: (rate) => rate >= 0 && rate <= 7,
  genderless: (rate) => rate === -1,
};

export const gender = defineResource({
  kind: 'gender',
  schema: Gender,
  emit: (g, ctx) => {
    const applies = canBeOfGender[g.name] ?? (() => false);
    return {
      id: g.id,
      name: g.name,
      creature_species_details: ctx
        .records('creature-species')
        .flatMap((s) =>
          s.gender_rate !== null && applies(s.gender_rate) ? [{ rate: s.gender_rate, creature_species: ctx.ref('creature-species', s.id) }] : [],
        ),
      // one entry per evolution row that needs this gender, as the upstream lists them (no merging)
      required_for_evolution: evolutionsBy(ctx, 'gender_id', g.id).map(({ owner }) => ctx.ref('creature-species', owner.id)),
    };
  },
});
