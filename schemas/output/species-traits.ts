/**
 * Responses of the resources that classify species: color, habitat, shape, egg group,
 * growth rate and gender. Each lists the species it classifies.
 */
import { Type } from '@sinclair/typebox';
import { d, Description, idField, link, links, nameField, namesField } from './common.ts';

const strict = { additionalProperties: false } as const;

/** A classification known by translated names only: color, habitat, egg group. */
const namedClassification = (what: string, members: string) =>
  Type.Object(
    {
      id: idField(what),
      name: nameField(what),
      names: namesField(what),
      creature_species: links('creature-species', `The species ${members}.`),
    },
    strict,
  );

export const CreatureColor = namedClassification('color', 'the Pokédex search files under this color');
export const CreatureHabitat = namedClassification('habitat', 'found in this habitat (FireRed and LeafGreen’s habitat Pokédex)');
export const EggGroup = namedClassification('egg group', 'in this egg group; any two of them can breed');

export const AwesomeName = Type.Object(
  {
    awesome_name: Type.String(d('The shape’s playful name in this language, as the Pokédex search shows it.')),
    language: link('language', 'The language of this name.'),
  },
  strict,
);

export const CreatureShape = Type.Object(
  {
    id: idField('shape'),
    name: nameField('shape'),
    awesome_names: Type.Array(AwesomeName, d('The shape’s playful names, per language.')),
    names: namesField('shape'),
    creature_species: links('creature-species', 'The species with this body shape.'),
  },
  strict,
);

export const GrowthRateExperienceLevel = Type.Object(
  {
    level: Type.Integer(d('A level, 1–100.')),
    experience: Type.Integer(d('The total experience points needed to reach that level.')),
  },
  strict,
);

export const GrowthRate = Type.Object(
  {
    id: idField('growth rate'),
    name: nameField('growth rate'),
    formula: Type.String(d('The experience needed for level x, as a LaTeX formula.')),
    descriptions: Type.Array(Description, d('The growth rate’s name as a short description, per language.')),
    levels: Type.Array(GrowthRateExperienceLevel, d('The experience each level needs, levels 1 to 100.')),
    creature_species: links('creature-species', 'The species that grow at this rate.'),
  },
  strict,
);

/** A species that can be of a gender, with its gender rate (eighths female; -1 genderless). */
export const CreatureSpeciesGender = Type.Object(
  {
    rate: Type.Integer(d('The species’ chance of being female, in eighths (0 always male, 8 always female); -1 when it is genderless.')),
    creature_species: link('creature-species', 'The species.'),
  },
  strict,
);

export const Gender = Type.Object(
  {
    id: idField('gender'),
    name: nameField('gender'),
    creature_species_details: Type.Array(
      CreatureSpeciesGender,
      d('The species that can be of this gender (for `genderless`, the species without one), with their gender rate.'),
    ),
    required_for_evolution: links(
      'creature-species',
      'The species reached by an evolution that only a creature of this gender can make (Burmy → Wormadam needs a female); empty when no evolution needs it.',
    ),
  },
  strict,
);
