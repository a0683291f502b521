import { child, defineKind } from '../define.ts';

export const creatureSpecies = defineKind({
  kind: 'creature-species',
  table: 'pokemon_species',
  children: {
    names: child('pokemon_species_names', 'creature_species_id'),
    prose: child('pokemon_species_prose', 'creature_species_id'),
    flavor_text: child('pokemon_species_flavor_text', 'species_id'),
    dex_numbers: child('pokemon_dex_numbers', 'species_id'),
    egg_groups: child('pokemon_egg_groups', 'species_id'),
    pal_park: child('pal_park', 'species_id'),
    evolutions: child('pokemon_evolution', 'evolved_species_id'),
  },
});

export const evolutionChain = defineKind({ kind: 'evolution-chain', table: 'evolution_chains', name: null, children: {} });

export const evolutionTrigger = defineKind({
  kind: 'evolution-trigger',
  table: 'evolution_triggers',
  children: { prose: child('evolution_trigger_prose', 'evolution_trigger_id') },
});

export const creatureHabitat = defineKind({
  kind: 'creature-habitat',
  table: 'pokemon_habitats',
  children: { names: child('pokemon_habitat_names', 'creature_habitat_id') },
});

export const creatureColor = defineKind({
  kind: 'creature-color',
  table: 'pokemon_colors',
  children: { names: child('pokemon_color_names', 'creature_color_id') },
});

export const creatureShape = defineKind({
  kind: 'creature-shape',
  table: 'pokemon_shapes',
  children: { prose: child('pokemon_shape_prose', 'creature_shape_id') },
});

export const growthRate = defineKind({
  kind: 'growth-rate',
  table: 'growth_rates',
  children: {
    prose: child('growth_rate_prose', 'growth_rate_id'),
    levels: child('experience', 'growth_rate_id'),
  },
});

export const eggGroup = defineKind({
  kind: 'egg-group',
  table: 'egg_groups',
  children: { prose: child('egg_group_prose', 'egg_group_id') },
});

export const gender = defineKind({ kind: 'gender', table: 'genders', children: {} });

export const palParkArea = defineKind({
  kind: 'pal-park-area',
  table: 'pal_park_areas',
  children: { names: child('pal_park_area_names', 'pal_park_area_id') },
});

export const pokedex = defineKind({
  kind: 'pokedex',
  table: 'pokedexes',
  children: {
    prose: child('pokedex_prose', 'pokedex_id'),
    version_groups: child('pokedex_version_groups', 'pokedex_id'),
  },
});

export const kinds = [
  creatureSpecies,
  evolutionChain,
  evolutionTrigger,
  creatureHabitat,
  creatureColor,
  creatureShape,
  growthRate,
  eggGroup,
  gender,
  palParkArea,
  pokedex,
] as const;
