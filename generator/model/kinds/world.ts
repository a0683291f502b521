import { child, defineKind } from '../define.ts';

export const generation = defineKind({
  kind: 'generation',
  table: 'generations',
  children: { names: child('generation_names', 'generation_id') },
});

export const version = defineKind({
  kind: 'version',
  table: 'versions',
  children: { names: child('version_names', 'version_id') },
});

export const versionGroup = defineKind({
  kind: 'version-group',
  table: 'version_groups',
  children: {
    regions: child('version_group_regions', 'version_group_id'),
    // the link tables are also read from the other side (a learn method's and a pokedex's
    // version groups); here they keep this group's rows in table order, as the upstream lists them
    move_learn_methods: child('version_group_pokemon_move_methods', 'version_group_id'),
    pokedexes: child('pokedex_version_groups', 'version_group_id'),
  },
});

export const region = defineKind({
  kind: 'region',
  table: 'regions',
  children: { names: child('region_names', 'region_id') },
});

export const language = defineKind({
  kind: 'language',
  table: 'languages',
  children: { names: child('language_names', 'language_id') },
});

export const location = defineKind({
  kind: 'location',
  table: 'locations',
  children: {
    names: child('location_names', 'location_id'),
    game_indices: child('location_game_indices', 'location_id'),
  },
});

export const locationArea = defineKind({
  kind: 'location-area',
  table: 'location_areas',
  // Areas are named after their location, then the area ("area" when the area has no name).
  name: (row, tables) => `${tables.byId('locations').get(row.location_id)?.identifier ?? ''}-${row.identifier ?? 'area'}`,
  children: {
    names: child('location_area_prose', 'location_area_id'),
    encounter_rates: child('location_area_encounter_rates', 'location_area_id'),
    encounters: child('encounters', 'location_area_id', {
      children: {
        condition_values: child('encounter_condition_value_map', 'encounter_id'),
        // at most one row per encounter (the upstream serializes the first one)
        creature_details: child('encounter_pokemon_details', 'encounter_id'),
      },
    }),
  },
});

export const encounterMethod = defineKind({
  kind: 'encounter-method',
  table: 'encounter_methods',
  children: {
    names: child('encounter_method_prose', 'encounter_method_id'),
    slots: child('encounter_slots', 'encounter_method_id'),
  },
});

export const encounterCondition = defineKind({
  kind: 'encounter-condition',
  table: 'encounter_conditions',
  children: { names: child('encounter_condition_prose', 'encounter_condition_id') },
});

export const encounterConditionValue = defineKind({
  kind: 'encounter-condition-value',
  table: 'encounter_condition_values',
  children: { names: child('encounter_condition_value_prose', 'encounter_condition_value_id') },
});

export const kinds = [
  generation,
  version,
  versionGroup,
  region,
  language,
  location,
  locationArea,
  encounterMethod,
  encounterCondition,
  encounterConditionValue,
] as const;
