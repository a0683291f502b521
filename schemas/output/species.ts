/** Responses of the species resource and of the catalogues that list species: Pal Park areas, Pokédexes. */
import { Type } from '@sinclair/typebox';
import { d, Description, FlavorTextByVersion, idField, link, linkOrNull, links, nameField, namesField, Nullable, unnamedLink } from './common.ts';

const strict = { additionalProperties: false } as const;

export const Genus = Type.Object(
  {
    genus: Type.String(d('The species’ category as the Pokédex prints it in this language (in English, for example, “Seed Pokémon”).')),
    language: link('language', 'The language of this text.'),
  },
  strict,
);

export const CreatureSpeciesDexEntry = Type.Object(
  {
    entry_number: Type.Integer(d('The species’ number in that Pokédex.')),
    pokedex: link('pokedex', 'The Pokédex (national or regional).'),
  },
  strict,
);

const palParkScore = Type.Integer(d('The points a catch of this species scores in the Pal Park minigame.'));
const palParkRate = Type.Integer(d('How often this species appears in the area compared with the others there: the higher, the more often.'));

export const PalParkEncounterArea = Type.Object(
  { base_score: palParkScore, rate: palParkRate, area: link('pal-park-area', 'The Pal Park area the species appears in.') },
  strict,
);

export const CreatureSpeciesVariety = Type.Object(
  {
    is_default: Type.Boolean(d('True for the species’ default variety: the creature its name usually means.')),
    creature: link('creature', 'The creature that is this variety.'),
  },
  strict,
);

const byTheData = 'null when the data set has no value for the species';

export const CreatureSpecies = Type.Object(
  {
    id: Type.Integer(d('The species’ numeric id: its national Pokédex number. The species’ default creature has the same id; its evolution chain does not.')),
    name: nameField('species'),
    order: Type.Integer(d('A sort key that keeps evolution families together, close to the national order.')),
    // the upstream's model allows these four to be empty; it then answers null
    gender_rate: Nullable(
      Type.Integer(),
      `The chance of being female, in eighths: 0 always male, 8 always female, 1 means 1 in 8; -1 for a genderless species; ${byTheData}.`,
    ),
    capture_rate: Nullable(Type.Integer(), `How easy it is to catch, 0–255: the higher, the easier; ${byTheData}.`),
    base_happiness: Nullable(Type.Integer(), `The friendship it has when caught, 0–255; ${byTheData}.`),
    hatch_counter: Nullable(
      Type.Integer(),
      `How many egg cycles its egg needs to hatch; a cycle is a fixed number of steps (about 255 in most games); ${byTheData}.`,
    ),
    is_baby: Type.Boolean(d('True for a baby species: one bred only from an egg and found at the start of its family’s chain.')),
    is_legendary: Type.Boolean(d('True for a legendary species.')),
    is_mythical: Type.Boolean(d('True for a mythical species (mostly given away at events).')),
    has_gender_differences: Type.Boolean(d('True when males and females look different (the creature then has `*_female` sprites).')),
    forms_switchable: Type.Boolean(d('True when a creature of this species can change between its forms.')),
    growth_rate: link('growth-rate', 'How much experience it needs to reach each level.'),
    pokedex_numbers: Type.Array(CreatureSpeciesDexEntry, d('Its number in each Pokédex that lists it.')),
    egg_groups: links('egg-group', 'The egg groups it belongs to: it can breed with species that share one.'),
    color: link('creature-color', 'The color the Pokédex search files it under.'),
    shape: link('creature-shape', 'The body shape the Pokédex search files it under.'),
    evolves_from_species: linkOrNull('creature-species', 'The species it evolves from.', 'for the first stage of a family'),
    evolution_chain: unnamedLink(
      'evolution-chain',
      'The evolution family it belongs to. The chain’s id is its own number, not this species’ id: follow this URL rather than guessing it.',
    ),
    habitat: linkOrNull(
      'creature-habitat',
      'Where it lives, as the habitat Pokédex of FireRed and LeafGreen files it.',
      'for species that Pokédex does not list (those introduced from generation IV on)',
    ),
    generation: link('generation', 'The generation in which the species first appeared.'),
    names: namesField('species'),
    pal_park_encounters: Type.Array(PalParkEncounterArea, d('Where it appears in the Pal Park (Diamond, Pearl and Platinum); empty when it does not.')),
    form_descriptions: Type.Array(Description, d('A description of how its forms differ, per language; empty for most species.')),
    flavor_text_entries: Type.Array(
      FlavorTextByVersion,
      d('Its Pokédex entries, one per game version and language. The text keeps the games’ line and page breaks (see `flavor_text`).'),
    ),
    genera: Type.Array(Genus, d('Its category (“Seed Pokémon”) in each language.')),
    varieties: Type.Array(
      CreatureSpeciesVariety,
      d(
        'The creatures that are varieties of this species, the default one marked: use this to find which creature a species name means (`deoxys` → `deoxys-normal`).',
      ),
    ),
  },
  strict,
);

export const PalParkEncounterSpecies = Type.Object(
  { base_score: palParkScore, rate: palParkRate, creature_species: link('creature-species', 'The species that appears in this area.') },
  strict,
);

export const PalParkArea = Type.Object(
  {
    id: idField('Pal Park area'),
    name: nameField('area'),
    names: namesField('area'),
    creature_encounters: Type.Array(PalParkEncounterSpecies, d('The species that appear in this area, with their score and rate.')),
  },
  strict,
);

export const PokedexEntry = Type.Object(
  {
    entry_number: Type.Integer(d('The species’ number in this Pokédex.')),
    creature_species: link('creature-species', 'The species listed under that number.'),
  },
  strict,
);

export const Pokedex = Type.Object(
  {
    id: idField('Pokédex'),
    name: nameField('Pokédex'),
    is_main_series: Type.Boolean(d('True when a main-series game has this Pokédex.')),
    descriptions: Type.Array(Description, d('What the Pokédex covers, per language.')),
    names: namesField('Pokédex'),
    creature_entries: Type.Array(PokedexEntry, d('Every species it lists, by entry number.')),
    region: linkOrNull(
      'region',
      'The region whose species it lists.',
      'for a Pokédex that belongs to no one region (the national one, and some side-game ones)',
    ),
    version_groups: links('version-group', 'The games that use this Pokédex.'),
  },
  strict,
);
