import { child, defineKind } from '../define.ts';

export const type = defineKind({
  kind: 'type',
  table: 'types',
  // The specification lists exactly the 18 battle types; the others stay addressable.
  listed: (row) => row.id >= 1 && row.id <= 18,
  children: {
    names: child('type_names', 'type_id'),
    game_indices: child('type_game_indices', 'type_id'),
    efficacy: child('type_efficacy', 'damage_type_id'),
    past_efficacy: child('type_efficacy_past', 'damage_type_id'),
  },
});

export const ability = defineKind({
  kind: 'ability',
  table: 'abilities',
  children: {
    names: child('ability_names', 'ability_id'),
    prose: child('ability_prose', 'ability_id'),
    flavor_text: child('ability_flavor_text', 'ability_id'),
    changelog: child('ability_changelog', 'ability_id', { children: { prose: child('ability_changelog_prose', 'ability_changelog_id') } }),
  },
});

export const stat = defineKind({
  kind: 'stat',
  table: 'stats',
  children: { names: child('stat_names', 'stat_id') },
});

export const characteristic = defineKind({
  kind: 'characteristic',
  table: 'characteristics',
  name: null,
  children: { descriptions: child('characteristic_text', 'characteristic_id') },
});

export const nature = defineKind({
  kind: 'nature',
  table: 'natures',
  children: {
    names: child('nature_names', 'nature_id'),
    battle_style_preferences: child('nature_battle_style_preferences', 'nature_id'),
    pokeathlon_stat_changes: child('nature_pokeathlon_stats', 'nature_id'),
  },
});

export const pokeathlonStat = defineKind({
  kind: 'pokeathlon-stat',
  table: 'pokeathlon_stats',
  children: { names: child('pokeathlon_stat_names', 'pokeathlon_stat_id') },
});

export const kinds = [type, ability, stat, characteristic, nature, pokeathlonStat] as const;
