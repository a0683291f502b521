import { Version } from '../../../schemas/output/world.ts';
import { names } from '../shapes.ts';
import { defineResource } from '../define.ts';

export const version = defineResource({
  kind: 'version',
  schema: Version,
  emit: (v, ctx) => ({
    id: v.id,
    name: v.name,
    names: names(ctx, v.names),
    version_group: ctx.ref('version-group', v.version_group_id),
  }),
  query: (q) => ({
    filters: [q.link('version_group', 'version-group', 'a version group', (v) => v.version_group)],
    fields: ['id', 'version_group'],
  }),
});
