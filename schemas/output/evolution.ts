/** Responses of the evolution resources: chains (a tree of species) and triggers. */
import { Type, type Static } from '@sinclair/typebox';
import { Name, NamedResource, Nullable } from './common.ts';

/**
 * The conditions of one way to evolve into a species. Every field is always present; a condition
 * that does not apply is null (false for flags, "" for `time_of_day`). `gender` is the gender's
 * numeric id, not a link: the upstream writes that foreign key bare.
 */
export const EvolutionDetail = Type.Object(
  {
    version_group: NamedResource,
    is_default: Type.Boolean(),
    item: Nullable(NamedResource),
    trigger: NamedResource,
    gender: Nullable(Type.Integer()),
    held_item: Nullable(NamedResource),
    known_move: Nullable(NamedResource),
    known_move_type: Nullable(NamedResource),
    location: Nullable(NamedResource),
    min_level: Nullable(Type.Integer()),
    min_happiness: Nullable(Type.Integer()),
    min_beauty: Nullable(Type.Integer()),
    min_affection: Nullable(Type.Integer()),
    near_special_rock: Type.Boolean(),
    needs_multiplayer: Type.Boolean(),
    needs_overworld_rain: Type.Boolean(),
    party_species: Nullable(NamedResource),
    party_type: Nullable(NamedResource),
    relative_physical_stats: Nullable(Type.Integer()),
    time_of_day: Type.String(),
    trade_species: Nullable(NamedResource),
    turn_upside_down: Type.Boolean(),
    region: Nullable(NamedResource),
    base_form: Nullable(NamedResource),
    evolved_form: Nullable(NamedResource),
    used_move: Nullable(NamedResource),
    min_move_count: Nullable(Type.Integer()),
    min_steps: Nullable(Type.Integer()),
    min_damage_taken: Nullable(Type.Integer()),
  },
  { additionalProperties: false },
);
export type EvolutionDetail = Static<typeof EvolutionDetail>;

/** One stage of a chain and the stages that evolve from it. */
export const ChainLink = Type.Recursive(
  (Link) =>
    Type.Object(
      {
        is_baby: Type.Boolean(),
        species: NamedResource,
        evolution_details: Type.Array(EvolutionDetail),
        evolves_to: Type.Array(Link),
      },
      { additionalProperties: false },
    ),
  { $id: 'ChainLink' },
);
export type ChainLink = Static<typeof ChainLink>;

export const EvolutionChain = Type.Object(
  { id: Type.Integer(), baby_trigger_item: Nullable(NamedResource), chain: ChainLink },
  { additionalProperties: false },
);

export const EvolutionTrigger = Type.Object(
  { id: Type.Integer(), name: Type.String(), names: Type.Array(Name), creature_species: Type.Array(NamedResource) },
  { additionalProperties: false },
);
