/** Responses of the world resources: generations, versions, regions, languages, locations, encounter vocabularies. */
import { Type } from '@sinclair/typebox';
import { GenerationGameIndex, Name, NamedResource, Nullable } from './common.ts';
import { CreatureEncounter } from './encounters.ts';

export const Generation = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    abilities: Type.Array(NamedResource),
    main_region: NamedResource,
    moves: Type.Array(NamedResource),
    names: Type.Array(Name),
    creature_species: Type.Array(NamedResource),
    types: Type.Array(NamedResource),
    version_groups: Type.Array(NamedResource),
  },
  { additionalProperties: false },
);

export const Version = Type.Object(
  { id: Type.Integer(), name: Type.String(), names: Type.Array(Name), version_group: NamedResource },
  { additionalProperties: false },
);

export const VersionGroup = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    order: Type.Integer(),
    generation: NamedResource,
    move_learn_methods: Type.Array(NamedResource),
    pokedexes: Type.Array(NamedResource),
    regions: Type.Array(NamedResource),
    versions: Type.Array(NamedResource),
  },
  { additionalProperties: false },
);

export const Region = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    locations: Type.Array(NamedResource),
    main_generation: Nullable(NamedResource),
    names: Type.Array(Name),
    pokedexes: Type.Array(NamedResource),
    version_groups: Type.Array(NamedResource),
  },
  { additionalProperties: false },
);

export const Language = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    official: Type.Boolean(),
    iso639: Type.String(),
    iso3166: Type.String(),
    names: Type.Array(Name),
  },
  { additionalProperties: false },
);

export const Location = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    region: Nullable(NamedResource),
    names: Type.Array(Name),
    game_indices: Type.Array(GenerationGameIndex),
    areas: Type.Array(NamedResource),
  },
  { additionalProperties: false },
);

export const EncounterMethodRate = Type.Object(
  {
    encounter_method: NamedResource,
    version_details: Type.Array(Type.Object({ rate: Type.Integer(), version: NamedResource }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);

export const LocationArea = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    game_index: Type.Integer(),
    encounter_method_rates: Type.Array(EncounterMethodRate),
    location: NamedResource,
    names: Type.Array(Name),
    creature_encounters: Type.Array(CreatureEncounter),
  },
  { additionalProperties: false },
);

export const EncounterMethod = Type.Object(
  { id: Type.Integer(), name: Type.String(), order: Type.Integer(), names: Type.Array(Name) },
  { additionalProperties: false },
);

export const EncounterCondition = Type.Object(
  { id: Type.Integer(), name: Type.String(), values: Type.Array(NamedResource), names: Type.Array(Name) },
  { additionalProperties: false },
);

export const EncounterConditionValue = Type.Object(
  { id: Type.Integer(), name: Type.String(), condition: NamedResource, names: Type.Array(Name) },
  { additionalProperties: false },
);
