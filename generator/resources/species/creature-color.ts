import { CreatureColor } from '../../../schemas/output/species-traits.ts';
import { names } from '../shapes.ts';
import { defineResource } from '../define.ts';

export const creatureColor = defineResource({
  kind: 'creature-color',
  schema: CreatureColor,
  emit: (color, ctx) => ({
    id: color.id,
    name: color.name,
    names: names(ctx, color.names),
    creature_species: ctx.refsWhere('creature-species', 'color_id', color.id),
  }),
});
