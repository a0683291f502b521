/** Responses of the creature resources: the creature (a species' variety) and its forms. */
import { Type, type Static } from '@sinclair/typebox';
import { about, d, HeldItemVersionDetail, link, linkOrNull, links, nameField, namesField, Nullable, VersionGameIndex } from './common.ts';
import { CreatureFormSprites, CreatureSprites } from './sprites.ts';

const strict = { additionalProperties: false } as const;

const abilitySlot = Type.Integer(d('Which ability slot: 1 and 2 are the regular abilities (a creature may have only slot 1), 3 is the hidden one.'));
const isHidden = Type.Boolean(d('True for the hidden ability (slot 3), which the creature has only in special cases.'));

export const CreatureAbility = Type.Object({ ability: link('ability', 'The ability.'), is_hidden: isHidden, slot: abilitySlot }, strict);
/** A past ability may be none at all: the slot did not exist in that generation. */
export const CreaturePastAbility = Type.Object(
  {
    ability: linkOrNull('ability', 'The ability this slot held then.', 'when the slot was empty then (for example no hidden ability before generation V)'),
    is_hidden: isHidden,
    slot: abilitySlot,
  },
  strict,
);
export const CreatureStat = Type.Object(
  {
    base_stat: Type.Integer(d('The base value of the stat, before level, nature and training change it.')),
    effort: Type.Integer(d('The effort points (EVs) in this stat gained for defeating the creature; 0 for most stats.')),
    stat: link('stat', 'Which stat (hp, attack, defense, special-attack, special-defense, speed; `special` in generation I).'),
  },
  strict,
);
export const CreatureType = Type.Object(
  {
    slot: Type.Integer(d('1 for the primary type, 2 for the secondary one.')),
    type: link('type', 'The type.'),
  },
  strict,
);

export const CreatureMoveVersionDetail = Type.Object(
  {
    level_learned_at: Type.Integer(d('The level at which the move is learned by level-up; 0 for every other method (egg, machine, tutor, ...).')),
    move_learn_method: link('move-learn-method', 'How the move is learned (level-up, egg, machine, tutor, ...).'),
    order: Nullable(
      Type.Integer(),
      'Among moves learned at the same level, the order they are learned in (1 first); null when the data set does not give one.',
    ),
    version_group: link('version-group', 'The games in which this way of learning applies.'),
  },
  strict,
);
export const CreatureMove = Type.Object(
  {
    move: link('move', 'The move.'),
    version_group_details: Type.Array(CreatureMoveVersionDetail, d('How and when the move is learned, one entry per version group and learn method.')),
  },
  strict,
);

export const CreatureHeldItem = Type.Object(
  {
    item: link('item', 'The item a wild one may hold.'),
    version_details: Type.Array(HeldItemVersionDetail, d('How often it holds the item, per game version, by version id.')),
  },
  strict,
);

export const CreatureCries = Type.Object(
  {
    latest: Nullable(
      Type.String({ format: 'uri' }),
      'URL of the cry as the newest games play it (an Ogg Vorbis file in the upstream cries repository); null when there is none.',
    ),
    legacy: Nullable(
      Type.String({ format: 'uri' }),
      'URL of the cry as the older games played it (Ogg Vorbis); null when there is none, as for the creatures introduced from generation VI on.',
    ),
  },
  strict,
);

export const CreaturePastAbilities = Type.Object(
  {
    abilities: Type.Array(CreaturePastAbility, d('The slots that differed then, each as it was.')),
    generation: link('generation', 'The last generation in which these abilities applied; later generations use `abilities`.'),
  },
  strict,
);
export const CreaturePastStats = Type.Object(
  {
    generation: link('generation', 'The last generation in which these stat values applied; later generations use `stats`.'),
    stats: Type.Array(CreatureStat, d('The stats that differed then, each with its value then.')),
  },
  strict,
);
export const CreaturePastTypes = Type.Object(
  {
    generation: link('generation', 'The last generation in which these types applied; later generations use `types`.'),
    types: Type.Array(CreatureType, d('The types it had then.')),
  },
  strict,
);

export const Creature = Type.Object(
  {
    id: Type.Integer(
      d(
        'The creature’s numeric id. A species’ default variety has the species’ id (its national Pokédex number); other varieties (megas, regional and other alternative forms) start at 10001. Ids are not contiguous.',
      ),
    ),
    name: Type.String(
      d(
        'The creature’s name: the species’ name, plus a suffix for a variety that is not the default (`charizard-mega-x`). Some species’ default varieties carry one too (`deoxys-normal`), so a species name is not always a creature name.',
      ),
    ),
    base_experience: Nullable(
      Type.Integer(),
      'The experience points this creature is worth when defeated, before level and other factors scale it; null when the data set has no figure (some of the varieties numbered from 10001).',
    ),
    height: Type.Integer(d('Height in decimetres (tenths of a metre): a value of 12 means 1.2 m. Divide by 10 for metres.')),
    weight: Type.Integer(d('Weight in hectograms (tenths of a kilogram): a value of 450 means 45 kg. Divide by 10 for kilograms.')),
    is_default: Type.Boolean(d('True for the variety the species is usually shown as; exactly one variety of each species is the default.')),
    order: Type.Integer(d('A sort key that keeps evolution families together (close to the national order); -1 when the data set gives none.')),
    abilities: Type.Array(CreatureAbility, d('The abilities it may have now, by slot.')),
    past_abilities: Type.Array(CreaturePastAbilities, d('Abilities that were different in earlier generations; empty when they never changed.')),
    forms: links(
      'creature-form',
      'The forms of this creature (looks that do not change its data, such as Unown’s letters); the one whose `is_default` is true is the form it has unless something changes it.',
    ),
    game_indices: Type.Array(VersionGameIndex, d('The creature’s internal number in each game version that has one.')),
    held_items: Type.Array(CreatureHeldItem, d('Items a wild one may be found holding; empty when none.')),
    location_area_encounters: Type.String({
      format: 'uri',
      description: 'URL of `/creature/{id}/encounters`: the location areas where it is met in the wild, per game version (an empty list when nowhere).',
    }),
    moves: Type.Array(CreatureMove, d('Every move it can learn in any game, each with how and when per version group.')),
    species: link(
      'creature-species',
      'The species this creature is a variety of: names, flavor text, evolution chain, egg groups and the list of all varieties.',
    ),
    sprites: about(
      CreatureSprites,
      'Image URLs: the default sprites at the top, artwork and other sets under `other`, each game’s own sprites under `versions` (generation → game). Any image the sprite repository lacks is null.',
    ),
    cries: about(CreatureCries, 'URLs of the sound the creature makes.'),
    stats: Type.Array(CreatureStat, d('Its six base stats in the newest games.')),
    past_stats: Type.Array(CreaturePastStats, d('Stat values that were different in earlier generations; empty when they never changed.')),
    types: Type.Array(CreatureType, d('Its one or two types now, primary first.')),
    past_types: Type.Array(
      CreaturePastTypes,
      d('Types that were different in earlier generations (for example before the fairy type existed); empty when they never changed.'),
    ),
  },
  strict,
);

/**
 * What makes a form appear. Keys are present only when they apply, as the upstream sends them:
 * `trigger` always; `name` and `url` of the item, ability or move the trigger needs, when it
 * needs one; `base_form`, the sibling form it starts from, when there is one. Never null.
 */
export const CreatureFormTriggerCondition = Type.Object(
  {
    base_form: Type.Optional(link('creature-form', 'The form this one changes from. Absent when it can change from any of its sibling forms.')),
    name: Type.Optional(
      Type.String(d('The name of the item, ability or move the change needs. Absent when it needs none (a gigantamax factor); present together with `url`.')),
    ),
    trigger: Type.String(d('What causes the change: `held-item`, `key-item` or `consumed-item` (an item), `ability`, `move`, or `gigantamax-factor`.')),
    url: Type.Optional(
      Type.String({
        format: 'uri',
        description: 'URL of that item (`/item/`), ability (`/ability/`) or move (`/move/`). Absent when the change needs none; present together with `name`.',
      }),
    ),
  },
  strict,
);
export type CreatureFormTriggerCondition = Static<typeof CreatureFormTriggerCondition>;

export const CreatureForm = Type.Object(
  {
    id: Type.Integer(
      d('The form’s numeric id. A creature’s default form has the creature’s id when that is below 10001; other forms start at 10001. Ids are not contiguous.'),
    ),
    name: nameField('form'),
    order: Type.Integer(d('A sort key over all forms of all creatures, keeping each species’ forms together.')),
    form_order: Type.Integer(d('The position of this form among the forms of its species, from 1.')),
    is_default: Type.Boolean(d('True for the form a creature has unless something changes it.')),
    is_battle_only: Type.Boolean(d('True when the form exists only during a battle (a mega evolution, a weather form).')),
    is_mega: Type.Boolean(d('True for a mega evolution.')),
    form_name: Type.String(d('The part of the name that tells this form apart (`mega-x`, `alola`); an empty string for a plain default form.')),
    creature: link('creature', 'The creature (variety) this is a form of.'),
    sprites: about(
      CreatureFormSprites,
      'Image URLs of this form: the default sprites, and those of the newest games under `versions`; null where the sprite repository has no image.',
    ),
    version_group: link('version-group', 'The games in which this form first appeared.'),
    form_names: namesField('form (the form part only, such as “Mega X”)'),
    names: namesField('creature in this form (the full name, such as “Mega Charizard X”); empty for forms without a special name'),
    types: Type.Array(CreatureType, d('The form’s one or two types, primary first.')),
    trigger_conditions: Type.Array(
      CreatureFormTriggerCondition,
      d('What makes the creature take this form; empty when nothing triggers it (a default form, or a form chosen otherwise).'),
    ),
  },
  strict,
);
