/**
 * The name-search index: the file the build writes (`SearchIndexFile`), how it is made from
 * each resource's names (`makeSearchKind`, run by the build, folding with the same `foldText`
 * the request side folds `q` with), and how the request side loads it into flat columns
 * (`SearchColumns`).
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
 * A kind's index stands alone: the edge can load one kind's file or several, in any order.
 */
import { foldText } from './fold.ts';

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
 * a name in another language, or empty after folding, is left out.
 */
export function makeSearchKind(kind: string, resources: readonly NamedResource[], languages: readonly string[]): SearchKindIndex {
  const index: SearchKindIndex = { kind, ids: [], names: '', counts: [], languages: [], folded: '', display: '' };
  const names: string[] = [], folded: string[] = [], display: string[] = [];
  for (const resource of resources) {
    if (resource.name.includes(NAME_SEPARATOR)) throw new Error(`${kind} ${resource.id}: a name holds a line feed`);
    const ownFolded = foldText(resource.name);
    const seen = new Set([ownFolded]);
    index.ids.push(resource.id);
    names.push(resource.name);
    folded.push(ownFolded);
    let count = 0;
    for (const { language, name } of resource.names) {
      const position = languages.indexOf(language);
      const nameFolded = foldText(name);
      if (position < 0 || nameFolded === '' || seen.has(nameFolded) || name.includes(NAME_SEPARATOR)) continue;
      seen.add(nameFolded);
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

/**
 * The loaded index: one entry per name, in flat columns; entries of a resource are consecutive.
 * Loading allocates no string per name (on the real names, 58k of them, per-name strings made
 * the cold start's biggest cost and its garbage): folded names stay in one joined string, read
 * by position; own names and display names stay joined per kind, split on the first hit that
 * needs them.
 */
export class SearchColumns {
  readonly kinds: string[] = [];
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
  private readonly kindNames: KindNames[] = [];

  constructor(file: SearchIndexFile) {
    if (file.format !== SEARCH_INDEX_FORMAT) throw new Error(`search index: unknown format ${String(file.format)}`);
    if (file.languages.length > 127) throw new Error('search index: at most 127 languages');
    this.languages = file.languages;
    let resources = 0, entries = 0;
    for (const kind of file.kinds) {
      resources += kind.ids.length;
      entries += kind.ids.length + kind.languages.length;
    }
    this.resourceKind = new Int32Array(resources);
    this.resourceId = new Int32Array(resources);
    this.entryResource = new Int32Array(entries);
    this.entryLanguage = new Int8Array(entries);
    let resource = 0, entry = 0;
    for (const kind of file.kinds) {
      checkKind(kind);
      this.kindNames.push(new KindNames(kind, resource, entry));
      ({ resource, entry } = this.addKind(kind, resource, entry));
    }
    const folded = file.kinds.filter((kind) => kind.ids.length > 0).map((kind) => kind.folded);
    this.joined = NAME_SEPARATOR + folded.join(NAME_SEPARATOR) + NAME_SEPARATOR;
    this.entryStart = separatedStarts(this.joined, entries);
    this.kindNames.forEach((names, k) => this.checkFolded(file.kinds[k]!, names.firstEntry));
  }

  /** Throws unless a kind's folded names are as many as its entries: its text must end where its next entry would start. */
  private checkFolded(kind: SearchKindIndex, firstEntry: number): void {
    const entries = kind.ids.length + kind.languages.length;
    if (entries === 0 ? kind.folded !== '' : this.entryStart[firstEntry]! + kind.folded.length + 1 !== this.entryStart[firstEntry + entries]) {
      throw new Error(`search index: ${kind.kind}: the lists do not agree in length`);
    }
  }

  get entryCount(): number { return this.entryResource.length; }
  get resourceCount(): number { return this.resourceId.length; }

  /** The folded name's length, without reading it. */
  foldedLength(entry: number): number { return this.entryStart[entry + 1]! - this.entryStart[entry]! - 1; }

  foldedName(entry: number): string {
    return this.joined.slice(this.entryStart[entry]!, this.entryStart[entry + 1]! - 1);
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

  /** Adds a kind's resources and entries from the positions given; gives the next ones. */
  private addKind(kind: SearchKindIndex, firstResource: number, firstEntry: number): { resource: number; entry: number } {
    const kindIndex = this.kinds.push(kind.kind) - 1;
    const resources = kind.ids.length;
    this.resourceId.set(kind.ids, firstResource);
    this.resourceKind.fill(kindIndex, firstResource, firstResource + resources);
    // resources filled natively: this runs on a cold start, mostly before the JIT has compiled it
    let entry = firstEntry, translation = 0;
    for (let r = 0; r < resources; r++) {
      const count = kind.counts[r]!;
      this.entryResource.fill(firstResource + r, entry, entry + count + 1);
      this.entryLanguage[entry] = OWN_NAME;
      for (let n = 1; n <= count; n++) this.entryLanguage[entry + n] = kind.languages[translation++]!;
      entry += count + 1;
    }
    return { resource: firstResource + resources, entry };
  }
}

/** A kind's own names and display names, split into strings on first use. */
class KindNames {
  private ownNames: string[] | null = null;
  private displayNames: string[] | null = null;

  constructor(private readonly kind: SearchKindIndex, readonly firstResource: number, readonly firstEntry: number) {}

  ownName(resource: number): string {
    return (this.ownNames ??= splitNames(this.kind.names, this.kind.ids.length))[resource]!;
  }

  display(translation: number): string {
    return (this.displayNames ??= splitNames(this.kind.display, this.kind.languages.length))[translation]!;
  }
}

/** Throws unless a kind's lists agree in length (counted without splitting them; folded names are counted as they are found). */
function checkKind(kind: SearchKindIndex): void {
  const translated = kind.counts.reduce((sum, n) => sum + n, 0);
  if (kind.counts.length !== kind.ids.length || kind.languages.length !== translated
    || countNames(kind.names, kind.ids.length) !== kind.ids.length
    || countNames(kind.display, translated) !== translated) {
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

/** Joined names split again; `expected` tells "no name" from "one empty name". */
const splitNames = (joined: string, expected: number): string[] => (expected === 0 && joined === '' ? [] : joined.split(NAME_SEPARATOR));

/**
 * Several kinds' files as one (the edge loads one file per kind and searches the kinds asked
 * together): kinds in the order given, each translated name's language renumbered into the
 * union of the files' languages, in order of first appearance.
 */
export function mergeSearchFiles(files: readonly SearchIndexFile[]): SearchIndexFile {
  if (files.length === 1) return files[0]!;
  const languages: string[] = [];
  const kinds = files.flatMap((file) => {
    const renumbered = file.languages.map((language) => {
      const known = languages.indexOf(language);
      return known >= 0 ? known : languages.push(language) - 1;
    });
    return file.kinds.map((kind) => ({ ...kind, languages: kind.languages.map((position) => renumbered[position] ?? -1) }));
  });
  return { format: SEARCH_INDEX_FORMAT, languages, kinds };
}
