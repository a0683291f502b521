/**
 * The packed all-kinds search index: the columns a `SearchIndex` searches (`PackedSearch`,
 * search-index.ts), written once by the build so that a cold start reads one file and makes
 * typed-array views of it, instead of reading, decoding and parsing every kind's JSON file and
 * filling the columns entry by entry.
 *
 * Layout (little-endian):
 * - 16 bytes: the format, `search-pack/1`, padded with spaces;
 * - 4 bytes: the header's length in bytes (unsigned);
 * - the header, JSON in UTF-8: the languages, each kind (name, resources, translations, and the
 *   UTF-8 length of its own names and of its display names), and each section's type, offset
 *   and length in bytes, offsets counted from the sections' start;
 * - the sections, starting at the header's end rounded up to 4 bytes, each at a multiple of 4
 *   from there: int32 columns (resourceKind, resourceId, entryResource, entryStart,
 *   signatures), the int8 column entryLanguage, and UTF-8 text (the joined folded names; every
 *   kind's own names, then every kind's display names, one after the other in kind order).
 * Reading checks the format, the lengths and every section's place and size against the
 * header, and throws an Error naming what is wrong.
 */
import { entrySignatures, PackedText, type PackedKind, type PackedSearch } from './search-index.ts';

export const SEARCH_PACK_FORMAT = 'search-pack/1';
const FORMAT_BYTES = 16;
const PREFIX_BYTES = FORMAT_BYTES + 4;

type SectionType = 'int32' | 'int8' | 'utf8';
interface Section {
  type: SectionType;
  offset: number;
  length: number;
}

/** The sections, in file order, with their type. */
const SECTIONS = {
  resourceKind: 'int32', resourceId: 'int32', entryResource: 'int32', entryStart: 'int32', signatures: 'int32',
  entryLanguage: 'int8', joined: 'utf8', names: 'utf8', display: 'utf8',
} as const satisfies Record<string, SectionType>;
type SectionName = keyof typeof SECTIONS;

interface PackHeader {
  languages: string[];
  kinds: { kind: string; resources: number; translations: number; names: number; display: number }[];
  sections: Record<SectionName, Section>;
  /** the sections' length in bytes: the file ends there */
  bytes: number;
}

const encoder = new TextEncoder();
/**
 * Not fatal: on the 810 kB of folded names a fatal decoder measured 2.6 ms against 1.8 (Deno,
 * a new process). A broken sequence becomes U+FFFD; the loader checks the text's length against
 * the last entry's start, which catches it unless the length stays the same (as a byte changed
 * into another valid one would pass any decoder). The file has no checksum: a pass over its
 * bytes would cost the cold start it is for.
 */
const decoder = new TextDecoder();
const align4 = (n: number) => (n + 3) & ~3;

/** The packed file's bytes. Signatures are computed here when the columns do not hold them. */
export function encodeSearchPack(packed: PackedSearch): Uint8Array {
  const signatures = packed.signatures ?? entrySignatures(packed.joined, packed.entryStart);
  const bodies: Record<SectionName, Uint8Array> = {
    resourceKind: bytesOf(packed.resourceKind), resourceId: bytesOf(packed.resourceId), entryResource: bytesOf(packed.entryResource),
    entryStart: bytesOf(packed.entryStart), signatures: bytesOf(signatures), entryLanguage: bytesOf(packed.entryLanguage),
    joined: encoder.encode(packed.joined),
    names: concat(packed.kinds.map((kind) => kind.names.bytes)),
    display: concat(packed.kinds.map((kind) => kind.display.bytes)),
  };
  const sections = {} as Record<SectionName, Section>;
  let offset = 0;
  for (const name of Object.keys(SECTIONS) as SectionName[]) {
    sections[name] = { type: SECTIONS[name], offset, length: bodies[name].length };
    offset = align4(offset + bodies[name].length);
  }
  const header: PackHeader = {
    languages: packed.languages,
    kinds: packed.kinds.map((kind) => ({ kind: kind.kind, resources: kind.resources, translations: kind.translations, names: kind.names.bytes.length, display: kind.display.bytes.length })),
    sections,
    bytes: offset,
  };
  const headerBytes = encoder.encode(JSON.stringify(header));
  const start = align4(PREFIX_BYTES + headerBytes.length);
  const out = new Uint8Array(start + offset);
  out.set(encoder.encode(SEARCH_PACK_FORMAT.padEnd(FORMAT_BYTES, ' ')));
  new DataView(out.buffer).setUint32(FORMAT_BYTES, headerBytes.length, true);
  out.set(headerBytes, PREFIX_BYTES);
  for (const name of Object.keys(SECTIONS) as SectionName[]) out.set(bodies[name], start + sections[name].offset);
  return out;
}

/**
 * The columns of a packed file: views into its bytes (copied once if they do not start at a
 * multiple of 4), the folded names decoded, own and display names left for first use.
 */
export function decodeSearchPack(file: Uint8Array): PackedSearch {
  if (!littleEndian) throw new Error('search pack: this machine is big-endian; the file is little-endian');
  const { header, start } = readHeader(file);
  const bytes = file.byteOffset % 4 === 0 ? file : file.slice();
  const resources = header.kinds.reduce((n, kind) => n + kind.resources, 0);
  const entries = header.kinds.reduce((n, kind) => n + kind.resources + kind.translations, 0);
  checkPlaces(header);
  const section = (name: SectionName, expectedBytes: number | null): Uint8Array => {
    const { type, offset, length } = header.sections[name];
    if (type !== SECTIONS[name]) throw new Error(`search pack: section ${name} is ${String(type)}, not ${SECTIONS[name]}`);
    if (expectedBytes !== null && length !== expectedBytes) throw new Error(`search pack: section ${name} holds ${length} bytes, not ${expectedBytes}`);
    return bytes.subarray(start + offset, start + offset + length);
  };
  const int32 = (name: SectionName, count: number) => {
    const view = section(name, count * 4);
    return new Int32Array(view.buffer, view.byteOffset, count);
  };
  const entryLanguage = section('entryLanguage', entries);
  return {
    languages: header.languages,
    kinds: splitKinds(header.kinds, section('names', sum(header.kinds, 'names')), section('display', sum(header.kinds, 'display'))),
    resourceKind: int32('resourceKind', resources),
    resourceId: int32('resourceId', resources),
    entryResource: int32('entryResource', entries),
    entryLanguage: new Int8Array(entryLanguage.buffer, entryLanguage.byteOffset, entries),
    entryStart: int32('entryStart', entries + 1),
    signatures: int32('signatures', entries),
    joined: decoder.decode(section('joined', null)),
  };
}

/** The header, checked for its shape, and where the sections start; throws naming what is wrong. */
function readHeader(file: Uint8Array): { header: PackHeader; start: number } {
  if (file.length < PREFIX_BYTES) throw new Error(`search pack: ${file.length} bytes, too short for a header`);
  const format = decoder.decode(file.subarray(0, FORMAT_BYTES));
  if (format !== SEARCH_PACK_FORMAT.padEnd(FORMAT_BYTES, ' ')) throw new Error(`search pack: unknown format ${JSON.stringify(format.trimEnd())}`);
  const headerLength = new DataView(file.buffer, file.byteOffset, file.byteLength).getUint32(FORMAT_BYTES, true);
  if (PREFIX_BYTES + headerLength > file.length) throw new Error(`search pack: a header of ${headerLength} bytes in a file of ${file.length}`);
  let header: unknown;
  try {
    header = JSON.parse(decoder.decode(file.subarray(PREFIX_BYTES, PREFIX_BYTES + headerLength)));
  } catch (e) {
    throw new Error(`search pack: the header is no JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  if (!isHeader(header)) throw new Error('search pack: the header lacks languages, kinds, sections or bytes');
  const start = align4(PREFIX_BYTES + headerLength);
  if (start + header.bytes !== file.length) throw new Error(`search pack: ${file.length} bytes, the header says ${start + header.bytes}`);
  return { header, start };
}

/**
 * Throws unless the sections lie one after the other in file order, each at the multiple of 4
 * after the one before, the last ending the file: no section overlaps another or leaves a gap.
 */
function checkPlaces(header: PackHeader): void {
  let offset = 0;
  for (const name of Object.keys(SECTIONS) as SectionName[]) {
    const section = header.sections[name];
    if (section.offset !== offset || !isCount(section.length)) throw new Error(`search pack: section ${name} lies outside its place`);
    offset = align4(offset + section.length);
  }
  if (offset !== header.bytes) throw new Error(`search pack: the sections end at ${offset}, the header says ${header.bytes}`);
}

function isHeader(value: unknown): value is PackHeader {
  if (typeof value !== 'object' || value === null) return false;
  const { languages, kinds, sections, bytes } = value as Partial<Record<keyof PackHeader, unknown>>;
  return Array.isArray(languages) && languages.every((l) => typeof l === 'string')
    && Array.isArray(kinds) && kinds.every(isHeaderKind)
    && typeof sections === 'object' && sections !== null
    && Object.keys(SECTIONS).every((name) => typeof (sections as Record<string, unknown>)[name] === 'object' && (sections as Record<string, unknown>)[name] !== null)
    && isCount(bytes);
}

function isHeaderKind(value: unknown): value is PackHeader['kinds'][number] {
  if (typeof value !== 'object' || value === null) return false;
  const kind = value as Record<string, unknown>;
  return typeof kind.kind === 'string' && isCount(kind.resources) && isCount(kind.translations) && isCount(kind.names) && isCount(kind.display);
}

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;

/** Each kind with its own names and display names, as views into the sections (decoded on first use). */
function splitKinds(kinds: PackHeader['kinds'], names: Uint8Array, display: Uint8Array): PackedKind[] {
  let nameAt = 0, displayAt = 0;
  return kinds.map((kind) => {
    const packed: PackedKind = {
      kind: kind.kind, resources: kind.resources, translations: kind.translations,
      names: new PackedText(names.subarray(nameAt, nameAt + kind.names)),
      display: new PackedText(display.subarray(displayAt, displayAt + kind.display)),
    };
    nameAt += kind.names;
    displayAt += kind.display;
    return packed;
  });
}

const sum = (kinds: PackHeader['kinds'], key: 'names' | 'display') => kinds.reduce((n, kind) => n + kind[key], 0);

function bytesOf(column: Int32Array | Int8Array): Uint8Array {
  return new Uint8Array(column.buffer, column.byteOffset, column.byteLength);
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
