/**
 * The answers "as of a game": a creature, move, type, ability or entry as it was in one
 * version group (`GET /as-of/{v}/{kind}/{id or name}`), a creature's type matchups, and the 404
 * that says what was not found. The request logic makes these answers (contract/as-of/), not the
 * build, so no build step checks them: these schemas are the contract's word on them (the OpenAPI
 * document, the `.d.ts`, the docs page), and test/as-of-contract.test.ts holds real answers to them.
 *
 * Each item is today's item with its changing fields as of `{v}` and its `past_*` field gone.
 * The fields keep today's shapes; only their meaning changes, so a field as of `{v}` gets a
 * description of its own, a field one could take for as of `{v}` but is today's says so, and
 * every other field is today's property as it is.
 */
import { Type, type TObject, type TProperties, type TSchema } from '@sinclair/typebox';
import { Ability, AbilityCreature, BattleType, DamageRelations, TypeCreature } from './battle.ts';
import { about, d, FlavorTextByVersion, link, links, Nullable } from './common.ts';
import { Creature, CreatureAbility, CreatureMoveVersionDetail, CreatureStat, CreatureType } from './creatures.ts';
import { Move } from './moves.ts';
import { Entry, EntryEvolution, EntryForm } from './entry.ts';
import { CreatureSpeciesVariety } from './species.ts';

const strict = { additionalProperties: false } as const;

/** How a description names the game asked for. */
const V = '`{v}`';
/** How the description of a field as of `{v}` starts (the docs page reads the fields so marked). */
export const AS_OF_MARK = `As of ${V}:`;
const TODAY = `Today’s value, not as of ${V}.`;

/** The same field, with a sentence saying it is today's. */
function today<T extends TSchema>(schema: T, note = TODAY): T {
  const description = typeof schema.description === 'string' ? `${schema.description} ${note}` : note;
  // a spread keeps the symbols (TypeBox's kind, the shared shape it was described from)
  return { ...schema, description };
}

/**
 * Today's item schema with some fields replaced (as of `{v}`) or annotated (today's), and the
 * `past_*` fields left out, in today's field order.
 */
function asOfItem(
  item: TObject,
  fields: { asOf: TProperties; today?: Readonly<Record<string, string | true>>; gone: readonly string[] },
  description: string,
): TObject {
  const properties: TProperties = {};
  for (const [key, schema] of Object.entries(item.properties)) {
    if (fields.gone.includes(key)) continue;
    const note = fields.today?.[key];
    properties[key] = fields.asOf[key] ?? (note === undefined ? schema : today(schema, note === true ? TODAY : note));
  }
  for (const key of [...Object.keys(fields.asOf), ...Object.keys(fields.today ?? {}), ...fields.gone]) {
    if (!(key in item.properties)) throw new Error(`the as-of schema names ${key}, which today's item does not have`);
  }
  return Type.Object(properties, { ...strict, description });
}

/** A creature's move in the version group asked for: only that group's ways of learning it. */
export const CreatureMoveAsOf = Type.Object(
  {
    move: link('move', 'The move, which the creature could learn in that version group.'),
    version_group_details: Type.Array(
      CreatureMoveVersionDetail,
      d(`How and at what level it learned the move in ${V}’s version group, one entry per learn method: the other version groups’ entries are left out.`),
    ),
  },
  strict,
);

export const CreatureAsOf = asOfItem(
  Creature,
  {
    asOf: {
      abilities: Type.Array(
        CreatureAbility,
        d(
          `${AS_OF_MARK} its abilities then, by slot. Empty before generation III, which introduced abilities. Each slot is the one of the \`past_abilities\` entry that applies (the earliest generation at or after ${V}’s that names the slot), else today’s; a slot empty then is left out.`,
        ),
      ),
      moves: Type.Array(
        CreatureMoveAsOf,
        d(`${AS_OF_MARK} the moves it could learn in ${V}’s version group, each with only that group’s details; a move it could not learn there is left out.`),
      ),
      stats: Type.Array(
        CreatureStat,
        d(
          `${AS_OF_MARK} its base stats then, each from the \`past_stats\` entry that applies (the earliest generation at or after ${V}’s that names the stat), else today’s. In generation I the five of then, with \`special\` and without \`special-attack\` and \`special-defense\`; from generation II on, the six stats of today, without \`special\`.`,
        ),
      ),
      types: Type.Array(
        CreatureType,
        d(
          `${AS_OF_MARK} its one or two types then, primary first: those of the \`past_types\` entry that applies (the earliest generation at or after ${V}’s), else today’s.`,
        ),
      ),
    },
    today: {
      base_experience: true,
      held_items: `Today’s list, over every game version, not only those of ${V}.`,
      sprites: true,
      game_indices: `Today’s list, over every game version.`,
    },
    gone: ['past_abilities', 'past_stats', 'past_types'],
  },
  `A creature as it was in a game (\`GET /as-of/{v}/creature/{id or name}\`): \`types\`, \`abilities\`, \`stats\` and \`moves\` as of ${V}, and \`past_types\`, \`past_abilities\` and \`past_stats\` absent (they are applied). Every other field is today’s, as \`GET /creature/{id or name}\` has it. A creature exists as of ${V} when its first form came in ${V}’s version group or before it; links are the linked resources’ own URLs.`,
);

const moveValue = (field: string, meaning: string) =>
  `${AS_OF_MARK} ${meaning}: the \`${field}\` of the \`past_values\` entry of the earliest version group after ${V} that gives one (not null), else today’s.`;

export const MoveAsOf = asOfItem(
  Move,
  {
    asOf: {
      accuracy: Nullable(Type.Integer(), `${moveValue('accuracy', 'the chance to hit then, in percent')} Null for a move that never misses.`),
      effect_chance: Nullable(
        Type.Integer(),
        `${moveValue('effect_chance', 'the chance of its secondary effect then, in percent')} Null when it has no such chance.`,
      ),
      pp: Nullable(Type.Integer(), `${moveValue('pp', 'its power points then')} Null when the data set has no figure.`),
      power: Nullable(Type.Integer(), `${moveValue('power', 'its base power then')} Null for a move that deals no direct damage.`),
      type: link('type', moveValue('type', 'its type then')),
      learned_by_creature: links('creature', `${AS_OF_MARK} the creatures that existed then and could learn the move in ${V}’s version group.`),
    },
    today: {
      damage_class: `Today’s: before generation IV a damage move was physical or special by its type (the type’s \`move_damage_class\`), which this field does not say.`,
      effect_entries: `Today’s text; \`effect_changes\` says how it read before the games that changed it.`,
      machines: `Today’s list, over every version group.`,
      meta: true,
      priority: true,
      target: true,
    },
    gone: ['past_values'],
  },
  `A move as it was in a game (\`GET /as-of/{v}/move/{id or name}\`): \`power\`, \`pp\`, \`accuracy\`, \`effect_chance\`, \`type\` and \`learned_by_creature\` as of ${V}, and \`past_values\` absent (it is applied). Every other field is today’s, as \`GET /move/{id or name}\` has it. A move exists as of ${V} when its generation is ${V}’s or earlier.`,
);

export const TypeAsOf = asOfItem(
  BattleType,
  {
    asOf: {
      damage_relations: about(
        DamageRelations,
        `${AS_OF_MARK} how moves of this type fared against other types, and moves of other types against this one: the \`past_damage_relations\` entry that applies (the earliest generation at or after ${V}’s), else today’s, without the types that did not exist then.`,
      ),
      creature: Type.Array(
        TypeCreature,
        d(`${AS_OF_MARK} the creatures that existed then and had this type then (their \`types\` as of ${V}), with the slot it was in.`),
      ),
      moves: links('move', `${AS_OF_MARK} the moves that existed then and had this type then (their \`type\` as of ${V}).`),
    },
    today: { move_damage_class: `Today’s value, which is the class this type’s moves had before generation IV.`, sprites: true },
    gone: ['past_damage_relations'],
  },
  `A type as it was in a game (\`GET /as-of/{v}/type/{id or name}\`): \`damage_relations\`, \`creature\` and \`moves\` as of ${V}, and \`past_damage_relations\` absent (it is applied). Every other field is today’s, as \`GET /type/{id or name}\` has it. A type exists as of ${V} when its generation is ${V}’s or earlier (steel and dark came in generation II, fairy in VI).`,
);

export const AbilityAsOf = asOfItem(
  Ability,
  {
    asOf: {
      creature: Type.Array(
        AbilityCreature,
        d(
          `${AS_OF_MARK} the creatures that existed then and could have the ability then (their \`abilities\` as of ${V}), with the slot it was in and whether it was hidden.`,
        ),
      ),
    },
    today: {
      effect_entries: `Today’s text; \`effect_changes\` says how it read before the games that changed it.`,
      flavor_text_entries: `Today’s list, over every version group.`,
    },
    gone: [],
  },
  `An ability as it was in a game (\`GET /as-of/{v}/ability/{id or name}\`): \`creature\` as of ${V}. Every other field is today’s, as \`GET /ability/{id or name}\` has it. An ability exists as of ${V} from generation III on, when its generation is ${V}’s or earlier.`,
);

export const EntryAsOf = asOfItem(
  Entry,
  {
    asOf: {
      types: CreatureAsOf.properties.types!,
      abilities: CreatureAsOf.properties.abilities!,
      stats: CreatureAsOf.properties.stats!,
      base_stat_total: Type.Integer(d(`${AS_OF_MARK} the sum of its base stats then.`)),
      varieties: Type.Array(
        CreatureSpeciesVariety,
        d(`${AS_OF_MARK} the varieties of its species that had come by ${V} (a creature comes with its first form), in today’s order.`),
      ),
      forms: Type.Array(EntryForm, d(`${AS_OF_MARK} its forms that had come by ${V} (each by the version group it came in), in today’s order.`)),
      evolution: about(
        EntryEvolution,
        `${AS_OF_MARK} its species’ place among the species of its chain that existed then (a species exists from its generation on): \`stage\` counts only those, \`from\` is null when the species it evolves from came later (pichu, as of generation I, for pikachu), \`to\` leaves out those that came later. The details are today’s, verbatim.`,
      ),
      flavor_text_entries: Type.Array(
        FlavorTextByVersion,
        d(
          `${AS_OF_MARK} the dex text of ${V}’s games only: of that one version when ${V} names a version, else of every version of the version group it names.`,
        ),
      ),
    },
    today: {
      base_experience: true,
      sprites: true,
      pokedex_numbers: `Today’s list, over every Pokédex.`,
      names: true,
      genera: true,
    },
    gone: [],
  },
  `An entry as it was in a game (\`GET /as-of/{v}/entry/{id or name}\`): its creature’s \`types\`, \`abilities\` and \`stats\` (and their total) as of ${V}, the varieties and forms that had come, its place in its chain among the species of then, and the dex text of ${V}’s games. Every other field is today’s, as \`GET /entry/{id or name}\` has it. An entry exists as of ${V} when its creature does.`,
);

/** One attacking type's effect on the creature. */
export const Matchup = Type.Object(
  {
    type: link('type', 'The attacking type, a type of the type list that existed then.'),
    multiplier: Type.Number(
      d(
        'What a move of that type does to the creature: the product, over the creature’s types then, of 2, 0.5 or 0 from the attacking type’s damage relations then (1 when none names the type). So 4, 2, 1, 0.5, 0.25 or 0.',
      ),
    ),
  },
  strict,
);

export const Matchups = Type.Object(
  {
    defending: Type.Array(
      Matchup,
      d(
        'One entry per battle type that existed then (the 18 of today, fewer in older games), in the type list’s order (`/type/`): how hard a move of that type hits the creature.',
      ),
    ),
  },
  {
    ...strict,
    description:
      `A creature’s type matchups (\`GET /creature/{id or name}/matchups\`: as of the newest games; \`GET /as-of/{v}/creature/{id or name}/matchups\`: as of ${V}), from its types and the types’ damage relations of then. ` +
      'Abilities that change what hits the creature (levitate, a type-immunity ability) are not applied, nor are items, weather or moves: the types alone.',
  },
);

/** The body of a 404 on an as-of path that names what was not found. */
export const AsOfNotFound = Type.Object(
  {
    error: Type.Literal('not_found', d('Always `not_found`.')),
    detail: Type.String(
      d(
        `What was not found, in words: a \`{v}\` that names no version group, version or generation; a kind not answered as of a game; or an item that did not exist as of ${V}.`,
      ),
    ),
  },
  {
    ...strict,
    description: `The body of a 404 on an as-of path that says what was not found. An id or name that names nothing at all answers the usual \`"Not Found"\`.`,
  },
);

/** The kinds answered as of a game, and their item schemas, in the order the contract lists them. */
export const AS_OF_ITEMS = { creature: CreatureAsOf, move: MoveAsOf, type: TypeAsOf, ability: AbilityAsOf, entry: EntryAsOf } as const;
