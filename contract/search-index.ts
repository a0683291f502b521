/**
 * The name-search index: the file the build writes per kind (`SearchIndexFile`), how it is made
 * from each resource's names (`makeSearchKind`, run by the build, folding with the same
 * `foldText` the request side folds `q` with), how one or several kinds' files become flat
 * columns (`packSearchFiles` → `PackedSearch`, which the build also writes as one binary file
 * of every kind: search-pack.ts), and how the request side loads those columns (`SearchColumns`).
 *
 * The file is shaped for a fast cold start rather than for reading: names are joined with line
 * feeds into a few long strings (JSON parses one long string far faster than thousands of short
 * ones, and `split` is native), numbers are plain arrays. Per kind, resources in list order:
 * - `ids`, and `names` (own names, joined);
 * - `counts`: how many translated names each resource has (its own name comes first, always);
 * - `languages`: each translated name's language, as a position in the file's `languages`;
 * - `folded`: every entry's folded name, joined, in entry order: per resource its own name, then
 *   its translations. A translation that folds like an earlier name of the same resource is left
 *   out (`Pikachu` in English, French and German is one entry, in the first of those languages);
 * - `display`: each translated name as written, joined; empty when it equals its folded form
 *   (most katakana, hangul and han names).
 * A kind's index stands alone: a collection's `q` loads its kind's file, the packed file holds
 * every kind's.
 */
import { foldText } from './query/fold.ts';

export const SEARCH_INDEX_FORMAT = 'search-index/2';

export interface SearchIndexFile {
  format: typeof SEARCH_INDEX_FORMAT;
  /** the languages names are in (`en`, `ja-hrkt`, …), referred to by position */
  languages: string[];
  kinds: SearchKindIndex[];
}

export interface SearchKindIndex {
  kind: string;
  ids: number[];
  names: string;
  counts: number[];
  languages: number[];
  folded: string;
  display: string;
}

/** What the build knows of a resource: its id, own name and translated names. */
export interface NamedResource {
  id: number;
  name: string;
  names: { language: string; name: string }[];
}

/** Folded names never hold a line feed (white space folds to a space), so it separates them. */
export const NAME_SEPARATOR = '\n';

/**
 * A kind's index from its resources in list order. `languages` gives each language's position;
 * a name in another language, or empty after folding, is left out. `byLanguage` keeps every
 * language's names: a translation is left out only when it folds like an earlier one in its own
 * language, so each entry's language is every language that has it (`lang=`'s index); without
 * it, a name in several languages, or like the own name, is one entry (the plain search's).
 */
export function makeSearchKind(kind: string, resources: readonly NamedResource[], languages: readonly string[], byLanguage = false): SearchKindIndex {
  const index: SearchKindIndex = { kind, ids: [], names: '', counts: [], languages: [], folded: '', display: '' };
  const names: string[] = [],
    folded: string[] = [],
    display: string[] = [];
  for (const resource of resources) {
    if (resource.name.includes(NAME_SEPARATOR)) throw new Error(`${kind} ${resource.id}: a name holds a line feed`);
    const ownFolded = foldText(resource.name);
    const seen = new Set(byLanguage ? [] : [ownFolded]);
    index.ids.push(resource.id);
    names.push(resource.name);
    folded.push(ownFolded);
    let count = 0;
    for (const { language, name } of resource.names) {
      const position = languages.indexOf(language);
      const nameFolded = foldText(name);
      const key = byLanguage ? `${position}\n${nameFolded}` : nameFolded;
      if (position < 0 || nameFolded === '' || seen.has(key) || name.includes(NAME_SEPARATOR)) continue;
      seen.add(key);
      index.languages.push(position);
      folded.push(nameFolded);
      display.push(name === nameFolded ? '' : name);
      count++;
    }
    index.counts.push(count);
  }
  return { ...index, names: names.join(NAME_SEPARATOR), folded: folded.join(NAME_SEPARATOR), display: display.join(NAME_SEPARATOR) };
}

/** The own name's language in the loaded columns. */
export const OWN_NAME = -1;

/** Which of 32 character classes (code unit mod 32: a–z apart from each other) `length` code units of a text from `start` use, as bits; never 0 for a name. */
export function signature(text: string, start: number, length: number): number {
  let bits = 0;
  for (let i = start; i < start + length; i++) bits |= 1 << (text.charCodeAt(i) & 31);
  return bits;
}

/**
 * Text kept as written until first read: a packed file's own names and display names are
 * decoded from UTF-8 per kind, on the first hit that needs them.
 */
export class PackedText {
  private decoded: string | null;
  private encoded: Uint8Array | null;

  constructor(source: string | Uint8Array) {
    this.decoded = typeof source === 'string' ? source : null;
    this.encoded = typeof source === 'string' ? null : source;
  }

  get text(): string {
    return (this.decoded ??= utf8Decoder.decode(this.encoded!));
  }

  get bytes(): Uint8Array {
    return (this.encoded ??= utf8Encoder.encode(this.decoded!));
  }
}

const utf8Decoder = new TextDecoder();
const utf8Encoder = new TextEncoder();

/** A kind in the packed index: how many resources and translated names it has, and its joined names. */
export interface PackedKind {
  kind: string;
  resources: number;
  translations: number;
  /** own names, joined, in resource order */
  names: PackedText;
  /** translated names as written (empty when equal to the folded form), joined, in entry order */
  display: PackedText;
}

/**
 * Every kind's index as flat columns, ready to search: what `packSearchFiles` makes from the
 * build's per-kind files, what the packed file (search-pack.ts) holds, and what `SearchColumns`
 * loads. Entries of a resource are consecutive, resources of a kind too, kinds in order.
 */
export interface PackedSearch {
  /** the languages of every kind, in order of first appearance; entries refer to them by position */
  languages: string[];
  kinds: PackedKind[];
  /** per resource: its kind's position in `kinds` */
  resourceKind: Int32Array;
  resourceId: Int32Array;
  /** per entry: its resource */
  entryResource: Int32Array;
  /** per entry: a position in `languages`, or OWN_NAME */
  entryLanguage: Int8Array;
  /** per entry, and one more: where its folded name starts in `joined` (for the last: the end + 1 of the one before) */
  entryStart: Int32Array;
  /** per entry: `signature` of its folded name; null: not computed (filled on the first fuzzy search) */
  signatures: Int32Array | null;
  /** `\n` + every entry's folded name, `\n`-separated + `\n` */
  joined: string;
}

/**
 * Several kinds' files packed into flat columns, kinds in the order given (the endpoint's: the
 * routing table's), each translated name's language renumbered into the union of the files'
 * languages, in order of first appearance. Throws naming the kind whose lists disagree.
 * Signatures are left to the first fuzzy search (a collection's `q` never needs them); the
 * packed file holds them.
 */
export function packSearchFiles(files: readonly SearchIndexFile[]): PackedSearch {
  const { languages, kinds } = mergeSearchFiles(files);
  if (languages.length > 127) throw new Error('search index: at most 127 languages');
  let resources = 0,
    entries = 0;
  for (const kind of kinds) {
    checkKind(kind);
    resources += kind.ids.length;
    entries += kind.ids.length + kind.languages.length;
  }
  const columns = {
    resourceKind: new Int32Array(resources),
    resourceId: new Int32Array(resources),
    entryResource: new Int32Array(entries),
    entryLanguage: new Int8Array(entries),
  };
  let resource = 0,
    entry = 0;
  const firstEntries = kinds.map((kind, k) => {
    const first = entry;
    ({ resource, entry } = addKind(columns, kind, k, resource, entry));
    return first;
  });
  const folded = kinds.filter((kind) => kind.ids.length > 0).map((kind) => kind.folded);
  // framed by separators; with no entry at all, one separator frames nothing
  const joined = folded.length === 0 ? NAME_SEPARATOR : NAME_SEPARATOR + folded.join(NAME_SEPARATOR) + NAME_SEPARATOR;
  const entryStart = separatedStarts(joined, entries);
  kinds.forEach((kind, k) => checkFolded(kind, entryStart, firstEntries[k]!));
  return {
    languages,
    kinds: kinds.map((kind) => ({
      kind: kind.kind,
      resources: kind.ids.length,
      translations: kind.languages.length,
      names: new PackedText(kind.names),
      display: new PackedText(kind.display),
    })),
    ...columns,
    entryStart,
    signatures: null,
    joined,
  };
}

type Columns = Pick<PackedSearch, 'resourceKind' | 'resourceId' | 'entryResource' | 'entryLanguage'>;

/** Fills a kind's resources and entries from the positions given; gives the next ones. */
function addKind(columns: Columns, kind: SearchKindIndex, kindIndex: number, firstResource: number, firstEntry: number): { resource: number; entry: number } {
  const resources = kind.ids.length;
  columns.resourceId.set(kind.ids, firstResource);
  columns.resourceKind.fill(kindIndex, firstResource, firstResource + resources);
  let entry = firstEntry,
    translation = 0;
  for (let r = 0; r < resources; r++) {
    const count = kind.counts[r]!;
    columns.entryResource.fill(firstResource + r, entry, entry + count + 1);
    columns.entryLanguage[entry] = OWN_NAME;
    for (let n = 1; n <= count; n++) columns.entryLanguage[entry + n] = kind.languages[translation++]!;
    entry += count + 1;
  }
  return { resource: firstResource + resources, entry };
}

/** Every entry's `signature`, from the joined folded names and their starts. */
export function entrySignatures(joined: string, entryStart: Int32Array): Int32Array {
  const signatures = new Int32Array(entryStart.length - 1);
  for (let entry = 0; entry < signatures.length; entry++)
    signatures[entry] = signature(joined, entryStart[entry]!, entryStart[entry + 1]! - entryStart[entry]! - 1);
  return signatures;
}

/** Throws unless a kind's folded names are as many as its entries: its text must end where its next entry would start. */
function checkFolded(kind: SearchKindIndex, entryStart: Int32Array, firstEntry: number): void {
  const entries = kind.ids.length + kind.languages.length;
  if (entries === 0 ? kind.folded !== '' : entryStart[firstEntry]! + kind.folded.length + 1 !== entryStart[firstEntry + entries]) {
    throw new Error(`search index: ${kind.kind}: the lists do not agree in length`);
  }
}

/**
 * The loaded index, over packed columns (made from per-kind files or read from the packed
 * file). Loading allocates no string per name (on the real names, 58k of them, per-name
 * strings made the cold start's biggest cost and its garbage): folded names stay in one joined
 * string, read by position; own names and display names stay joined per kind, split on the
 * first hit that needs them.
 */
export class SearchColumns {
  readonly kinds: string[];
  readonly languages: string[];
  readonly resourceKind: Int32Array;
  readonly resourceId: Int32Array;
  readonly entryResource: Int32Array;
  /** a position in `languages`, or OWN_NAME */
  readonly entryLanguage: Int8Array;
  /** `\n` + every entry's folded name + `\n` */
  readonly joined: string;
  /** where each entry's folded name starts in `joined`, and one more: where a next one would (the entry's end + 1) */
  readonly entryStart: Int32Array;
  /** as packed: null when not computed */
  readonly signatures: Int32Array | null;
  private readonly kindNames: KindNames[] = [];

  constructor(packed: PackedSearch) {
    checkPacked(packed);
    this.kinds = packed.kinds.map((kind) => kind.kind);
    this.languages = packed.languages;
    ({ resourceKind: this.resourceKind, resourceId: this.resourceId, entryResource: this.entryResource, entryLanguage: this.entryLanguage } = packed);
    ({ joined: this.joined, entryStart: this.entryStart, signatures: this.signatures } = packed);
    let resource = 0,
      entry = 0;
    for (const kind of packed.kinds) {
      this.kindNames.push(new KindNames(kind, resource, entry));
      resource += kind.resources;
      entry += kind.resources + kind.translations;
    }
  }

  get entryCount(): number {
    return this.entryResource.length;
  }
  get resourceCount(): number {
    return this.resourceId.length;
  }

  /** The folded name's length, without reading it. */
  foldedLength(entry: number): number {
    return this.entryStart[entry + 1]! - this.entryStart[entry]! - 1;
  }

  foldedName(entry: number): string {
    return this.joined.slice(this.entryStart[entry], this.entryStart[entry + 1]! - 1);
  }

  resourceName(resource: number): string {
    const names = this.kindNames[this.resourceKind[resource]!]!;
    return names.ownName(resource - names.firstResource);
  }

  /** The name as written. */
  displayName(entry: number): string {
    const resource = this.entryResource[entry]!;
    if (this.entryLanguage[entry] === OWN_NAME) return this.resourceName(resource);
    const names = this.kindNames[this.resourceKind[resource]!]!;
    // before a translation come its kind's earlier translations and one own name per resource up to its own
    const display = names.display(entry - names.firstEntry - (resource - names.firstResource) - 1);
    return display !== '' ? display : this.foldedName(entry);
  }
}

/**
 * Throws unless the columns agree with each other and with the kinds' counts, checked at their
 * ends only (a packed file is read on a cold start: no pass over its entries): lengths, the
 * first and last entry's resource, the joined names' frame and last start.
 */
function checkPacked(packed: PackedSearch): void {
  const fail = (what: string) => {
    throw new Error(`search index: ${what}`);
  };
  const resources = packed.kinds.reduce((n, kind) => n + kind.resources, 0);
  const entries = packed.kinds.reduce((n, kind) => n + kind.resources + kind.translations, 0);
  if (packed.languages.length > 127) fail('at most 127 languages');
  if (packed.resourceKind.length !== resources || packed.resourceId.length !== resources)
    fail(`${resources} resources in the kinds, not in the resource columns`);
  if (
    packed.entryResource.length !== entries ||
    packed.entryLanguage.length !== entries ||
    packed.entryStart.length !== entries + 1 ||
    (packed.signatures !== null && packed.signatures.length !== entries)
  )
    fail(`${entries} entries in the kinds, not in the entry columns`);
  const { joined, entryStart, entryResource } = packed;
  if (joined[0] !== NAME_SEPARATOR || joined[joined.length - 1] !== NAME_SEPARATOR || entryStart[0] !== 1 || entryStart[entries] !== joined.length) {
    fail('the folded names do not match their starts');
  }
  if (
    entries > 0 &&
    (entryResource[0] !== 0 ||
      entryResource[entries - 1] !== resources - 1 ||
      packed.resourceKind[resources - 1] !== packed.kinds.length - 1 - lastEmptyKinds(packed.kinds))
  ) {
    fail('the entries do not match the resources');
  }
}

/** How many kinds at the end have no resource (the last resource's kind comes before them). */
function lastEmptyKinds(kinds: readonly PackedKind[]): number {
  let n = 0;
  while (n < kinds.length && kinds[kinds.length - 1 - n]!.resources === 0) n++;
  return n;
}

/** A kind's own names and display names, split into strings on first use. */
class KindNames {
  private ownNames: string[] | null = null;
  private displayNames: string[] | null = null;

  private readonly kind: PackedKind;
  readonly firstResource: number;
  readonly firstEntry: number;
  constructor(kind: PackedKind, firstResource: number, firstEntry: number) {
    this.kind = kind;
    this.firstResource = firstResource;
    this.firstEntry = firstEntry;
  }

  ownName(resource: number): string {
    return (this.ownNames ??= splitNames(this.kind.kind, this.kind.names.text, this.kind.resources))[resource]!;
  }

  display(translation: number): string {
    return (this.displayNames ??= splitNames(this.kind.kind, this.kind.display.text, this.kind.translations))[translation]!;
  }
}

/** Throws unless a kind's lists agree in length (counted without splitting them; folded names are counted as they are found). */
function checkKind(kind: SearchKindIndex): void {
  const translated = kind.counts.reduce((sum, n) => sum + n, 0);
  if (
    kind.counts.length !== kind.ids.length ||
    kind.languages.length !== translated ||
    countNames(kind.names, kind.ids.length) !== kind.ids.length ||
    countNames(kind.display, translated) !== translated
  ) {
    throw new Error(`search index: ${kind.kind}: the lists do not agree in length`);
  }
}

/** How many names a joined string holds; `expected` tells "no name" from "one empty name". */
function countNames(joined: string, expected: number): number {
  if (expected === 0 && joined === '') return 0;
  let count = 1;
  for (let at = joined.indexOf(NAME_SEPARATOR); at !== -1; at = joined.indexOf(NAME_SEPARATOR, at + 1)) count++;
  return count;
}

/** Where each of `count` names starts in `\n`-framed joined names, and the end + 1 of the last. */
function separatedStarts(joined: string, count: number): Int32Array {
  const starts = new Int32Array(count + 1);
  let at = 0;
  for (let entry = 0; entry <= count; entry++) {
    if (at === -1) throw new Error('search index: fewer folded names than entries');
    starts[entry] = at + 1;
    at = joined.indexOf(NAME_SEPARATOR, at + 1);
  }
  if (at !== -1) throw new Error('search index: more folded names than entries');
  return starts;
}

/** Joined names split again; `expected` tells "no name" from "one empty name". A packed file's names are counted here, on first use. */
function splitNames(kind: string, joined: string, expected: number): string[] {
  const names = expected === 0 && joined === '' ? [] : joined.split(NAME_SEPARATOR);
  if (names.length !== expected) throw new Error(`search index: ${kind}: ${names.length} names for ${expected}`);
  return names;
}

/**
 * Several kinds' files as one (the logic of the all-kinds search): kinds in the order given, each translated name's language
 * renumbered into the union of the files' languages, in order of first appearance.
 */
function mergeSearchFiles(files: readonly SearchIndexFile[]): { languages: string[]; kinds: SearchKindIndex[] } {
  const languages: string[] = [];
  const kinds = files.flatMap((file) => {
    if (file.format !== SEARCH_INDEX_FORMAT) throw new Error(`search index: unknown format ${String(file.format)}`);
    const renumbered = file.languages.map((language) => {
      const known = languages.indexOf(language);
      return known >= 0 ? known : languages.push(language) - 1;
    });
    return file.kinds.map((kind) => ({ ...kind, languages: kind.languages.map((position) => renumbered[position] ?? -1) }));
  });
  return { languages, kinds };
}
