/**
 * Where creatures are met: one encounter's details, grouped per version. The same shapes serve
 * a location area's `creature_encounters` and a creature's `/encounters` list.
 */
import { Type, type Static } from '@sinclair/typebox';
import { NamedResource, Nullable } from './common.ts';

/** Extra facts about the creature met (a gift that is never shiny, an alpha, ...). */
export const EncounterCreatureDetails = Type.Object(
  {
    min_perfect_ivs: Nullable(Type.Integer()),
    always_shiny: Type.Boolean(),
    never_shiny: Type.Boolean(),
    is_alpha: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type EncounterCreatureDetails = Static<typeof EncounterCreatureDetails>;

/** One encounter: its slot's chance and method, its level range and the conditions it needs. */
export const EncounterDetail = Type.Object(
  {
    min_level: Type.Integer(),
    max_level: Type.Integer(),
    condition_values: Type.Array(NamedResource),
    chance: Type.Integer(),
    method: NamedResource,
    creature_details: Nullable(EncounterCreatureDetails),
  },
  { additionalProperties: false },
);
export type EncounterDetail = Static<typeof EncounterDetail>;

/** The encounters of one version; `max_chance` is the sum of their chances. */
export const VersionEncounterDetail = Type.Object(
  { version: NamedResource, max_chance: Type.Integer(), encounter_details: Type.Array(EncounterDetail) },
  { additionalProperties: false },
);
export type VersionEncounterDetail = Static<typeof VersionEncounterDetail>;

/** An element of `/creature/{id}/encounters`: one location area where the creature is met. */
export const LocationAreaEncounter = Type.Object(
  { location_area: NamedResource, version_details: Type.Array(VersionEncounterDetail) },
  { additionalProperties: false },
);

export const CreatureEncounters = Type.Array(LocationAreaEncounter);
export type CreatureEncounters = Static<typeof CreatureEncounters>;

/** An element of a location area's `creature_encounters`: one creature met there. */
export const CreatureEncounter = Type.Object(
  { creature: NamedResource, version_details: Type.Array(VersionEncounterDetail) },
  { additionalProperties: false },
);
export type CreatureEncounter = Static<typeof CreatureEncounter>;
