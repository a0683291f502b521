import { Generation } from '../../../schemas/output/world.ts';
import { names } from '../shapes.ts';
import { defineResource } from '../define.ts';

/** What each generation introduced: every list is the records whose `generation_id` is this one, in id order. */
export const generation = defineResource({
  kind: 'generation',
  schema: Generation,
  emit: (gen, ctx) => ({
    id: gen.id,
    name: gen.name,
    abilities: ctx.refsWhere('ability', 'generation_id', gen.id),
    main_region: ctx.ref('region', gen.main_region_id),
    moves: ctx.refsWhere('move', 'generation_id', gen.id),
    names: names(ctx, gen.names),
    creature_species: ctx.refsWhere('creature-species', 'generation_id', gen.id),
    types: ctx.refsWhere('type', 'generation_id', gen.id),
    version_groups: ctx.refsWhere('version-group', 'generation_id', gen.id),
  }),
  query: (q) => ({
    filters: [q.link('main_region', 'region', 'a region', (g) => g.main_region)],
    fields: ['id', 'main_region'],
  }),
});
