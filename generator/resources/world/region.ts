import { Region } from '../../../schemas/output/world.ts';
import { names } from '../shapes.ts';
import { defineResource } from '../define.ts';

export const region = defineResource({
  kind: 'region',
  schema: Region,
  emit: (r, ctx) => {
    // a region is the main region of at most one generation (orre, hisui: none)
    const mainGeneration = ctx.groupBy('generation', 'main_region_id').get(r.id)?.[0];
    return {
      id: r.id,
      name: r.name,
      locations: ctx.refsWhere('location', 'region_id', r.id),
      main_generation: mainGeneration ? ctx.ref('generation', mainGeneration.id) : null,
      names: names(ctx, r.names),
      pokedexes: ctx.refsWhere('pokedex', 'region_id', r.id),
      version_groups: (ctx.childrenBy('version-group', 'regions', 'region_id').get(r.id) ?? []).map((g) => ctx.ref('version-group', g.owner.id)),
    };
  },
  query: (q) => ({
    filters: [
      q.link('main_generation', 'generation', 'a generation', (r) => r.main_generation),
      q.links('version_group', 'version-group', 'a version group', (r) => r.version_groups),
    ],
    fields: ['id', 'main_generation'],
  }),
});
