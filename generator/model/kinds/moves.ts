import { child, defineKind } from '../define.ts';

/** Effect prose is kept by effect, not by move; each move (and each past value) copies its effect's rows. */
const effectProse = () => child('move_effect_prose', 'move_effect_id', { on: 'effect_id' });

export const move = defineKind({
  kind: 'move',
  table: 'moves',
  children: {
    names: child('move_names', 'move_id'),
    flavor_text: child('move_flavor_text', 'move_id'),
    /** at most one row; shadow moves have none */
    meta: child('move_meta', 'move_id'),
    stat_changes: child('move_meta_stat_changes', 'move_id'),
    changelog: child('move_changelog', 'move_id', { children: { effect_prose: effectProse() } }),
    effect_prose: effectProse(),
    effect_changes: child('move_effect_changelog', 'effect_id', {
      on: 'effect_id',
      children: { prose: child('move_effect_changelog_prose', 'move_effect_changelog_id') },
    }),
    machines: child('machines', 'move_id'),
    /** combos where this move comes first: the rows name the moves to use after it */
    combos_first: child('contest_combos', 'first_move_id'),
    /** combos where this move comes second: the rows name the moves to use before it */
    combos_second: child('contest_combos', 'second_move_id'),
    super_combos_first: child('super_contest_combos', 'first_move_id'),
    super_combos_second: child('super_contest_combos', 'second_move_id'),
  },
});

export const moveAilment = defineKind({
  kind: 'move-ailment',
  table: 'move_meta_ailments',
  children: { names: child('move_meta_ailment_names', 'move_meta_ailment_id') },
});

export const moveBattleStyle = defineKind({
  kind: 'move-battle-style',
  table: 'move_battle_styles',
  children: { prose: child('move_battle_style_prose', 'move_battle_style_id') },
});

export const moveCategory = defineKind({
  kind: 'move-category',
  table: 'move_meta_categories',
  children: { prose: child('move_meta_category_prose', 'move_meta_category_id') },
});

export const moveDamageClass = defineKind({
  kind: 'move-damage-class',
  table: 'move_damage_classes',
  children: { prose: child('move_damage_class_prose', 'move_damage_class_id') },
});

export const moveLearnMethod = defineKind({
  kind: 'move-learn-method',
  table: 'pokemon_move_methods',
  children: {
    prose: child('pokemon_move_method_prose', 'creature_move_method_id'),
    version_groups: child('version_group_pokemon_move_methods', 'creature_move_method_id'),
  },
});

export const moveTarget = defineKind({
  kind: 'move-target',
  table: 'move_targets',
  children: { prose: child('move_target_prose', 'move_target_id') },
});

/** Machines have no id column upstream; the import numbers them by row, as the upstream's database does. */
export const machine = defineKind({ kind: 'machine', table: 'machines', name: null, children: {} });

export const contestType = defineKind({
  kind: 'contest-type',
  table: 'contest_types',
  children: { names: child('contest_type_names', 'contest_type_id') },
});

export const contestEffect = defineKind({
  kind: 'contest-effect',
  table: 'contest_effects',
  name: null,
  children: { prose: child('contest_effect_prose', 'contest_effect_id') },
});

export const superContestEffect = defineKind({
  kind: 'super-contest-effect',
  table: 'super_contest_effects',
  name: null,
  children: { prose: child('super_contest_effect_prose', 'super_contest_effect_id') },
});

export const kinds = [
  move,
  moveAilment,
  moveBattleStyle,
  moveCategory,
  moveDamageClass,
  moveLearnMethod,
  moveTarget,
  machine,
  contestType,
  contestEffect,
  superContestEffect,
] as const;
