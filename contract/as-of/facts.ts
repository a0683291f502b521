/**
 * What the build keeps for answers "as of a game", and where: the request logic makes
 * those answers from today's documents and these small files, written by the build
 * (generator/indexes/as-of.ts) and read here, so both sides share the shapes.
 *
 * - `v2/_as-of/{kind}.json`, one per kind the rules read (`AS_OF_FACT_KINDS`): each record's
 *   facts, by id. A type's creatures as of a game, or a creature's matchups, read them, not the
 *   documents of every creature.
 * - `v2/_as-of/{kind}/{id}.json` (and `{name}.json`, a link), for the kinds whose as-of item
 *   needs what today's document does not hold in a form cheap to read: a creature's moves by
 *   version group (today's document holds every version group's, up to 650 kB: its as-of
 *   document holds the rest of the item too, so one small read answers), a move's learners with
 *   the version groups each learns it in.
 * - `v2/_as-of/lists/{kind}.json` and the views it names (generator/indexes/as-of-lists.ts): each
 *   version group's list of the kind, what a list as of a game reads in place of the facts.
 */

/** `[generation, value]`: a value that held up to and including that generation (the upstream's `past_*` entries). */
export type Past<T> = [generation: number, value: T];
/** `[slot, type id]` */
export type SlotType = [slot: number, type: number];
/** `[slot, ability id or null (no ability in the slot), is_hidden 1 or 0]` */
export type SlotAbility = [slot: number, ability: number | null, hidden: 0 | 1];
/** `[stat id, base stat, effort]` */
export type StatValue = [stat: number, base: number, effort: number];

export const RELATION_KEYS = ['no_damage_to', 'half_damage_to', 'double_damage_to', 'no_damage_from', 'half_damage_from', 'double_damage_from'] as const;
export type RelationKey = (typeof RELATION_KEYS)[number];
/** A type's damage relations as type ids, by key. */
export type Relations = Record<RelationKey, number[]>;

export interface VersionGroupFacts {
  name: string;
  /** the upstream's `order`: version groups in the order the games came out */
  order: number;
  generation: number;
  generationName: string;
  /** its versions' names */
  versions: string[];
}

export interface CreatureFacts {
  name: string;
  /** the version group its first form (`forms[0]`) came in: it exists as of that group and every later one */
  born: number;
  types: SlotType[];
  pastTypes: Past<SlotType[]>[];
  abilities: SlotAbility[];
  pastAbilities: Past<SlotAbility[]>[];
}

/** A creature's stats, today's and past, in a file of their own (`asOfStatsFile`): only the build's making of the lists reads them. */
export interface CreatureStats {
  stats: StatValue[];
  pastStats: Past<StatValue[]>[];
}

/** The values of a move that changed over the games, as the rules read them. */
export const MOVE_VALUES = ['power', 'pp', 'accuracy', 'effect_chance', 'type'] as const;
export type MoveValue = (typeof MOVE_VALUES)[number];
/** A move's values in `MOVE_VALUES` order (the type as its id); null where it has none (or, in a past entry, where it did not change). */
export type MoveValues = [power: number | null, pp: number | null, accuracy: number | null, effectChance: number | null, type: number | null];

/** A move's facts; its name is in `asOfMoveNamesFile` (a move renamed rewrites that file alone, which no list as of the game reads). */
export interface MoveFacts {
  generation: number;
  values: MoveValues;
  /** `[version group id, values]`: the values it had before that version group changed them */
  past: Array<[versionGroup: number, values: MoveValues]>;
}

export interface TypeFacts {
  name: string;
  generation: number;
  relations: Relations;
  pastRelations: Past<Relations>[];
}

export interface AbilityFacts {
  name: string;
  generation: number;
}

export interface StatFacts {
  name: string;
}

/** What an entry list as of a game reads of an entry besides its creature's facts: its species' place in its chain. */
export interface EntryFacts {
  /** the generation of each species above its own in its chain, the chain's first species first */
  above: number[];
  /** the triggers of the evolution into its species (`evolution.from`'s details), each once, by id: `[id, name]` */
  triggers: Array<[id: number, name: string]>;
}

/** The facts of each kind the rules read. */
export interface FactsOf {
  'version-group': VersionGroupFacts;
  creature: CreatureFacts;
  move: MoveFacts;
  type: TypeFacts;
  ability: AbilityFacts;
  stat: StatFacts;
  entry: EntryFacts;
}
export type FactKind = keyof FactsOf;
/** The kinds answered as of a game: the build makes their lists as of each version group, the request logic answers them. */
export const AS_OF_KINDS = ['creature', 'move', 'type', 'ability', 'entry'] as const;
export type AsOfKind = (typeof AS_OF_KINDS)[number];
/** The kinds whose list has a `move` filter as of the game, made from the creatures' learnsets (an entry's list is its creature's). */
export const MOVE_FILTER_KINDS: readonly AsOfKind[] = ['creature', 'entry'];

export const AS_OF_FACT_KINDS: readonly FactKind[] = ['version-group', 'creature', 'move', 'type', 'ability', 'stat', 'entry'];

/** A kind's facts file: its records' facts in id order. */
export interface FactsFile<K extends FactKind> {
  kind: K;
  records: Array<[id: number, facts: FactsOf[K]]>;
}

/**
 * A creature's as-of document: today's item with `moves` emptied, and its moves compact: each
 * `[move id, ...details]`, the details four numbers each
 * (`version group id, level learned at, learn method id, order (-1: none)`). A move's name is
 * read from `asOfMoveNamesFile` when the answer is made, so renaming a move (in the dev loop:
 * every creature that learns it) leaves these documents as they are.
 */
export interface CreatureAsOfDocument {
  item: Record<string, unknown>;
  moves: Array<[number, ...number[]]>;
  /** learn method names by id */
  methods: Record<string, string>;
  /** the version group its first form came in (CreatureFacts `born`): an item answer needs no other file to know it existed */
  born: number;
}

/**
 * A move's as-of document: each learner's version groups as a bit set (bit `id - 1`), in the
 * order of today's `learned_by_creature`. The rest is today's item, read beside it.
 */
export interface MoveAsOfDocument {
  /** each learner, the version groups it learns the move in, and the one it came in (CreatureFacts `born`) */
  learners: Array<[creature: number, versionGroups: number, born: number]>;
}

/**
 * An entry's as-of document: what its answer as of a game reads beside today's entry, which holds
 * none of it. Version groups and generations by id.
 */
export interface EntryAsOfDocument {
  /** the version group its creature came in (CreatureFacts `born`) */
  born: number;
  /** its creature's `past_types`, `past_abilities` and `past_stats`, as the creature's item has them */
  past: { types: unknown[]; abilities: unknown[]; stats: unknown[] };
  /** the version group each of its `forms` came in, in their order */
  forms: number[];
  /** the version group each of its `varieties` came in (its `born`), in their order */
  varieties: number[];
  /** the generation of each species above its own in its chain, the chain's first species first */
  above: number[];
  /** the generation of each species of its `evolution.to`, in their order */
  below: number[];
}

export interface AsOfDocumentOf {
  creature: CreatureAsOfDocument;
  move: MoveAsOfDocument;
  entry: EntryAsOfDocument;
}
export type DocumentKind = keyof AsOfDocumentOf;
export const AS_OF_DOCUMENT_KINDS: readonly DocumentKind[] = ['creature', 'move', 'entry'];
/** Version group ids a learner's bit set can hold: a double holds 53 bits exactly. */
export const MAX_VERSION_GROUP_BIT = 52;

/** Whether a bit set of version groups (bit `id - 1`) holds the group `id`. */
export const inGroups = (groups: number, id: number): boolean => Math.floor(groups / 2 ** (id - 1)) % 2 === 1;

/**
 * Each creature's moves with the version groups it learns each in, as flat pairs
 * `[move id, version groups as a bit set, …]`: beside the creatures' facts, in a file of its own
 * (`asOfLearnsetFile`, 1.2 MB), read only by the build, which makes a creature list's `move`
 * filter of each version group from it (`asOfMoveFilterFile`).
 */
export interface LearnsetFile {
  records: Array<[creature: number, learnset: number[]]>;
}

export const AS_OF_PREFIX = 'v2/_as-of';
export const asOfLearnsetFile = `${AS_OF_PREFIX}/creature-learnset.json`;
/** Each creature's CreatureStats: `{records: [[id, stats], …]}`. */
export const asOfStatsFile = `${AS_OF_PREFIX}/creature-stats.json`;
/** Every move's name by id (19 kB): what a creature and a type as of a game, and the coverage map, name moves with (the documents and facts hold their ids). */
export const asOfMoveNamesFile = `${AS_OF_PREFIX}/move-names.json`;
export interface MoveNamesFile {
  records: Array<[id: number, name: string]>;
}
export interface StatsFile {
  records: Array<[creature: number, stats: CreatureStats]>;
}
export const asOfFactsFile = (kind: FactKind): string => `${AS_OF_PREFIX}/${kind}.json`;
export const asOfDocumentFile = (kind: DocumentKind, key: string | number): string => `${AS_OF_PREFIX}/${kind}/${key}.json`;

/**
 * A kind's lists as of each version group, made at build time (generator/indexes/as-of-lists.ts)
 * so that a list as of a game is answered as today's is, from files: for each version group, the
 * list positions that existed then, as runs (`[first, count, first, count, …]`), and its view,
 * which names a `ViewFile` (`asOfViewFile`), which names a patch of today's field column
 * (column-patch/2, `asOfColumnFile`) per changed field. Ranges and fields as of the game are patches of
 * today's: the entries that changed since, at every position (those that did not exist yet too,
 * never shown: a list answers over the positions that existed), so a generation's patches are
 * the same for all its version groups and an edit reaches only the patches of the generations
 * where it shows. Files are named by a hash of their bytes: version groups whose views are the
 * same share one, and views whose patches are the same share those. A creature list's
 * `move` filter as of the game, read only by a query that asks for it, is a file of its own
 * (`asOfMoveFilterFile`: a filter pack holding that one filter, contract/filter-pack.ts).
 */
export interface ListViewsFile {
  kind: string;
  groups: Array<[versionGroup: number, existing: number[], view: string, moveFilter: string | null]>;
  /** read by the build only: what of today's files the views were made against (`MadeAgainst`); absent from a build before it */
  against?: MadeAgainst;
}

/**
 * Hashes of what of today's files a kind's views were made against: its list's ids in list
 * order, and each range column its ranges patch, by name (null for a kind with no ranges as of the
 * game). An edit that writes today's list or filter index again but leaves these (a move renamed:
 * its name in the move list, a value name in the creature's filter index) makes no view again,
 * and one that changes a range makes again only the part that patches it (a base stat edited:
 * an entry's stats, not its stage in its chain).
 */
export interface MadeAgainst {
  ids: string;
  ranges: Record<string, string> | null;
}

/** What changed in a kind's list as of a version group: every other filter, range and field is today's. */
export interface ViewFile {
  /** how many entries the kind's list holds (today's) */
  count: number;
  /** value filters whose members changed: rows `[name, id, gaps between the list positions]` by id (filter-pack.ts `positionGaps`) */
  values: Array<[filter: string, rows: Array<[name: string, id: number, gaps: number[]]>]>;
  /** today's range columns where they changed: the positions, ascending, and each one's number then (null for none) */
  ranges: Array<[range: string, positions: number[], values: Array<number | null>]>;
  /** declared fields whose values differ from today's column, and the patch of today's column of each (`asOfColumnFile`) */
  fields: Array<[field: string, patch: string]>;
}

export const asOfListsFile = (kind: string): string => `${AS_OF_PREFIX}/lists/${kind}.json`;
export const asOfViewsFolder = (kind: string): string => `${AS_OF_PREFIX}/lists/${kind}`;
export const asOfViewFile = (kind: string, view: string): string => `${asOfViewsFolder(kind)}/${view}.json`;
export const asOfMoveFilterFile = (kind: string, name: string): string => `${asOfViewsFolder(kind)}/${name}~move.bin`;
export const asOfColumnFile = (kind: string, column: string): string => `${asOfViewsFolder(kind)}/${column}.jsonl`;

/** Ascending list positions as runs `[first, count, …]`. */
export function positionRuns(positions: readonly number[]): number[] {
  const runs: number[] = [];
  for (const p of positions) {
    const last = runs.length - 2;
    if (last >= 0 && runs[last]! + runs[last + 1]! === p) runs[last + 1]!++;
    else runs.push(p, 1);
  }
  return runs;
}

/** The positions of runs made by `positionRuns`. */
export function runPositions(runs: readonly number[]): number[] {
  const positions: number[] = [];
  for (let at = 0; at < runs.length; at += 2) for (let p = runs[at]!; p < runs[at]! + runs[at + 1]!; p++) positions.push(p);
  return positions;
}
