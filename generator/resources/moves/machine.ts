import { Machine } from '../../../schemas/output/moves.ts';
import { defineResource } from '../define.ts';

export const machine = defineResource({
  kind: 'machine',
  schema: Machine,
  emit: (machine, ctx) => ({
    id: machine.id,
    item: ctx.ref('item', machine.item_id),
    move: ctx.ref('move', machine.move_id),
    version_group: ctx.ref('version-group', machine.version_group_id),
  }),
  query: (q) => ({
    filters: [q.link('version_group', 'version-group', 'a version group', (m) => m.version_group)],
    fields: ['id', 'item', 'move', 'version_group'],
  }),
});
