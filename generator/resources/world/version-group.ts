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
    // learn methods and pokedexes are owned by their own records; listed in their id order
    move_learn_methods: (ctx.childrenBy('move-learn-method', 'version_groups', 'version_group_id').get(group.id) ?? []).map((m) =>
      ctx.ref('move-learn-method', m.owner.id),
    ),
    pokedexes: (ctx.childrenBy('pokedex', 'version_groups', 'version_group_id').get(group.id) ?? []).map((p) => ctx.ref('pokedex', p.owner.id)),
    regions: group.regions.map((r) => ctx.ref('region', r.region_id)),
    versions: ctx.refsWhere('version', 'version_group_id', group.id),
  }),
});
