import { VersionGroup } from '../../../schemas/output/world.ts';
import { defineResource } from '../define.ts';

export const versionGroup = defineResource({
  kind: 'version-group',
  schema: VersionGroup,
  emit: (group, ctx) => ({
    id: group.id,
    name: group.name,
    order: group.order,
    generation: ctx.ref('generation', group.generation_id),
    // the upstream reads these link tables without sorting: table order
    move_learn_methods: group.move_learn_methods.map((m) => ctx.ref('move-learn-method', m.creature_move_method_id)),
    pokedexes: group.pokedexes.map((p) => ctx.ref('pokedex', p.pokedex_id)),
    regions: group.regions.map((r) => ctx.ref('region', r.region_id)),
    versions: ctx.refsWhere('version', 'version_group_id', group.id),
  }),
  query: (q) => ({
    filters: [
      q.link('generation', 'generation', 'a generation', (g) => g.generation),
      q.links('move_learn_method', 'move-learn-method', 'a move learn method', (g) => g.move_learn_methods),
      q.links('region', 'region', 'a region', (g) => g.regions),
    ],
    fields: ['id', 'order', 'generation'],
  }),
});
