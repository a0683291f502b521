/**
 * The entry: one answer per creature with what the upstream spreads over a creature, its species,
 * its forms and its evolution chain. Its fields copied from those documents keep their shapes and
 * say where they come from.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { about, d, link, Nullable, unnamedLink } from './common.ts';
import { Creature } from './creatures.ts';
import { EvolutionDetail } from './evolution.ts';
import { CreatureSpecies } from './species.ts';

/** A field of another document, as it is there, saying where it comes from. */
function copied<T extends TSchema>(schema: T, from: string): T {
  return about(schema, `${schema.description ?? ''} As in ${from}.`.trim());
}
const ofCreature = <K extends keyof typeof Creature.properties>(key: K) => copied(Creature.properties[key], 'the creature’s `/creature/{id}/`');
const ofSpecies = <K extends keyof typeof CreatureSpecies.properties>(key: K) =>
  copied(CreatureSpecies.properties[key], 'its species’ `/creature-species/{id}/`');

/** One of the creature's forms, with its fields of `/creature-form/{id}/`. */
export const EntryForm = Type.Object(
  {
    name: Type.String(d('The form’s name (`unown-b`); it addresses the entry too.')),
    url: Type.String({ format: 'uri', description: 'The URL of the form, `/creature-form/{id}/`.' }),
    form_name: Type.String(d('The form’s own part of its name (`b`); empty for a form that has none.')),
    is_default: Type.Boolean(d('True for the form the creature has unless something changes it.')),
    is_mega: Type.Boolean(d('True for a Mega Evolution.')),
    is_battle_only: Type.Boolean(d('True for a form taken in battle only.')),
  },
  { additionalProperties: false },
);

/** Another species of the chain, and the details of the evolution between the two. */
export const EntryEvolutionStep = Type.Object(
  {
    species: link('creature-species', 'The species.'),
    evolution_details: Type.Array(
      EvolutionDetail,
      d('The ways to evolve from the earlier of the two species into the later, per version group, as in the chain’s `evolution_details`.'),
    ),
  },
  { additionalProperties: false },
);

export const EntryEvolution = Type.Object(
  {
    chain: unnamedLink('evolution-chain', 'The species’ evolution chain.'),
    stage: Type.Integer({
      minimum: 1,
      description: 'The species’ place in its chain: 1 for the chain’s first species, 2 for a species that evolves from it, and so on.',
    }),
    from: Nullable(
      EntryEvolutionStep,
      'The species it evolves from, with the ways it evolves into this one (this species’ own `evolution_details` in the chain); null for a first stage.',
    ),
    to: Type.Array(EntryEvolutionStep, d('The species it evolves into, in the chain’s order, each with the ways to evolve into it; empty for a last stage.')),
  },
  { additionalProperties: false },
);

export const Entry = Type.Object(
  {
    id: Type.Integer(d('The creature’s id: an entry has its creature’s id.')),
    name: Type.String(
      d(
        'The creature’s name. The entry is addressed by it, by its species’ name when it is the species’ default variety (`giratina` for `giratina-altered`) and by any of its forms’ names (`unown-b`).',
      ),
    ),
    is_default: ofCreature('is_default'),
    creature: link('creature', 'The creature, with what the entry does not copy: its moves, held items, encounters and past values.'),
    species: ofCreature('species'),
    types: ofCreature('types'),
    abilities: ofCreature('abilities'),
    stats: ofCreature('stats'),
    base_stat_total: Type.Integer(d('The sum of its base stats.')),
    height: ofCreature('height'),
    weight: ofCreature('weight'),
    base_experience: ofCreature('base_experience'),
    generation: ofSpecies('generation'),
    color: ofSpecies('color'),
    shape: ofSpecies('shape'),
    habitat: ofSpecies('habitat'),
    egg_groups: ofSpecies('egg_groups'),
    growth_rate: ofSpecies('growth_rate'),
    gender_rate: ofSpecies('gender_rate'),
    capture_rate: ofSpecies('capture_rate'),
    base_happiness: ofSpecies('base_happiness'),
    hatch_counter: ofSpecies('hatch_counter'),
    is_baby: ofSpecies('is_baby'),
    is_legendary: ofSpecies('is_legendary'),
    is_mythical: ofSpecies('is_mythical'),
    names: ofSpecies('names'),
    genera: ofSpecies('genera'),
    pokedex_numbers: ofSpecies('pokedex_numbers'),
    varieties: ofSpecies('varieties'),
    forms: Type.Array(EntryForm, d('The creature’s forms, in its own order (`/creature/{id}/`’s `forms`).')),
    evolution: about(EntryEvolution, 'Its species’ place in its evolution chain: the same for every variety of the species.'),
    flavor_text_entries: ofSpecies('flavor_text_entries'),
    sprites: ofCreature('sprites'),
    cries: ofCreature('cries'),
  },
  { additionalProperties: false },
);
export type Entry = Static<typeof Entry>;
