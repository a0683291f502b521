import { Creature } from '../../../schemas/output/creatures.ts';
import type { BuildContext } from '../../emit/context.ts';
import { heldItemVersionDetails, versionGameIndices } from '../../emit/shapes.ts';
import type { RecordOf } from '../../model/kinds.ts';
import { defineResource } from '../define.ts';
import { creatureEncounters } from '../world/creature-encounters.ts';
import { groupInOrder, runsOf, sortedBy } from '../../lists.ts';
import { creatureSprites } from './sprites.ts';

type CreatureRecord = RecordOf<'creature'>;

/** A `types` entry; forms without types of their own show their creature's. */
export const typeSlot = (ctx: BuildContext, row: { slot: number; type_id: number }) => ({ slot: row.slot, type: ctx.ref('type', row.type_id) });
const statValue = (ctx: BuildContext, row: { base_stat: number; effort: number; stat_id: number }) => ({
  base_stat: row.base_stat,
  effort: row.effort,
  stat: ctx.ref('stat', row.stat_id),
});

/** One entry per move, by move id; its details in table order (version group, then method). */
function moves(ctx: BuildContext, creature: CreatureRecord) {
  return sortedBy(groupInOrder(creature.moves, (m) => m.move_id), ([moveId]) => moveId).map(([moveId, rows]) => ({
    move: ctx.ref('move', moveId),
    version_group_details: rows.map((r) => ({
      level_learned_at: r.level,
      move_learn_method: ctx.ref('move-learn-method', r.creature_move_method_id),
      order: r.order,
      version_group: ctx.ref('version-group', r.version_group_id),
    })),
  }));
}

/** One entry per item, by item id; its versions by version id. */
function heldItems(ctx: BuildContext, creature: CreatureRecord) {
  return sortedBy(groupInOrder(creature.held_items, (h) => h.item_id), ([itemId]) => itemId).map(([itemId, rows]) => ({
    item: ctx.ref('item', itemId),
    version_details: heldItemVersionDetails(ctx, rows),
  }));
}

/** The upstream's cries are named by creature id; a missing file is null. */
const cries = (ctx: BuildContext, creature: CreatureRecord) => ({
  latest: ctx.cry(`cries/pokemon/latest/${creature.id}.ogg`),
  legacy: ctx.cry(`cries/pokemon/legacy/${creature.id}.ogg`),
});

export const creature = defineResource({
  kind: 'creature',
  schema: Creature,
  emit: (c, ctx) => ({
    id: c.id,
    name: c.name,
    base_experience: c.base_experience,
    height: c.height,
    weight: c.weight,
    is_default: c.is_default,
    // the upstream stores a missing order as -1
    order: c.order ?? -1,
    abilities: c.abilities.map((a) => ({ ability: ctx.ref('ability', a.ability_id), is_hidden: a.is_hidden, slot: a.slot })),
    past_abilities: runsOf(c.past_abilities, (a) => a.generation_id).map(([generationId, rows]) => ({
      abilities: rows.map((a) => ({ ability: ctx.refOrNull('ability', a.ability_id), is_hidden: a.is_hidden, slot: a.slot })),
      generation: ctx.ref('generation', generationId),
    })),
    forms: ctx.refsWhere('creature-form', 'creature_id', c.id),
    game_indices: versionGameIndices(ctx, c.game_indices),
    held_items: heldItems(ctx, c),
    location_area_encounters: `${ctx.baseUrl}/creature/${c.id}/encounters`,
    moves: moves(ctx, c),
    species: ctx.ref('creature-species', c.species_id),
    sprites: creatureSprites(c, ctx),
    cries: cries(ctx, c),
    stats: c.stats.map((s) => statValue(ctx, s)),
    past_stats: runsOf(c.past_stats, (s) => s.generation_id).map(([generationId, rows]) => ({
      generation: ctx.ref('generation', generationId),
      stats: rows.map((s) => statValue(ctx, s)),
    })),
    types: c.types.map((t) => typeSlot(ctx, t)),
    past_types: runsOf(c.past_types, (t) => t.generation_id).map(([generationId, rows]) => ({
      generation: ctx.ref('generation', generationId),
      types: rows.map((t) => typeSlot(ctx, t)),
    })),
  }),
  subresources: { encounters: creatureEncounters },
});
