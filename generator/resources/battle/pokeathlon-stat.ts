import { PokeathlonStat } from '../../../schemas/output/battle.ts';
import { names } from '../shapes.ts';
import { defineResource } from '../define.ts';

export const pokeathlonStat = defineResource({
  kind: 'pokeathlon-stat',
  schema: PokeathlonStat,
  emit: (stat, ctx) => {
    const changes = (ctx.childrenBy('nature', 'pokeathlon_stat_changes', 'pokeathlon_stat_id').get(stat.id) ?? []).map(({ owner, row }) => ({
      max_change: row.max_change,
      nature: ctx.ref('nature', owner.id),
    }));
    return {
      id: stat.id,
      name: stat.name,
      // As upstream: a positive change raises the stat, any other lowers it; natures in id order.
      affecting_natures: {
        increase: changes.filter((c) => c.max_change > 0),
        decrease: changes.filter((c) => c.max_change <= 0),
      },
      names: names(ctx, stat.names),
    };
  },
});
