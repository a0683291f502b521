/** Responses of the move resources: the move itself, its classifications, and machines. */
import { Type } from '@sinclair/typebox';
import {
  ApiResource, Description, EffectChange, FlavorTextByVersionGroup, MachineVersionDetail, Name, NamedResource, Nullable, VerboseEffect,
} from './common.ts';

const strict = { additionalProperties: false } as const;

/** The moves a combo pairs with; null (not empty) when there are none. */
const ComboMoves = Nullable(Type.Array(NamedResource));
const ComboSet = Type.Object({ use_before: ComboMoves, use_after: ComboMoves }, strict);
export const ContestComboSets = Type.Object({ normal: ComboSet, super: ComboSet }, strict);

export const MoveMetaData = Type.Object(
  {
    ailment: NamedResource,
    category: NamedResource,
    min_hits: Nullable(Type.Integer()),
    max_hits: Nullable(Type.Integer()),
    min_turns: Nullable(Type.Integer()),
    max_turns: Nullable(Type.Integer()),
    drain: Type.Integer(),
    healing: Type.Integer(),
    crit_rate: Type.Integer(),
    ailment_chance: Type.Integer(),
    flinch_chance: Type.Integer(),
    stat_chance: Type.Integer(),
  },
  strict,
);

export const PastMoveStatValues = Type.Object(
  {
    accuracy: Nullable(Type.Integer()),
    power: Nullable(Type.Integer()),
    pp: Nullable(Type.Integer()),
    effect_chance: Nullable(Type.Integer()),
    effect_entries: Type.Array(VerboseEffect),
    type: Nullable(NamedResource),
    version_group: NamedResource,
  },
  strict,
);


export const MoveStatChange = Type.Object({ change: Type.Integer(), stat: NamedResource }, strict);


export const Move = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    accuracy: Nullable(Type.Integer()),
    effect_chance: Nullable(Type.Integer()),
    pp: Nullable(Type.Integer()),
    priority: Type.Integer(),
    power: Nullable(Type.Integer()),
    contest_combos: Nullable(ContestComboSets),
    contest_type: Nullable(NamedResource),
    contest_effect: Nullable(ApiResource),
    damage_class: NamedResource,
    effect_entries: Type.Array(VerboseEffect),
    effect_changes: Type.Array(EffectChange),
    generation: NamedResource,
    meta: Nullable(MoveMetaData),
    names: Type.Array(Name),
    past_values: Type.Array(PastMoveStatValues),
    stat_changes: Type.Array(MoveStatChange),
    super_contest_effect: Nullable(ApiResource),
    target: NamedResource,
    type: NamedResource,
    machines: Type.Array(MachineVersionDetail),
    flavor_text_entries: Type.Array(FlavorTextByVersionGroup),
    learned_by_creature: Type.Array(NamedResource),
  },
  strict,
);

export const MoveAilment = Type.Object(
  { id: Type.Integer(), name: Type.String(), moves: Type.Array(NamedResource), names: Type.Array(Name) },
  strict,
);

export const MoveBattleStyle = Type.Object({ id: Type.Integer(), name: Type.String(), names: Type.Array(Name) }, strict);

export const MoveCategory = Type.Object(
  { id: Type.Integer(), name: Type.String(), descriptions: Type.Array(Description), moves: Type.Array(NamedResource) },
  strict,
);

/** Damage class and target share one shape: descriptions, the moves of that class or target, names. */
const MoveClassification = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    descriptions: Type.Array(Description),
    moves: Type.Array(NamedResource),
    names: Type.Array(Name),
  },
  strict,
);
export const MoveDamageClass = MoveClassification;
export const MoveTarget = MoveClassification;

export const MoveLearnMethod = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    descriptions: Type.Array(Description),
    names: Type.Array(Name),
    version_groups: Type.Array(NamedResource),
  },
  strict,
);

export const Machine = Type.Object(
  { id: Type.Integer(), item: NamedResource, move: NamedResource, version_group: NamedResource },
  strict,
);
