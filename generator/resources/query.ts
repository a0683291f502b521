/**
 * What a kind's collection can be asked, declared beside its resource's `emit`: its
 * value filters (`type=fire,water`), integer ranges (`speed=100..`), the fields its list entries
 * may carry (`fields=types`) and the translated names `q` and `/v2/search/` match. Each
 * declaration reads a record's facts off the item as it was just emitted (the record and the
 * same context at hand for what the item does not say, such as a creature's species), so a
 * fact is never made twice nor differently from the document. The shared shapes below keep
 * each resource's declaration to one line per filter.
 */
import type { NamedResource } from '../../schemas/output/common.ts';
import type { BuildContext } from './context.ts';
import type { KindName, RecordOf } from '../model/kinds.ts';

/** What a record's facts are read from: the item as emitted, the record, and the item's own context. */
export interface FactSource<K extends KindName, I> {
  item: I;
  record: RecordOf<K>;
  /** a view of the item's context that tells a link's name read (`forFacts`): facts code may read it for more than the link */
  ctx: BuildContext;
}

/** A value a value filter holds: a linked resource (by its name and the id in its URL), or yes/no. */
export type FilterValue = NamedResource | boolean;

export interface ValueFilterDecl<K extends KindName, I> {
  /** the parameter's name: the item's field, with underscores (`egg_group`, `is_legendary`) */
  name: string;
  /** what a value names, for people (`a type`, `yes or no`) */
  about: string;
  /** the kind every value links to; null for a yes/no filter */
  target: KindName | null;
  /** the kind whose filter of this name it is, position for position (`QueryFilter.from`); its values are read there, none here */
  from?: KindName;
  values(source: FactSource<K, I>): readonly FilterValue[];
}

export interface RangeDecl<K extends KindName, I> {
  name: string;
  about: string;
  /** the item's number, or null when it has none (it then matches no range) */
  value(source: FactSource<K, I>): number | null;
}

/** A name `q` and the search match besides the resource's own, with the language it is in. */
export interface TranslatedName {
  language: string;
  name: string;
}

/** An item's keys that every item has (not optional). */
type RequiredKeys<T> = { [P in keyof T]-?: object extends Pick<T, P> ? never : P }[keyof T] & string;

/**
 * A dotted path every item of type `I` has, through objects only: a key the schema requires,
 * or such a key's path below it when its value is always an object (never null, never a list).
 * So `fields: ['sprites.front_defualt']` or a path through a nullable part fails the type
 * check, not a build. Depth is bounded, as no declared path is longer.
 */
export type FieldPath<I, Depth extends readonly unknown[] = []> = Depth['length'] extends 5
  ? never
  : I extends readonly unknown[]
    ? never
    : I extends object
      ? {
          [P in RequiredKeys<I>]: P | (I[P] extends readonly unknown[] ? never : I[P] extends object ? `${P}.${FieldPath<I[P], [...Depth, unknown]>}` : never);
        }[RequiredKeys<I>]
      : never;

export interface QueryDecl<K extends KindName, I> {
  filters: readonly ValueFilterDecl<K, I>[];
  ranges?: readonly RangeDecl<K, I>[];
  /**
   * Dotted paths `fields=` accepts, in the item's own key order (the build checks that nesting
   * their values in this order gives exactly the item's parts). Typed from the item's schema:
   * every item has each of them.
   */
  fields: readonly FieldPath<I>[];
  /**
   * One step through a link: a declared field that links one resource of another
   * kind, and that kind. `fields=` then takes, below the field, any field the other kind's
   * entries take (`links: { species: 'creature-species' }` allows `species.names`,
   * `species.generation`); the entry nests it as `{"species": {"names": […]}}`.
   */
  links?: Readonly<Partial<Record<FieldPath<I>, KindName>>>;
  /** the translated names searched besides the own name; default: the item's `names` (`translatedNames`) */
  names?(source: FactSource<K, I>): readonly TranslatedName[];
}

/** Any kind's declaration, as the build reads it (its field paths were checked where it was declared). */
export type AnyQueryDecl = Omit<QueryDecl<KindName, unknown>, 'fields'> & { fields: readonly string[] };

/**
 * The shared shapes, typed for one kind's item: a resource declares its queries as
 * `query: (q) => ({ filters: [q.link('type', 'type', 'a type', (m) => m.type)], … })`, where `m`
 * is the kind's item as its schema says.
 */
export interface QueryShapes<K extends KindName, I> {
  link(name: string, target: KindName, about: string, pick: (item: I, source: FactSource<K, I>) => Maybe<NamedResource>): ValueFilterDecl<K, I>;
  links(name: string, target: KindName, about: string, pick: (item: I, source: FactSource<K, I>) => readonly Maybe<NamedResource>[]): ValueFilterDecl<K, I>;
  yesNo(name: string, pick: (item: I, source: FactSource<K, I>) => boolean): ValueFilterDecl<K, I>;
  /** The filter `name` of the kind `from`, whose list is this kind's position for position (`QueryFilter.from`). */
  borrowed(name: string, target: KindName, about: string, from: KindName): ValueFilterDecl<K, I>;
  range(name: string, about: string, pick: (item: I, source: FactSource<K, I>) => number | null): RangeDecl<K, I>;
  /** A range on an integer field of the item, named as the field (`height`). */
  integer(name: IntegerKey<I>, about: string): RangeDecl<K, I>;
}

/** The item's keys whose value is an integer or null. */
export type IntegerKey<I> = { [P in keyof I]-?: I[P] extends number | null ? P : never }[keyof I] & string;

export const queryShapes = { link, links, yesNo, borrowed, range, integer };

type Maybe<T> = T | null | undefined;

/** A filter on a link field of the item (`type`), or on a link the context gives (`ctx`, `record`). */
export function link<K extends KindName, I>(
  name: string,
  target: KindName,
  about: string,
  pick: (item: I, source: FactSource<K, I>) => Maybe<NamedResource>,
): ValueFilterDecl<K, I> {
  return { name, about, target, values: (source) => present([pick(source.item, source)]) };
}

/** A filter on a list of links (`egg_group` from `egg_groups`): an item holds each of them. */
export function links<K extends KindName, I>(
  name: string,
  target: KindName,
  about: string,
  pick: (item: I, source: FactSource<K, I>) => readonly Maybe<NamedResource>[],
): ValueFilterDecl<K, I> {
  return { name, about, target, values: (source) => present(pick(source.item, source)) };
}

/** A filter read from another kind's index (`QueryFilter.from`): no record holds a value of it here. */
export function borrowed<K extends KindName, I>(name: string, target: KindName, about: string, from: KindName): ValueFilterDecl<K, I> {
  return { name, about, target, from, values: () => [] };
}

/** A yes/no filter: `true`/`false` (or `1`/`0`). */
export function yesNo<K extends KindName, I>(name: string, pick: (item: I, source: FactSource<K, I>) => boolean): ValueFilterDecl<K, I> {
  return { name, about: 'yes or no', target: null, values: (source) => [pick(source.item, source)] };
}

/** A range on an integer of the item. */
export function range<K extends KindName, I>(name: string, about: string, pick: (item: I, source: FactSource<K, I>) => number | null): RangeDecl<K, I> {
  return { name, about, value: (source) => pick(source.item, source) };
}

/** A range on the item's own integer field of that name. */
export function integer<K extends KindName, I>(name: string, about: string): RangeDecl<K, I> {
  return { name, about, value: ({ item }) => (item as Record<string, number | null>)[name] ?? null };
}

const present = (values: readonly Maybe<NamedResource>[]): NamedResource[] => values.filter((v): v is NamedResource => v !== null && v !== undefined);

/** A `names` list as items carry it: each translation with its language's link. */
export type NameEntries = ReadonlyArray<{ name: string; language: NamedResource }>;

/** Translations as the search takes them. */
export const asTranslated = (names: NameEntries): TranslatedName[] => names.map((n) => ({ language: n.language.name, name: n.name }));

/**
 * The default search source: the item's own `names`, when it carries them (most kinds); none
 * for an item without (a berry, a gender), which is then found by its own name only.
 */
export function translatedNames(item: unknown): TranslatedName[] {
  if (typeof item !== 'object' || item === null || !('names' in item) || !Array.isArray(item.names)) return [];
  return asTranslated(item.names as NameEntries);
}
