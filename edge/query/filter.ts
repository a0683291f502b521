/**
 * Filtering a collection over its precomputed indexes: which items of a kind's list match every
 * filter asked (`type=fire,water&generation=3&speed=100..`), in list order.
 *
 * The build makes one `FilterIndexFile` per kind and writes it packed (contract/filter-pack.ts: typed
 * columns, a small header to parse). A value filter lists its values, each with
 * the list positions of its members as gaps between sorted positions (`[3, 1, 2]` is positions
 * 3, 4, 6: small numbers, which gzip well). A range filter holds one number per item (null when
 * the item has none, e.g. a move without power; such an item matches no range of that filter).
 * Yes/no filters are value filters with the values `false` (id 0) and `true` (id 1), so
 * `is_legendary=1` works as an id does.
 *
 * Loaded, each value's members become a bitset of the list (one bit per item, 32 per word) the
 * first time a query names it: values within a filter's value are ORed ("any of them"), filters
 * and repeats of one filter ANDed ("all of them"), ranges and `id`/`name` batches applied as bitsets too, and the set bits read
 * out in ascending position, which is list order. For 1,500 items a bitset is 47 words.
 */
import type { ValueCount } from './facets.ts';
import type { PackedFilters, PackedValueFilter } from '../../contract/filter-pack.ts';
import type { IntegerRange, Vocabulary } from '../../contract/query/parse.ts';

/** What a request asks, after params.ts resolved it: keys are positions in a filter's `values`. */
export interface FilterQuery {
  /** each entry is matched (a filter given twice is two entries), any of its keys */
  values?: { filter: string; keys: readonly number[] }[];
  ranges?: { filter: string; range: IntegerRange }[];
  /** only these list positions (an `id=` or `name=` batch resolved against the list) */
  positions?: readonly number[];
}

/** How many value names a 400 body lists before saying how many more there are. */
const ACCEPTS_SHOWN = 20;

/** A set of list positions, one bit each. */
class Bitset {
  readonly words: Uint32Array;
  constructor(size: number) {
    this.words = new Uint32Array((size + 31) >>> 5);
  }

  static ofPositions(size: number, positions: Iterable<number>): Bitset {
    const set = new Bitset(size);
    for (const p of positions) if (p >= 0 && p < size) set.words[p >>> 5]! |= 1 << (p & 31);
    return set;
  }

  has(p: number): boolean {
    return (this.words[p >>> 5]! & (1 << (p & 31))) !== 0;
  }

  /** How many positions are in both sets. */
  countWithin(other: Bitset): number {
    let count = 0;
    for (let i = 0; i < this.words.length; i++) {
      let word = this.words[i]! & other.words[i]!;
      while (word !== 0) {
        word &= word - 1;
        count++;
      }
    }
    return count;
  }
  orWith(other: Bitset): void {
    for (let i = 0; i < this.words.length; i++) this.words[i]! |= other.words[i]!;
  }
  andWith(other: Bitset): void {
    for (let i = 0; i < this.words.length; i++) this.words[i]! &= other.words[i]!;
  }

  /** Set positions, ascending. */
  positions(): number[] {
    const out: number[] = [];
    for (let w = 0; w < this.words.length; w++) {
      let word = this.words[w]!;
      while (word !== 0) {
        const low = word & -word;
        out.push((w << 5) + 31 - Math.clz32(low));
        word ^= low;
      }
    }
    return out;
  }
}

/**
 * One value filter, loaded: its vocabulary, and each value's bitset made when first asked. A
 * token is looked up in the packed names and ids themselves (filter-pack.ts), so a cold start
 * decodes no name it is not asked for.
 */
class ValueFilter implements Vocabulary {
  private readonly members: (Bitset | undefined)[] = [];

  private readonly count: number;
  private readonly packed: PackedValueFilter;
  constructor(count: number, packed: PackedValueFilter) {
    this.count = count;
    this.packed = packed;
  }

  /** What a 400 body says the filter takes; made only for one. */
  get accepts(): string {
    const names = this.packed.names();
    const byId = names.some((_, key) => this.packed.id(key) !== null) ? ' name or id' : '';
    const shown = names.slice(0, ACCEPTS_SHOWN).join(', ');
    const more = names.length > ACCEPTS_SHOWN ? `, … (${names.length} values)` : '';
    return `${this.packed.name}: ${this.packed.about}${byId}, or several separated by commas: ${shown}${more}`;
  }

  /** A decimal token is an id when a value has it (an id written as it prints: `7`, `-1`, not `07`), else a name. */
  lookup(token: string): number | undefined {
    const id = Number(token);
    const byId = Number.isInteger(id) && String(id) === token ? this.packed.keyOfId(id) : undefined;
    return byId ?? this.packed.keyOfName(token);
  }

  /** Each value held by some of `within`, with how many, in the index's order (by id). */
  counts(within: Bitset): ValueCount[] {
    const out: ValueCount[] = [];
    this.packed.names().forEach((name, key) => {
      const count = this.membersOf(key).countWithin(within);
      if (count > 0) out.push({ name, id: this.packed.id(key), count });
    });
    return out;
  }

  /** The items holding any of these values. */
  anyOf(keys: readonly number[]): Bitset {
    const union = new Bitset(this.count);
    for (const key of keys) union.orWith(this.membersOf(key));
    return union;
  }

  private membersOf(key: number): Bitset {
    let set = this.members[key];
    if (set === undefined) {
      set = new Bitset(this.count);
      // a key outside the values (none come from params.ts) holds nothing
      if (key >= 0 && key < this.packed.size) this.packed.addMembers(key, set.words);
      this.members[key] = set;
    }
    return set;
  }
}

/** A kind's filter indexes, loaded from their packed file (filter-pack.ts); `select` answers a query. */
export class FilterIndex {
  readonly kind: string;
  readonly count: number;
  private readonly valueFilters = new Map<string, ValueFilter>();
  private readonly packedValues: Map<string, PackedValueFilter>;

  /** `packed`: the file's columns, views into its bytes (a list as of a game puts some of its own in place: edge/as-of-collection.ts). */
  readonly packed: PackedFilters;
  constructor(packed: PackedFilters) {
    this.packed = packed;
    this.kind = packed.kind;
    this.count = packed.count;
    this.packedValues = new Map(packed.values.map((filter) => [filter.name, filter]));
  }

  get valueFilterNames(): string[] {
    return [...this.packedValues.keys()];
  }
  get rangeFilterNames(): string[] {
    return [...this.packed.ranges.names];
  }

  /** A value filter's vocabulary, for params.ts to resolve names and ids; undefined when the kind has no such filter. */
  vocabulary(filter: string): Vocabulary | undefined {
    return this.valueFilter(filter);
  }

  /** List positions of the items matching every filter of the query, ascending (list order). */
  select(query: FilterQuery): number[] {
    let result: Bitset | null = null;
    for (const { filter, keys } of query.values ?? []) {
      const values = this.valueFilter(filter);
      if (values === undefined) throw new Error(`${this.kind} has no value filter ${filter}`);
      result = intersect(result, values.anyOf(keys));
    }
    if (query.positions !== undefined) result = intersect(result, Bitset.ofPositions(this.count, query.positions));
    for (const { filter, range } of query.ranges ?? []) result = intersect(result, this.inRange(filter, range, result));
    return (result ?? Bitset.ofPositions(this.count, allPositions(this.count))).positions();
  }

  /** How many of these list positions hold each value of a value filter (facets.ts), values held by none left out. */
  valueCounts(filter: string, positions: readonly number[]): ValueCount[] {
    const values = this.valueFilter(filter);
    if (values === undefined) throw new Error(`${this.kind} has no value filter ${filter}`);
    return values.counts(Bitset.ofPositions(this.count, positions));
  }

  private valueFilter(filter: string): ValueFilter | undefined {
    let loaded = this.valueFilters.get(filter);
    const packed = this.packedValues.get(filter);
    if (loaded === undefined && packed !== undefined) {
      loaded = new ValueFilter(this.count, packed);
      this.valueFilters.set(filter, loaded);
    }
    return loaded;
  }

  /** Items whose value lies in the range, looking only at those still in `within`. */
  private inRange(filter: string, range: IntegerRange, within: Bitset | null): Bitset {
    const values = this.rangeColumn(filter);
    const min = range.min ?? -Infinity,
      max = range.max ?? Infinity;
    const set = new Bitset(this.count);
    for (let p = 0; p < this.count; p++) {
      if (within !== null && !within.has(p)) continue;
      const value = values[p]!;
      // NaN (no value) fails both comparisons
      if (value >= min && value <= max) set.words[p >>> 5]! |= 1 << (p & 31);
    }
    return set;
  }

  /** A range's numbers in list order, NaN where an item has none (sort.ts and summary.ts read it; a view into the file: not to be changed). */
  rangeColumn(filter: string): Float64Array {
    const column = this.packed.ranges.get(filter);
    if (column === undefined) throw new Error(`${this.kind} has no range filter ${filter}`);
    return column;
  }
}

/** `a` narrowed to `b` (the first set asked stands for itself); `a` may be changed. */
function intersect(a: Bitset | null, b: Bitset): Bitset {
  if (a === null) return b;
  a.andWith(b);
  return a;
}

function* allPositions(count: number): Generator<number> {
  for (let p = 0; p < count; p++) yield p;
}
