/**
 * A kind's filter index as the build writes it (`v2/_query/filters/{kind}.bin`): a pack
 * (pack.ts) of format `filter-pack/1`, so that a cold start parses a small header and makes
 * typed-array views of the rest, where the JSON form of creature (351 kB) took 18.5 ms to parse
 * in a fresh Deno process.
 *
 * The header holds the kind, its list's count, each value filter (name, about, target, how many
 * values and the UTF-8 length of their names) and the range filters' names. The sections:
 * - `ranges`: float64, each range's column in turn (count numbers, NaN for none);
 * - `ids`: int32, each value's id (-2^31 for none), the filters' values one after the other;
 * - `nameEnds`: int32, where each value's name ends in its filter's names, in UTF-16 units;
 * - `gapBounds`: int32, where each value's gaps start in `gaps`, then where the last ones end;
 * - `gaps`: each value's members as position gaps (filter.ts), uint16 when the list has at most
 *   65,536 items, else int32;
 * - `names`: UTF-8, each filter's value names one after the other.
 */
import type { FilterIndexFile, FilterValueRow } from './filter.ts';
import { bytesOf, concat, decodePack, encodePack, isCount, utf8, utf8Bytes, type PackFormat, type SectionType } from './pack.ts';

export const FILTER_PACK_FORMAT = 'filter-pack/1';
const SECTION_NAMES = ['ranges', 'ids', 'nameEnds', 'gapBounds', 'gaps', 'names'] as const;
type SectionName = (typeof SECTION_NAMES)[number];
const PACK: PackFormat<SectionName> = { format: FILTER_PACK_FORMAT, label: 'filter pack', sections: SECTION_NAMES };
/** gaps are below the list's count: two bytes each hold them up to this many items */
const UINT16_ITEMS = 65_536;
/** an id of none: ids are int32 above it (upstream ids go below 0: move-ailment `unknown` is -1) */
const NO_ID = -0x80000000;

/** The header's own fields (pack.ts adds the sections). */
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
  /** a value's members as position gaps */
  gaps(value: number): Uint16Array | Int32Array;
}

/** A kind's filter index, packed: what `FilterIndex` (filter.ts) loads. */
export interface PackedFilters {
  kind: string;
  /** items in the kind's list */
  count: number;
  values: PackedValueFilter[];
  /** each range's numbers in list order, NaN where an item has none */
  ranges: Map<string, Float64Array>;
}

/** The packed file's bytes; throws naming the kind, filter and value of a gap or id it cannot hold. */
export function encodeFilterPack(file: FilterIndexFile): Uint8Array {
  const rows = Object.entries(file.values).flatMap(([filter, { values }]) => values.map((row) => checkedRow(file, filter, row)));
  const names = Object.values(file.values).map(({ values }) => utf8Bytes(values.map(([name]) => name).join('')));
  const gapBounds = Int32Array.from([0, ...rows.map(([, , gaps]) => gaps.length)]);
  for (let i = 1; i < gapBounds.length; i++) gapBounds[i]! += gapBounds[i - 1]!;
  const gaps = rows.flatMap(([, , g]) => g);
  const header: PackHeader = {
    kind: file.kind,
    count: file.count,
    values: Object.entries(file.values).map(([name, { about, target, values }], f) => ({ name, about, ...(target === undefined ? {} : { target }), values: values.length, nameBytes: names[f]!.length })),
    ranges: Object.keys(file.ranges),
  };
  return encodePack(PACK, header, {
    ranges: { type: 'float64', bytes: bytesOf(Float64Array.from(Object.values(file.ranges).flatMap((column) => column.map((v) => v ?? NaN)))) },
    ids: { type: 'int32', bytes: bytesOf(Int32Array.from(rows, ([, id]) => id ?? NO_ID)) },
    nameEnds: { type: 'int32', bytes: bytesOf(Int32Array.from(Object.values(file.values).flatMap(({ values }) => nameEnds(values)))) },
    gapBounds: { type: 'int32', bytes: bytesOf(gapBounds) },
    gaps: file.count <= UINT16_ITEMS ? { type: 'uint16', bytes: bytesOf(Uint16Array.from(gaps)) } : { type: 'int32', bytes: bytesOf(Int32Array.from(gaps)) },
    names: { type: 'utf8', bytes: concat(names) },
  });
}

/** A row whose id and gaps the pack holds as they are: ids above -2^31 to 2^31-1, gaps from 0 to below the count. */
function checkedRow(file: FilterIndexFile, filter: string, row: FilterValueRow): FilterValueRow {
  const [name, id, gaps] = row;
  const where = `filter index of ${file.kind}: ${filter}=${name}`;
  if (id !== null && !(Number.isInteger(id) && id > NO_ID && id <= 0x7fffffff)) throw new Error(`${where}: the id ${id} is no int32 above -2^31`);
  if (!gaps.every((gap) => Number.isInteger(gap) && gap >= 0 && gap < file.count)) throw new Error(`${where}: a gap outside 0..${file.count - 1}`);
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
  const int32 = (name: SectionName, length: number) => {
    const view = pack.section(name, 'int32', length * 4).bytes;
    return new Int32Array(view.buffer, view.byteOffset, length);
  };
  const gapBounds = checkedBounds(int32('gapBounds', rows + 1));
  const gaps = gapColumn(pack.section('gaps', ['uint16', 'int32'], null), gapBounds[rows]!);
  const columns = pack.section('ranges', 'float64', ranges.length * count * 8).bytes;
  const all = new Float64Array(columns.buffer, columns.byteOffset, ranges.length * count);
  return {
    kind,
    count,
    values: valueFilters(values, { ids: int32('ids', rows), nameEnds: int32('nameEnds', rows), gapBounds, gaps, names: pack.section('names', 'utf8', sum(values, 'nameBytes')).bytes }),
    ranges: new Map(ranges.map((name, r) => [name, all.subarray(r * count, (r + 1) * count)])),
  };
}

/** Throws unless the bounds start at 0 and never go down. */
function checkedBounds(bounds: Int32Array): Int32Array {
  if (bounds[0] !== 0) throw new Error('filter pack: the gap bounds do not start at 0');
  for (let i = 1; i < bounds.length; i++) if (bounds[i]! < bounds[i - 1]!) throw new Error(`filter pack: the gap bounds go down at value ${i}`);
  return bounds;
}

function gapColumn({ type, bytes }: { type: SectionType; bytes: Uint8Array }, length: number): Uint16Array | Int32Array {
  const width = type === 'uint16' ? 2 : 4;
  if (bytes.length !== length * width) throw new Error(`filter pack: section gaps holds ${bytes.length} bytes, not ${length * width}`);
  return type === 'uint16' ? new Uint16Array(bytes.buffer, bytes.byteOffset, length) : new Int32Array(bytes.buffer, bytes.byteOffset, length);
}

interface Columns {
  ids: Int32Array;
  nameEnds: Int32Array;
  gapBounds: Int32Array;
  gaps: Uint16Array | Int32Array;
  names: Uint8Array;
}

/** Each value filter, its columns cut from the file's. */
function valueFilters(filters: PackHeader['values'], columns: Columns): PackedValueFilter[] {
  let row = 0, nameAt = 0;
  return filters.map((filter) => {
    const [first, bytes] = [row, columns.names.subarray(nameAt, nameAt + filter.nameBytes)];
    row += filter.values;
    nameAt += filter.nameBytes;
    const ends = columns.nameEnds.subarray(first, first + filter.values);
    let names: string[] | undefined;
    let text: string | undefined;
    const namesText = () => (text ??= checkedNames(filter.name, utf8.decode(bytes), ends));
    return {
      name: filter.name, about: filter.about, ...(filter.target === undefined ? {} : { target: filter.target }), size: filter.values,
      id: (value) => {
        const id = columns.ids[first + value]!;
        return id === NO_ID ? null : id;
      },
      names: () => (names ??= splitNames(namesText(), ends)),
      keyOfName: (name) => valueNamed(namesText(), ends, name),
      keyOfId: (id) => {
        const at = columns.ids.subarray(first, first + filter.values).indexOf(id);
        return at < 0 || id === NO_ID ? undefined : at;
      },
      gaps: (value) => columns.gaps.subarray(columns.gapBounds[first + value]!, columns.gapBounds[first + value + 1]!),
    };
  });
}

/**
 * The value whose name is `name` in the names' text (`ends`: where each ends), by the text's own
 * search: a cold start that looks up a few tokens then runs no loop over every name (the move
 * filter has 900), which building a map of them did, 6 ms in a fresh process.
 */
function valueNamed(text: string, ends: Int32Array, name: string): number | undefined {
  if (name.length === 0) return undefined;
  for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
    const value = firstEndAfter(ends, at);
    const start = value === 0 ? 0 : ends[value - 1]!;
    if (start === at && ends[value] === at + name.length) return value;
  }
  return undefined;
}

/** The first value whose name ends after `at` (the one `at` falls in), by halves. */
function firstEndAfter(ends: Int32Array, at: number): number {
  let low = 0, high = ends.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (ends[middle]! <= at) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The names' text, once its ends are seen to climb to its length; else an Error naming the filter. */
function checkedNames(filter: string, text: string, ends: Int32Array): string {
  let start = 0;
  for (const end of ends) {
    if (end < start || end > text.length) break;
    start = end;
  }
  if (start !== text.length || (ends.length > 0 && ends[ends.length - 1] !== text.length)) throw new Error(`filter pack: the names of ${filter} do not match their ends`);
  return text;
}

/** The names cut from their text (checked) at their ends. */
function splitNames(text: string, ends: Int32Array): string[] {
  const names: string[] = [];
  let start = 0;
  for (const end of ends) {
    names.push(text.slice(start, end));
    start = end;
  }
  return names;
}

/** The index a packed file holds, in the build's form (what `encodeFilterPack` was given). */
export function unpackFilterIndex(packed: PackedFilters): FilterIndexFile {
  const values: FilterIndexFile['values'] = {};
  for (const filter of packed.values) {
    const names = filter.names();
    const rows = names.map((name, v): FilterValueRow => [name, filter.id(v), Array.from(filter.gaps(v))]);
    values[filter.name] = { about: filter.about, ...(filter.target === undefined ? {} : { target: filter.target }), values: rows };
  }
  const ranges: FilterIndexFile['ranges'] = {};
  for (const [name, column] of packed.ranges) ranges[name] = Array.from(column, (v) => (Number.isNaN(v) ? null : v));
  return { format: 'filter-index/1', kind: packed.kind, count: packed.count, values, ranges };
}

function isHeader(value: Record<string, unknown>): value is Record<string, unknown> & PackHeader {
  const { kind, count, values, ranges } = value;
  return typeof kind === 'string' && isCount(count) && Array.isArray(values) && values.every(isHeaderFilter)
    && Array.isArray(ranges) && ranges.every((r) => typeof r === 'string');
}

function isHeaderFilter(value: unknown): value is PackHeader['values'][number] {
  if (typeof value !== 'object' || value === null) return false;
  const f = value as Record<string, unknown>;
  return typeof f.name === 'string' && typeof f.about === 'string' && (f.target === undefined || typeof f.target === 'string') && isCount(f.values) && isCount(f.nameBytes);
}

const sum = (filters: PackHeader['values'], key: 'nameBytes') => filters.reduce((n, f) => n + f[key], 0);
