import type { Static } from '@sinclair/typebox';
import type { NamedResource } from '../../../schemas/output/common.ts';
import { ContestComboSets, Move, MoveMetaData } from '../../../schemas/output/moves.ts';
import type { BuildContext } from '../context.ts';
import { effectChanges, flavorTextsByVersionGroup, machineVersionDetails, names, verboseEffects } from '../shapes.ts';
import { sortedBy } from '../../lists.ts';
import type { RecordOf } from '../../model/kinds.ts';
import { defineResource } from '../define.ts';

type MoveRecord = RecordOf<'move'>;

/** A list of combo partners, or null when there is none (the upstream never answers an empty list here). */
const partners = (ctx: BuildContext, moveIds: readonly number[]): NamedResource[] | null => (moveIds.length ? moveIds.map((id) => ctx.ref('move', id)) : null);

/** Contest combos, or null when the move is in no combo of either contest kind. */
function contestCombos(move: MoveRecord, ctx: BuildContext): Static<typeof ContestComboSets> | null {
  const combos = {
    normal: {
      use_before: partners(
        ctx,
        move.combos_first.map((c) => c.second_move_id),
      ),
      use_after: partners(
        ctx,
        move.combos_second.map((c) => c.first_move_id),
      ),
    },
    super: {
      use_before: partners(
        ctx,
        move.super_combos_first.map((c) => c.second_move_id),
      ),
      use_after: partners(
        ctx,
        move.super_combos_second.map((c) => c.first_move_id),
      ),
    },
  };
  const any = [combos.normal, combos.super].some((set) => set.use_before !== null || set.use_after !== null);
  return any ? combos : null;
}

function meta(move: MoveRecord, ctx: BuildContext): Static<typeof MoveMetaData> | null {
  const [row] = move.meta;
  if (!row) return null;
  return {
    ailment: ctx.ref('move-ailment', row.meta_ailment_id),
    category: ctx.ref('move-category', row.meta_category_id),
    min_hits: row.min_hits,
    max_hits: row.max_hits,
    min_turns: row.min_turns,
    max_turns: row.max_turns,
    drain: row.drain,
    healing: row.healing,
    crit_rate: row.crit_rate,
    ailment_chance: row.ailment_chance,
    flinch_chance: row.flinch_chance,
    stat_chance: row.stat_chance,
  };
}

/**
 * Every creature that learns the move in any way, once each, by creature id: the upstream lists
 * the distinct learners of its creature-move table ordered by creature id.
 */
function learnedBy(move: MoveRecord, ctx: BuildContext): NamedResource[] {
  const learners = (ctx.childrenBy('creature', 'moves', 'move_id').get(move.id) ?? []).map(({ owner }) => owner.id);
  return sortedBy(new Set(learners), (id) => id).map((id) => ctx.ref('creature', id));
}

export const move = defineResource({
  kind: 'move',
  schema: Move,
  emit: (move, ctx) => ({
    id: move.id,
    name: move.name,
    accuracy: move.accuracy,
    effect_chance: move.effect_chance,
    pp: move.pp,
    priority: move.priority,
    power: move.power,
    contest_combos: contestCombos(move, ctx),
    contest_type: ctx.refOrNull('contest-type', move.contest_type_id),
    contest_effect: move.contest_effect_id === null ? null : ctx.resource('contest-effect', move.contest_effect_id),
    damage_class: ctx.ref('move-damage-class', move.damage_class_id),
    // Emitted as written: per the spec, clients substitute any `$effect_chance` token themselves.
    effect_entries: verboseEffects(ctx, move.effect_prose),
    effect_changes: effectChanges(ctx, move.effect_changes),
    generation: ctx.ref('generation', move.generation_id),
    meta: meta(move, ctx),
    names: names(ctx, move.names),
    // What the move was before a version group changed it; priority and target changes are not shown.
    past_values: move.changelog.map((past) => ({
      accuracy: past.accuracy,
      power: past.power,
      pp: past.pp,
      effect_chance: past.effect_chance,
      effect_entries: verboseEffects(ctx, past.effect_prose),
      type: ctx.refOrNull('type', past.type_id),
      version_group: ctx.ref('version-group', past.changed_in_version_group_id),
    })),
    stat_changes: move.stat_changes.map((s) => ({ change: s.change, stat: ctx.ref('stat', s.stat_id) })),
    super_contest_effect: move.super_contest_effect_id === null ? null : ctx.resource('super-contest-effect', move.super_contest_effect_id),
    target: ctx.ref('move-target', move.target_id),
    type: ctx.ref('type', move.type_id),
    machines: machineVersionDetails(ctx, move.machines),
    flavor_text_entries: flavorTextsByVersionGroup(ctx, move.flavor_text),
    learned_by_creature: learnedBy(move, ctx),
  }),
  query: (q) => ({
    filters: [
      q.link('type', 'type', 'a type', (m) => m.type),
      q.link('damage_class', 'move-damage-class', 'a damage class', (m) => m.damage_class),
      q.link('generation', 'generation', 'a generation', (m) => m.generation),
      q.link('target', 'move-target', 'a move target', (m) => m.target),
      q.link('ailment', 'move-ailment', 'an ailment it causes', (m) => m.meta?.ailment),
      q.link('category', 'move-category', 'a move category', (m) => m.meta?.category),
      q.link('contest_type', 'contest-type', 'a contest type', (m) => m.contest_type),
    ],
    ranges: [
      q.range('power', 'power (moves without power match no range)', (m) => m.power),
      q.range('accuracy', 'accuracy (moves that never miss have none and match no range)', (m) => m.accuracy),
      q.range('pp', 'power points', (m) => m.pp),
      q.range('priority', 'priority', (m) => m.priority),
      q.integer('effect_chance', 'chance of its secondary effect, in percent (moves without one match no range)'),
    ],
    fields: ['id', 'accuracy', 'pp', 'priority', 'power', 'damage_class', 'generation', 'target', 'type'],
  }),
});
