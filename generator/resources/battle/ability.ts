import { Ability } from '../../../schemas/output/battle.ts';
import { effectChanges, flavorTextsByVersionGroup, names, verboseEffects } from '../shapes.ts';
import { defineResource } from '../define.ts';

export const ability = defineResource({
  kind: 'ability',
  schema: Ability,
  emit: (ability, ctx) => ({
    id: ability.id,
    name: ability.name,
    is_main_series: ability.is_main_series,
    generation: ctx.ref('generation', ability.generation_id),
    names: names(ctx, ability.names),
    effect_entries: verboseEffects(ctx, ability.prose),
    effect_changes: effectChanges(ctx, ability.changelog),
    flavor_text_entries: flavorTextsByVersionGroup(ctx, ability.flavor_text),
    // Every creature that may have it, hidden-ability holders included, by creature then slot.
    creature: (ctx.childrenBy('creature', 'abilities', 'ability_id').get(ability.id) ?? []).map(({ owner, row }) => ({
      is_hidden: row.is_hidden,
      slot: row.slot,
      creature: ctx.ref('creature', owner.id),
    })),
  }),
  query: (q) => ({
    filters: [q.link('generation', 'generation', 'a generation', (a) => a.generation), q.yesNo('is_main_series', (a) => a.is_main_series)],
    fields: ['id', 'is_main_series', 'generation'],
  }),
});
