/**
 * A kind's filter index as the build writes it (`v2/_query/filters/{kind}.bin`): a pack
 * (contract/pack.ts) of format `filter-pack/2`, so that a cold start parses a small header and makes
 * typed-array views of the rest, where the JSON form of creature (351 kB) took 18.5 ms to parse
 * in a fresh Deno process.
 *
 * The header holds the kind, its list's count, each value filter (name, about, target, how many
 * values and the UTF-8 length of their names) and the range filters' names. The sections:
 * - `ranges`: each range's column in turn (count numbers): int32 with -2^31 for none when every
 *   number is an integer that fits (every range the data has today), else float64 with NaN;
 * - `ids`: int32, each value's id (-2^31 for none), the filters' values one after the other;
 * - `nameEnds`: int32, where each value's name ends in its filter's names, in UTF-16 units;
 * - `memberBounds`: int32, where each value's members start in `members`, then where the last end;
 * - `memberForms`: int8, how each value's members are written: 0, the gaps between their list
 *   positions (`positionGaps`, below) as unsigned LEB128 varints, a byte each below 128; 1, a bitset of the
 *   list (bit p of byte p/8), when that is shorter: a value most items hold (a move 400
 *   creatures learn) costs count/8 bytes, not two per member;
 * - `members`: int8, those bytes;
 * - `names`: UTF-8, each filter's value names one after the other.
 * Creature's index was 392 kB as filter-pack/1 (gaps in two bytes each, ranges in float64), 199 kB
 * of it the move filter's gaps.
 */
import {
  bytesOf,
  concat,
  cutAt,
  decodePack,
  encodePack,
  validEnds,
  firstAtLeast,
  isCount,
  utf8,
  utf8Bytes,
  type PackFormat,
  type SectionBody,
} from './pack.ts';

/** One value of a value filter: its name, its id (null when the value has none) and its members as position gaps. */
export type FilterValueRow = [name: string, id: number | null, gaps: number[]];

/**
 * A kind's filter index in the build's form (generator/indexes/query-index.ts `filterIndex`): the
 * build writes it packed (filter-pack.ts `encodeFilterPack`), and `unpackFilterIndex` gives it
 * back from a packed file.
 */
export interface FilterIndexFile {
  format: 'filter-index/1';
  kind: string;
  /** items in the kind's list */
  count: number;
  /**
   * value filters by parameter name, with what the parameter is about (`a type`) for 400 bodies.
   * Only values some item holds are listed; `target`, when given, is the kind whose every name
   * and id is a valid value (one no item holds matches nothing: a 200 with count 0, not a 400).
   * Yes/no filters have no target and the values `false` (id 0) and `true` (id 1).
   */
  values: Record<string, { about: string; target?: string; values: FilterValueRow[] }>;
  /** range filters by parameter name: one number or null per item, in list order */
  ranges: Record<string, (number | null)[]>;
}

export const FILTER_PACK_FORMAT = 'filter-pack/2';
const SECTION_NAMES = ['ranges', 'ids', 'nameEnds', 'memberBounds', 'memberForms', 'members', 'names'] as const;
type SectionName = (typeof SECTION_NAMES)[number];
const PACK: PackFormat<SectionName> = { format: FILTER_PACK_FORMAT, label: 'filter pack', sections: SECTION_NAMES };
/** an id of none: ids are int32 above it (upstream ids go below 0: move-ailment `unknown` is -1) */
const NO_ID = -0x80000000;
/** a range's number of none, in an int32 column */
const NO_NUMBER = -0x80000000;
const GAPS = 0;
const BITSET = 1;

/** The header's own fields (contract/pack.ts adds the sections). */
interface PackHeader {
  kind: string;
  count: number;
  values: { name: string; about: string; target?: string; values: number; nameBytes: number }[];
  ranges: string[];
}

/** One value filter, packed: views into the file, names decoded when the filter is first asked. */
export interface PackedValueFilter {
  name: string;
  about: string;
  target?: string;
  /** how many values */
  size: number;
  /** a value's id; null when it has none */
  id(value: number): number | null;
  /** the values' names, in order (decoded and checked on first call) */
  names(): string[];
  /** the value named exactly `name`, found in the names' text without splitting it; undefined for none */
  keyOfName(name: string): number | undefined;
  /** the first value whose id is `id`; undefined for none */
  keyOfId(id: number): number | undefined;
  /** sets the bit of each list position holding the value (32 a word, position p in word p/32) */
  addMembers(value: number, words: Uint32Array): void;
}

/** A kind's range columns: each range's numbers in list order, NaN where an item has none, made when first asked. */
export interface RangeColumns {
  readonly names: readonly string[];
  /** undefined for a name that is no range of the kind */
  get(name: string): Float64Array | undefined;
}

/** A kind's filter index, packed: what `FilterIndex` (edge/query/filter.ts) loads. */
export interface PackedFilters {
  kind: string;
  /** items in the kind's list */
  count: number;
  values: PackedValueFilter[];
  ranges: RangeColumns;
}

/** The packed file's bytes; throws naming the kind, filter and value of a gap or id it cannot hold. */
export function encodeFilterPack(file: FilterIndexFile): Uint8Array {
  const rows = Object.entries(file.values).flatMap(([filter, { values }]) => values.map((row) => checkedRow(file, filter, row)));
  const names = Object.values(file.values).map(({ values }) => utf8Bytes(values.map(([name]) => name).join('')));
  const members = rows.map(([, , gaps]) => memberBytes(gaps, file.count));
  const memberBounds = Int32Array.from([0, ...members.map(({ bytes }) => bytes.length)]);
  for (let i = 1; i < memberBounds.length; i++) memberBounds[i]! += memberBounds[i - 1]!;
  const header: PackHeader = {
    kind: file.kind,
    count: file.count,
    values: Object.entries(file.values).map(([name, { about, target, values }], f) => ({
      name,
      about,
      ...(target === undefined ? {} : { target }),
      values: values.length,
      nameBytes: names[f]!.length,
    })),
    ranges: Object.keys(file.ranges),
  };
  return encodePack(PACK, header, {
    ranges: rangeSection(Object.values(file.ranges).flat()),
    ids: { type: 'int32', bytes: bytesOf(Int32Array.from(rows, ([, id]) => id ?? NO_ID)) },
    nameEnds: { type: 'int32', bytes: bytesOf(Int32Array.from(Object.values(file.values).flatMap(({ values }) => nameEnds(values)))) },
    memberBounds: { type: 'int32', bytes: bytesOf(memberBounds) },
    memberForms: { type: 'int8', bytes: Uint8Array.from(members, ({ form }) => form) },
    members: { type: 'int8', bytes: concat(members.map(({ bytes }) => bytes)) },
    names: { type: 'utf8', bytes: concat(names) },
  });
}

/** The range columns as int32 when every number is an integer above -2^31 that fits, else as float64. */
function rangeSection(numbers: ReadonlyArray<number | null>): SectionBody {
  const fits = numbers.every((n) => n === null || (Number.isInteger(n) && n > NO_NUMBER && n <= 0x7fffffff));
  return fits
    ? { type: 'int32', bytes: bytesOf(Int32Array.from(numbers, (n) => n ?? NO_NUMBER)) }
    : { type: 'float64', bytes: bytesOf(Float64Array.from(numbers, (n) => n ?? NaN)) };
}

/** A value's members, as varint gaps or as a bitset of `count` positions, whichever is shorter. */
function memberBytes(gaps: readonly number[], count: number): { form: number; bytes: Uint8Array } {
  // sized first, then written in place: a kind's values are thousands, the creature's move filter alone hundreds
  let length = 0;
  for (let gap of gaps) for (length++; gap >= 0x80; gap = Math.floor(gap / 0x80)) length++;
  const bitsetBytes = Math.ceil(count / 8);
  if (length <= bitsetBytes) {
    const varints = new Uint8Array(length);
    let at = 0;
    for (let gap of gaps) {
      for (; gap >= 0x80; gap = Math.floor(gap / 0x80)) varints[at++] = (gap % 0x80) | 0x80;
      varints[at++] = gap;
    }
    return { form: GAPS, bytes: varints };
  }
  const bits = new Uint8Array(bitsetBytes);
  let position = -1;
  for (const gap of gaps) {
    position += gap + 1;
    bits[position >>> 3]! |= 1 << (position & 7);
  }
  return { form: BITSET, bytes: bits };
}

/** A row whose id and members the pack holds as they are: ids above -2^31 to 2^31-1, gaps that keep every position below the count. */
function checkedRow(file: FilterIndexFile, filter: string, row: FilterValueRow): FilterValueRow {
  const [name, id, gaps] = row;
  const where = `filter index of ${file.kind}: ${filter}=${name}`;
  if (id !== null && !(Number.isInteger(id) && id > NO_ID && id <= 0x7fffffff)) throw new Error(`${where}: the id ${id} is no int32 above -2^31`);
  let position = -1;
  for (const gap of gaps) {
    position += gap + 1;
    if (!Number.isInteger(gap) || gap < 0 || position >= file.count)
      throw new Error(`${where}: a gap outside 0..${file.count - 1}, or a member past the list's end`);
  }
  return row;
}

/** Where each name ends in the filter's names joined, in UTF-16 units (what `String.slice` counts). */
function nameEnds(values: readonly FilterValueRow[]): number[] {
  let end = 0;
  return values.map(([name]) => (end += name.length));
}

/** The filters of a packed file, as views into its bytes; throws an Error naming what is wrong. */
export function decodeFilterPack(file: Uint8Array): PackedFilters {
  const pack = decodePack(PACK, file);
  if (!isHeader(pack.header)) throw new Error('filter pack: the header lacks kind, count, values or ranges');
  const { kind, count, values, ranges } = pack.header;
  const rows = values.reduce((n, filter) => n + filter.values, 0);
  const memberBounds = checkedBounds(pack.int32('memberBounds', rows + 1));
  const members = pack.section('members', 'int8', memberBounds[rows]!).bytes;
  const memberForms = pack.section('memberForms', 'int8', rows).bytes;
  return {
    kind,
    count,
    values: valueFilters(values, count, {
      ids: pack.int32('ids', rows),
      nameEnds: pack.int32('nameEnds', rows),
      memberBounds,
      memberForms,
      members,
      names: pack.section('names', 'utf8', sum(values, 'nameBytes')).bytes,
    }),
    ranges: rangeColumns(ranges, count, pack.section('ranges', ['int32', 'float64'], null)),
  };
}

/** The range columns of the section, each one made a float64 column (NaN for none) when first asked. */
function rangeColumns(names: readonly string[], count: number, { type, bytes }: { type: string; bytes: Uint8Array }): RangeColumns {
  const width = type === 'int32' ? 4 : 8;
  if (bytes.length !== names.length * count * width)
    throw new Error(`filter pack: section ranges holds ${bytes.length} bytes, not ${names.length * count * width}`);
  const made = new Map<string, Float64Array>();
  return {
    names,
    get(name) {
      const r = names.indexOf(name);
      if (r < 0) return undefined;
      let column = made.get(name);
      if (column === undefined) made.set(name, (column = rangeColumn(type, bytes, r * count, count)));
      return column;
    },
  };
}

function rangeColumn(type: string, bytes: Uint8Array, from: number, count: number): Float64Array {
  if (type === 'float64') return new Float64Array(bytes.buffer, bytes.byteOffset + from * 8, count);
  const stored = new Int32Array(bytes.buffer, bytes.byteOffset + from * 4, count);
  const column = new Float64Array(count);
  for (let p = 0; p < count; p++) column[p] = stored[p] === NO_NUMBER ? NaN : stored[p]!;
  return column;
}

/** Throws unless the bounds start at 0 and never go down. */
function checkedBounds(bounds: Int32Array): Int32Array {
  if (bounds[0] !== 0) throw new Error('filter pack: the member bounds do not start at 0');
  for (let i = 1; i < bounds.length; i++) if (bounds[i]! < bounds[i - 1]!) throw new Error(`filter pack: the member bounds go down at value ${i}`);
  return bounds;
}

interface Columns {
  ids: Int32Array;
  nameEnds: Int32Array;
  memberBounds: Int32Array;
  memberForms: Uint8Array;
  members: Uint8Array;
  names: Uint8Array;
}

/** Each value filter, its columns cut from the file's. */
function valueFilters(filters: PackHeader['values'], count: number, columns: Columns): PackedValueFilter[] {
  let row = 0,
    nameAt = 0;
  return filters.map((filter) => {
    const [first, bytes] = [row, columns.names.subarray(nameAt, nameAt + filter.nameBytes)];
    row += filter.values;
    nameAt += filter.nameBytes;
    const ends = columns.nameEnds.subarray(first, first + filter.values);
    let names: string[] | undefined;
    let text: string | undefined;
    const namesText = () => (text ??= checkedNames(filter.name, utf8.decode(bytes), ends));
    return {
      name: filter.name,
      about: filter.about,
      ...(filter.target === undefined ? {} : { target: filter.target }),
      size: filter.values,
      id: (value) => {
        const id = columns.ids[first + value]!;
        return id === NO_ID ? null : id;
      },
      names: () => (names ??= cutAt(namesText(), ends)!),
      keyOfName: (name) => valueNamed(namesText(), ends, name),
      keyOfId: (id) => {
        const at = columns.ids.subarray(first, first + filter.values).indexOf(id);
        return at < 0 || id === NO_ID ? undefined : at;
      },
      addMembers: (value, words) => {
        const row = first + value;
        const from = columns.memberBounds[row]!,
          to = columns.memberBounds[row + 1]!;
        if (columns.memberForms[row] === BITSET) addBitset(columns.members, from, to, words);
        else addGaps(columns.members, from, to, count, words);
      },
    };
  });
}

/** A bitset's bytes ORed into the words (bit p of byte p/8 is position p). */
function addBitset(bytes: Uint8Array, from: number, to: number, words: Uint32Array): void {
  for (let i = 0; from + i < to && i >>> 2 < words.length; i++) words[i >>> 2]! |= bytes[from + i]! << ((i & 3) * 8);
}

/** Varint gaps read in turn, each position's bit set; a position past the count (none in a sound file) sets nothing. */
function addGaps(bytes: Uint8Array, from: number, to: number, count: number, words: Uint32Array): void {
  let position = -1;
  for (let at = from; at < to;) {
    let gap = 0,
      scale = 1,
      byte: number;
    do {
      byte = bytes[at++]!;
      gap += (byte & 0x7f) * scale;
      scale *= 0x80;
    } while (byte >= 0x80 && at < to);
    position += gap + 1;
    if (position < count) words[position >>> 5]! |= 1 << (position & 31);
  }
}

/**
 * The value whose name is `name` in the names' text (`ends`: where each ends), by the text's own
 * search: a cold start that looks up a few tokens then runs no loop over every name (the move
 * filter has 900), which building a map of them did, 6 ms in a fresh process.
 */
function valueNamed(text: string, ends: Int32Array, name: string): number | undefined {
  if (name.length === 0) return undefined;
  for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
    // the value `at` falls in: the first whose name ends after it
    const value = firstAtLeast(ends.length, (v) => ends[v]! <= at);
    const start = value === 0 ? 0 : ends[value - 1]!;
    if (start === at && ends[value] === at + name.length) return value;
  }
  return undefined;
}

/** The names' text, once its ends are seen to climb to its length; else an Error naming the filter. */
function checkedNames(filter: string, text: string, ends: Int32Array): string {
  if (!validEnds(ends, text.length)) throw new Error(`filter pack: the names of ${filter} do not match their ends`);
  return text;
}

/** The index a packed file holds, in the build's form (what `encodeFilterPack` was given). */
export function unpackFilterIndex(packed: PackedFilters): FilterIndexFile {
  const values: FilterIndexFile['values'] = {};
  for (const filter of packed.values) {
    const names = filter.names();
    const rows = names.map((name, v): FilterValueRow => [name, filter.id(v), gapsOf(filter, v, packed.count)]);
    values[filter.name] = { about: filter.about, ...(filter.target === undefined ? {} : { target: filter.target }), values: rows };
  }
  const ranges: FilterIndexFile['ranges'] = {};
  for (const name of packed.ranges.names) ranges[name] = Array.from(packed.ranges.get(name)!, (v) => (Number.isNaN(v) ? null : v));
  return { format: 'filter-index/1', kind: packed.kind, count: packed.count, values, ranges };
}

/** A value's members as the gaps between their positions. */
function gapsOf(filter: PackedValueFilter, value: number, count: number): number[] {
  const words = new Uint32Array((count + 31) >>> 5);
  filter.addMembers(value, words);
  const gaps: number[] = [];
  let last = -1;
  for (let p = 0; p < count; p++) {
    if ((words[p >>> 5]! & (1 << (p & 31))) === 0) continue;
    gaps.push(p - last - 1);
    last = p;
  }
  return gaps;
}

function isHeader(value: Record<string, unknown>): value is Record<string, unknown> & PackHeader {
  const { kind, count, values, ranges } = value;
  return (
    typeof kind === 'string' &&
    isCount(count) &&
    Array.isArray(values) &&
    values.every(isHeaderFilter) &&
    Array.isArray(ranges) &&
    ranges.every((r) => typeof r === 'string')
  );
}

function isHeaderFilter(value: unknown): value is PackHeader['values'][number] {
  if (typeof value !== 'object' || value === null) return false;
  const f = value as Record<string, unknown>;
  return (
    typeof f.name === 'string' &&
    typeof f.about === 'string' &&
    (f.target === undefined || typeof f.target === 'string') &&
    isCount(f.values) &&
    isCount(f.nameBytes)
  );
}

const sum = (filters: PackHeader['values'], key: 'nameBytes') => filters.reduce((n, f) => n + f[key], 0);

/** The gaps a build writes for sorted positions: the first position, then each difference minus one. */
export function positionGaps(sortedPositions: readonly number[]): number[] {
  return sortedPositions.map((p, i) => (i === 0 ? p : p - sortedPositions[i - 1]! - 1));
}
