/** Responses of the berry resources: berry, firmness and flavor. */
import { Type, type Static } from '@sinclair/typebox';
import { Name, NamedResource, Nullable } from './common.ts';

export const BerryFlavorPotency = Type.Object({ potency: Type.Integer(), flavor: NamedResource }, { additionalProperties: false });
export type BerryFlavorPotency = Static<typeof BerryFlavorPotency>;

export const Berry = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    growth_time: Nullable(Type.Integer()),
    max_harvest: Nullable(Type.Integer()),
    natural_gift_power: Nullable(Type.Integer()),
    size: Nullable(Type.Integer()),
    smoothness: Nullable(Type.Integer()),
    soil_dryness: Nullable(Type.Integer()),
    firmness: Nullable(NamedResource),
    flavors: Type.Array(BerryFlavorPotency),
    item: NamedResource,
    natural_gift_type: Nullable(NamedResource),
  },
  { additionalProperties: false },
);

export const BerryFirmness = Type.Object(
  { id: Type.Integer(), name: Type.String(), berries: Type.Array(NamedResource), names: Type.Array(Name) },
  { additionalProperties: false },
);

export const BerryWithPotency = Type.Object({ potency: Type.Integer(), berry: NamedResource }, { additionalProperties: false });
export type BerryWithPotency = Static<typeof BerryWithPotency>;

export const BerryFlavor = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    berries: Type.Array(BerryWithPotency),
    contest_type: NamedResource,
    names: Type.Array(Name),
  },
  { additionalProperties: false },
);
