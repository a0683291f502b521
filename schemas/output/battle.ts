/** Responses of the battle resources: type, ability, stat, characteristic, nature, pokeathlon stat. */
import { Type, type TArray, type TSchema } from '@sinclair/typebox';
import {
  ApiResource, Description, EffectChange, FlavorTextByVersionGroup, GenerationGameIndex, Name, NamedResource, Nullable,
  VerboseEffect,
} from './common.ts';

const strict = { additionalProperties: false } as const;

// ---------------------------------------------------------------------------------------------
// Type

/** The six lists of a type's damage relations, in the upstream's field order. */
export const DAMAGE_RELATION_FIELDS = [
  'no_damage_to', 'half_damage_to', 'double_damage_to', 'no_damage_from', 'half_damage_from', 'double_damage_from',
] as const;
export type DamageRelationField = (typeof DAMAGE_RELATION_FIELDS)[number];

export const DamageRelations = Type.Object(
  Object.fromEntries(DAMAGE_RELATION_FIELDS.map((field) => [field, Type.Array(NamedResource)])) as Record<
    DamageRelationField,
    TArray<typeof NamedResource>
  >,
  strict,
);

export const PastDamageRelations = Type.Object({ generation: NamedResource, damage_relations: DamageRelations }, strict);

/**
 * The games whose type icons the upstream publishes, by generation. Every type answers the
 * whole tree; an icon the sprite repository lacks for a type is null.
 */
export const TYPE_ICON_GAMES = {
  'generation-iii': ['colosseum', 'emerald', 'firered-leafgreen', 'ruby-sapphire', 'xd'],
  'generation-iv': ['diamond-pearl', 'heartgold-soulsilver', 'platinum'],
  'generation-v': ['black-2-white-2', 'black-white'],
  'generation-vi': ['omega-ruby-alpha-sapphire', 'x-y'],
  'generation-vii': ['lets-go-pikachu-lets-go-eevee', 'sun-moon', 'ultra-sun-ultra-moon'],
  'generation-viii': ['brilliant-diamond-shining-pearl', 'legends-arceus', 'sword-shield'],
  'generation-ix': ['scarlet-violet'],
} as const satisfies Record<string, readonly string[]>;

export const TypeIcons = Type.Object(
  { name_icon: Nullable(Type.String({ format: 'uri' })), symbol_icon: Nullable(Type.String({ format: 'uri' })) },
  strict,
);

const objectOf = (keys: readonly string[], value: (key: string) => TSchema) =>
  Type.Object(Object.fromEntries(keys.map((key) => [key, value(key)])), strict);

/**
 * `sprites`: generation → game → icons. Typed as nested records, and validated as exactly the
 * tree of TYPE_ICON_GAMES (every generation and game present, nothing else).
 */
export const TypeSprites = Type.Intersect([
  Type.Record(Type.String(), Type.Record(Type.String(), TypeIcons)),
  objectOf(Object.keys(TYPE_ICON_GAMES), (generation) =>
    objectOf(TYPE_ICON_GAMES[generation as keyof typeof TYPE_ICON_GAMES], () => TypeIcons),
  ),
]);

export const TypeCreature = Type.Object({ slot: Type.Integer(), creature: NamedResource }, strict);

export const BattleType = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    damage_relations: DamageRelations,
    past_damage_relations: Type.Array(PastDamageRelations),
    game_indices: Type.Array(GenerationGameIndex),
    generation: NamedResource,
    move_damage_class: Nullable(NamedResource),
    names: Type.Array(Name),
    creature: Type.Array(TypeCreature),
    moves: Type.Array(NamedResource),
    sprites: TypeSprites,
  },
  strict,
);

// ---------------------------------------------------------------------------------------------
// Ability


export const AbilityCreature = Type.Object({ is_hidden: Type.Boolean(), slot: Type.Integer(), creature: NamedResource }, strict);

export const Ability = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    is_main_series: Type.Boolean(),
    generation: NamedResource,
    names: Type.Array(Name),
    effect_entries: Type.Array(VerboseEffect),
    effect_changes: Type.Array(EffectChange),
    flavor_text_entries: Type.Array(FlavorTextByVersionGroup),
    creature: Type.Array(AbilityCreature),
  },
  strict,
);

// ---------------------------------------------------------------------------------------------
// Stat and characteristic

export const MoveStatAffect = Type.Object({ change: Type.Integer(), move: NamedResource }, strict);

export const Stat = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    game_index: Type.Integer(),
    is_battle_only: Type.Boolean(),
    affecting_moves: Type.Object({ increase: Type.Array(MoveStatAffect), decrease: Type.Array(MoveStatAffect) }, strict),
    affecting_natures: Type.Object({ increase: Type.Array(NamedResource), decrease: Type.Array(NamedResource) }, strict),
    affecting_items: Type.Array(NamedResource),
    characteristics: Type.Array(ApiResource),
    move_damage_class: Nullable(NamedResource),
    names: Type.Array(Name),
  },
  strict,
);

export const Characteristic = Type.Object(
  {
    id: Type.Integer(),
    gene_modulo: Type.Integer(),
    possible_values: Type.Array(Type.Integer()),
    highest_stat: NamedResource,
    descriptions: Type.Array(Description),
  },
  strict,
);

// ---------------------------------------------------------------------------------------------
// Nature and pokeathlon stat

export const NatureStatChange = Type.Object({ max_change: Type.Integer(), pokeathlon_stat: NamedResource }, strict);

export const MoveBattleStylePreference = Type.Object(
  { low_hp_preference: Type.Integer(), high_hp_preference: Type.Integer(), move_battle_style: NamedResource },
  strict,
);

export const Nature = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    decreased_stat: Nullable(NamedResource),
    increased_stat: Nullable(NamedResource),
    hates_flavor: Nullable(NamedResource),
    likes_flavor: Nullable(NamedResource),
    pokeathlon_stat_changes: Type.Array(NatureStatChange),
    move_battle_style_preferences: Type.Array(MoveBattleStylePreference),
    names: Type.Array(Name),
  },
  strict,
);

export const NaturePokeathlonStatAffect = Type.Object({ max_change: Type.Integer(), nature: NamedResource }, strict);

export const PokeathlonStat = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    affecting_natures: Type.Object(
      { increase: Type.Array(NaturePokeathlonStatAffect), decrease: Type.Array(NaturePokeathlonStatAffect) },
      strict,
    ),
    names: Type.Array(Name),
  },
  strict,
);
