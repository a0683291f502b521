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

export interface SearchIndexFile {
  format: 'search-index/2';
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

/** The loaded index: one entry per name, in flat columns; entries of a resource are consecutive. */
export class SearchColumns {
  readonly kinds: string[] = [];
  readonly languages: string[];
  readonly resourceKind: number[] = [];
  readonly resourceId: number[] = [];
  readonly resourceName: string[] = [];
  readonly entryResource: Int32Array;
  /** a position in `languages`, or OWN_NAME */
  readonly entryLanguage: Int8Array;
  readonly entryFolded: string[];
  /** as written; empty: the own name's is the resource's name, a translation's its folded form */
  private readonly entryDisplay: string[];
  /** `\n` + every entry's folded name + `\n`, and where each starts in it */
  readonly joined: string;
  readonly entryStart: Int32Array;

  constructor(file: SearchIndexFile) {
    if (file.format !== 'search-index/2') throw new Error(`search index: unknown format ${String(file.format)}`);
    if (file.languages.length > 127) throw new Error('search index: at most 127 languages');
    this.languages = file.languages;
    const entries = file.kinds.reduce((sum, kind) => sum + kind.ids.length + kind.languages.length, 0);
    this.entryResource = new Int32Array(entries);
    this.entryLanguage = new Int8Array(entries);
    this.entryFolded = new Array<string>(entries);
    this.entryDisplay = new Array<string>(entries);
    const foldedParts: string[] = [];
    let entry = 0;
    for (const kind of file.kinds) entry = this.addKind(kind, entry, foldedParts);
    this.joined = NAME_SEPARATOR + foldedParts.join(NAME_SEPARATOR) + NAME_SEPARATOR;
    this.entryStart = new Int32Array(this.entryFolded.length);
    let offset = 1;
    this.entryFolded.forEach((name, entry) => {
      this.entryStart[entry] = offset;
      offset += name.length + 1;
    });
  }

  get entryCount(): number { return this.entryFolded.length; }

  displayName(entry: number): string {
    const display = this.entryDisplay[entry]!;
    if (display !== '') return display;
    return this.entryLanguage[entry] === OWN_NAME ? this.resourceName[this.entryResource[entry]!]! : this.entryFolded[entry]!;
  }

  /** Adds a kind's resources and entries from `entry` on; gives the next entry. */
  private addKind(kind: SearchKindIndex, firstEntry: number, foldedParts: string[]): number {
    const kindIndex = this.kinds.push(kind.kind) - 1;
    const translated = kind.counts.reduce((sum, n) => sum + n, 0);
    const names = splitNames(kind.names, kind.ids.length), folded = splitNames(kind.folded, kind.ids.length + translated);
    const display = splitNames(kind.display, translated);
    if (names.length !== kind.ids.length || kind.counts.length !== kind.ids.length || kind.languages.length !== translated
      || display.length !== translated || folded.length !== kind.ids.length + translated) {
      throw new Error(`search index: ${kind.kind}: the lists do not agree in length`);
    }
    let entry = firstEntry, next = 0, translation = 0;
    for (let r = 0; r < kind.ids.length; r++) {
      const resource = this.resourceId.push(kind.ids[r]!) - 1;
      this.resourceKind.push(kindIndex);
      this.resourceName.push(names[r]!);
      this.setEntry(entry++, resource, OWN_NAME, folded[next++]!, '');
      for (let n = 0; n < kind.counts[r]!; n++, translation++) {
        this.setEntry(entry++, resource, kind.languages[translation]!, folded[next++]!, display[translation]!);
      }
    }
    if (folded.length > 0) foldedParts.push(kind.folded);
    return entry;
  }

  private setEntry(entry: number, resource: number, language: number, folded: string, display: string): void {
    this.entryResource[entry] = resource;
    this.entryLanguage[entry] = language;
    this.entryFolded[entry] = folded;
    this.entryDisplay[entry] = display;
  }
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
  return { format: 'search-index/2', languages, kinds };
}
