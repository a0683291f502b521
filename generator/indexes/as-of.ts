/**
 * What the build keeps for answers "as of a game" (contract/as-of/facts.ts says the shapes and the
 * files): each record's facts, and the as-of document of a creature or a move. A move's (and
 * every other kind's facts) are read off its item document while it is in hand
 * (builder/emit-kinds.ts), like the query and coverage facts; a creature's are made from its
 * record in a part of their own (creatureAsOfPart).
 */
import {
  AS_OF_DOCUMENT_KINDS,
  AS_OF_FACT_KINDS,
  MAX_VERSION_GROUP_BIT,
  inGroups,
  MOVE_VALUES,
  RELATION_KEYS,
  asOfFactsFile,
  asOfLearnsetFile,
  asOfMoveNamesFile,
  asOfStatsFile,
  type CreatureStats,
  type LearnsetFile,
  type MoveNamesFile,
  type StatsFile,
  type AsOfDocumentOf,
  type MoveValues,
  type StatValue,
  type CreatureAsOfDocument,
  type DocumentKind,
  type EntryAsOfDocument,
  type FactKind,
  type FactsFile,
  type FactsOf,
  type MoveAsOfDocument,
  type Past,
  type Relations,
  type SlotAbility,
  type SlotType,
} from '../../contract/as-of/facts.ts';
import { idOfUrl } from '../../contract/layout.ts';
import { join } from 'node:path';
import type { BuildContext } from '../resources/context.ts';
import { creaturePast, movesByMove } from '../resources/creatures/creature.ts';
import { speciesAbove } from '../resources/species/evolution.ts';
import type { RecordOf } from '../model/kinds.ts';
import { BuildError } from '../build-error.ts';
import { readJsonIfThere } from '../files/folders.ts';

type Doc = Record<string, unknown>;
type Link = { name: string; url: string };

const idOf = (link: unknown): number => {
  const id = idOfUrl((link as Link).url);
  if (id === null) throw new Error(`not a resource link: ${JSON.stringify(link)}`);
  return id;
};
const generationOf = (doc: Doc): number => idOf(doc.generation);
const pastByGeneration = <T>(entries: unknown, field: string, read: (value: unknown) => T): Past<T>[] =>
  (entries as Doc[]).map((entry) => [generationOf(entry), read(entry[field])]);

const slotTypes = (entries: unknown): SlotType[] => (entries as Array<{ slot: number; type: Link }>).map((e) => [e.slot, idOf(e.type)]);
// in slot order and stat id order, as the rules' quick path for a creature without past entries takes them (contract/as-of/rules.ts)
const slotAbilities = (entries: unknown): SlotAbility[] =>
  (entries as Array<{ slot: number; ability: Link | null; is_hidden: boolean }>)
    .map((e): SlotAbility => [e.slot, e.ability === null ? null : idOf(e.ability), e.is_hidden ? 1 : 0])
    .sort((a, b) => a[0] - b[0]);
const statValues = (entries: unknown): StatValue[] =>
  (entries as Array<{ base_stat: number; effort: number; stat: Link }>)
    .map((e): StatValue => [idOf(e.stat), e.base_stat, e.effort])
    .sort((a, b) => a[0] - b[0]);
/** A move's (or a past entry's) values in MOVE_VALUES order, the type as its id. */
const moveValues = (doc: Doc): MoveValues =>
  MOVE_VALUES.map((field) => {
    const value = doc[field] ?? null;
    return field === 'type' && value !== null ? idOf(value) : (value as number | null);
  }) as MoveValues;
const relationIds = (value: unknown): Relations => {
  const links = value as Record<string, Link[]>;
  return Object.fromEntries(RELATION_KEYS.map((key) => [key, links[key]!.map(idOf)])) as Relations;
};

/** What the build keeps of each record: its kind's facts, for a creature its stats and learnset, for a move its name (each written to a file of its own). */
type KeptOf<K extends FactKind> = K extends 'creature'
  ? FactsOf[K] & CreatureStats & { learnset: number[] }
  : K extends 'move'
    ? FactsOf[K] & { name: string }
    : FactsOf[K];
export type KeptFacts = KeptOf<FactKind>;

/** A bit set of version group ids with `vg` in it; throws when `vg` is beyond what a bit set holds. */
function withBit(groups: number, vg: number, owner: string): number {
  if (vg < 1 || vg > MAX_VERSION_GROUP_BIT) throw new Error(`${owner}: version group ${vg} does not fit a bit set (1 to ${MAX_VERSION_GROUP_BIT})`);
  return inGroups(groups, vg) ? groups : groups + 2 ** (vg - 1);
}

type Form = { id: number; creature_id: number; introduced_in_version_group_id: number };
/** A creature's first form, the item's `forms[0]`: the lowest id. */
const firstForm = <F extends Form>(forms: readonly F[]): F | undefined =>
  forms.reduce<F | undefined>((low, form) => (low === undefined || form.id < low.id ? form : low), undefined);

/** The version group a creature's first form came in. */
export function bornIn(creature: number, ctx: BuildContext): number {
  const first = firstForm(ctx.groupBy('creature-form', 'creature_id').get(creature) ?? []);
  if (!first) throw new Error(`creature ${creature} has no form`);
  return first.introduced_in_version_group_id;
}

/** When each creature came, made once per set of forms (a build's, or an update's). */
const bornByForms = new WeakMap<readonly unknown[], Map<number, number>>();

/**
 * When every creature came (the version group of its lowest-id form), as one read of every form:
 * a move's learners are hundreds of creatures, and a read of each one's forms, recorded for the
 * dev loop's planner, cost seconds in all; a form is edited seldom, and then every move is made again.
 */
function bornOfEvery(ctx: BuildContext): Map<number, number> {
  const forms = ctx.records('creature-form');
  let born = bornByForms.get(forms);
  if (!born) {
    const first = new Map<number, Form>();
    for (const form of forms) {
      const low = first.get(form.creature_id);
      first.set(form.creature_id, low === undefined ? form : firstForm([low, form])!);
    }
    born = new Map([...first].map(([creature, form]) => [creature, form.introduced_in_version_group_id]));
    bornByForms.set(forms, born);
  }
  return born;
}

/** The facts of a creature but its learnset, read off its item (made without moves: creatureAsOfPart). */
const creatureFacts = (doc: Doc, ctx: BuildContext): Omit<KeptOf<'creature'>, 'learnset'> => ({
  name: doc.name as string,
  born: bornIn(doc.id as number, ctx),
  types: slotTypes(doc.types),
  pastTypes: pastByGeneration(doc.past_types, 'types', slotTypes),
  abilities: slotAbilities(doc.abilities),
  pastAbilities: pastByGeneration(doc.past_abilities, 'abilities', slotAbilities),
  stats: statValues(doc.stats),
  pastStats: pastByGeneration(doc.past_stats, 'stats', statValues),
});

/** The kinds whose facts are read off their item document as it is made (a creature's are made in a part of their own: creatureAsOfPart). */
type ItemFactKind = Exclude<FactKind, 'creature'>;

/** Each of those kinds' facts, read off its item document (and the item's context, for what it does not hold). */
const FACTS: { [K in ItemFactKind]: (doc: Doc, ctx: BuildContext) => KeptOf<K> } = {
  'version-group': (doc) => ({
    name: doc.name as string,
    order: doc.order as number,
    generation: generationOf(doc),
    generationName: (doc.generation as Link).name,
    versions: (doc.versions as Link[]).map((v) => v.name),
  }),
  move: (doc) => ({
    name: doc.name as string,
    generation: generationOf(doc),
    values: moveValues(doc),
    past: (doc.past_values as Doc[]).map((p): [number, MoveValues] => [idOf(p.version_group), moveValues(p)]),
  }),
  type: (doc) => ({
    name: doc.name as string,
    generation: generationOf(doc),
    relations: relationIds(doc.damage_relations),
    pastRelations: pastByGeneration(doc.past_damage_relations, 'damage_relations', relationIds),
  }),
  ability: (doc) => ({ name: doc.name as string, generation: generationOf(doc) }),
  stat: (doc) => ({ name: doc.name as string }),
  entry: (doc, ctx) => {
    const from = (doc.evolution as { from: { evolution_details: Array<{ trigger: Link }> } | null }).from;
    const triggers = new Map((from?.evolution_details ?? []).map((d): [number, string] => [idOf(d.trigger), d.trigger.name]));
    return { above: generationsAbove(doc, ctx), triggers: [...triggers] };
  },
};

/** The generation of each species above the entry's own in its chain, the first species first. */
const generationsAbove = (doc: Doc, ctx: BuildContext): number[] =>
  speciesAbove(ctx, ctx.get('creature-species', ctx.get('creature', doc.id as number).species_id)).map((species) => species.generation_id);

/** Whether the as-of rules read facts of `kind`. */
export const hasAsOfFacts = (kind: string): kind is FactKind => (AS_OF_FACT_KINDS as readonly string[]).includes(kind);
/** Whether an item of `kind` has an as-of document. */
export const hasAsOfDocument = (kind: string): kind is DocumentKind => (AS_OF_DOCUMENT_KINDS as readonly string[]).includes(kind);

/** Whether a kind's as-of facts and document are made from its record in a part of their own (builder/emit-kinds.ts AS_OF_PART), not read off its item. */
export const hasAsOfPart = (kind: string): kind is 'creature' => kind === 'creature';

/** A record's as-of facts read off its item, for the kinds the rules read but a creature (creatureAsOfPart); null for any other kind. */
export function asOfFacts(kind: string, doc: Doc, ctx: BuildContext): KeptFacts | null {
  return hasAsOfFacts(kind) && !hasAsOfPart(kind) ? FACTS[kind](doc, ctx) : null;
}

/** A kind's facts files from its records' facts in id order: its own, for creatures the stats and learnsets, for moves their names. */
export function asOfFactsBodies(kind: FactKind, records: Array<[number, KeptFacts]>): Array<[path: string, body: string]> {
  if (kind === 'creature') return creatureFactsBodies(records as Array<[number, KeptOf<'creature'>]>);
  if (kind === 'move') return moveFactsBodies(records as Array<[number, KeptOf<'move'>]>);
  return [[asOfFactsFile(kind), JSON.stringify({ kind, records } satisfies FactsFile<FactKind>)]];
}

/** A move's facts go to two files: its own, and its name (which a rename alone changes, and no list as of the game reads). */
function moveFactsBodies(moves: Array<[number, KeptOf<'move'>]>): Array<[path: string, body: string]> {
  const own: FactsFile<'move'> = { kind: 'move', records: moves.map(([id, { name: _n, ...facts }]) => [id, facts]) };
  const names: MoveNamesFile = { records: moves.map(([id, facts]) => [id, facts.name]) };
  return [
    [asOfFactsFile('move'), JSON.stringify(own)],
    [asOfMoveNamesFile, JSON.stringify(names)],
  ];
}

/** A creature's facts go to three files: its own, its stats and its learnset. */
function creatureFactsBodies(creatures: Array<[number, KeptOf<'creature'>]>): Array<[path: string, body: string]> {
  const own: FactsFile<'creature'> = { kind: 'creature', records: creatures.map(([id, { learnset: _l, stats: _s, pastStats: _p, ...facts }]) => [id, facts]) };
  const stats: StatsFile = { records: creatures.map(([id, facts]) => [id, { stats: facts.stats, pastStats: facts.pastStats }]) };
  const learnsets: LearnsetFile = { records: creatures.map(([id, facts]) => [id, facts.learnset]) };
  return [
    [asOfFactsFile('creature'), JSON.stringify(own)],
    [asOfStatsFile, JSON.stringify(stats)],
    [asOfLearnsetFile, JSON.stringify(learnsets)],
  ];
}

/** The facts a served build wrote for a kind (a creature's with its stats and learnset, a move's with its name), by id. */
export function readAsOfFacts(dir: string, kind: FactKind): Map<number, KeptFacts> {
  if (kind === 'move') return readMoveFacts(dir);
  const own = new Map(readServed<FactsFile<Exclude<FactKind, 'move'>>>(dir, asOfFactsFile(kind)).records);
  if (kind !== 'creature') return own;
  const stats = new Map(readServed<StatsFile>(dir, asOfStatsFile).records);
  const learnsets = new Map(readServed<LearnsetFile>(dir, asOfLearnsetFile).records);
  const kept = (id: number, facts: FactsOf['creature']): KeptOf<'creature'> => ({
    ...facts,
    ...(stats.get(id) ?? { stats: [], pastStats: [] }),
    learnset: learnsets.get(id) ?? [],
  });
  return new Map([...own].map(([id, facts]) => [id, kept(id, facts as FactsOf['creature'])]));
}

function readMoveFacts(dir: string): Map<number, KeptOf<'move'>> {
  const names = new Map(readServed<MoveNamesFile>(dir, asOfMoveNamesFile).records);
  return new Map(
    readServed<FactsFile<'move'>>(dir, asOfFactsFile('move')).records.map(([id, facts]) => {
      const name = names.get(id);
      if (name === undefined) throw new BuildError([`${join(dir, asOfMoveNamesFile)} has no name for move ${id}; run a full build (npm run build -- --force)`]);
      return [id, { ...facts, name }];
    }),
  );
}

function readServed<T>(dir: string, file: string): T {
  const path = join(dir, file);
  const read = readJsonIfThere<T>(path, (error) => {
    throw new BuildError([`${path} cannot be parsed (${error.message}); run a full build (npm run build -- --force)`], { cause: error });
  });
  if (read === null) throw new BuildError([`${dir} has no ${file}; run a full build (npm run build -- --force)`]);
  return read;
}

/** A creature's as-of facts and document (creatureAsOfPart). */
export interface CreatureAsOfPart {
  facts: KeptOf<'creature'>;
  document: CreatureAsOfDocument;
}

/**
 * A creature's as-of facts and document, made from its record: its item made without moves
 * (`emitItem`), and its moves by id from its move rows. A part of their own (builder/emit-kinds.ts
 * AS_OF_PART), so that what the ledger records of them reads no move: a move renamed makes the
 * item of every creature that learns it again (its `moves` name it), and leaves these be.
 */
export function creatureAsOfPart(record: RecordOf<'creature'>, emitItem: (record: RecordOf<'creature'>) => Doc, ctx: BuildContext): CreatureAsOfPart {
  const item = emitItem({ ...record, moves: [] });
  const methods: Record<string, string> = {};
  const moves: CreatureAsOfDocument['moves'] = [];
  const learnset: number[] = [];
  for (const [move, rows] of movesByMove(record)) {
    const details: number[] = [];
    let groups = 0;
    for (const row of rows) {
      // a name written for more than a link: read from the record (a link's name is read as the link only: context.ts `Read`)
      methods[String(row.creature_move_method_id)] ??= ctx.get('move-learn-method', row.creature_move_method_id).name;
      details.push(row.version_group_id, row.level, row.creature_move_method_id, row.order ?? -1);
      groups = withBit(groups, row.version_group_id, `creature ${record.id}`);
    }
    moves.push([move, ...details]);
    learnset.push(move, groups);
  }
  const facts = { ...creatureFacts(item, ctx), learnset };
  return { facts, document: { item, moves, methods, born: facts.born } };
}

/** The move's as-of document: each learner's version groups (from the learnsets the item's list is made from). */
function moveDocument(doc: Doc, ctx: BuildContext): MoveAsOfDocument {
  const groups = new Map<number, number>();
  for (const { owner, row } of ctx.childrenBy('creature', 'moves', 'move_id').get(doc.id as number) ?? []) {
    groups.set(owner.id, withBit(groups.get(owner.id) ?? 0, row.version_group_id, `move ${String(doc.id)}`));
  }
  const born = bornOfEvery(ctx);
  const learners = (doc.learned_by_creature as Link[]).map((l): [number, number, number] => {
    const when = born.get(idOf(l));
    if (when === undefined) throw new Error(`move ${String(doc.id)}: creature ${idOf(l)} has no form`);
    return [idOf(l), groups.get(idOf(l)) ?? 0, when];
  });
  return { learners };
}

/** The entry's as-of document: when its creature, forms, varieties and the species of its chain came, and its creature's past values. */
function entryDocument(doc: Doc, ctx: BuildContext): EntryAsOfDocument {
  const id = doc.id as number;
  const creature = ctx.get('creature', id);
  const generationOf = (species: unknown) => ctx.get('creature-species', idOf(species)).generation_id;
  return {
    born: bornIn(id, ctx),
    past: creaturePast(ctx, creature),
    forms: (doc.forms as Link[]).map((form) => ctx.get('creature-form', idOf(form)).introduced_in_version_group_id),
    varieties: (doc.varieties as Array<{ creature: Link }>).map((variety) => bornIn(idOf(variety.creature), ctx)),
    above: generationsAbove(doc, ctx),
    below: (doc.evolution as { to: Array<{ species: Link }> }).to.map((step) => generationOf(step.species)),
  };
}

/** A move's or an entry's as-of document, made with its item; null for other kinds (a creature's: creatureAsOfPart). */
export function asOfDocument(kind: string, doc: Doc, ctx: BuildContext): AsOfDocumentOf[DocumentKind] | null {
  if (kind === 'move') return moveDocument(doc, ctx);
  return kind === 'entry' ? entryDocument(doc, ctx) : null;
}
