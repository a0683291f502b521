/** Responses of the contest resources: contest types and the effects of moves in (super) contests. */
import { Type } from '@sinclair/typebox';
import { Effect, NamedResource } from './common.ts';

const strict = { additionalProperties: false } as const;

/** A contest type's name in one language, with the color the games show it in there. */
export const ContestName = Type.Object({ name: Type.String(), color: Type.String(), language: NamedResource }, strict);

/** Flavor text of a contest effect: one per language, not per version. */
export const ContestFlavorText = Type.Object({ flavor_text: Type.String(), language: NamedResource }, strict);

export const ContestType = Type.Object(
  { id: Type.Integer(), name: Type.String(), berry_flavor: NamedResource, names: Type.Array(ContestName) },
  strict,
);

export const ContestEffect = Type.Object(
  {
    id: Type.Integer(),
    appeal: Type.Integer(),
    jam: Type.Integer(),
    effect_entries: Type.Array(Effect),
    flavor_text_entries: Type.Array(ContestFlavorText),
  },
  strict,
);

export const SuperContestEffect = Type.Object(
  { id: Type.Integer(), appeal: Type.Integer(), flavor_text_entries: Type.Array(ContestFlavorText), moves: Type.Array(NamedResource) },
  strict,
);
