/**
 * Shapes shared by many responses, written once, and the helpers that describe fields. Field
 * names follow the upstream service; every description is this project's own.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';

/**
 * A described copy of a schema points back at the schema it was made from, so the contract can
 * still write a shared shape once and reference it (`{ $ref, description }`) where one field
 * uses it with its own meaning. A symbol key: JSON Schema consumers (ajv) never see it.
 */
export const DESCRIBED_FROM = Symbol.for('creature-api.described-from');

/** The same schema, with what this one field means. */
export function about<T extends TSchema>(schema: T, description: string): T {
  const base = (schema as { [DESCRIBED_FROM]?: TSchema })[DESCRIBED_FROM] ?? schema;
  return { ...schema, description, [DESCRIBED_FROM]: base };
}

/** The schema a described copy was made from (itself when it is no copy). */
export const describedFrom = (schema: TSchema): TSchema => (schema as { [DESCRIBED_FROM]?: TSchema })[DESCRIBED_FROM] ?? schema;

/** Options that only say what a field means. */
export const d = (description: string) => ({ description });

export const Nullable = <T extends TSchema>(schema: T, description?: string) =>
  Type.Union([schema, Type.Null()], description === undefined ? {} : { description });

const Url = (description: string) => Type.String({ format: 'uri', description });

/** A link to another resource by name. */
export const NamedResource = Type.Object(
  {
    name: Type.String(d('The linked resource’s name: lowercase, words joined by hyphens. It addresses the resource as well as its id does.')),
    url: Url('The full URL of the linked resource, ending in its numeric id and a slash; fetch it for the whole resource.'),
  },
  { additionalProperties: false },
);
export type NamedResource = Static<typeof NamedResource>;

/** A link to a resource that has no name (evolution chain, machine, characteristic, ...). */
export const ApiResource = Type.Object(
  { url: Url('The full URL of the linked resource, ending in its numeric id and a slash. Resources linked this way have no name.') },
  { additionalProperties: false },
);
export type ApiResource = Static<typeof ApiResource>;

/**
 * The kind a link schema leads to, for what is made from the schemas alone (the database's foreign
 * keys). A symbol key, as DESCRIBED_FROM: JSON Schema consumers never see it.
 */
export const LINKS_TO = Symbol.for('creature-api.links-to');

/** The kind a link schema leads to; undefined for a schema that is no link, or one that does not say. */
export const linkedKind = (schema: TSchema): string | undefined => (schema as { [LINKS_TO]?: string })[LINKS_TO];

/** `schema` (a link), saying that it leads to `kind`. */
export const linkTo = <T extends TSchema>(schema: T, kind: string): T => ({ ...schema, [LINKS_TO]: kind });

/** `kind` as a path, for saying where a link goes. */
const path = (kind: string) => `\`/${kind}/\``;

/** A field that links one resource of `kind`. */
export const link = (kind: string, meaning: string) => linkTo(about(NamedResource, `${meaning} Links to ${path(kind)}.`), kind);
/** A field that links one resource of `kind`, or is null (`when` says when). */
export const linkOrNull = (kind: string, meaning: string, when: string) =>
  Nullable(linkTo(NamedResource, kind), `${meaning} Links to ${path(kind)}; null ${when}.`);
/** A field that lists links to resources of `kind`. */
export const links = (kind: string, meaning: string) => Type.Array(linkTo(NamedResource, kind), d(`${meaning} Each entry links to ${path(kind)}.`));
/** A field that links one unnamed resource of `kind`. */
export const unnamedLink = (kind: string, meaning: string) => linkTo(about(ApiResource, `${meaning} Links to ${path(kind)}.`), kind);

/** `id`: every resource has one. */
export const idField = (what: string) => Type.Integer(d(`The ${what}’s numeric id. Ids are stable; do not assume they run from 1 to \`count\` without gaps.`));
/** `name`: lowercase, hyphenated, unique within its kind. */
export const nameField = (what: string) =>
  Type.String(d(`The ${what}’s name: lowercase ASCII words joined by hyphens, unique within the collection, usable in the URL instead of the id.`));

const language = (what: string) => link('language', `The language ${what} is written in.`);

/** How often a creature is found holding an item in one game version (creatures and items share it). */
export const HeldItemVersionDetail = Type.Object(
  {
    rarity: Type.Integer(d('The chance, in percent, that a wild one holds the item in this version.')),
    version: link('version', 'The game version.'),
  },
  { additionalProperties: false },
);
export type HeldItemVersionDetail = Static<typeof HeldItemVersionDetail>;

/** An entry of `names`: a name in one language. */
export const Name = Type.Object(
  {
    name: Type.String(d('The name as the games print it in this language (display text: capitals, accents and spaces kept).')),
    language: language('this name'),
  },
  { additionalProperties: false },
);
export type Name = Static<typeof Name>;

/** `names`: what a resource is called in each language. */
export const namesField = (what: string) =>
  Type.Array(Name, d(`What the ${what} is called in each language the data set has a name for; one entry per language, possibly empty.`));

export const Description = Type.Object(
  { description: Type.String(d('A sentence or two of explanation in this language.')), language: language('this description') },
  { additionalProperties: false },
);
export type Description = Static<typeof Description>;

export const Effect = Type.Object(
  {
    effect: Type.String(d('What happens, in this language. The text may hold the token `$effect_chance`, to be replaced by the move’s `effect_chance`.')),
    language: language('this text'),
  },
  { additionalProperties: false },
);
export type Effect = Static<typeof Effect>;

export const VerboseEffect = Type.Object(
  {
    effect: Type.String(
      d('The full account of what happens, in this language; it may hold the token `$effect_chance` (replace it with the move’s `effect_chance`).'),
    ),
    short_effect: Type.String(d('A one-line summary of the same effect.')),
    language: language('this text'),
  },
  { additionalProperties: false },
);
export type VerboseEffect = Static<typeof VerboseEffect>;

const FLAVOR_TEXT =
  'The text as the game shows it, control characters included: `\\n` where the game breaks a line, `\\f` (form feed) where it starts a new page, and U+00AD soft hyphens where it may split a word. Replace them with spaces before showing the text in one block.';

export const FlavorTextByVersionGroup = Type.Object(
  {
    flavor_text: Type.String(d(FLAVOR_TEXT)),
    language: language('this text'),
    version_group: link('version-group', 'The games (a version group) that show this text.'),
  },
  { additionalProperties: false },
);
export type FlavorTextByVersionGroup = Static<typeof FlavorTextByVersionGroup>;

export const FlavorTextByVersion = Type.Object(
  {
    flavor_text: Type.String(d(FLAVOR_TEXT)),
    language: language('this text'),
    version: link('version', 'The game version that shows this text.'),
  },
  { additionalProperties: false },
);
export type FlavorTextByVersion = Static<typeof FlavorTextByVersion>;

/** The flavor text description, for shapes outside this module that carry the games' text. */
export const flavorTextField = (extra = '') => Type.String(d(extra ? `${FLAVOR_TEXT} ${extra}` : FLAVOR_TEXT));

export const GenerationGameIndex = Type.Object(
  {
    game_index: Type.Integer(d('The number the games of this generation use internally for the resource; not the same as its id here.')),
    generation: link('generation', 'The generation whose games use this number.'),
  },
  { additionalProperties: false },
);
export type GenerationGameIndex = Static<typeof GenerationGameIndex>;

export const VersionGameIndex = Type.Object(
  {
    game_index: Type.Integer(d('The number this game version uses internally for the resource; not the same as its id here.')),
    version: link('version', 'The game version that uses this number.'),
  },
  { additionalProperties: false },
);
export type VersionGameIndex = Static<typeof VersionGameIndex>;

/** How an effect read before a version group changed it (abilities and moves). */
export const EffectChange = Type.Object(
  {
    effect_entries: Type.Array(Effect, d('The effect as it was before the change, one entry per language.')),
    version_group: link('version-group', 'The games (version group) in which the effect changed: before them it worked as `effect_entries` say.'),
  },
  { additionalProperties: false },
);
export type EffectChange = Static<typeof EffectChange>;

/** A machine that teaches a move, in one version group (moves and items list them). */
export const MachineVersionDetail = Type.Object(
  {
    machine: unnamedLink('machine', 'The machine (a TM, HM or TR item paired with a move) of these games.'),
    version_group: link('version-group', 'The games in which that machine teaches this move.'),
  },
  { additionalProperties: false },
);
export type MachineVersionDetail = Static<typeof MachineVersionDetail>;

/** A page of a collection: the specification's "Paginated list". */
export const PaginatedList = Type.Object(
  {
    count: Type.Integer({
      minimum: 0,
      description:
        'How many entries the whole collection has after its filters, batches and `q` (all of them when none is asked), not how many are on this page.',
    }),
    next: Nullable(Type.String({ format: 'uri' }), 'The URL of the following page, with `offset` and `limit` filled in (and `q` kept); null on the last page.'),
    previous: Nullable(Type.String({ format: 'uri' }), 'The URL of the page before this one; null on the first page (`offset` 0).'),
    results: Type.Array(
      Type.Union([NamedResource, ApiResource]),
      d(
        'This page’s entries in id order, each a link to one item. Entries have a `name` and a `url`, or only a `url` for collections addressed by id alone (evolution chains, machines, characteristics, contest and super contest effects). Empty when `offset` is past the end.',
      ),
    ),
  },
  { additionalProperties: false },
);
export type PaginatedList = Static<typeof PaginatedList>;

/** The body of every 404. */
export const NotFound = Type.Literal('Not Found');

/**
 * The body of every error answer but the plain 404 (contract/error-body.ts makes each): a code and a
 * sentence, with the fields its code has always carried beside them at the top level (a 400's
 * `parameter`, `value` and `accepts`).
 */
export const ErrorBody = Type.Object(
  {
    error: Type.String(
      d(
        'What went wrong, as a code a program compares: `bad_parameter` (400, a query parameter’s value), `bad_request` (400, a request that is not HTTP), ' +
          '`not_found` (a 404 that says what was not found), `method_not_allowed` (405), `header_too_large` (431), `internal` (500, a fault of ours, logged) ' +
          'or `unavailable` (503, try again after `Retry-After`).',
      ),
    ),
    detail: Type.String(d('What went wrong, in a sentence for a person. It never holds a stack or a path of the server’s.')),
  },
  {
    description:
      'The body of every error but the plain 404 `"Not Found"`: a code and a sentence, and the fields the code carries besides (a 400’s `parameter`, `value` and `accepts`).',
  },
);
export type ErrorBody = Static<typeof ErrorBody>;
