/** Responses of the world resources: generations, versions, regions, languages, locations, encounter vocabularies. */
import { Type } from '@sinclair/typebox';
import { d, GenerationGameIndex, idField, link, linkOrNull, links, nameField, namesField } from './common.ts';
import { CreatureEncounter } from './encounters.ts';

const strict = { additionalProperties: false } as const;

export const Generation = Type.Object(
  {
    id: Type.Integer(d('The generation’s number: 1 for generation I, and so on.')),
    name: Type.String(d('The generation’s name: `generation-` and a lowercase Roman numeral (`generation-iv`).')),
    abilities: links('ability', 'The abilities introduced in this generation.'),
    main_region: link('region', 'The region the generation’s main games take place in.'),
    moves: links('move', 'The moves introduced in this generation.'),
    names: namesField('generation'),
    creature_species: links('creature-species', 'The species introduced in this generation.'),
    types: links('type', 'The types introduced in this generation.'),
    version_groups: links('version-group', 'The games of this generation.'),
  },
  strict,
);

export const Version = Type.Object(
  {
    id: idField('version'),
    name: nameField('version'),
    names: namesField('version'),
    version_group: link('version-group', 'The group of versions released together that this one belongs to (Red belongs to red-blue).'),
  },
  strict,
);

export const VersionGroup = Type.Object(
  {
    id: idField('version group'),
    name: nameField('version group'),
    order: Type.Integer(d('A sort key for version groups, close to the order the games came out in.')),
    generation: link('generation', 'The generation these games belong to.'),
    move_learn_methods: links('move-learn-method', 'The ways creatures learn moves in these games.'),
    pokedexes: links('pokedex', 'The Pokédexes these games have.'),
    regions: links('region', 'The regions these games take place in.'),
    versions: links('version', 'The versions in the group (two paired releases, for example).'),
  },
  strict,
);

export const Region = Type.Object(
  {
    id: idField('region'),
    name: nameField('region'),
    locations: links('location', 'The places in this region.'),
    main_generation: linkOrNull('generation', 'The generation that introduced this region.', 'when the data set names none'),
    names: namesField('region'),
    pokedexes: links('pokedex', 'The Pokédexes of this region.'),
    version_groups: links('version-group', 'The games that take place in this region.'),
  },
  strict,
);

export const Language = Type.Object(
  {
    id: idField('language'),
    name: Type.String(d('The language’s code as used in `language.name` everywhere (`en`, `ja-hrkt`, `zh-hans`).')),
    official: Type.Boolean(d('True when the games are officially published in this language.')),
    iso639: Type.String(d('The ISO 639-1 code of the language (`en`).')),
    iso3166: Type.String(d('The ISO 3166-1 code of the country the language’s games are published for (`us`).')),
    names: namesField('language'),
  },
  strict,
);

export const Location = Type.Object(
  {
    id: idField('location'),
    name: nameField('location'),
    region: linkOrNull('region', 'The region the location is in.', 'when the data set places it in none'),
    names: namesField('location'),
    game_indices: Type.Array(GenerationGameIndex, d('The location’s internal number in the games of each generation that has it.')),
    areas: links('location-area', 'The areas of this location (floors, parts of a route); encounters are listed per area.'),
  },
  strict,
);

export const EncounterMethodVersionRate = Type.Object(
  {
    rate: Type.Integer(d('How readily this method leads to an encounter in the area and version (the games’ encounter rate): the higher, the more often.')),
    version: link('version', 'The game version.'),
  },
  strict,
);

export const EncounterMethodRate = Type.Object(
  {
    encounter_method: link('encounter-method', 'The method.'),
    version_details: Type.Array(EncounterMethodVersionRate, d('The encounter rate of this method in the area, per game version.')),
  },
  strict,
);

export const LocationArea = Type.Object(
  {
    id: idField('location area'),
    name: nameField('location area'),
    game_index: Type.Integer(d('The area’s internal number in the games.')),
    encounter_method_rates: Type.Array(
      EncounterMethodRate,
      d('How often each encounter method finds a creature here, per version; empty when the data set has no rates.'),
    ),
    location: link('location', 'The location this area is part of.'),
    names: namesField('location area'),
    creature_encounters: Type.Array(CreatureEncounter, d('The creatures met here, with how, how often and at what levels, per version.')),
  },
  strict,
);

export const EncounterMethod = Type.Object(
  {
    id: idField('encounter method'),
    name: nameField('encounter method'),
    order: Type.Integer(d('A sort key for listing the methods.')),
    names: namesField('encounter method'),
  },
  strict,
);

export const EncounterCondition = Type.Object(
  {
    id: idField('encounter condition'),
    name: nameField('encounter condition'),
    values: links('encounter-condition-value', 'The values this condition can take (for `time`: `time-morning`, `time-day`, `time-night` and more).'),
    names: namesField('encounter condition'),
  },
  strict,
);

export const EncounterConditionValue = Type.Object(
  {
    id: idField('condition value'),
    name: nameField('condition value'),
    condition: link('encounter-condition', 'The condition this is a value of.'),
    names: namesField('condition value'),
  },
  strict,
);
