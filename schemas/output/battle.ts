/** Responses of the battle resources: type, ability, stat, characteristic, nature, pokeathlon stat. */
import { Type, type TArray, type TSchema } from '@sinclair/typebox';
import {
  about,
  ApiResource,
  d,
  Description,
  EffectChange,
  FlavorTextByVersionGroup,
  GenerationGameIndex,
  idField,
  link,
  linkOrNull,
  links,
  nameField,
  namesField,
  NamedResource,
  linkTo,
  Nullable,
  VerboseEffect,
} from './common.ts';

const strict = { additionalProperties: false } as const;

// ---------------------------------------------------------------------------------------------
// Type

/** The six lists of a type's damage relations, in the upstream's field order. */
export const DAMAGE_RELATION_FIELDS = [
  'no_damage_to',
  'half_damage_to',
  'double_damage_to',
  'no_damage_from',
  'half_damage_from',
  'double_damage_from',
] as const;
export type DamageRelationField = (typeof DAMAGE_RELATION_FIELDS)[number];

/** What each damage relation list means: the multiplier and its direction. */
const DAMAGE_RELATION_MEANING: Record<DamageRelationField, string> = {
  no_damage_to: 'Types that this type’s moves do not affect at all (×0).',
  half_damage_to: 'Types that this type’s moves hit for half damage (×0.5).',
  double_damage_to: 'Types that this type’s moves hit for double damage (×2).',
  no_damage_from: 'Types whose moves do not affect a creature of this type at all (×0).',
  half_damage_from: 'Types whose moves hit a creature of this type for half damage (×0.5).',
  double_damage_from: 'Types whose moves hit a creature of this type for double damage (×2).',
};

export const DamageRelations = Type.Object(
  Object.fromEntries(
    DAMAGE_RELATION_FIELDS.map((field) => [
      field,
      Type.Array(
        linkTo(NamedResource, 'type'),
        d(`${DAMAGE_RELATION_MEANING[field]} Each entry links to \`/type/\`; empty when there are none. Against two types, multiply the two factors.`),
      ),
    ]),
  ) as Record<DamageRelationField, TArray<typeof NamedResource>>,
  strict,
);

export const PastDamageRelations = Type.Object(
  {
    generation: link('generation', 'The last generation in which these relations applied; later generations use `damage_relations`.'),
    damage_relations: about(DamageRelations, 'The relations as they were up to that generation.'),
  },
  strict,
);

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
  {
    name_icon: Nullable(
      Type.String({ format: 'uri' }),
      'URL of the label with the type’s name as these games draw it (PNG); null when the sprite repository has none.',
    ),
    symbol_icon: Nullable(
      Type.String({ format: 'uri' }),
      'URL of the type’s symbol as these games draw it (PNG); null when the sprite repository has none (most games).',
    ),
  },
  strict,
);

const objectOf = (keys: readonly string[], value: (key: string) => TSchema) => Type.Object(Object.fromEntries(keys.map((key) => [key, value(key)])), strict);

/**
 * `sprites`: generation → game → icons. Typed as nested records, and validated as exactly the
 * tree of TYPE_ICON_GAMES (every generation and game present, nothing else).
 */
export const TypeSprites = Type.Intersect([
  Type.Record(Type.String(), Type.Record(Type.String(), TypeIcons)),
  objectOf(Object.keys(TYPE_ICON_GAMES), (generation) =>
    Type.Object(
      Object.fromEntries(
        TYPE_ICON_GAMES[generation as keyof typeof TYPE_ICON_GAMES].map((game) => [game, about(TypeIcons, `The type’s icons in ${game} (a version group).`)]),
      ),
      { ...strict, description: `The type’s icons in the games of ${generation}, by version group.` },
    ),
  ),
]);

export const TypeCreature = Type.Object(
  {
    slot: Type.Integer(d('Which of the creature’s types this is: 1 primary, 2 secondary.')),
    creature: link('creature', 'A creature of this type.'),
  },
  strict,
);

export const BattleType = Type.Object(
  {
    id: Type.Integer(d('The type’s numeric id: 1–18 for the battle types; `stellar` (19), `unknown` (10001) and `shadow` (10002) are outside the list.')),
    name: nameField('type'),
    damage_relations: about(
      DamageRelations,
      'How moves of this type fare against other types, and moves of other types against this one, in the newest games.',
    ),
    past_damage_relations: Type.Array(
      PastDamageRelations,
      d('Relations that were different in earlier generations (before steel, dark and fairy existed); empty when they never changed.'),
    ),
    game_indices: Type.Array(GenerationGameIndex, d('The type’s internal number in the games of each generation.')),
    generation: link('generation', 'The generation that introduced the type.'),
    move_damage_class: linkOrNull(
      'move-damage-class',
      'Before generation IV a move’s type decided whether it was physical or special: this is that class.',
      'for types without one (those added later, and the non-battle types)',
    ),
    names: namesField('type'),
    creature: Type.Array(TypeCreature, d('Every creature that has this type, with the slot it is in.')),
    moves: links('move', 'Every move of this type.'),
    sprites: about(
      TypeSprites,
      'The type’s icons, by generation and then by version group; every listed game is present, with null where the sprite repository has no image.',
    ),
  },
  strict,
);

// ---------------------------------------------------------------------------------------------
// Ability

export const AbilityCreature = Type.Object(
  {
    is_hidden: Type.Boolean(d('True when the ability is this creature’s hidden ability.')),
    slot: Type.Integer(d('The creature’s ability slot that holds it: 1 or 2 regular, 3 hidden.')),
    creature: link('creature', 'A creature that can have the ability.'),
  },
  strict,
);

export const Ability = Type.Object(
  {
    id: Type.Integer(
      d('The ability’s numeric id. Abilities of the main games are numbered from 1; those only in side games start at 10001. Ids are not contiguous.'),
    ),
    name: nameField('ability'),
    is_main_series: Type.Boolean(d('True when the ability exists in the main-series games (false for side games only).')),
    generation: link('generation', 'The generation that introduced the ability.'),
    names: namesField('ability'),
    effect_entries: Type.Array(VerboseEffect, d('What the ability does in battle (and outside it), per language.')),
    effect_changes: Type.Array(EffectChange, d('How its effect read before games that changed it; empty when it never changed.')),
    flavor_text_entries: Type.Array(FlavorTextByVersionGroup, d('The games’ short description, per version group and language.')),
    creature: Type.Array(AbilityCreature, d('Every creature that can have the ability, hidden ones included.')),
  },
  strict,
);

// ---------------------------------------------------------------------------------------------
// Stat and characteristic

export const MoveStatAffect = Type.Object(
  {
    change: Type.Integer(d('By how many stages the move changes the stat.')),
    move: link('move', 'The move.'),
  },
  strict,
);

export const StatAffectingMoves = Type.Object(
  {
    increase: Type.Array(MoveStatAffect, d('Moves that raise the stat, with by how much.')),
    decrease: Type.Array(MoveStatAffect, d('Moves that lower the stat, with by how much (a negative change).')),
  },
  strict,
);

export const StatAffectingNatures = Type.Object(
  {
    increase: links('nature', 'Natures that raise the stat by 10%.'),
    decrease: links('nature', 'Natures that lower the stat by 10%.'),
  },
  strict,
);

export const Stat = Type.Object(
  {
    id: idField('stat'),
    name: nameField('stat'),
    game_index: Type.Integer(d('The stat’s internal number in the games.')),
    is_battle_only: Type.Boolean(d('True for a stat that exists only during a battle (accuracy, evasion).')),
    affecting_moves: about(StatAffectingMoves, 'The moves that raise or lower this stat in battle.'),
    affecting_natures: about(StatAffectingNatures, 'The natures that raise or lower this stat.'),
    affecting_items: links('item', 'Items that change this stat (vitamins, feathers, ...).'),
    characteristics: Type.Array(
      linkTo(ApiResource, 'characteristic'),
      d('The characteristics that say this stat is the highest. Each entry links to `/characteristic/`.'),
    ),
    move_damage_class: linkOrNull(
      'move-damage-class',
      'The damage class of moves that attack with or against this stat.',
      'for stats that belong to no damage class',
    ),
    names: namesField('stat'),
  },
  strict,
);

export const Characteristic = Type.Object(
  {
    id: idField('characteristic'),
    gene_modulo: Type.Integer(d('The remainder, divided by 5, of the highest individual value (IV) that gives this characteristic.')),
    possible_values: Type.Array(Type.Integer(), d('The individual values (0–31) of the highest stat that give this characteristic.')),
    highest_stat: link('stat', 'The stat whose individual value is the highest.'),
    descriptions: Type.Array(Description, d('The phrase the games show for it (“Proud of its power”), per language.')),
  },
  strict,
);

// ---------------------------------------------------------------------------------------------
// Nature and pokeathlon stat

export const NatureStatChange = Type.Object(
  {
    max_change: Type.Integer(d('How far the nature moves the maximum of that Pokéathlon stat (a positive or negative number of stars).')),
    pokeathlon_stat: link('pokeathlon-stat', 'The Pokéathlon stat.'),
  },
  strict,
);

export const MoveBattleStylePreference = Type.Object(
  {
    low_hp_preference: Type.Integer(d('The chance, in percent, of choosing a move of this style in the Battle Palace when its HP is low.')),
    high_hp_preference: Type.Integer(d('The chance, in percent, of choosing a move of this style in the Battle Palace when its HP is high.')),
    move_battle_style: link('move-battle-style', 'The battle style.'),
  },
  strict,
);

const neutral = 'null for a neutral nature';

export const Nature = Type.Object(
  {
    id: idField('nature'),
    name: nameField('nature'),
    decreased_stat: linkOrNull('stat', 'The stat this nature lowers by 10%.', neutral),
    increased_stat: linkOrNull('stat', 'The stat this nature raises by 10%.', neutral),
    hates_flavor: linkOrNull('berry-flavor', 'The flavor a creature of this nature dislikes.', neutral),
    likes_flavor: linkOrNull('berry-flavor', 'The flavor a creature of this nature likes.', neutral),
    pokeathlon_stat_changes: Type.Array(NatureStatChange, d('How the nature changes the Pokéathlon stats (HeartGold and SoulSilver).')),
    move_battle_style_preferences: Type.Array(
      MoveBattleStylePreference,
      d('Which move styles it favours in the Battle Palace (Emerald, and later battle facilities like it), by HP.'),
    ),
    names: namesField('nature'),
  },
  strict,
);

export const NaturePokeathlonStatAffect = Type.Object(
  {
    max_change: Type.Integer(d('How far the nature moves the stat’s maximum, in stars.')),
    nature: link('nature', 'The nature.'),
  },
  strict,
);

export const PokeathlonStatAffectingNatures = Type.Object(
  {
    increase: Type.Array(NaturePokeathlonStatAffect, d('Natures that raise the maximum of this stat.')),
    decrease: Type.Array(NaturePokeathlonStatAffect, d('Natures that lower the maximum of this stat.')),
  },
  strict,
);

export const PokeathlonStat = Type.Object(
  {
    id: idField('Pokéathlon stat'),
    name: nameField('Pokéathlon stat'),
    affecting_natures: about(PokeathlonStatAffectingNatures, 'The natures that change this stat’s maximum in the Pokéathlon (HeartGold and SoulSilver).'),
    names: namesField('Pokéathlon stat'),
  },
  strict,
);
