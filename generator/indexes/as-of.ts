/**
 * What the build keeps for answers "as of a game" (edge/as-of/facts.ts says the shapes and the
 * files): each record's facts, and the as-of document of a creature or a move, read off its item
 * document while it is in hand (builder/emit-kinds.ts), like the query and coverage facts.
 */
import {
  AS_OF_DOCUMENT_KINDS, AS_OF_FACT_KINDS, MAX_VERSION_GROUP_BIT, MOVE_VALUES, RELATION_KEYS, asOfFactsFile,
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
const slotAbilities = (entries: unknown): SlotAbility[] =>
  (entries as Array<{ slot: number; ability: Link | null; is_hidden: boolean }>).map((e) => [e.slot, e.ability === null ? null : idOf(e.ability), e.is_hidden ? 1 : 0]);
const statValues = (entries: unknown): StatValue[] => (entries as Array<{ base_stat: number; effort: number; stat: Link }>).map((e) => [idOf(e.stat), e.base_stat, e.effort]);
/** A move's (or a past entry's) values in MOVE_VALUES order, the type as its id. */
const moveValues = (doc: Doc): MoveValues => MOVE_VALUES.map((field) => {
  const value = doc[field] ?? null;
  return field === 'type' && value !== null ? idOf(value) : (value as number | null);
}) as MoveValues;
const relationIds = (value: unknown): Relations => {
  const links = value as Record<string, Link[]>;
  return Object.fromEntries(RELATION_KEYS.map((key) => [key, links[key]!.map(idOf)])) as Relations;
};

/** Each fact kind's facts, read off its item document. */
const FACTS: { [K in FactKind]: (doc: Doc) => FactsOf[K] } = {
  'version-group': (doc) => ({
    name: doc.name as string,
    order: doc.order as number,
    generation: generationOf(doc),
    generationName: (doc.generation as Link).name,
    versions: (doc.versions as Link[]).map((v) => v.name),
  }),
  'creature-form': (doc) => ({ versionGroup: idOf(doc.version_group) }),
  creature: (doc) => ({
    name: doc.name as string,
    form: idOf((doc.forms as Link[])[0]),
    types: slotTypes(doc.types),
    pastTypes: pastByGeneration(doc.past_types, 'types', slotTypes),
    abilities: slotAbilities(doc.abilities),
    pastAbilities: pastByGeneration(doc.past_abilities, 'abilities', slotAbilities),
    stats: statValues(doc.stats),
    pastStats: pastByGeneration(doc.past_stats, 'stats', statValues),
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

const isFactKind = (kind: string): kind is FactKind => (AS_OF_FACT_KINDS as readonly string[]).includes(kind);
const isDocumentKind = (kind: string): kind is DocumentKind => (AS_OF_DOCUMENT_KINDS as readonly string[]).includes(kind);

/** A record's as-of facts, for the kinds the rules read; null for any other kind. */
export function asOfFacts(kind: string, doc: Doc): FactsOf[FactKind] | null {
  return isFactKind(kind) ? FACTS[kind](doc) : null;
}

/** A kind's facts file from its records' facts in id order. */
export function asOfFactsBody<K extends FactKind>(kind: K, records: Array<[number, FactsOf[K]]>): [path: string, body: string] {
  const file: FactsFile<K> = { kind, records };
  return [asOfFactsFile(kind), JSON.stringify(file)];
}

export const hasAsOfFacts = isFactKind;

/** The facts a served build wrote for a kind, by id. */
export function readAsOfFacts(dir: string, kind: FactKind): Map<number, FactsOf[FactKind]> {
  const path = join(dir, asOfFactsFile(kind));
  const file = readJsonIfThere<FactsFile<FactKind>>(path, (error) => {
    throw new BuildError([`${path} cannot be parsed (${error.message}); run a full build (npm run build -- --force)`]);
  });
  if (file === null) throw new BuildError([`${dir} has no as-of facts of ${kind}; run a full build (npm run build -- --force)`]);
  return new Map(file.records);
}
export const hasAsOfDocument = isDocumentKind;

/** The creature's as-of document: its item without moves, and its moves compact (facts.ts). */
function creatureDocument(doc: Doc): CreatureAsOfDocument {
  const methods: Record<string, string> = {};
  type Detail = { level_learned_at: number; move_learn_method: Link; order: number | null; version_group: Link };
  const moves = (doc.moves as Array<{ move: Link; version_group_details: Detail[] }>).map(({ move, version_group_details }): [number, string, ...number[]] => {
    const details: number[] = [];
    for (const d of version_group_details) {
      const method = idOf(d.move_learn_method);
      methods[String(method)] = d.move_learn_method.name;
      details.push(idOf(d.version_group), d.level_learned_at, method, d.order ?? -1);
    }
    return [idOf(move), move.name, ...details];
  });
  return { item: { ...doc, moves: [] }, moves, methods };
}

/** The move's as-of document: each learner's version groups (from the learnsets the item's list is made from). */
function moveDocument(doc: Doc, ctx: BuildContext): MoveAsOfDocument {
  const groups = new Map<number, number>();
  for (const { owner, row } of ctx.childrenBy('creature', 'moves', 'move_id').get(doc.id as number) ?? []) {
    const vg = row.version_group_id;
    if (vg < 1 || vg > MAX_VERSION_GROUP_BIT) throw new Error(`move ${String(doc.id)}: version group ${vg} does not fit a learner's bit set (1 to ${MAX_VERSION_GROUP_BIT})`);
    const had = groups.get(owner.id) ?? 0;
    const bit = 2 ** (vg - 1);
    groups.set(owner.id, Math.floor(had / bit) % 2 === 1 ? had : had + bit);
  }
  const learners = (doc.learned_by_creature as Link[]).map((l): [number, number] => [idOf(l), groups.get(idOf(l)) ?? 0]);
  return { learners };
}

/** A creature's or a move's as-of document, made with its item; null for other kinds. */
export function asOfDocument(kind: string, doc: Doc, ctx: BuildContext): AsOfDocumentOf[DocumentKind] | null {
  if (kind === 'creature') return creatureDocument(doc);
  if (kind === 'move') return moveDocument(doc, ctx);
  return null;
}
