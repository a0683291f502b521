/** Responses of the item resources: item, its attributes, categories, pockets, fling effects, and currencies. */
import { Type, type Static } from '@sinclair/typebox';
import {
  about,
  ApiResource,
  linkTo,
  d,
  Description,
  Effect,
  flavorTextField,
  GenerationGameIndex,
  HeldItemVersionDetail,
  idField,
  link,
  linkOrNull,
  links,
  MachineVersionDetail,
  nameField,
  namesField,
  Nullable,
  VerboseEffect,
} from './common.ts';

/** An item's flavor text; the upstream calls the text `text` here, not `flavor_text` as elsewhere. */
export const ItemFlavorText = Type.Object(
  {
    text: flavorTextField('(Items name this field `text`, not `flavor_text`.)'),
    language: link('language', 'The language of this text.'),
    version_group: link('version-group', 'The games that show this text.'),
  },
  { additionalProperties: false },
);
export type ItemFlavorText = Static<typeof ItemFlavorText>;

/** A creature that may be found holding the item, with how often, per game version. */
export const ItemHolder = Type.Object(
  {
    creature: link('creature', 'A creature that may be found holding the item in the wild.'),
    version_details: Type.Array(HeldItemVersionDetail, d('How often it holds the item, per game version, by version id.')),
  },
  { additionalProperties: false },
);
export type ItemHolder = Static<typeof ItemHolder>;

export const ItemPrice = Type.Object(
  {
    currency: link('currency', 'The currency of both prices.'),
    purchase_price: Nullable(Type.Integer(), 'What a shop charges for it in these games; null when no shop sells it.'),
    sell_price: Nullable(Type.Integer(), 'What a shop pays for it in these games; 0 when it cannot be sold; null when the data set has no figure.'),
    version_group: link('version-group', 'The games these prices hold in.'),
  },
  { additionalProperties: false },
);
export type ItemPrice = Static<typeof ItemPrice>;

export const ItemSprites = Type.Object(
  { default: Nullable(Type.String({ format: 'uri' }), 'URL of the item’s bag icon (PNG) in the upstream sprite repository; null when it has none.') },
  { additionalProperties: false },
);

export const Item = Type.Object(
  {
    id: idField('item'),
    name: nameField('item'),
    fling_power: Nullable(
      Type.Integer(),
      'The power of the move Fling when the holder throws this item; null when it cannot be flung or the data set has no figure.',
    ),
    fling_effect: linkOrNull('item-fling-effect', 'What happens to the target when the item is flung.', 'when flinging it has no special effect'),
    attributes: links('item-attribute', 'What the item can be and do (countable, consumable, holdable, usable in battle, ...).'),
    category: link('item-category', 'The item’s category; the category names the bag pocket it goes in.'),
    effect_entries: Type.Array(VerboseEffect, d('What the item does, per language.')),
    flavor_text_entries: Type.Array(ItemFlavorText, d('The games’ description of the item, per version group and language.')),
    game_indices: Type.Array(GenerationGameIndex, d('The item’s internal number in each generation that has it.')),
    names: namesField('item'),
    held_by_creature: Type.Array(ItemHolder, d('The creatures that may be found holding it in the wild; empty when none.')),
    sprites: about(ItemSprites, 'The item’s image.'),
    baby_trigger_for: Nullable(
      linkTo(ApiResource, 'evolution-chain'),
      'The evolution chain whose baby stage hatches only if a parent holds this item. Links to `/evolution-chain/`; null for every other item.',
    ),
    machines: Type.Array(
      MachineVersionDetail,
      d('For a TM, HM or TR: the machine it is in each version group (which move it teaches there); empty for other items.'),
    ),
    prices: Type.Array(ItemPrice, d('Its shop prices, per version group; empty when the data set has none.')),
  },
  { additionalProperties: false },
);

export const ItemAttribute = Type.Object(
  {
    id: idField('attribute'),
    name: nameField('attribute'),
    descriptions: Type.Array(Description, d('What the attribute means, per language.')),
    items: links('item', 'The items that have this attribute.'),
    names: namesField('attribute'),
  },
  { additionalProperties: false },
);

export const ItemCategory = Type.Object(
  {
    id: idField('category'),
    name: nameField('category'),
    items: links('item', 'The items in this category.'),
    names: namesField('category'),
    pocket: link('item-pocket', 'The bag pocket items of this category go in.'),
  },
  { additionalProperties: false },
);

export const ItemFlingEffect = Type.Object(
  {
    id: idField('fling effect'),
    name: nameField('fling effect'),
    effect_entries: Type.Array(Effect, d('What happens to the target, per language.')),
    items: links('item', 'The items that have this effect when flung.'),
  },
  { additionalProperties: false },
);

export const ItemPocket = Type.Object(
  {
    id: idField('pocket'),
    name: nameField('pocket'),
    categories: links('item-category', 'The item categories kept in this pocket.'),
    names: namesField('pocket'),
  },
  { additionalProperties: false },
);

export const Currency = Type.Object({ id: idField('currency'), name: nameField('currency'), names: namesField('currency') }, { additionalProperties: false });
