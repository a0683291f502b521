/**
 * What the build keeps for answers "as of a game" (edge/as-of/facts.ts says the shapes and the
 * files): each record's facts, and the as-of document of a creature or a move, read off its item
 * document while it is in hand (builder/emit-kinds.ts), like the query and coverage facts.
 */
import {
  AS_OF_DOCUMENT_KINDS, AS_OF_FACT_KINDS, MAX_VERSION_GROUP_BIT, inGroups, MOVE_VALUES, RELATION_KEYS, asOfFactsFile, asOfLearnsetFile, asOfMoveNamesFile, asOfStatsFile, type CreatureStats, type LearnsetFile, type MoveNamesFile, type StatsFile,
  type AsOfDocumentOf, type MoveValues, type StatValue, type CreatureAsOfDocument, type DocumentKind, type FactKind, type FactsFile, type FactsOf, type MoveAsOfDocument, type Past, type Relations, type SlotAbility, type SlotType,
} from '../../edge/as-of/facts.ts';
import { idOfUrl } from '../../edge/layout.ts';
import { join } from 'node:path';
import type { BuildContext } from '../resources/context.ts';
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
// in slot order and stat id order, as the rules' quick path for a creature without past entries takes them (edge/as-of/rules.ts)
const slotAbilities = (entries: unknown): SlotAbility[] =>
  (entries as Array<{ slot: number; ability: Link | null; is_hidden: boolean }>).map((e): SlotAbility => [e.slot, e.ability === null ? null : idOf(e.ability), e.is_hidden ? 1 : 0]).sort((a, b) => a[0] - b[0]);
const statValues = (entries: unknown): StatValue[] =>
  (entries as Array<{ base_stat: number; effort: number; stat: Link }>).map((e): StatValue => [idOf(e.stat), e.base_stat, e.effort]).sort((a, b) => a[0] - b[0]);
/** A move's (or a past entry's) values in MOVE_VALUES order, the type as its id. */
const moveValues = (doc: Doc): MoveValues => MOVE_VALUES.map((field) => {
  const value = doc[field] ?? null;
  return field === 'type' && value !== null ? idOf(value) : (value as number | null);
}) as MoveValues;
const relationIds = (value: unknown): Relations => {
  const links = value as Record<string, Link[]>;
  return Object.fromEntries(RELATION_KEYS.map((key) => [key, links[key]!.map(idOf)])) as Relations;
};

/** What the build keeps of each record: its kind's facts, and for a creature its learnset (written to a file of its own). */
type KeptOf<K extends FactKind> = K extends 'creature' ? FactsOf[K] & CreatureStats & { learnset: number[] } : FactsOf[K];
export type KeptFacts = KeptOf<FactKind>;

/** A creature's moves with the version groups of each, as flat pairs (LearnsetFile). */
function learnset(doc: Doc): number[] {
  const out: number[] = [];
  for (const { move, version_group_details } of doc.moves as Array<{ move: Link; version_group_details: Array<{ version_group: Link }> }>) {
    let groups = 0;
    for (const detail of version_group_details) groups = withBit(groups, idOf(detail.version_group), `creature ${String(doc.id)}`);
    out.push(idOf(move), groups);
  }
  return out;
}

/** A bit set of version group ids with `vg` in it; throws when `vg` is beyond what a bit set holds. */
function withBit(groups: number, vg: number, owner: string): number {
  if (vg < 1 || vg > MAX_VERSION_GROUP_BIT) throw new Error(`${owner}: version group ${vg} does not fit a bit set (1 to ${MAX_VERSION_GROUP_BIT})`);
  return inGroups(groups, vg) ? groups : groups + 2 ** (vg - 1);
}

type Form = { id: number; creature_id: number; introduced_in_version_group_id: number };
/** A creature's first form, the item's `forms[0]`: the lowest id. */
const firstForm = <F extends Form>(forms: readonly F[]): F | undefined => forms.reduce<F | undefined>((low, form) => (low === undefined || form.id < low.id ? form : low), undefined);

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

/** Each fact kind's facts, read off its item document (and, for when a creature came, its first form's record). */
const FACTS: { [K in FactKind]: (doc: Doc, ctx: BuildContext) => KeptOf<K> } = {
  'version-group': (doc) => ({
    name: doc.name as string,
    order: doc.order as number,
    generation: generationOf(doc),
    generationName: (doc.generation as Link).name,
    versions: (doc.versions as Link[]).map((v) => v.name),
  }),
  creature: (doc, ctx) => ({
    name: doc.name as string,
    born: bornIn(doc.id as number, ctx),
    types: slotTypes(doc.types),
    pastTypes: pastByGeneration(doc.past_types, 'types', slotTypes),
    abilities: slotAbilities(doc.abilities),
    pastAbilities: pastByGeneration(doc.past_abilities, 'abilities', slotAbilities),
    stats: statValues(doc.stats),
    pastStats: pastByGeneration(doc.past_stats, 'stats', statValues),
    learnset: learnset(doc),
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
};

/** Whether the as-of rules read facts of `kind`. */
export const hasAsOfFacts = (kind: string): kind is FactKind => (AS_OF_FACT_KINDS as readonly string[]).includes(kind);
/** Whether an item of `kind` has an as-of document. */
export const hasAsOfDocument = (kind: string): kind is DocumentKind => (AS_OF_DOCUMENT_KINDS as readonly string[]).includes(kind);

/** A record's as-of facts, for the kinds the rules read; null for any other kind. */
export function asOfFacts(kind: string, doc: Doc, ctx: BuildContext): KeptFacts | null {
  return hasAsOfFacts(kind) ? FACTS[kind](doc, ctx) : null;
}

/** A kind's facts files from its records' facts in id order: its own, for creatures the stats and learnsets, for moves their names. */
export function asOfFactsBodies(kind: FactKind, records: Array<[number, KeptFacts]>): Array<[path: string, body: string]> {
  if (kind === 'creature') return creatureFactsBodies(records as Array<[number, KeptOf<'creature'>]>);
  const own: [string, string] = [asOfFactsFile(kind), JSON.stringify({ kind, records } satisfies FactsFile<FactKind>)];
  if (kind !== 'move') return [own];
  const names: MoveNamesFile = { records: (records as Array<[number, FactsOf['move']]>).map(([id, facts]) => [id, facts.name]) };
  return [own, [asOfMoveNamesFile, JSON.stringify(names)]];
}

/** A creature's facts go to three files: its own, its stats and its learnset. */
function creatureFactsBodies(creatures: Array<[number, KeptOf<'creature'>]>): Array<[path: string, body: string]> {
  const own: FactsFile<'creature'> = { kind: 'creature', records: creatures.map(([id, { learnset: _l, stats: _s, pastStats: _p, ...facts }]) => [id, facts]) };
  const stats: StatsFile = { records: creatures.map(([id, facts]) => [id, { stats: facts.stats, pastStats: facts.pastStats }]) };
  const learnsets: LearnsetFile = { records: creatures.map(([id, facts]) => [id, facts.learnset]) };
  return [[asOfFactsFile('creature'), JSON.stringify(own)], [asOfStatsFile, JSON.stringify(stats)], [asOfLearnsetFile, JSON.stringify(learnsets)]];
}


/** The facts a served build wrote for a kind (a creature's with its learnset), by id. */
export function readAsOfFacts(dir: string, kind: FactKind): Map<number, KeptFacts> {
  const own = new Map(readServed<FactsFile<FactKind>>(dir, asOfFactsFile(kind)).records);
  if (kind !== 'creature') return own;
  const stats = new Map(readServed<StatsFile>(dir, asOfStatsFile).records);
  const learnsets = new Map(readServed<LearnsetFile>(dir, asOfLearnsetFile).records);
  const kept = (id: number, facts: FactsOf['creature']): KeptOf<'creature'> => ({ ...facts, ...(stats.get(id) ?? { stats: [], pastStats: [] }), learnset: learnsets.get(id) ?? [] });
  return new Map([...own].map(([id, facts]) => [id, kept(id, facts as FactsOf['creature'])]));
}

function readServed<T>(dir: string, file: string): T {
  const path = join(dir, file);
  const read = readJsonIfThere<T>(path, (error) => {
    throw new BuildError([`${path} cannot be parsed (${error.message}); run a full build (npm run build -- --force)`]);
  });
  if (read === null) throw new BuildError([`${dir} has no ${file}; run a full build (npm run build -- --force)`]);
  return read;
}

/** The creature's as-of document: its item without moves, and its moves compact (facts.ts). */
function creatureDocument(doc: Doc, ctx: BuildContext): CreatureAsOfDocument {
  const methods: Record<string, string> = {};
  type Detail = { level_learned_at: number; move_learn_method: Link; order: number | null; version_group: Link };
  const moves = (doc.moves as Array<{ move: Link; version_group_details: Detail[] }>).map(({ move, version_group_details }): [number, ...number[]] => {
    const details: number[] = [];
    for (const d of version_group_details) {
      const method = idOf(d.move_learn_method);
      methods[String(method)] = d.move_learn_method.name;
      details.push(idOf(d.version_group), d.level_learned_at, method, d.order ?? -1);
    }
    return [idOf(move), ...details];
  });
  return { item: { ...doc, moves: [] }, moves, methods, born: bornIn(doc.id as number, ctx) };
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

/** A creature's or a move's as-of document, made with its item; null for other kinds. */
export function asOfDocument(kind: string, doc: Doc, ctx: BuildContext): AsOfDocumentOf[DocumentKind] | null {
  if (kind === 'creature') return creatureDocument(doc, ctx);
  if (kind === 'move') return moveDocument(doc, ctx);
  return null;
}
