/** Responses of the item resources: item, its attributes, categories, pockets, fling effects, and currencies. */
import { Type, type Static } from '@sinclair/typebox';
import {
  ApiResource, Description, Effect, GenerationGameIndex, HeldItemVersionDetail, MachineVersionDetail, Name, NamedResource, Nullable, VerboseEffect,
} from './common.ts';

/** An item's flavor text; the upstream calls the text `text` here, not `flavor_text` as elsewhere. */
export const ItemFlavorText = Type.Object(
  { text: Type.String(), language: NamedResource, version_group: NamedResource },
  { additionalProperties: false },
);
export type ItemFlavorText = Static<typeof ItemFlavorText>;

/** A creature that may be found holding the item, with how often, per game version. */
export const ItemHolder = Type.Object(
  { creature: NamedResource, version_details: Type.Array(HeldItemVersionDetail) },
  { additionalProperties: false },
);
export type ItemHolder = Static<typeof ItemHolder>;


export const ItemPrice = Type.Object(
  {
    currency: NamedResource,
    purchase_price: Nullable(Type.Integer()),
    sell_price: Nullable(Type.Integer()),
    version_group: NamedResource,
  },
  { additionalProperties: false },
);
export type ItemPrice = Static<typeof ItemPrice>;

export const ItemSprites = Type.Object({ default: Nullable(Type.String({ format: 'uri' })) }, { additionalProperties: false });

export const Item = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    fling_power: Nullable(Type.Integer()),
    fling_effect: Nullable(NamedResource),
    attributes: Type.Array(NamedResource),
    category: NamedResource,
    effect_entries: Type.Array(VerboseEffect),
    flavor_text_entries: Type.Array(ItemFlavorText),
    game_indices: Type.Array(GenerationGameIndex),
    names: Type.Array(Name),
    held_by_creature: Type.Array(ItemHolder),
    sprites: ItemSprites,
    baby_trigger_for: Nullable(ApiResource),
    machines: Type.Array(MachineVersionDetail),
    prices: Type.Array(ItemPrice),
  },
  { additionalProperties: false },
);

export const ItemAttribute = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    descriptions: Type.Array(Description),
    items: Type.Array(NamedResource),
    names: Type.Array(Name),
  },
  { additionalProperties: false },
);

export const ItemCategory = Type.Object(
  { id: Type.Integer(), name: Type.String(), items: Type.Array(NamedResource), names: Type.Array(Name), pocket: NamedResource },
  { additionalProperties: false },
);

export const ItemFlingEffect = Type.Object(
  { id: Type.Integer(), name: Type.String(), effect_entries: Type.Array(Effect), items: Type.Array(NamedResource) },
  { additionalProperties: false },
);

export const ItemPocket = Type.Object(
  { id: Type.Integer(), name: Type.String(), categories: Type.Array(NamedResource), names: Type.Array(Name) },
  { additionalProperties: false },
);

export const Currency = Type.Object(
  { id: Type.Integer(), name: Type.String(), names: Type.Array(Name) },
  { additionalProperties: false },
);
