/** Responses of the move resources: the move itself, its classifications, and machines. */
import { Type } from '@sinclair/typebox';
import {
  about,
  ApiResource,
  d,
  Description,
  EffectChange,
  FlavorTextByVersionGroup,
  idField,
  link,
  linkOrNull,
  links,
  MachineVersionDetail,
  nameField,
  NamedResource,
  linkTo,
  namesField,
  Nullable,
  VerboseEffect,
} from './common.ts';

const strict = { additionalProperties: false } as const;

/** The moves a combo pairs with; null (not empty) when there are none. */
const comboMoves = (meaning: string) =>
  Nullable(Type.Array(linkTo(NamedResource, 'move')), `${meaning} Each entry links to \`/move/\`; null (not an empty list) when there are none.`);
export const ContestComboSet = Type.Object(
  {
    use_before: comboMoves('Moves that earn a combo bonus when used right after this one.'),
    use_after: comboMoves('Moves that earn this move a combo bonus when used right before it.'),
  },
  strict,
);
export const ContestComboSets = Type.Object(
  {
    normal: about(ContestComboSet, 'Combos in the contests of generations III and VI (Ruby, Sapphire, Emerald, Omega Ruby, Alpha Sapphire).'),
    super: about(ContestComboSet, 'Combos in the super contests of generation IV (Diamond, Pearl, Platinum).'),
  },
  strict,
);

const perCent = (what: string) => Type.Integer(d(`The chance, in percent, that ${what}; 0 when it never does.`));

export const MoveMetaData = Type.Object(
  {
    ailment: link('move-ailment', 'The status condition the move can cause (`none` when it causes none).'),
    category: link('move-category', 'What kind of move it is (damage, ailment, net-good-stats, heal, ohko, ...).'),
    min_hits: Nullable(Type.Integer(), 'The fewest times it hits in one turn; null when it hits once.'),
    max_hits: Nullable(Type.Integer(), 'The most times it hits in one turn; null when it hits once.'),
    min_turns: Nullable(Type.Integer(), 'The fewest turns its effect lasts; null when it lasts one turn.'),
    max_turns: Nullable(Type.Integer(), 'The most turns its effect lasts; null when it lasts one turn.'),
    drain: Type.Integer(
      d('The share of the damage dealt, in percent, that the user regains as HP; negative for recoil (the user loses that share); 0 for neither.'),
    ),
    healing: Type.Integer(d('The share of its maximum HP, in percent, that the user regains; negative when it loses HP; 0 for neither.')),
    crit_rate: Type.Integer(d('How many stages the move raises the critical-hit ratio by; 0 for a normal ratio.')),
    ailment_chance: perCent('the move causes its ailment'),
    flinch_chance: perCent('the target flinches'),
    stat_chance: perCent('the move’s stat changes happen (0 also when they always happen)'),
  },
  strict,
);

const unchanged = 'null when it did not change at that point';

export const PastMoveStatValues = Type.Object(
  {
    accuracy: Nullable(Type.Integer(), `The accuracy, in percent, the move had before these games; ${unchanged}.`),
    power: Nullable(Type.Integer(), `The power the move had before these games; ${unchanged}.`),
    pp: Nullable(Type.Integer(), `The power points the move had before these games; ${unchanged}.`),
    effect_chance: Nullable(Type.Integer(), `The effect chance, in percent, the move had before these games; ${unchanged}.`),
    effect_entries: Type.Array(VerboseEffect, d('The effect text that held before these games; empty when it did not change.')),
    type: linkOrNull('type', 'The type the move had before these games.', unchanged),
    version_group: link('version-group', 'The games in which the values changed: the fields above held before them.'),
  },
  strict,
);

export const MoveStatChange = Type.Object(
  {
    change: Type.Integer(d('By how many stages the stat changes: positive raises it, negative lowers it.')),
    stat: link('stat', 'The stat.'),
  },
  strict,
);

export const Move = Type.Object(
  {
    id: idField('move'),
    name: nameField('move'),
    accuracy: Nullable(Type.Integer(), 'The chance to hit, in percent (1–100); null for a move that never misses or does not check accuracy.'),
    effect_chance: Nullable(
      Type.Integer(),
      'The chance, in percent, that its secondary effect happens; the value of `$effect_chance` in the effect texts; null when it has no such chance.',
    ),
    pp: Nullable(Type.Integer(), 'Its power points: how many times it can be used before it must be restored; null when the data set has no figure.'),
    priority: Type.Integer(d('Its turn-order bracket, -7 to +5: a higher one goes first regardless of Speed; most moves are 0.')),
    power: Nullable(Type.Integer(), 'Its base power; null for a move that deals no direct damage or whose damage is worked out otherwise.'),
    contest_combos: Nullable(ContestComboSets, 'The contest moves it makes a combo with; null when it has no contest data.'),
    contest_type: linkOrNull('contest-type', 'The condition (cool, beauty, ...) it appeals to in contests.', 'when it has no contest data'),
    contest_effect: Nullable(
      linkTo(ApiResource, 'contest-effect'),
      'Its effect in the contests of generations III and VI. Links to `/contest-effect/`; null when it has none.',
    ),
    damage_class: link('move-damage-class', 'Whether it deals physical or special damage (using Attack and Defense, or the special stats) or none (status).'),
    effect_entries: Type.Array(VerboseEffect, d('What the move does, per language. Replace `$effect_chance` in the text with `effect_chance`.')),
    effect_changes: Type.Array(EffectChange, d('How its effect read before games that changed it; empty when it never changed.')),
    generation: link('generation', 'The generation that introduced the move.'),
    meta: Nullable(MoveMetaData, 'Details the battle engine uses (ailments, hits, turns, drain, chances); null when the data set has none for the move.'),
    names: namesField('move'),
    past_values: Type.Array(PastMoveStatValues, d('Values it had before games that changed them, oldest change first; empty when it never changed.')),
    stat_changes: Type.Array(MoveStatChange, d('The stats it raises or lowers, with the number of stages; empty when none.')),
    super_contest_effect: Nullable(
      linkTo(ApiResource, 'super-contest-effect'),
      'Its effect in the super contests of generation IV. Links to `/super-contest-effect/`; null when it has none.',
    ),
    target: link('move-target', 'Whom it affects (the selected creature, all opponents, the user, ...).'),
    type: link('type', 'Its type.'),
    machines: Type.Array(MachineVersionDetail, d('The TMs, HMs or TRs that teach it, per version group; empty when no machine does.')),
    flavor_text_entries: Type.Array(FlavorTextByVersionGroup, d('The games’ description of the move, per version group and language.')),
    learned_by_creature: links('creature', 'Every creature that can learn the move in some game.'),
  },
  strict,
);

export const MoveAilment = Type.Object(
  {
    id: Type.Integer(d('The ailment’s numeric id; `none` is 0 and `unknown` is -1.')),
    name: nameField('ailment'),
    moves: links('move', 'The moves that can cause this ailment.'),
    names: namesField('ailment'),
  },
  strict,
);

export const MoveBattleStyle = Type.Object({ id: idField('battle style'), name: nameField('battle style'), names: namesField('battle style') }, strict);

export const MoveCategory = Type.Object(
  {
    id: Type.Integer(d('The category’s numeric id, from 0.')),
    name: nameField('category'),
    descriptions: Type.Array(Description, d('What the category covers, per language.')),
    moves: links('move', 'The moves of this category.'),
  },
  strict,
);

/** Damage class and target share one shape: descriptions, the moves of that class or target, names. */
const moveClassification = (what: string, moves: string) =>
  Type.Object(
    {
      id: idField(what),
      name: nameField(what),
      descriptions: Type.Array(Description, d(`What the ${what} means, per language.`)),
      moves: links('move', `The moves ${moves}.`),
      names: namesField(what),
    },
    strict,
  );
export const MoveDamageClass = moveClassification('damage class', 'of this damage class');
export const MoveTarget = moveClassification('target', 'that affect this target');

export const MoveLearnMethod = Type.Object(
  {
    id: idField('learn method'),
    name: nameField('learn method'),
    descriptions: Type.Array(Description, d('How a move is learned this way, per language.')),
    names: namesField('learn method'),
    version_groups: links('version-group', 'The games in which moves can be learned this way.'),
  },
  strict,
);

export const Machine = Type.Object(
  {
    id: Type.Integer(
      d('The machine’s numeric id. A machine is one TM, HM or TR item in one version group: the same item teaches different moves in different games.'),
    ),
    item: link('item', 'The TM, HM or TR item.'),
    move: link('move', 'The move it teaches.'),
    version_group: link('version-group', 'The games in which that item teaches that move.'),
  },
  strict,
);
