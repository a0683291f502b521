import { Location } from '../../../schemas/output/world.ts';
import { generationGameIndices, names } from '../shapes.ts';
import { defineResource } from '../define.ts';

export const location = defineResource({
  kind: 'location',
  schema: Location,
  emit: (loc, ctx) => ({
    id: loc.id,
    name: loc.name,
    region: ctx.refOrNull('region', loc.region_id),
    // The upstream loads an empty location name as "" and still lists it.
    names: names(
      ctx,
      loc.names.map((n) => ({ ...n, name: n.name ?? '' })),
    ),
    game_indices: generationGameIndices(ctx, loc.game_indices),
    areas: ctx.refsWhere('location-area', 'location_id', loc.id),
  }),
  query: (q) => ({
    filters: [q.link('region', 'region', 'a region', (l) => l.region)],
    fields: ['id', 'region'],
  }),
});
