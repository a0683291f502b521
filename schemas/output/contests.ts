/** Responses of the contest resources: contest types and the effects of moves in (super) contests. */
import { Type } from '@sinclair/typebox';
import { d, Effect, idField, link, links, nameField } from './common.ts';

const strict = { additionalProperties: false } as const;

/** A contest type's name in one language, with the color the games show it in there. */
export const ContestName = Type.Object(
  {
    name: Type.String(d('The contest type’s name in this language.')),
    color: Type.String(d('The color the games name for this contest type, in this language; an empty string when the data set gives none.')),
    language: link('language', 'The language of this name.'),
  },
  strict,
);

/** Flavor text of a contest effect: one per language, not per version. */
export const ContestFlavorText = Type.Object(
  {
    flavor_text: Type.String(d('The effect as the contest games describe it, in this language.')),
    language: link('language', 'The language of this text.'),
  },
  strict,
);

export const ContestType = Type.Object(
  {
    id: idField('contest type'),
    name: nameField('contest type'),
    berry_flavor: link('berry-flavor', 'The berry flavor that goes with this contest type (its Pokéblocks and Poffins raise the condition).'),
    names: Type.Array(ContestName, d('The contest type’s name and color in each language that has them.')),
  },
  strict,
);

export const ContestEffect = Type.Object(
  {
    id: idField('contest effect'),
    appeal: Type.Integer(d('The appeal points (hearts) a move with this effect earns in a contest.')),
    jam: Type.Integer(d('The points this effect takes from the other contestants (jamming); 0 when it does not jam.')),
    effect_entries: Type.Array(Effect, d('What the effect does, per language.')),
    flavor_text_entries: Type.Array(ContestFlavorText, d('The games’ short description of the effect, per language.')),
  },
  strict,
);

export const SuperContestEffect = Type.Object(
  {
    id: idField('super contest effect'),
    appeal: Type.Integer(d('The appeal points (hearts) a move with this effect earns in a super contest.')),
    flavor_text_entries: Type.Array(ContestFlavorText, d('The games’ short description of the effect, per language.')),
    moves: links('move', 'The moves that have this effect in super contests.'),
  },
  strict,
);
