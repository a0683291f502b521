/** Responses of the creature resources: the creature (a species' variety) and its forms. */
import { Type, type Static } from '@sinclair/typebox';
import { HeldItemVersionDetail, Name, NamedResource, Nullable, VersionGameIndex } from './common.ts';
import { CreatureFormSprites, CreatureSprites } from './sprites.ts';

const strict = { additionalProperties: false } as const;
const Url = Type.String({ format: 'uri' });

export const CreatureAbility = Type.Object({ ability: NamedResource, is_hidden: Type.Boolean(), slot: Type.Integer() }, strict);
/** A past ability may be none at all: the slot did not exist in that generation. */
export const CreaturePastAbility = Type.Object({ ability: Nullable(NamedResource), is_hidden: Type.Boolean(), slot: Type.Integer() }, strict);
export const CreatureStat = Type.Object({ base_stat: Type.Integer(), effort: Type.Integer(), stat: NamedResource }, strict);
export const CreatureType = Type.Object({ slot: Type.Integer(), type: NamedResource }, strict);

export const CreatureMoveVersionDetail = Type.Object(
  { level_learned_at: Type.Integer(), move_learn_method: NamedResource, order: Nullable(Type.Integer()), version_group: NamedResource },
  strict,
);
export const CreatureMove = Type.Object({ move: NamedResource, version_group_details: Type.Array(CreatureMoveVersionDetail) }, strict);

export const CreatureHeldItem = Type.Object(
  { item: NamedResource, version_details: Type.Array(HeldItemVersionDetail) },
  strict,
);

export const CreatureCries = Type.Object({ latest: Nullable(Url), legacy: Nullable(Url) }, strict);

export const Creature = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    base_experience: Nullable(Type.Integer()),
    height: Type.Integer(),
    weight: Type.Integer(),
    is_default: Type.Boolean(),
    order: Type.Integer(),
    abilities: Type.Array(CreatureAbility),
    past_abilities: Type.Array(Type.Object({ abilities: Type.Array(CreaturePastAbility), generation: NamedResource }, strict)),
    forms: Type.Array(NamedResource),
    game_indices: Type.Array(VersionGameIndex),
    held_items: Type.Array(CreatureHeldItem),
    location_area_encounters: Url,
    moves: Type.Array(CreatureMove),
    species: NamedResource,
    sprites: CreatureSprites,
    cries: CreatureCries,
    stats: Type.Array(CreatureStat),
    past_stats: Type.Array(Type.Object({ generation: NamedResource, stats: Type.Array(CreatureStat) }, strict)),
    types: Type.Array(CreatureType),
    past_types: Type.Array(Type.Object({ generation: NamedResource, types: Type.Array(CreatureType) }, strict)),
  },
  strict,
);

/**
 * What makes a form appear. Keys are present only when they apply, as the upstream sends them:
 * `trigger` always; `name` and `url` of the item, ability or move the trigger needs, when it
 * needs one; `base_form`, the sibling form it starts from, when there is one.
 */
export const CreatureFormTriggerCondition = Type.Object(
  {
    base_form: Type.Optional(NamedResource),
    name: Type.Optional(Type.String()),
    trigger: Type.String(),
    url: Type.Optional(Url),
  },
  strict,
);
export type CreatureFormTriggerCondition = Static<typeof CreatureFormTriggerCondition>;

export const CreatureForm = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    order: Type.Integer(),
    form_order: Type.Integer(),
    is_default: Type.Boolean(),
    is_battle_only: Type.Boolean(),
    is_mega: Type.Boolean(),
    form_name: Type.String(),
    creature: NamedResource,
    sprites: CreatureFormSprites,
    version_group: NamedResource,
    form_names: Type.Array(Name),
    names: Type.Array(Name),
    types: Type.Array(CreatureType),
    trigger_conditions: Type.Array(CreatureFormTriggerCondition),
  },
  strict,
);
