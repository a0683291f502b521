import { child, defineKind, productWordReplaced } from '../define.ts';

export const creature = defineKind({
  kind: 'creature',
  table: 'pokemon',
  children: {
    abilities: child('pokemon_abilities', 'creature_id'),
    past_abilities: child('pokemon_abilities_past', 'creature_id'),
    game_indices: child('pokemon_game_indices', 'creature_id'),
    held_items: child('pokemon_items', 'creature_id'),
    moves: child('pokemon_moves', 'creature_id'),
    stats: child('pokemon_stats', 'creature_id'),
    past_stats: child('pokemon_stats_past', 'creature_id'),
    types: child('pokemon_types', 'creature_id'),
    past_types: child('pokemon_types_past', 'creature_id'),
  },
});

export const creatureForm = defineKind({
  kind: 'creature-form',
  table: 'pokemon_forms',
  children: {
    names: child('pokemon_form_names', 'creature_form_id'),
    generations: child('pokemon_form_generations', 'creature_form_id'),
    types: child('pokemon_form_types', 'creature_form_id'),
    // each condition carries its trigger's row, so the response can name the trigger
    conditions: child('pokemon_form_conditions', 'creature_form_id', {
      children: { trigger: child('pokemon_form_triggers', 'id', { on: 'form_trigger_id' }) },
    }),
  },
});

/**
 * One answer per creature, with its species, forms and place in its evolution chain: the
 * creature's rows, with the species' and forms' names it is also addressed by.
 */
export const entry = defineKind({
  kind: 'entry',
  table: 'pokemon',
  upstream: false,
  children: {
    species: child('pokemon_species', 'id', { on: 'species_id' }),
    forms: child('pokemon_forms', 'creature_id'),
  },
  // a species' name means its default variety; a form's, the creature in it
  aliases: (c: { is_default: boolean; species: ReadonlyArray<{ identifier: string }>; forms: ReadonlyArray<{ identifier: string }> }) =>
    [...(c.is_default ? c.species : []), ...c.forms].map((row) => productWordReplaced(row.identifier)),
});

export const kinds = [creature, creatureForm, entry] as const;
