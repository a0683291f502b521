/**
 * The sprite objects of creatures and creature forms, described once: each leaf of a tree is a
 * response field and says in which folder of the upstream sprite repository (below
 * `sprites/pokemon/`) and with which extension its image lives. The response schema is derived
 * from the tree; the emitter walks the same tree and picks the file name inside each folder.
 */
import { Type, type TNull, type TObject, type TSchema, type TString, type TUnion } from '@sinclair/typebox';
import { Nullable } from './common.ts';

export interface SpriteLeaf {
  readonly folder: string;
  readonly ext: 'png' | 'gif' | 'svg';
}
export type SpriteTree = { readonly [key: string]: SpriteLeaf | SpriteTree };

export const isSpriteLeaf = (node: SpriteLeaf | SpriteTree): node is SpriteLeaf => typeof node.folder === 'string' && typeof node.ext === 'string';

/** Below a sprite set's folder, the sub-folder of each field; the upstream uses one layout for every set. */
const VARIANT_FOLDERS = {
  front_default: '',
  front_female: 'female/',
  front_shiny: 'shiny/',
  front_shiny_female: 'shiny/female/',
  back_default: 'back/',
  back_female: 'back/female/',
  back_shiny: 'back/shiny/',
  back_shiny_female: 'back/shiny/female/',
  front_gray: 'gray/',
  back_gray: 'back/gray/',
  front_transparent: 'transparent/',
  back_transparent: 'transparent/back/',
  front_shiny_transparent: 'transparent/shiny/',
  back_shiny_transparent: 'transparent/back/shiny/',
} as const;
type Variant = keyof typeof VARIANT_FOLDERS;

/** One sprite set: the given fields, each in its variant's sub-folder of `folder`. */
function spriteSet<const V extends readonly Variant[]>(folder: string, ext: SpriteLeaf['ext'], variants: V): { readonly [K in V[number]]: SpriteLeaf } {
  return Object.fromEntries(variants.map((v) => [v, { folder: folder + VARIANT_FOLDERS[v], ext }])) as { [K in V[number]]: SpriteLeaf };
}

const FRONT_AND_BACK = [
  'front_default',
  'front_female',
  'front_shiny',
  'front_shiny_female',
  'back_default',
  'back_female',
  'back_shiny',
  'back_shiny_female',
] as const;
const FRONT = ['front_default', 'front_female', 'front_shiny', 'front_shiny_female'] as const;
const FRONT_PLAIN = ['front_default', 'front_female'] as const;
const GEN_I = ['front_default', 'front_gray', 'front_transparent', 'back_default', 'back_gray', 'back_transparent'] as const;
const GEN_II = ['front_default', 'front_shiny', 'front_transparent', 'back_default', 'back_shiny'] as const;
const CRYSTAL = [...GEN_II, 'front_shiny_transparent', 'back_transparent', 'back_shiny_transparent'] as const;
const GEN_III = ['front_default', 'front_shiny', 'back_default', 'back_shiny'] as const;

const v = 'versions/';
const scarletViolet = spriteSet(`${v}generation-ix/scarlet-violet/`, 'png', FRONT_PLAIN);
const brilliantDiamond = spriteSet(`${v}generation-viii/brilliant-diamond-shining-pearl/`, 'png', FRONT_PLAIN);

export const CREATURE_SPRITE_TREE = {
  ...spriteSet('', 'png', FRONT_AND_BACK),
  other: {
    dream_world: spriteSet('other/dream-world/', 'svg', FRONT_PLAIN),
    home: spriteSet('other/home/', 'png', FRONT),
    'official-artwork': spriteSet('other/official-artwork/', 'png', ['front_default', 'front_shiny']),
    showdown: spriteSet('other/showdown/', 'gif', FRONT_AND_BACK),
  },
  versions: {
    'generation-i': {
      'red-blue': spriteSet(`${v}generation-i/red-blue/`, 'png', GEN_I),
      yellow: spriteSet(`${v}generation-i/yellow/`, 'png', GEN_I),
    },
    'generation-ii': {
      crystal: spriteSet(`${v}generation-ii/crystal/`, 'png', CRYSTAL),
      gold: spriteSet(`${v}generation-ii/gold/`, 'png', GEN_II),
      silver: spriteSet(`${v}generation-ii/silver/`, 'png', GEN_II),
    },
    'generation-iii': {
      emerald: spriteSet(`${v}generation-iii/emerald/`, 'png', ['front_default', 'front_shiny']),
      'firered-leafgreen': spriteSet(`${v}generation-iii/firered-leafgreen/`, 'png', GEN_III),
      'ruby-sapphire': spriteSet(`${v}generation-iii/ruby-sapphire/`, 'png', GEN_III),
    },
    'generation-iv': {
      'diamond-pearl': spriteSet(`${v}generation-iv/diamond-pearl/`, 'png', FRONT_AND_BACK),
      'heartgold-soulsilver': spriteSet(`${v}generation-iv/heartgold-soulsilver/`, 'png', FRONT_AND_BACK),
      platinum: spriteSet(`${v}generation-iv/platinum/`, 'png', FRONT_AND_BACK),
    },
    'generation-v': {
      'black-white': {
        ...spriteSet(`${v}generation-v/black-white/`, 'png', FRONT_AND_BACK),
        animated: spriteSet(`${v}generation-v/black-white/animated/`, 'gif', FRONT_AND_BACK),
      },
    },
    'generation-vi': {
      'omegaruby-alphasapphire': spriteSet(`${v}generation-vi/omegaruby-alphasapphire/`, 'png', FRONT),
      'x-y': spriteSet(`${v}generation-vi/x-y/`, 'png', FRONT),
    },
    'generation-vii': {
      icons: spriteSet(`${v}generation-vii/icons/`, 'png', FRONT_PLAIN),
      'ultra-sun-ultra-moon': spriteSet(`${v}generation-vii/ultra-sun-ultra-moon/`, 'png', FRONT),
    },
    'generation-viii': {
      'brilliant-diamond-shining-pearl': brilliantDiamond,
      icons: spriteSet(`${v}generation-viii/icons/`, 'png', FRONT_PLAIN),
    },
    'generation-ix': { 'scarlet-violet': scarletViolet },
  },
} as const satisfies SpriteTree;

/** A form's sprites: the default set and only the two newest games' sets. */
export const FORM_SPRITE_TREE = {
  ...spriteSet('', 'png', FRONT_AND_BACK),
  versions: {
    'generation-viii': { 'brilliant-diamond-shining-pearl': brilliantDiamond },
    'generation-ix': { 'scarlet-violet': scarletViolet },
  },
} as const satisfies SpriteTree;

/** The response shape of a sprite tree: every leaf a URL or null. */
export type SpriteSchema<T extends SpriteTree> = TObject<{
  -readonly [K in keyof T]: T[K] extends SpriteLeaf ? TUnion<[TString, TNull]> : T[K] extends SpriteTree ? SpriteSchema<T[K]> : never;
}>;

export function spriteSchema<T extends SpriteTree>(tree: T): SpriteSchema<T> {
  return schemaOf(tree, []) as SpriteSchema<T>;
}

/** How each sprite field shows the creature. */
const VARIANT_TEXT: Record<Variant, string> = {
  front_default: 'seen from the front',
  front_female: 'a female seen from the front (only where females look different)',
  front_shiny: 'in its shiny colours, seen from the front',
  front_shiny_female: 'a shiny female seen from the front (only where females look different)',
  back_default: 'seen from behind',
  back_female: 'a female seen from behind (only where females look different)',
  back_shiny: 'in its shiny colours, seen from behind',
  back_shiny_female: 'a shiny female seen from behind (only where females look different)',
  front_gray: 'in grey tones, seen from the front',
  back_gray: 'in grey tones, seen from behind',
  front_transparent: 'seen from the front, on a transparent background',
  back_transparent: 'seen from behind, on a transparent background',
  front_shiny_transparent: 'in its shiny colours, seen from the front, on a transparent background',
  back_shiny_transparent: 'in its shiny colours, seen from behind, on a transparent background',
};

/** What a set of sprites is, by its key; any other key is a game (version group) or a generation. */
const SET_TEXT: Record<string, string> = {
  other: 'images that come from no single game',
  versions: 'each game’s own sprites, by generation and then by game',
  dream_world: 'the Dream World artwork',
  home: 'the renders of Pokémon HOME',
  'official-artwork': 'the official artwork',
  showdown: 'the animated sprites of Pokémon Showdown',
  animated: 'the animated sprites of Black and White',
  icons: 'the small menu icons',
};

const setText = (key: string) => SET_TEXT[key] ?? (key.startsWith('generation-') ? `the sprites of the games of ${key}` : `the sprites of ${key}`);

function schemaOf(tree: SpriteTree, path: readonly string[]): TSchema {
  const properties = Object.fromEntries(
    Object.entries(tree).map(([key, node]): [string, TSchema] => {
      if (!isSpriteLeaf(node)) return [key, { ...schemaOf(node, [...path, key]), description: `Image URLs from ${setText(key)}.` }];
      const from = path.length ? setText(path.at(-1)!) : 'the default sprites';
      const variant = VARIANT_TEXT[key as Variant] ?? 'in this variant';
      const description = `URL of a ${node.ext.toUpperCase()} image from ${from}: the creature ${variant}. Null when the sprite repository has no such image.`;
      return [key, Nullable(Type.String({ format: 'uri' }), description)];
    }),
  );
  return Type.Object(properties, { additionalProperties: false });
}

export const CreatureSprites = spriteSchema(CREATURE_SPRITE_TREE);
export const CreatureFormSprites = spriteSchema(FORM_SPRITE_TREE);
