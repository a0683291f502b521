/** Responses of the berry resources: berry, firmness and flavor. */
import { Type, type Static } from '@sinclair/typebox';
import { d, idField, link, linkOrNull, links, nameField, namesField, Nullable } from './common.ts';

const noFigure = 'null when the data set has no figure';

export const BerryFlavorPotency = Type.Object(
  {
    potency: Type.Integer(d('How strong this flavor is in the berry; 0 when the berry does not have it.')),
    flavor: link('berry-flavor', 'The flavor.'),
  },
  { additionalProperties: false },
);
export type BerryFlavorPotency = Static<typeof BerryFlavorPotency>;

export const Berry = Type.Object(
  {
    id: idField('berry'),
    name: Type.String(d('The berry’s name without the word “berry” (`cheri`); its item is `cheri-berry`.')),
    growth_time: Nullable(
      Type.Integer(),
      `Hours each growth stage of the tree takes (generation IV); the tree passes four stages before it bears fruit; ${noFigure}.`,
    ),
    max_harvest: Nullable(Type.Integer(), `The most berries one tree can bear (generation IV); ${noFigure}.`),
    natural_gift_power: Nullable(Type.Integer(), `The power of the move Natural Gift when the holder uses this berry; ${noFigure}.`),
    size: Nullable(Type.Integer(), `The berry’s size in millimetres; ${noFigure}.`),
    smoothness: Nullable(Type.Integer(), `How smooth the berry is; it sets the smoothness (sheen) of Poffins and Pokéblocks made from it; ${noFigure}.`),
    soil_dryness: Nullable(Type.Integer(), `How fast the tree dries the soil (generation IV): the higher, the more often it needs water; ${noFigure}.`),
    firmness: linkOrNull('berry-firmness', 'How firm the berry is.', 'when the data set does not say'),
    flavors: Type.Array(BerryFlavorPotency, d('Its potency in each of the five flavors.')),
    item: link('item', 'The item that is this berry (the bag entry, with prices and effects).'),
    natural_gift_type: linkOrNull('type', 'The type the move Natural Gift has when the holder uses this berry.', 'when the data set does not say'),
  },
  { additionalProperties: false },
);

export const BerryFirmness = Type.Object(
  {
    id: idField('firmness'),
    name: nameField('firmness'),
    berries: links('berry', 'The berries this firm.'),
    names: namesField('firmness'),
  },
  { additionalProperties: false },
);

export const BerryWithPotency = Type.Object(
  {
    potency: Type.Integer(d('How strong the flavor is in that berry.')),
    berry: link('berry', 'The berry.'),
  },
  { additionalProperties: false },
);
export type BerryWithPotency = Static<typeof BerryWithPotency>;

export const BerryFlavor = Type.Object(
  {
    id: idField('flavor'),
    name: nameField('flavor'),
    berries: Type.Array(BerryWithPotency, d('The berries that have this flavor, with its potency in each.')),
    contest_type: link('contest-type', 'The contest condition this flavor raises.'),
    names: namesField('flavor'),
  },
  { additionalProperties: false },
);
