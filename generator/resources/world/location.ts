import { Location } from '../../../schemas/output/world.ts';
import { names } from '../../emit/shapes.ts';
import { defineResource } from '../define.ts';

export const location = defineResource({
  kind: 'location',
  schema: Location,
  emit: (loc, ctx) => ({
    id: loc.id,
    name: loc.name,
    region: ctx.refOrNull('region', loc.region_id),
    // The upstream loads an empty location name as "" and still lists it.
    names: names(ctx, loc.names.map((n) => ({ ...n, name: n.name ?? '' }))),
    game_indices: loc.game_indices.map((g) => ({ game_index: g.game_index, generation: ctx.ref('generation', g.generation_id) })),
    areas: ctx.refsWhere('location-area', 'location_id', loc.id),
  }),
});
