import { BattleType, TYPE_ICON_GAMES } from '../../../schemas/output/battle.ts';
import type { BuildContext } from '../context.ts';
import { generationGameIndices, names } from '../shapes.ts';
import type { RecordOf } from '../../model/kinds.ts';
import { defineResource } from '../define.ts';
import { damageRelations, pastDamageRelations } from './damage-relations.ts';

/** Each game's icons of a type: its name plate, and (from generation VII on, in some games) a small symbol. */
function sprites(type: RecordOf<'type'>, ctx: BuildContext) {
  return Object.fromEntries(
    Object.entries(TYPE_ICON_GAMES).map(([generation, games]) => [
      generation,
      Object.fromEntries(
        games.map((game) => {
          const folder = `sprites/types/${generation}/${game}`;
          return [game, { name_icon: ctx.sprite(`${folder}/${type.id}.png`), symbol_icon: ctx.sprite(`${folder}/small/${type.id}.png`) }];
        }),
      ),
    ]),
  );
}

export const type = defineResource({
  kind: 'type',
  schema: BattleType,
  emit: (type, ctx) => ({
    id: type.id,
    name: type.name,
    damage_relations: damageRelations(type, ctx),
    past_damage_relations: pastDamageRelations(type, ctx),
    game_indices: generationGameIndices(ctx, type.game_indices),
    generation: ctx.ref('generation', type.generation_id),
    move_damage_class: ctx.refOrNull('move-damage-class', type.damage_class_id),
    names: names(ctx, type.names),
    creature: (ctx.childrenBy('creature', 'types', 'type_id').get(type.id) ?? []).map(({ owner, row }) => ({
      slot: row.slot,
      creature: ctx.ref('creature', owner.id),
    })),
    moves: ctx.refsWhere('move', 'type_id', type.id),
    sprites: sprites(type, ctx),
  }),
  query: (q) => ({
    filters: [
      q.link('generation', 'generation', 'a generation', (t) => t.generation),
      q.link('move_damage_class', 'move-damage-class', 'a damage class', (t) => t.move_damage_class),
    ],
    fields: ['id', 'generation', 'move_damage_class'],
  }),
});
