/** Responses of the species resource and of the catalogues that list species: Pal Park areas, Pokédexes. */
import { Type } from '@sinclair/typebox';
import { ApiResource, Description, FlavorTextByVersion, Name, NamedResource, Nullable } from './common.ts';

export const Genus = Type.Object({ genus: Type.String(), language: NamedResource }, { additionalProperties: false });

export const CreatureSpeciesDexEntry = Type.Object({ entry_number: Type.Integer(), pokedex: NamedResource }, { additionalProperties: false });

export const PalParkEncounterArea = Type.Object(
  { base_score: Type.Integer(), rate: Type.Integer(), area: NamedResource },
  { additionalProperties: false },
);

export const CreatureSpeciesVariety = Type.Object({ is_default: Type.Boolean(), creature: NamedResource }, { additionalProperties: false });

export const CreatureSpecies = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    order: Type.Integer(),
    // the upstream's model allows these four to be empty; it then answers null
    gender_rate: Nullable(Type.Integer()),
    capture_rate: Nullable(Type.Integer()),
    base_happiness: Nullable(Type.Integer()),
    hatch_counter: Nullable(Type.Integer()),
    is_baby: Type.Boolean(),
    is_legendary: Type.Boolean(),
    is_mythical: Type.Boolean(),
    has_gender_differences: Type.Boolean(),
    forms_switchable: Type.Boolean(),
    growth_rate: NamedResource,
    pokedex_numbers: Type.Array(CreatureSpeciesDexEntry),
    egg_groups: Type.Array(NamedResource),
    color: NamedResource,
    shape: NamedResource,
    evolves_from_species: Nullable(NamedResource),
    evolution_chain: ApiResource,
    habitat: Nullable(NamedResource),
    generation: NamedResource,
    names: Type.Array(Name),
    pal_park_encounters: Type.Array(PalParkEncounterArea),
    form_descriptions: Type.Array(Description),
    flavor_text_entries: Type.Array(FlavorTextByVersion),
    genera: Type.Array(Genus),
    varieties: Type.Array(CreatureSpeciesVariety),
  },
  { additionalProperties: false },
);

export const PalParkEncounterSpecies = Type.Object(
  { base_score: Type.Integer(), rate: Type.Integer(), creature_species: NamedResource },
  { additionalProperties: false },
);

export const PalParkArea = Type.Object(
  { id: Type.Integer(), name: Type.String(), names: Type.Array(Name), creature_encounters: Type.Array(PalParkEncounterSpecies) },
  { additionalProperties: false },
);

export const PokedexEntry = Type.Object({ entry_number: Type.Integer(), creature_species: NamedResource }, { additionalProperties: false });

export const Pokedex = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    is_main_series: Type.Boolean(),
    descriptions: Type.Array(Description),
    names: Type.Array(Name),
    creature_entries: Type.Array(PokedexEntry),
    region: Nullable(NamedResource),
    version_groups: Type.Array(NamedResource),
  },
  { additionalProperties: false },
);
