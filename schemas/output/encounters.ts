/**
 * Where creatures are met: one encounter's details, grouped per version. The same shapes serve
 * a location area's `creature_encounters` and a creature's `/encounters` list.
 */
import { Type, type Static } from '@sinclair/typebox';
import { d, link, links, Nullable } from './common.ts';

/** Extra facts about the creature met (a gift that is never shiny, an alpha, ...). */
export const EncounterCreatureDetails = Type.Object(
  {
    min_perfect_ivs: Nullable(Type.Integer(), 'How many of its stats are sure to have the highest individual value (31); null when none is.'),
    always_shiny: Type.Boolean(d('True when the creature met here is always shiny.')),
    never_shiny: Type.Boolean(d('True when it can never be shiny (many gifts and fixed encounters).')),
    is_alpha: Type.Boolean(d('True for an alpha: a larger, stronger creature (Legends: Arceus).')),
  },
  { additionalProperties: false },
);
export type EncounterCreatureDetails = Static<typeof EncounterCreatureDetails>;

/** One encounter: its slot's chance and method, its level range and the conditions it needs. */
export const EncounterDetail = Type.Object(
  {
    min_level: Type.Integer(d('The lowest level the creature is met at.')),
    max_level: Type.Integer(d('The highest level the creature is met at.')),
    condition_values: links(
      'encounter-condition-value',
      'What must hold for this encounter (a time of day, a season, a swarm, ...); empty when nothing special is needed.',
    ),
    chance: Type.Integer(d('The chance, in percent, that an encounter by this method is this one.')),
    method: link('encounter-method', 'How the creature is met (walking in grass, fishing with a rod, surfing, ...).'),
    creature_details: Nullable(EncounterCreatureDetails, 'Extra facts about the creature met (shininess, alpha, perfect stats); null when there are none.'),
  },
  { additionalProperties: false },
);
export type EncounterDetail = Static<typeof EncounterDetail>;

/** The encounters of one version; `max_chance` is the sum of their chances. */
export const VersionEncounterDetail = Type.Object(
  {
    version: link('version', 'The game version.'),
    max_chance: Type.Integer(d('The sum of the chances of the encounters below, in percent.')),
    encounter_details: Type.Array(EncounterDetail, d('Each way the creature is met here in this version.')),
  },
  { additionalProperties: false },
);
export type VersionEncounterDetail = Static<typeof VersionEncounterDetail>;

/** An element of `/creature/{id}/encounters`: one location area where the creature is met. */
export const LocationAreaEncounter = Type.Object(
  {
    location_area: link('location-area', 'The area where the creature is met.'),
    version_details: Type.Array(VersionEncounterDetail, d('The encounters there, per game version.')),
  },
  { additionalProperties: false },
);

export const CreatureEncounters = Type.Array(
  LocationAreaEncounter,
  d('Every location area where the creature is met in the wild; empty when the data set records no wild encounter for it.'),
);
export type CreatureEncounters = Static<typeof CreatureEncounters>;

/** An element of a location area's `creature_encounters`: one creature met there. */
export const CreatureEncounter = Type.Object(
  {
    creature: link('creature', 'The creature met in this area.'),
    version_details: Type.Array(VersionEncounterDetail, d('The encounters with it here, per game version.')),
  },
  { additionalProperties: false },
);
export type CreatureEncounter = Static<typeof CreatureEncounter>;
