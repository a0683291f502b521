/**
 * What the data cut keeps: a handful of seed rows, and for every declared table how its other
 * rows get in. The cut is closed over every foreign key the import checks (schemas/tables.ts):
 * whatever a kept row references is kept too, so the import, the build and the preview run on
 * it unchanged.
 *
 * How a row of a table gets in, besides being referenced by a kept row:
 * - `whole`: every row (the small vocabularies: languages, generations, types, stats, ...);
 * - `owned` by a column: when the row that column references is kept (a creature's stats, a
 *   species' creatures, a chain's species). A table without a primary key is owned by its
 *   first foreign key unless said otherwise here;
 * - `link`: only when every row it references is kept for another reason (a creature learning a
 *   move: the cut keeps the learnsets between its creatures and its moves, not every move of a
 *   creature's learnset);
 * - `referenced`: only when a kept row references it (moves, items, abilities, locations, ...):
 *   the default for a table with a primary key.
 */
import type { TableName } from '../../schemas/columns.ts';

export type HowKept = { how: 'whole' } | { how: 'owned'; by: string } | { how: 'link' } | { how: 'referenced' };

/** Tables kept whole: each has at most a few dozen rows and names only other such tables. */
const whole: readonly TableName[] = [
  'languages',
  'regions',
  'generations',
  'version_groups',
  'versions',
  'types',
  'stats',
  'move_damage_classes',
  'move_targets',
  'pokemon_move_methods',
  'move_battle_styles',
  'move_flags',
  'move_meta_ailments',
  'move_meta_categories',
  'genders',
  'egg_groups',
  'growth_rates',
  'pokemon_colors',
  'pokemon_shapes',
  'pokemon_habitats',
  'pokemon_form_triggers',
  'contest_types',
  'berry_firmness',
  'item_pockets',
  'item_categories',
  'item_flags',
  'item_fling_effects',
  'encounter_methods',
  'encounter_conditions',
  'encounter_condition_values',
  'evolution_triggers',
  'natures',
  'characteristics',
  'pokeathlon_stats',
  'pal_park_areas',
  'pokedexes',
  'currencies',
];

/** Where the default (no primary key: owned by the first foreign key; else referenced only) is not what the cut needs. */
const exceptions: Partial<Record<TableName, HowKept>> = {
  // a kept species brings every creature of it (its forms, megas, regional forms), and those their forms
  pokemon: { how: 'owned', by: 'species_id' },
  pokemon_forms: { how: 'owned', by: 'creature_id' },
  // a kept chain brings every species of it: branched chains stay whole
  pokemon_species: { how: 'owned', by: 'evolution_chain_id' },
  pokemon_evolution: { how: 'owned', by: 'evolved_species_id' },
  encounters: { how: 'owned', by: 'creature_id' },
  ability_changelog: { how: 'owned', by: 'ability_id' },
  move_effect_changelog: { how: 'owned', by: 'effect_id' },
  // the technical machines that teach a kept move (and so their items)
  machines: { how: 'owned', by: 'move_id' },
  berries: { how: 'owned', by: 'item_id' },
  pokemon_moves: { how: 'link' },
  // owned by their first move, they would bring its partner's, and that one's partners
  contest_combos: { how: 'link' },
  super_contest_combos: { how: 'link' },
};

export function howKept(table: TableName, hasPrimaryKey: boolean, firstReference: string | undefined): HowKept {
  if (whole.includes(table)) return { how: 'whole' };
  const exception = exceptions[table];
  if (exception) return exception;
  if (hasPrimaryKey) return { how: 'referenced' };
  return firstReference === undefined ? { how: 'whole' } : { how: 'owned', by: firstReference };
}

/** Rows named by identifier that the cut starts from, by table. */
export type Seeds = Partial<Record<TableName, readonly string[]>>;

/**
 * The default cut: what the mechanisms' tests need. Each species brings its whole evolution
 * chain, so the chains below cover every generation:
 * - bulbasaur: the first creature (id 1), a mega and a gigantamax;
 * - pikachu: pichu (a baby), raichu's regional form (Alola), pikachu's many forms;
 * - eevee: a branched chain (generations I, II, IV, VI);
 * - charmander: two megas;
 * - clefairy: past types (normal before fairy), past abilities and past stats (generation I's special);
 * - treecko (III), snivy (V), rowlet (VII), grookey (VIII), sprigatito (IX): a chain of each generation.
 * Moves: pound (the first move), tackle (past power), protect (learned by nearly every creature,
 * technical machines in most games), thunderbolt (past power), bite (past type), hypnosis (past
 * accuracy). Items: the cheri berry (a berry and its flavors), the roseli berry (two items of one name).
 */
export const defaultSeeds: Seeds = {
  pokemon_species: ['bulbasaur', 'pikachu', 'eevee', 'charmander', 'clefairy', 'treecko', 'snivy', 'rowlet', 'grookey', 'sprigatito'],
  moves: ['pound', 'tackle', 'protect', 'thunderbolt', 'bite', 'hypnosis'],
  items: ['cheri-berry', 'roseli-berry'],
};
