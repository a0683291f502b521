/**
 * A kind's list as a query reads it (contract/layout.ts `listPackFile`): a pack (contract/pack.ts) of format
 * `list-pack/2` holding each entry's id and name in list order, each name's rank among the names,
 * and, for each link the kind declares (creature's `species`), the id each entry's link leads to. Every list entry is
 * `{name, url}` or `{url}` with the URL `{base}/{kind}/{id}/`, so the entries are made from it
 * as they are asked.
 *
 * Why not the list's JSON (`listFile`): a query's first answer in a fresh Deno process parsed
 * creature's (91 kB) in about 4 ms and then read every URL back to an id; to follow
 * `species.names` it also read the species column (80 kB) and creature-species' list (75 kB).
 * Packed, creature's list is 5 kB of ids and 14 kB of names, read in place.
 *
 * The header holds the kind, the count, the links' field names, the names' length and whether
 * the ids climb. The sections:
 * - `ids`: int32, each entry's id;
 * - `named`: int8, 1 where the entry has a name;
 * - `nameEnds`: int32, where each entry's name ends in `names`, in UTF-16 units (an entry
 *   without a name ends where the one before does);
 * - `nameRanks`: int32, each entry's name's place among the list's distinct names in code-point
 *   order (`textRanks`, below), -1 where it has none: what `sort=name` orders by.
 *   Ranked at build time, as a new process's first answer sorting by name decoded every name and
 *   sorted them (about 3 ms and 140 page faults of it, for creature's);
 * - `links`: int32, each link's target ids in turn (count each), -2^31 where there is none;
 * - `names`: UTF-8, the names one after the other.
 */
import { bytesOf, cutAt, decodePack, encodePack, isCount, utf8, utf8Bytes, type PackFormat } from './pack.ts';

export const LIST_PACK_FORMAT = 'list-pack/2';
const SECTION_NAMES = ['ids', 'named', 'nameEnds', 'nameRanks', 'links', 'names'] as const;
type SectionName = (typeof SECTION_NAMES)[number];
const PACK: PackFormat<SectionName> = { format: LIST_PACK_FORMAT, label: 'list pack', sections: SECTION_NAMES };
/** a link to nothing; ids are above it */
export const NO_LINK = -0x80000000;

/** What the build packs: each entry's id and name in list order, and each link's target ids (null for none). */
export interface ListPackInput {
  kind: string;
  entries: ReadonlyArray<{ id: number; name: string | null }>;
  links: Record<string, ReadonlyArray<number | null>>;
}

/** A list pack, decoded: views into its bytes, the names decoded when first asked. */
export interface ListPack {
  kind: string;
  count: number;
  ids: Int32Array;
  /** whether the ids climb in list order (every list the build writes: it lists by id), so they are searched in place */
  idsAscending: boolean;
  /** entry `p`'s name, undefined where it has none: cut from the names' text (decoded on first call) */
  name(p: number): string | undefined;
  /** each entry's name, undefined where it has none (decoded and checked on first call) */
  names(): ReadonlyArray<string | undefined>;
  /** each entry's name's rank among the names (equal names share one), -1 where it has none */
  nameRanks: Int32Array;
  /** the target ids of a link, NO_LINK for none; undefined for a field that is no link of the kind */
  linkIds(field: string): Int32Array | undefined;
}

interface Header {
  kind: string;
  count: number;
  links: string[];
  nameUnits: number;
  idsAscending: boolean;
}

/** The pack's bytes; throws naming the kind and entry of an id or a link it cannot hold. */
export function encodeListPack({ kind, entries, links }: ListPackInput): Uint8Array {
  const int32 = (id: number | null, what: string): number => {
    if (id === null) return NO_LINK;
    if (!Number.isInteger(id) || id <= NO_LINK || id > 0x7fffffff) throw new Error(`list pack of ${kind}: ${what}: ${id} is no int32 above -2^31`);
    return id;
  };
  let end = 0;
  const nameEnds = entries.map(({ name }) => (end += name?.length ?? 0));
  const linkNames = Object.keys(links);
  for (const field of linkNames)
    if (links[field]!.length !== entries.length)
      throw new Error(`list pack of ${kind}: the link ${field} has ${links[field]!.length} entries, the list ${entries.length}`);
  const idsAscending = entries.every(({ id }, p) => p === 0 || id > entries[p - 1]!.id);
  const header: Header = { kind, count: entries.length, links: linkNames, nameUnits: end, idsAscending };
  return encodePack(PACK, header, {
    ids: { type: 'int32', bytes: bytesOf(Int32Array.from(entries, ({ id }, p) => int32(id, `entry ${p}'s id`))) },
    named: { type: 'int8', bytes: Uint8Array.from(entries, ({ name }) => (name === null ? 0 : 1)) },
    nameEnds: { type: 'int32', bytes: bytesOf(Int32Array.from(nameEnds)) },
    nameRanks: {
      type: 'int32',
      bytes: bytesOf(Int32Array.from(textRanks(entries.map(({ name }) => name ?? undefined)), (rank) => (Number.isNaN(rank) ? -1 : rank))),
    },
    links: { type: 'int32', bytes: bytesOf(Int32Array.from(linkNames.flatMap((field) => links[field]!.map((id, p) => int32(id, `entry ${p}'s ${field}`))))) },
    names: { type: 'utf8', bytes: utf8Bytes(entries.map(({ name }) => name ?? '').join('')) },
  });
}

/** The list a pack holds, as views into its bytes; throws an Error naming what is wrong. */
export function decodeListPack(file: Uint8Array): ListPack {
  const pack = decodePack(PACK, file);
  if (!isHeader(pack.header)) throw new Error('list pack: the header lacks kind, count, links or nameUnits');
  const { kind, count, links, nameUnits, idsAscending } = pack.header;
  const ids = pack.int32('ids', count);
  const named = pack.section('named', 'int8', count).bytes;
  const nameEnds = pack.int32('nameEnds', count);
  const nameRanks = pack.int32('nameRanks', count);
  const linkIds = pack.int32('links', links.length * count);
  const bytes = pack.section('names', 'utf8', null).bytes;
  let text: string | undefined;
  const namesText = () => (text ??= checkedText(utf8.decode(bytes), nameUnits));
  let names: Array<string | undefined> | undefined;
  return {
    kind,
    count,
    ids,
    idsAscending,
    name: (p) => {
      if (named[p] !== 1) return undefined;
      const start = p === 0 ? 0 : nameEnds[p - 1]!,
        end = nameEnds[p]!;
      if (start > end || end > nameUnits) throw new Error(`list pack: entry ${p}'s name ends outside the names`);
      return namesText().slice(start, end);
    },
    names: () => (names ??= namesOf(namesText(), nameEnds, named)),
    nameRanks,
    linkIds: (field) => {
      const l = links.indexOf(field);
      return l < 0 ? undefined : linkIds.subarray(l * count, (l + 1) * count);
    },
  };
}

/** The names' text, once its length is the header's. */
function checkedText(text: string, units: number): string {
  if (text.length !== units) throw new Error(`list pack: the names are ${text.length} UTF-16 units, the header says ${units}`);
  return text;
}

/** Each entry's name cut from the names' text (undefined where it has none); throws unless the ends climb to the text's length. */
function namesOf(text: string, ends: Int32Array, named: Uint8Array): Array<string | undefined> {
  const pieces = cutAt(text, ends);
  if (pieces === null) throw new Error('list pack: the names do not end where the text does');
  return pieces.map((name, p) => (named[p] === 1 ? name : undefined));
}

function isHeader(value: Record<string, unknown>): value is Record<string, unknown> & Header {
  const { kind, count, links, nameUnits, idsAscending } = value;
  return (
    typeof kind === 'string' &&
    isCount(count) &&
    isCount(nameUnits) &&
    typeof idsAscending === 'boolean' &&
    Array.isArray(links) &&
    links.every((l) => typeof l === 'string')
  );
}

/** Texts as sort ranks: equal texts share a rank, a missing text is NaN. */
export function textRanks(texts: ReadonlyArray<string | undefined>): Float64Array {
  const ranks = new Float64Array(texts.length).fill(NaN);
  // the positions with a text, in the texts' order: one typed array, no set or map of the texts (made on a cold start)
  let named = 0;
  for (const text of texts) if (text !== undefined) named++;
  const order = new Int32Array(named);
  for (let p = 0, at = 0; p < texts.length; p++) if (texts[p] !== undefined) order[at++] = p;
  order.sort((a, b) => {
    const x = texts[a]!,
      y = texts[b]!;
    return x < y ? -1 : x > y ? 1 : 0;
  });
  let rank = -1;
  for (let i = 0; i < order.length; i++) {
    if (i === 0 || texts[order[i]!] !== texts[order[i - 1]!]) rank++;
    ranks[order[i]!] = rank;
  }
  return ranks;
}
