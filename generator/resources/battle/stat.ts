import { Stat } from '../../../schemas/output/battle.ts';
import { names } from '../shapes.ts';
import type { BuildContext } from '../context.ts';
import type { RecordOf } from '../../model/kinds.ts';
import { defineResource } from '../define.ts';
import { statEffect } from './nature.ts';

/**
 * The items that raise each stat, by item name: the vitamin, then the battle item. No table
 * holds this; the upstream names them by hand, and skips a name no item has (there is no
 * x-evasion item).
 */
const ITEMS_RAISING: Readonly<Record<string, readonly string[]>> = {
  hp: ['hp-up'],
  attack: ['protein', 'x-attack'],
  defense: ['iron', 'x-defense'],
  'special-attack': ['calcium', 'x-sp-atk'],
  'special-defense': ['zinc', 'x-sp-def'],
  speed: ['carbos', 'x-speed'],
  accuracy: ['x-accuracy'],
  evasion: ['x-evasion'],
};

function affectingItems(stat: RecordOf<'stat'>, ctx: BuildContext) {
  const itemsByName = ctx.groupBy('item', 'name');
  return (ITEMS_RAISING[stat.name] ?? []).flatMap((name) => {
    const item = itemsByName.get(name)?.[0];
    return item ? [ctx.ref('item', item.id)] : [];
  });
}

function affectingMoves(stat: RecordOf<'stat'>, ctx: BuildContext) {
  const changes = (ctx.childrenBy('move', 'stat_changes', 'stat_id').get(stat.id) ?? []).map(({ owner, row }) => ({
    change: row.change,
    move: ctx.ref('move', owner.id),
  }));
  // As upstream: a positive change is an increase, any other a decrease.
  return { increase: changes.filter((c) => c.change > 0), decrease: changes.filter((c) => c.change <= 0) };
}

function affectingNatures(stat: RecordOf<'stat'>, ctx: BuildContext) {
  // neutral natures name the same stat on both sides and affect none
  const naturesBy = (field: 'increased_stat_id' | 'decreased_stat_id') =>
    (ctx.groupBy('nature', field).get(stat.id) ?? []).filter((n) => statEffect(n) !== null).map((n) => ctx.ref('nature', n.id));
  return { increase: naturesBy('increased_stat_id'), decrease: naturesBy('decreased_stat_id') };
}

export const stat = defineResource({
  kind: 'stat',
  schema: Stat,
  emit: (stat, ctx) => ({
    id: stat.id,
    name: stat.name,
    // accuracy and evasion have no game index; the upstream loads the empty cell as 0
    game_index: stat.game_index ?? 0,
    is_battle_only: stat.is_battle_only,
    affecting_moves: affectingMoves(stat, ctx),
    affecting_natures: affectingNatures(stat, ctx),
    affecting_items: affectingItems(stat, ctx),
    characteristics: (ctx.groupBy('characteristic', 'stat_id').get(stat.id) ?? []).map((c) => ctx.resource('characteristic', c.id)),
    move_damage_class: ctx.refOrNull('move-damage-class', stat.damage_class_id),
    names: names(ctx, stat.names),
  }),
  query: (q) => ({
    filters: [
      q.yesNo('is_battle_only', (s) => s.is_battle_only),
      q.link('move_damage_class', 'move-damage-class', 'a damage class', (s) => s.move_damage_class),
    ],
    fields: ['id', 'game_index', 'is_battle_only', 'move_damage_class'],
  }),
});
