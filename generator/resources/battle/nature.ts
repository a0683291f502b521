import { Nature } from '../../../schemas/output/battle.ts';
import { names } from '../shapes.ts';
import type { RecordOf } from '../../model/kinds.ts';
import { defineResource } from '../define.ts';

/*
 * The table gives every nature a raised and a lowered stat, and a liked and a hated flavor;
 * the five neutral natures name the same one twice. The upstream treats such a pair as none
 * (both null), and a stat's affecting natures leave them out.
 */

/** The stats a nature raises and lowers, or null for a neutral nature. */
export function statEffect(nature: RecordOf<'nature'>): { increased: number; decreased: number } | null {
  return nature.increased_stat_id === nature.decreased_stat_id ? null : { increased: nature.increased_stat_id, decreased: nature.decreased_stat_id };
}

/** The berry flavors a nature likes and hates, or null when it has no preference. */
function flavorPreference(nature: RecordOf<'nature'>): { likes: number; hates: number } | null {
  return nature.likes_flavor_id === nature.hates_flavor_id ? null : { likes: nature.likes_flavor_id, hates: nature.hates_flavor_id };
}

export const nature = defineResource({
  kind: 'nature',
  schema: Nature,
  emit: (nature, ctx) => {
    const stats = statEffect(nature);
    const flavors = flavorPreference(nature);
    return {
      id: nature.id,
      name: nature.name,
      decreased_stat: stats && ctx.ref('stat', stats.decreased),
      increased_stat: stats && ctx.ref('stat', stats.increased),
      // berry-flavor records are the contest types, whose ids the flavor columns hold
      hates_flavor: flavors && ctx.ref('berry-flavor', flavors.hates),
      likes_flavor: flavors && ctx.ref('berry-flavor', flavors.likes),
      pokeathlon_stat_changes: nature.pokeathlon_stat_changes.map((change) => ({
        max_change: change.max_change,
        pokeathlon_stat: ctx.ref('pokeathlon-stat', change.pokeathlon_stat_id),
      })),
      move_battle_style_preferences: nature.battle_style_preferences.map((preference) => ({
        low_hp_preference: preference.low_hp_preference,
        high_hp_preference: preference.high_hp_preference,
        move_battle_style: ctx.ref('move-battle-style', preference.move_battle_style_id),
      })),
      names: names(ctx, nature.names),
    };
  },
  query: (q) => ({
    filters: [
      q.link('decreased_stat', 'stat', 'a stat', (n) => n.decreased_stat),
      q.link('increased_stat', 'stat', 'a stat', (n) => n.increased_stat),
      q.link('hates_flavor', 'berry-flavor', 'a berry flavor', (n) => n.hates_flavor),
      q.link('likes_flavor', 'berry-flavor', 'a berry flavor', (n) => n.likes_flavor),
    ],
    fields: ['id', 'decreased_stat', 'increased_stat', 'hates_flavor', 'likes_flavor'],
  }),
});
