import { Generation } from '../../../schemas/output/world.ts';
import { names } from '../../emit/shapes.ts';
import { defineResource } from '../define.ts';

/** What each generation introduced: every list is the records whose `generation_id` is this one, in id order. */
export const generation = defineResource({
  kind: 'generation',
  schema: Generation,
  emit: (gen, ctx) => ({
    id: gen.id,
    name: gen.name,
    abilities: (ctx.groupBy('ability', 'generation_id').get(gen.id) ?? []).map((a) => ctx.ref('ability', a.id)),
    main_region: ctx.ref('region', gen.main_region_id),
    moves: (ctx.groupBy('move', 'generation_id').get(gen.id) ?? []).map((m) => ctx.ref('move', m.id)),
    names: names(ctx, gen.names),
    creature_species: (ctx.groupBy('creature-species', 'generation_id').get(gen.id) ?? []).map((s) => ctx.ref('creature-species', s.id)),
    types: (ctx.groupBy('type', 'generation_id').get(gen.id) ?? []).map((t) => ctx.ref('type', t.id)),
    version_groups: (ctx.groupBy('version-group', 'generation_id').get(gen.id) ?? []).map((v) => ctx.ref('version-group', v.id)),
  }),
});
