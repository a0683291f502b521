/**
 * The packed all-kinds search index: the columns a `SearchIndex` searches (`PackedSearch`,
 * search-index.ts), written once by the build so that a cold start reads one file and makes
 * typed-array views of it, instead of reading, decoding and parsing every kind's JSON file and
 * filling the columns entry by entry.
 *
 * The file is a pack (contract/pack.ts) of format `search-pack/1`. Its header holds the languages and each
 * kind (name, resources, translations, and the UTF-8 length of its own names and of its display
 * names); its sections are the int32 columns (resourceKind, resourceId, entryResource,
 * entryStart, signatures), the int8 column entryLanguage, and UTF-8 text (the joined folded
 * names; every kind's own names, then every kind's display names, one after the other in kind
 * order). Reading checks the pack, then each section's size against the header, and throws an
 * Error naming what is wrong.
 */
import { bytesOf, concat, decodePack, encodePack, isCount, utf8, utf8Bytes, type PackFormat, type SectionBody, type SectionType } from './pack.ts';
import { entrySignatures, PackedText, type PackedKind, type PackedSearch } from './search-index.ts';

export const SEARCH_PACK_FORMAT = 'search-pack/1';

/** The sections, in file order, with their type. */
const SECTIONS = {
  resourceKind: 'int32',
  resourceId: 'int32',
  entryResource: 'int32',
  entryStart: 'int32',
  signatures: 'int32',
  entryLanguage: 'int8',
  joined: 'utf8',
  names: 'utf8',
  display: 'utf8',
} as const satisfies Record<string, SectionType>;
type SectionName = keyof typeof SECTIONS;
const PACK: PackFormat<SectionName> = { format: SEARCH_PACK_FORMAT, label: 'search pack', sections: Object.keys(SECTIONS) as SectionName[] };

/** The header's own fields (contract/pack.ts adds the sections). */
interface PackHeader {
  languages: string[];
  kinds: { kind: string; resources: number; translations: number; names: number; display: number }[];
}

/** The packed file's bytes. Signatures are computed here when the columns do not hold them. */
export function encodeSearchPack(packed: PackedSearch): Uint8Array {
  const signatures = packed.signatures ?? entrySignatures(packed.joined, packed.entryStart);
  const body = (name: SectionName, bytes: Uint8Array): SectionBody => ({ type: SECTIONS[name], bytes });
  const bodies: Record<SectionName, SectionBody> = {
    resourceKind: body('resourceKind', bytesOf(packed.resourceKind)),
    resourceId: body('resourceId', bytesOf(packed.resourceId)),
    entryResource: body('entryResource', bytesOf(packed.entryResource)),
    entryStart: body('entryStart', bytesOf(packed.entryStart)),
    signatures: body('signatures', bytesOf(signatures)),
    entryLanguage: body('entryLanguage', bytesOf(packed.entryLanguage)),
    joined: body('joined', utf8Bytes(packed.joined)),
    names: body('names', concat(packed.kinds.map((kind) => kind.names.bytes))),
    display: body('display', concat(packed.kinds.map((kind) => kind.display.bytes))),
  };
  const header: PackHeader = {
    languages: packed.languages,
    kinds: packed.kinds.map((kind) => ({
      kind: kind.kind,
      resources: kind.resources,
      translations: kind.translations,
      names: kind.names.bytes.length,
      display: kind.display.bytes.length,
    })),
  };
  return encodePack(PACK, header, bodies);
}

/**
 * The columns of a packed file: views into its bytes (copied once if they do not start at a
 * multiple of 4), the folded names decoded, own and display names left for first use.
 */
export function decodeSearchPack(file: Uint8Array): PackedSearch {
  const pack = decodePack(PACK, file);
  if (!isHeader(pack.header)) throw new Error('search pack: the header lacks languages or kinds');
  const header = pack.header;
  const resources = header.kinds.reduce((n, kind) => n + kind.resources, 0);
  const entries = header.kinds.reduce((n, kind) => n + kind.resources + kind.translations, 0);
  const section = (name: SectionName, expectedBytes: number | null) => pack.section(name, SECTIONS[name], expectedBytes).bytes;
  const entryLanguage = section('entryLanguage', entries);
  return {
    languages: header.languages,
    kinds: splitKinds(header.kinds, section('names', sum(header.kinds, 'names')), section('display', sum(header.kinds, 'display'))),
    resourceKind: pack.int32('resourceKind', resources),
    resourceId: pack.int32('resourceId', resources),
    entryResource: pack.int32('entryResource', entries),
    entryLanguage: new Int8Array(entryLanguage.buffer, entryLanguage.byteOffset, entries),
    entryStart: pack.int32('entryStart', entries + 1),
    signatures: pack.int32('signatures', entries),
    joined: utf8.decode(section('joined', null)),
  };
}

function isHeader(value: Record<string, unknown>): value is Record<string, unknown> & PackHeader {
  const { languages, kinds } = value;
  return Array.isArray(languages) && languages.every((l) => typeof l === 'string') && Array.isArray(kinds) && kinds.every(isHeaderKind);
}

function isHeaderKind(value: unknown): value is PackHeader['kinds'][number] {
  if (typeof value !== 'object' || value === null) return false;
  const kind = value as Record<string, unknown>;
  return typeof kind.kind === 'string' && isCount(kind.resources) && isCount(kind.translations) && isCount(kind.names) && isCount(kind.display);
}

/** Each kind with its own names and display names, as views into the sections (decoded on first use). */
function splitKinds(kinds: PackHeader['kinds'], names: Uint8Array, display: Uint8Array): PackedKind[] {
  let nameAt = 0,
    displayAt = 0;
  return kinds.map((kind) => {
    const packed: PackedKind = {
      kind: kind.kind,
      resources: kind.resources,
      translations: kind.translations,
      names: new PackedText(names.subarray(nameAt, nameAt + kind.names)),
      display: new PackedText(display.subarray(displayAt, displayAt + kind.display)),
    };
    nameAt += kind.names;
    displayAt += kind.display;
    return packed;
  });
}

const sum = (kinds: PackHeader['kinds'], key: 'names' | 'display') => kinds.reduce((n, kind) => n + kind[key], 0);
