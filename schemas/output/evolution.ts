/** Responses of the evolution resources: chains (a tree of species) and triggers. */
import { Type, type Static } from '@sinclair/typebox';
import { about, d, idField, link, linkOrNull, links, nameField, namesField, Nullable } from './common.ts';

const unlessNeeded = 'when the evolution does not need one';
const noMinimum = 'null when there is no such minimum';

/**
 * The conditions of one way to evolve into a species. Every field is always present; a condition
 * that does not apply is null (false for flags, "" for `time_of_day`). `gender` is the gender's
 * numeric id, not a link: the upstream writes that foreign key bare.
 */
export const EvolutionDetail = Type.Object(
  {
    version_group: link('version-group', 'The games in which this way of evolving applies.'),
    is_default: Type.Boolean(d('True for the usual way to evolve in these games; false for a further way the data records beside it.')),
    item: linkOrNull('item', 'The item to use on the creature (with the `use-item` trigger).', unlessNeeded),
    trigger: link('evolution-trigger', 'What sets the evolution off: `level-up`, `trade`, `use-item`, `shed` and others.'),
    gender: Nullable(
      Type.Integer(),
      'The gender the creature must be, as the gender’s id (1 female, 2 male; see `/gender/`), not a link; null when either will do.',
    ),
    held_item: linkOrNull('item', 'The item the creature must hold.', unlessNeeded),
    known_move: linkOrNull('move', 'A move the creature must know.', unlessNeeded),
    known_move_type: linkOrNull('type', 'The creature must know a move of this type.', unlessNeeded),
    location: linkOrNull('location', 'Where the creature must level up.', 'when anywhere will do'),
    min_level: Nullable(Type.Integer(), `The level the creature must have reached; ${noMinimum}.`),
    min_happiness: Nullable(Type.Integer(), `The friendship (0–255) the creature must have; ${noMinimum}.`),
    min_beauty: Nullable(Type.Integer(), `The beauty condition (0–255) the creature must have; ${noMinimum}.`),
    min_affection: Nullable(Type.Integer(), `The affection (in hearts) the creature must have; ${noMinimum}.`),
    near_special_rock: Type.Boolean(d('True when the creature must level up near a special rock (a moss or ice rock, for example).')),
    needs_multiplayer: Type.Boolean(d('True when the evolution happens only while playing with others (a link or union circle).')),
    needs_overworld_rain: Type.Boolean(d('True when it must be raining (or foggy) outside while the creature levels up.')),
    party_species: linkOrNull('creature-species', 'A species that must be in the party.', unlessNeeded),
    party_type: linkOrNull('type', 'A creature of this type must be in the party.', unlessNeeded),
    relative_physical_stats: Nullable(
      Type.Integer(),
      'How Attack must compare with Defense: 1 Attack higher, -1 Defense higher, 0 equal; null when it does not matter.',
    ),
    time_of_day: Type.String(d('The time of day the evolution needs (`day`, `night`, `dusk`, `full-moon`); an empty string when any time will do.')),
    trade_species: linkOrNull('creature-species', 'The species it must be traded for.', unlessNeeded),
    turn_upside_down: Type.Boolean(d('True when the console must be held upside down while the creature levels up.')),
    region: linkOrNull('region', 'The region in which this way of evolving works.', 'when it works in any region'),
    base_form: linkOrNull('creature', 'The variety (a regional form, for example) that evolves this way.', 'when the data set names no particular variety'),
    evolved_form: linkOrNull('creature', 'The variety it evolves into.', 'when the data set names no particular variety'),
    used_move: linkOrNull('move', 'A move the creature must use.', unlessNeeded),
    min_move_count: Nullable(Type.Integer(), `How many times it must use \`used_move\`; ${noMinimum}.`),
    min_steps: Nullable(Type.Integer(), `How many steps it must walk; ${noMinimum}.`),
    min_damage_taken: Nullable(Type.Integer(), `How much damage (HP) it must have taken; ${noMinimum}.`),
  },
  { additionalProperties: false },
);
export type EvolutionDetail = Static<typeof EvolutionDetail>;

/** One stage of a chain and the stages that evolve from it. */
export const ChainLink = Type.Recursive(
  (Link) =>
    Type.Object(
      {
        is_baby: Type.Boolean(d('True when this stage is a baby species (hatched from an egg, before the family’s first usual stage).')),
        species: link('creature-species', 'The species at this stage of the chain.'),
        evolution_details: Type.Array(
          EvolutionDetail,
          d('The ways to evolve into this stage from the one above it, per version group; empty for the chain’s first stage.'),
        ),
        evolves_to: Type.Array(Link, d('The stages this one evolves into: empty for a final stage, more than one where the family branches (Eevee).')),
      },
      { additionalProperties: false },
    ),
  { $id: 'ChainLink' },
);
export type ChainLink = Static<typeof ChainLink>;

export const EvolutionChain = Type.Object(
  {
    id: Type.Integer(
      d(
        'The chain’s own numeric id. It is not a species id: to find a species’ chain, read `evolution_chain.url` from `/creature-species/{id}`. Ids are not contiguous.',
      ),
    ),
    baby_trigger_item: linkOrNull('item', 'The item a parent must hold for its egg to hatch into the family’s baby stage.', 'when the family has no such item'),
    chain: about(ChainLink, 'The first stage of the family; each stage lists the ones it evolves into.'),
  },
  { additionalProperties: false },
);

export const EvolutionTrigger = Type.Object(
  {
    id: idField('trigger'),
    name: nameField('trigger'),
    names: namesField('trigger'),
    creature_species: links('creature-species', 'The species reached by an evolution with this trigger.'),
  },
  { additionalProperties: false },
);
