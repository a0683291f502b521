/**
 * The container the build's binary query indexes share (search-pack.ts, filter-pack.ts): a named
 * format, a small JSON header, then typed sections the request side reads as typed-array views
 * into the bytes, so that a cold start parses only the header.
 *
 * Layout (little-endian):
 * - 16 bytes: the format (`search-pack/1`), padded with spaces;
 * - 4 bytes: the header's length in bytes (unsigned);
 * - the header, JSON in UTF-8: the format's own fields, then `sections` (each section's type,
 *   offset and length in bytes, offsets counted from the sections' start) and `bytes` (the
 *   sections' length: the file ends there);
 * - the sections, in the format's order, starting at the header's end rounded up to the widest
 *   alignment of their types, each at the next multiple of its alignment (4, or 8 for float64)
 *   after the one before.
 * Reading checks the format, the lengths and every section's place, type and size, and throws an
 * Error starting with the format's label (`search pack: …`) naming what is wrong.
 */

export type SectionType = 'int32' | 'int8' | 'uint16' | 'float64' | 'utf8';
export interface Section {
  type: SectionType;
  offset: number;
  length: number;
}

/** A format: its name in the file, its label in errors and its sections' names in file order. */
export interface PackFormat<Name extends string> {
  format: string;
  label: string;
  sections: readonly Name[];
}

/** A section to write: its type and its bytes. */
export interface SectionBody {
  type: SectionType;
  bytes: Uint8Array;
}

const FORMAT_BYTES = 16;
const PREFIX_BYTES = FORMAT_BYTES + 4;
const alignOf = (type: SectionType) => (type === 'float64' ? 8 : 4);
const alignUp = (n: number, to: number) => Math.ceil(n / to) * to;

const encoder = new TextEncoder();
/**
 * Not fatal: on the search pack's 810 kB of folded names a fatal decoder measured 2.6 ms against
 * 1.8 (Deno, a new process). A broken sequence becomes U+FFFD; each format's loader checks its
 * texts' lengths, which catches it unless the length stays the same (as a byte changed into
 * another valid one would pass any decoder). The files have no checksum: a pass over their bytes
 * would cost the cold start they are for.
 */
export const utf8 = new TextDecoder();

/** The file's bytes: the format's own header fields, then the sections in the format's order. */
export function encodePack<Name extends string>(format: PackFormat<Name>, own: object, bodies: Record<Name, SectionBody>): Uint8Array {
  const sections = {} as Record<Name, Section>;
  let offset = 0;
  for (const name of format.sections) {
    const { type, bytes } = bodies[name];
    offset = alignUp(offset, alignOf(type));
    sections[name] = { type, offset, length: bytes.length };
    offset += bytes.length;
  }
  const bytes = alignUp(offset, 4);
  const headerBytes = encoder.encode(JSON.stringify({ ...own, sections, bytes }));
  const start = alignUp(PREFIX_BYTES + headerBytes.length, widest(Object.values<Section>(sections)));
  const out = new Uint8Array(start + bytes);
  out.set(encoder.encode(format.format.padEnd(FORMAT_BYTES, ' ')));
  new DataView(out.buffer).setUint32(FORMAT_BYTES, headerBytes.length, true);
  out.set(headerBytes, PREFIX_BYTES);
  for (const name of format.sections) out.set(bodies[name].bytes, start + sections[name].offset);
  return out;
}

/** A decoded file: its header (the format's own fields unchecked) and its sections' bytes. */
export interface Unpacked<Name extends string> {
  header: Record<string, unknown>;
  /** A section's bytes, throwing unless it has this type (one of these) and, when given, this length. */
  section(name: Name, types: SectionType | readonly SectionType[], expectedBytes: number | null): { type: SectionType; bytes: Uint8Array };
  /** An int32 section of `count` numbers, as a view into the bytes. */
  int32(name: Name, count: number): Int32Array;
}

/**
 * The header and the sections of a file, checked for their format, lengths and places; the bytes
 * are copied once when they do not start at a multiple of the widest alignment (typed arrays
 * need their elements aligned).
 */
export function decodePack<Name extends string>(format: PackFormat<Name>, file: Uint8Array): Unpacked<Name> {
  const fail = (what: string, options?: ErrorOptions) => new Error(`${format.label}: ${what}`, options);
  if (!littleEndian) throw fail('this machine is big-endian; the file is little-endian');
  const { header, sections, start } = readHeader(format, file, fail);
  const widestAlign = widest(Object.values(sections));
  const bytes = file.byteOffset % widestAlign === 0 ? file : file.slice();
  const section: Unpacked<Name>['section'] = (name, types, expectedBytes) => {
    const { type, offset, length } = sections[name];
    const allowed: readonly SectionType[] = typeof types === 'string' ? [types] : types;
    if (!allowed.includes(type)) throw fail(`section ${name} is ${String(type)}, not ${allowed.join(' or ')}`);
    if (expectedBytes !== null && length !== expectedBytes) throw fail(`section ${name} holds ${length} bytes, not ${expectedBytes}`);
    return { type, bytes: bytes.subarray(start + offset, start + offset + length) };
  };
  return {
    header,
    section,
    int32(name, count) {
      const view = section(name, 'int32', count * 4).bytes;
      return new Int32Array(view.buffer, view.byteOffset, count);
    },
  };
}

/** The header, checked for its shape and its sections' places, and where the sections start. */
function readHeader<Name extends string>(format: PackFormat<Name>, file: Uint8Array, fail: (what: string, options?: ErrorOptions) => Error) {
  if (file.length < PREFIX_BYTES) throw fail(`${file.length} bytes, too short for a header`);
  const name = utf8.decode(file.subarray(0, FORMAT_BYTES));
  if (name !== format.format.padEnd(FORMAT_BYTES, ' ')) throw fail(`unknown format ${JSON.stringify(name.trimEnd())}`);
  const headerLength = new DataView(file.buffer, file.byteOffset, file.byteLength).getUint32(FORMAT_BYTES, true);
  if (PREFIX_BYTES + headerLength > file.length) throw fail(`a header of ${headerLength} bytes in a file of ${file.length}`);
  let header: unknown;
  try {
    header = JSON.parse(utf8.decode(file.subarray(PREFIX_BYTES, PREFIX_BYTES + headerLength)));
  } catch (e) {
    throw fail(`the header is no JSON (${e instanceof Error ? e.message : String(e)})`, { cause: e });
  }
  if (typeof header !== 'object' || header === null) throw fail('the header is no object');
  const { sections, bytes } = header as { sections?: unknown; bytes?: unknown };
  if (!isSections(sections, format.sections) || !isCount(bytes)) throw fail('the header lacks sections or bytes');
  checkPlaces(format, sections, bytes, fail);
  const start = alignUp(PREFIX_BYTES + headerLength, widest(Object.values(sections)));
  if (start + bytes !== file.length) throw fail(`${file.length} bytes, the header says ${start + bytes}`);
  return { header: header as Record<string, unknown>, sections, start };
}

/**
 * Throws unless the sections lie one after the other in the format's order, each at the next
 * multiple of its alignment after the one before, the last ending where the header says: no
 * section overlaps another or leaves a gap.
 */
function checkPlaces<Name extends string>(
  format: PackFormat<Name>,
  sections: Record<Name, Section>,
  bytes: number,
  fail: (what: string, options?: ErrorOptions) => Error,
): void {
  let offset = 0;
  for (const name of format.sections) {
    const section = sections[name];
    const at = SECTION_TYPES.includes(section.type) ? alignUp(offset, alignOf(section.type)) : -1;
    if (section.offset !== at || !isCount(section.length)) throw fail(`section ${name} lies outside its place`);
    offset = at + section.length;
  }
  if (alignUp(offset, 4) !== bytes) throw fail(`the sections end at ${alignUp(offset, 4)}, the header says ${bytes}`);
}

const SECTION_TYPES: readonly SectionType[] = ['int32', 'int8', 'uint16', 'float64', 'utf8'];

function isSections<Name extends string>(value: unknown, names: readonly Name[]): value is Record<Name, Section> {
  if (typeof value !== 'object' || value === null) return false;
  return names.every((name) => {
    const section = (value as Record<string, unknown>)[name];
    return typeof section === 'object' && section !== null;
  });
}

export const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;

const widest = (sections: readonly Section[]) => Math.max(4, ...sections.map((s) => (SECTION_TYPES.includes(s.type) ? alignOf(s.type) : 4)));

/** A typed column's bytes (a view, not a copy). */
export function bytesOf(column: Int32Array | Int8Array | Uint16Array | Float64Array): Uint8Array {
  return new Uint8Array(column.buffer, column.byteOffset, column.byteLength);
}

export function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

export const utf8Bytes = (text: string): Uint8Array => encoder.encode(text);

/**
 * A text cut into pieces at `ends` (where each piece ends, in UTF-16 units: what a pack's names
 * section is cut at); null unless the ends climb to the text's length.
 */
export function cutAt(text: string, ends: Int32Array): string[] | null {
  if (!validEnds(ends, text.length)) return null;
  const pieces: string[] = [];
  for (let i = 0; i < ends.length; i++) pieces.push(text.slice(i === 0 ? 0 : ends[i - 1]!, ends[i]));
  return pieces;
}

/** Whether `ends` never go back and the last is `length` (none: `length` is 0): where a names section's pieces can be cut. */
export function validEnds(ends: Int32Array, length: number): boolean {
  let start = 0;
  // an indexed loop: a for…of over a typed array makes an iterator result per step in a new process
  for (let i = 0; i < ends.length; i++) {
    if (ends[i]! < start || ends[i]! > length) return false;
    start = ends[i]!;
  }
  return start === length;
}

/** The first of `0..length` for which `before` is false, by halves (`before` true for a leading run only): what a packed column's sorted numbers are searched with. */
export function firstAtLeast(length: number, before: (i: number) => boolean): number {
  let low = 0,
    high = length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (before(middle)) low = middle + 1;
    else high = middle;
  }
  return low;
}

const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
