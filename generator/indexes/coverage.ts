/**
 * The coverage map: for the kinds whose gaps users meet most, per generation, the
 * share of items whose each top-level field is null, empty or missing, and whose names and
 * flavor texts lack a language. Pure: made from the item documents as the build wrote them
 * (the writer reads them back, coverageFile), so a dev update's map is a full build's.
 *
 * An item's generation:
 *   - creature-species, move, ability: their own `generation`;
 *   - creature: its species' (`species` → the species' `generation`), so forms and regional
 *     varieties count with the species they belong to;
 *   - item: the earliest generation of its `game_indices`; an item with none (many items exist
 *     only in later games' data without an index) counts under the unknown generation (null).
 */
import type { AsOfDisagreement, CoverageMap, GenerationCoverage, KindCoverage } from '../../schemas/output/coverage.ts';

export type Doc = { [key: string]: unknown };

/** The kinds the map covers, in the order it lists them, with how each finds its generation. */
export const COVERAGE_KINDS = [
  { kind: 'creature', rule: 'its species’ generation' },
  { kind: 'creature-species', rule: 'its own `generation`' },
  { kind: 'move', rule: 'its own `generation`' },
  { kind: 'ability', rule: 'its own `generation`' },
  { kind: 'item', rule: 'the earliest generation of its `game_indices`; none (null) when it has no game index' },
] as const;

export const ENGLISH = 'en';
/** How many languages besides English the map counts. */
const OTHER_LANGUAGES = 5;
const TEXT_FIELDS = ['names', 'flavor_text_entries'] as const;

type Generation = { name: string; id: number } | null;
type NamedRef = { name?: unknown; url?: unknown };

/**
 * What the map reads of one item, made while its document is in hand (emitRecord) and kept
 * beside the build (coverage-facts.ts) for the records an update does not make again.
 */
export interface CoverageFacts {
  name: string | null;
  /** its own generation (for a creature: null, its species' counts) */
  generation: Generation;
  /** a creature's species name */
  species: string | null;
  /** its top-level fields but `id`, in the document's order */
  fields: string[];
  /** those of them null or empty */
  lacking: string[];
  /** the languages of each text field (`names`, `flavor_text_entries`) it has */
  languages: Record<string, string[]>;
}

const generationOf = (ref: unknown): Generation => {
  const { name, url } = (ref ?? {}) as NamedRef;
  const id = typeof url === 'string' ? /\/generation\/(\d+)\/?$/.exec(url)?.[1] : undefined;
  return typeof name === 'string' && id !== undefined ? { name, id: Number(id) } : null;
};

/** Whether a value counts as lacking: null, `[]`, `""`, `{}` (missing is `undefined`). */
export const isEmpty = (value: unknown): boolean =>
  value === undefined ||
  value === null ||
  value === '' ||
  (Array.isArray(value) ? value.length === 0 : typeof value === 'object' && Object.keys(value).length === 0);

/** The languages a text field (`names`, `flavor_text_entries`) has an entry in, in first-seen order. */
function languagesOf(value: unknown): string[] {
  const found = new Set<string>();
  if (!Array.isArray(value)) return [];
  for (const entry of value as Array<{ language?: NamedRef } | null>) if (typeof entry?.language?.name === 'string') found.add(entry.language.name);
  return [...found];
}

/** An item's own generation, by its kind's rule (a creature's comes from its species, later). */
function ownGeneration(kind: string, doc: Doc): Generation {
  if (kind === 'creature') return null;
  if (kind !== 'item') return generationOf(doc.generation);
  const indices = Array.isArray(doc.game_indices) ? (doc.game_indices as Array<{ generation?: unknown }>) : [];
  return indices.map((g) => generationOf(g.generation)).reduce<Generation>((min, g) => (g && (!min || g.id < min.id) ? g : min), null);
}

export const isCovered = (kind: string): boolean => COVERAGE_KINDS.some((c) => c.kind === kind);

/** The facts of a covered kind's item; null for the other kinds. */
export function coverageFacts(kind: string, doc: Doc): CoverageFacts | null {
  if (!isCovered(kind)) return null;
  const fields = Object.keys(doc).filter((key) => key !== 'id');
  const species = kind === 'creature' ? (doc.species as NamedRef | undefined)?.name : null;
  return {
    name: typeof doc.name === 'string' ? doc.name : null,
    generation: ownGeneration(kind, doc),
    species: typeof species === 'string' ? species : null,
    fields,
    lacking: fields.filter((f) => isEmpty(doc[f])),
    languages: Object.fromEntries(TEXT_FIELDS.filter((f) => f in doc).map((f) => [f, languagesOf(doc[f])])),
  };
}

/** English first, then the most frequent languages of the items' names and flavor texts (ties by name). */
export function chooseLanguages(factsByKind: ReadonlyMap<string, readonly CoverageFacts[]>): string[] {
  const counts = new Map<string, number>();
  for (const all of factsByKind.values()) {
    for (const facts of all) for (const langs of Object.values(facts.languages)) for (const lang of langs) counts.set(lang, (counts.get(lang) ?? 0) + 1);
  }
  const others = [...counts].filter(([lang]) => lang !== ENGLISH).sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1));
  return [ENGLISH, ...others.slice(0, OTHER_LANGUAGES).map(([lang]) => lang)];
}

/** The map's columns of a kind: its top-level fields but `id` in first-seen order, then the per-language text fields. */
function columnsOf(all: readonly CoverageFacts[], languages: readonly string[]): string[] {
  const fields = new Set<string>();
  for (const facts of all) for (const key of facts.fields) fields.add(key);
  const text = TEXT_FIELDS.filter((f) => fields.has(f)).flatMap((f) => languages.map((lang) => `${f}[${lang}]`));
  return [...fields, ...text];
}

/** Whether an item lacks a column: a plain field, or `names[lang]` style. */
function lacks(facts: CoverageFacts, column: string): boolean {
  const text = /^([a-z_]+)\[(.+)\]$/.exec(column);
  if (text) return !(facts.languages[text[1]!] ?? []).includes(text[2]!);
  return !facts.fields.includes(column) || facts.lacking.includes(column);
}

const share = (gaps: number, count: number) => Math.round((gaps / count) * 10_000) / 10_000;

function generationRow(generation: Generation, all: readonly CoverageFacts[], columns: readonly string[]): GenerationCoverage {
  const cells = columns.map((column) => {
    const gaps = all.reduce((n, facts) => n + (lacks(facts, column) ? 1 : 0), 0);
    return [column, { gaps, share: share(gaps, all.length) }] as const;
  });
  return { generation: generation?.name ?? null, count: all.length, fields: Object.fromEntries(cells) };
}

function kindCoverage(
  kind: string,
  rule: string,
  all: readonly CoverageFacts[],
  languages: readonly string[],
  generationOfItem: (facts: CoverageFacts) => Generation,
): KindCoverage {
  const columns = columnsOf(all, languages);
  const groups = new Map<string, { generation: Generation; items: CoverageFacts[] }>();
  for (const facts of all) {
    const generation = generationOfItem(facts);
    const key = generation ? String(generation.id) : '';
    const group = groups.get(key) ?? { generation, items: [] };
    group.items.push(facts);
    groups.set(key, group);
  }
  const ordered = [...groups.values()].sort((a, b) => (a.generation?.id ?? Infinity) - (b.generation?.id ?? Infinity));
  return { kind, generation_rule: rule, fields: columns, generations: ordered.map((g) => generationRow(g.generation, g.items, columns)) };
}

/** The map, from each covered kind's items' facts in id order (a kind absent from the build is left out), and the as-of disagreements. */
export function coverageMap(factsByKind: ReadonlyMap<string, readonly CoverageFacts[]>, asOf: AsOfDisagreement[] = []): CoverageMap {
  const languages = chooseLanguages(factsByKind);
  const species = new Map((factsByKind.get('creature-species') ?? []).map((facts) => [facts.name, facts.generation]));
  const generationOfItem = (facts: CoverageFacts) => (facts.species !== null ? (species.get(facts.species) ?? null) : facts.generation);
  const kinds = COVERAGE_KINDS.flatMap(({ kind, rule }) => {
    const all = factsByKind.get(kind);
    return all ? [kindCoverage(kind, rule, all, languages, generationOfItem)] : [];
  });
  return { languages, kinds, as_of: asOf };
}

/** A gap of the map: one kind, generation and field. */
export interface Gap {
  kind: string;
  generation: string | null;
  field: string;
  gaps: number;
  count: number;
  /** the items lacking it beyond what the kind's other generations' rate predicts */
  excess: number;
}

/** Each cell as a gap, measured against the same field in the kind's other generations. */
function gapsOf(k: KindCoverage): Gap[] {
  const total = k.generations.reduce((n, g) => n + g.count, 0);
  return k.fields.flatMap((field) => {
    const lacking = k.generations.reduce((n, g) => n + g.fields[field]!.gaps, 0);
    return k.generations.map((g) => {
      const gaps = g.fields[field]!.gaps;
      const others = total - g.count;
      const rate = others > 0 ? (lacking - gaps) / others : 0;
      return { kind: k.kind, generation: g.generation, field, gaps, count: g.count, excess: gaps - g.count * rate };
    });
  });
}

/**
 * Whether a language's gap (`names[fr]`) is just its text field's (`names`): an item without the
 * field has no entry in any language, so equal counts mean the same items.
 */
function subsumed(map: CoverageMap, g: Gap): boolean {
  const text = /^([a-z_]+)\[/.exec(g.field);
  if (!text) return false;
  const row = map.kinds.find((k) => k.kind === g.kind)?.generations.find((r) => r.generation === g.generation);
  return row?.fields[text[1]!]?.gaps === g.gaps;
}

/**
 * The largest gaps: the cells whose generation lacks the field in the most items beyond the
 * kind's rate in its other generations. A field empty everywhere (`past_types`: most
 * creatures never changed type) is the data's shape, not a gap; one a generation lacks where
 * the others have it (English flavor text of the newest moves) is. A language's gap that is
 * only its text field's is that one gap, counted once.
 */
export function largestGaps(map: CoverageMap, count: number): Gap[] {
  const key = (g: Gap) => `${g.kind} ${g.generation ?? ''} ${g.field}`;
  return map.kinds
    .flatMap(gapsOf)
    .filter((g) => g.excess > 0 && !subsumed(map, g))
    .sort((a, b) => b.excess - a.excess || (key(a) < key(b) ? -1 : 1))
    .slice(0, count);
}

/** One line of the build's output for a gap. */
export const gapLine = (g: Gap): string =>
  `coverage: ${g.kind} ${g.generation ?? '(no generation)'} lacks ${g.field} in ${g.gaps} of ${g.count} items (${((g.gaps / g.count) * 100).toFixed(1)}%)`;
