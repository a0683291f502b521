/**
 * Responses of the resources that classify species: color, habitat, shape, egg group,
 * growth rate and gender. Each lists the species it classifies.
 */
import { Type } from '@sinclair/typebox';
import { Description, Name, NamedResource } from './common.ts';

/** A classification known by translated names only: color, habitat, egg group. */
const NamedClassification = Type.Object(
  { id: Type.Integer(), name: Type.String(), names: Type.Array(Name), creature_species: Type.Array(NamedResource) },
  { additionalProperties: false },
);

export const CreatureColor = NamedClassification;
export const CreatureHabitat = NamedClassification;
export const EggGroup = NamedClassification;

export const AwesomeName = Type.Object({ awesome_name: Type.String(), language: NamedResource }, { additionalProperties: false });

export const CreatureShape = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    awesome_names: Type.Array(AwesomeName),
    names: Type.Array(Name),
    creature_species: Type.Array(NamedResource),
  },
  { additionalProperties: false },
);

export const GrowthRateExperienceLevel = Type.Object({ level: Type.Integer(), experience: Type.Integer() }, { additionalProperties: false });

export const GrowthRate = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    formula: Type.String(),
    descriptions: Type.Array(Description),
    levels: Type.Array(GrowthRateExperienceLevel),
    creature_species: Type.Array(NamedResource),
  },
  { additionalProperties: false },
);

/** A species that can be of a gender, with its gender rate (eighths female; -1 genderless). */
export const CreatureSpeciesGender = Type.Object({ rate: Type.Integer(), creature_species: NamedResource }, { additionalProperties: false });

export const Gender = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    creature_species_details: Type.Array(CreatureSpeciesGender),
    required_for_evolution: Type.Array(NamedResource),
  },
  { additionalProperties: false },
);
