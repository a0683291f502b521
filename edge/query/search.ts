/**
 * Ranked name search over a precomputed index: what `GET /v2/search/?q=` and a collection's `q`
 * answer from. The build writes a `SearchIndexFile` per kind (search-index.ts: each resource's
 * own name and its translated names, already folded by `foldText`) and every kind's packed into
 * one file (search-pack.ts); the request side loads a kind's file (`SearchIndex.fromFiles`) or
 * the packed one once into a `SearchIndex` and asks it for a folded query.
 *
 * Ranking, best first: exact, then prefix, then substring, then within a few edits. Edits are
 * counted as optimal string alignment (Damerau–Levenshtein restricted to adjacent transpositions,
 * so `chraizard` is one edit from `charizard`), on UTF-16 code units (the data's names are all in
 * the Basic Multilingual Plane; a character outside it would count as two). Ties: fewer edits, the
 * API's own name before translations, the shorter matched name, the kind's order in the index,
 * the id, the language's order. Each resource appears once, with its best-ranked name.
 *
 * For an autocomplete box, short queries are held back: one or two characters match prefixes
 * only (on the real names `pi` is inside 827 resources' names, `a` starts 1,334); substrings
 * count from 3 characters (a 2-character han or kana word inside a name is then found only as a
 * prefix). Edits count from 4 characters, one edit up to 6 and two from 7, so that an edit changes
 * about a quarter of the word or less. Lower thresholds would not flood the answer (on the real
 * names `pik`, `fir`, `abr`, `mew` within one edit match 4–7 resources, `pichu`
 * within two 33) but one edit in three letters or two in five rewrite a third of the word or
 * more: such matches are seldom the name meant, and they would follow every prefix match.
 */

import { BoundedEditDistance } from './edit-distance.ts';
import {
  entrySignatures,
  NAME_SEPARATOR,
  OWN_NAME,
  packSearchFiles,
  SearchColumns,
  signature,
  type PackedSearch,
  type SearchIndexFile,
} from '../../contract/search-index.ts';

/** How a name matched, best first. */
export const MatchRank = { Exact: 0, Prefix: 1, Substring: 2, Fuzzy: 3 } as const;
export type MatchRank = (typeof MatchRank)[keyof typeof MatchRank];

/** Shortest folded query (code units) that matches inside a name rather than at its start. */
export const SUBSTRING_MIN_LENGTH = 3;
/** Edits allowed for a folded query of this length (code units). */
export function maxEditsFor(queryLength: number): number {
  if (queryLength >= 7) return 2;
  if (queryLength >= 4) return 1;
  return 0;
}

/** One answer of a search, ready to become `{name, url, kind, matched_name, language}`. */
export interface SearchHit {
  kind: string;
  id: number;
  /** the resource's own name */
  name: string;
  /** the name that matched, as written (not folded) */
  matchedName: string;
  /** the matched name's language; null for the API's own name */
  language: string | null;
  rank: MatchRank;
  /** edits between the query and the matched name; 0 unless fuzzy */
  edits: number;
}

export interface SearchOptions {
  /** only these kinds; all when absent */
  kinds?: ReadonlySet<string>;
  /**
   * `search` (the default): ranked for an autocomplete box, short queries held back, typos
   * forgiven. `filter` (a collection's `q`): exact, prefix and substring at any length, no edits,
   * as the case-insensitive substring `q` of today does.
   */
  purpose?: 'search' | 'filter';
  /**
   * Only names in this language (`lang=`, by its name in `/language/`); the API's own names
   * never match. Meant for an index made `byLanguage` (search-index.ts `makeSearchKind`), where
   * each entry's language is every language that has that name.
   */
  language?: string;
}

/** A search's matches, sorted; hits are made only for the page asked for. */
export interface SearchResult {
  count: number;
  hits(offset: number, limit: number): SearchHit[];
}

/**
 * A match's sort key packs, from most to least significant: rank and edits, own name or not,
 * folded length (up to 255), the resource's position in the index (kind order, then list order,
 * i.e. id), the language. One integer below 2^53, so ranking is a numeric sort and the best name
 * of a resource is the smallest key.
 */
const LANGUAGE_SLOTS = 128;
const RESOURCE_SLOTS = 2 ** 20;
const LENGTH_SLOTS = 256;
const HEAD_UNIT = LANGUAGE_SLOTS * RESOURCE_SLOTS * LENGTH_SLOTS * 2;

/** A loaded index and what it answers. */
export class SearchIndex {
  private readonly columns: SearchColumns;
  /** each entry's character signature (`signature`), for fuzzy candidates: packed in the all-kinds file, else made on the first fuzzy search */
  private signatures: Int32Array | null;
  private readonly scratch: SearchScratch;
  /** the one language entries may be in for the search under way (a position in the columns' languages), or ANY_LANGUAGE */
  private onlyLanguage = ANY_LANGUAGE;

  constructor(packed: PackedSearch) {
    this.columns = new SearchColumns(packed);
    this.signatures = this.columns.signatures;
    if (this.columns.resourceCount >= RESOURCE_SLOTS) throw new Error(`search index: at most ${RESOURCE_SLOTS - 1} resources`);
    this.scratch = new SearchScratch(this.columns.entryCount, this.columns.resourceCount);
  }

  /** An index of the kinds of these files, in the order given (a collection's `q`: its kind's file alone). */
  static fromFiles(...files: SearchIndexFile[]): SearchIndex {
    return new SearchIndex(packSearchFiles(files));
  }

  get kinds(): readonly string[] {
    return this.columns.kinds;
  }
  get resourceCount(): number {
    return this.columns.resourceCount;
  }
  get entryCount(): number {
    return this.columns.entryCount;
  }

  /** Every resource matching a folded query (see `foldText`), best first. An empty query matches nothing. */
  search(foldedQuery: string, options: SearchOptions = {}): SearchResult {
    if (foldedQuery.length === 0 || foldedQuery.includes(NAME_SEPARATOR)) return this.result(new Float64Array(0), new Int32Array(0));
    const filtering = options.purpose === 'filter';
    const scratch = this.scratch;
    scratch.begin();
    const allowedKind = this.columns.kinds.map((kind) => options.kinds?.has(kind) ?? true);
    this.onlyLanguage = options.language === undefined ? ANY_LANGUAGE : this.columns.languages.indexOf(options.language);
    // a language no name is in: nothing can match
    if (this.onlyLanguage === -1) return this.result(new Float64Array(0), new Int32Array(0));
    this.matchText(foldedQuery, filtering ? 1 : SUBSTRING_MIN_LENGTH, allowedKind);
    const maxEdits = filtering ? 0 : maxEditsFor(foldedQuery.length);
    if (maxEdits > 0) this.matchFuzzy(foldedQuery, maxEdits, allowedKind);
    const keys = scratch.sortedKeys();
    const entries = new Int32Array(keys.length);
    keys.forEach((key, i) => {
      entries[i] = scratch.bestEntry(keyResource(key));
    });
    return this.result(keys, entries);
  }

  /** Exact, prefix and substring matches, in one pass of indexOf over the joined names. */
  private matchText(query: string, substringFrom: number, allowedKind: boolean[]): void {
    const columns = this.columns,
      joined = columns.joined;
    const prefixOnly = query.length < substringFrom;
    const needle = prefixOnly ? NAME_SEPARATOR + query : query;
    const shift = prefixOnly ? 1 : 0;
    let position = joined.indexOf(needle);
    while (position !== -1) {
      const at = position + shift;
      const entry = this.entryAt(at);
      const start = columns.entryStart[entry]!;
      const length = columns.foldedLength(entry);
      const rank = at !== start ? MatchRank.Substring : length === query.length ? MatchRank.Exact : MatchRank.Prefix;
      this.offer(entry, rank * 3, allowedKind);
      // indexOf found the earliest occurrence in this name: go on from the next name
      position = joined.indexOf(needle, start + length + 1 - shift);
    }
  }

  /**
   * Names within `maxEdits` that matched no other way; only lengths within `maxEdits` can be.
   * One plain pass over the entries, no sorted copy to build first: on a cold start the first
   * search runs mostly before the JIT has compiled it, and a pass is what the sort would cost.
   */
  private matchFuzzy(query: string, maxEdits: number, allowedKind: boolean[]): void {
    const { joined, entryStart } = this.columns;
    const signatures = (this.signatures ??= entrySignatures(joined, entryStart));
    const querySignature = signature(query, 0, query.length);
    const shortest = query.length - maxEdits,
      longest = query.length + maxEdits;
    for (let entry = 0; entry < signatures.length; entry++) {
      const start = entryStart[entry]!,
        length = entryStart[entry + 1]! - start - 1;
      if (length < shortest || length > longest || length === 0 || this.scratch.isMatched(entry)) continue;
      // each edit brings in at most one character and takes out at most one: a name with more
      // than maxEdits characters (or signature bits) the query lacks, or the other way round, is too far
      const name = signatures[entry]!;
      if (bitCount(name & ~querySignature) > maxEdits || bitCount(querySignature & ~name) > maxEdits) continue;
      const edits = this.scratch.distance.within(query, joined.slice(start, start + length), maxEdits);
      if (edits !== null) this.offer(entry, MatchRank.Fuzzy * 3 + edits, allowedKind);
    }
  }

  /** `head` is rank × 3 + edits. */
  private offer(entry: number, head: number, allowedKind: boolean[]): void {
    const { entryResource, entryLanguage, resourceKind } = this.columns;
    const resource = entryResource[entry]!;
    this.scratch.markMatched(entry);
    if (!allowedKind[resourceKind[resource]!]) return;
    const language = entryLanguage[entry]!;
    if (this.onlyLanguage !== ANY_LANGUAGE && language !== this.onlyLanguage) return;
    const length = Math.min(LENGTH_SLOTS - 1, this.columns.foldedLength(entry));
    const notOwn = language === OWN_NAME ? 0 : 1;
    const key = (((head * 2 + notOwn) * LENGTH_SLOTS + length) * RESOURCE_SLOTS + resource) * LANGUAGE_SLOTS + language + 1;
    this.scratch.offer(resource, entry, key);
  }

  /** The entry whose folded name holds position `at` of the joined names (binary search of starts). */
  private entryAt(at: number): number {
    const starts = this.columns.entryStart;
    let low = 0,
      high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle]! <= at) low = middle;
      else high = middle - 1;
    }
    return low;
  }

  private result(keys: Float64Array, entries: Int32Array): SearchResult {
    return {
      count: keys.length,
      hits: (offset, limit) => {
        const from = Math.max(0, offset),
          to = Math.min(keys.length, from + Math.max(0, limit));
        const hits: SearchHit[] = [];
        for (let i = from; i < to; i++) hits.push(this.hit(keys[i]!, entries[i]!));
        return hits;
      },
    };
  }

  private hit(key: number, entry: number): SearchHit {
    const { entryResource, entryLanguage, kinds, resourceKind, resourceId, languages } = this.columns;
    const resource = entryResource[entry]!;
    const language = entryLanguage[entry]!;
    const head = Math.floor(key / HEAD_UNIT);
    return {
      kind: kinds[resourceKind[resource]!]!,
      id: resourceId[resource]!,
      name: this.columns.resourceName(resource),
      matchedName: this.columns.displayName(entry),
      language: language === OWN_NAME ? null : (languages[language] ?? null),
      rank: Math.floor(head / 3) as MatchRank,
      edits: head % 3,
    };
  }
}

/** No `language` asked: an entry in any language, or the own name, may match. */
const ANY_LANGUAGE = -2;

const keyResource = (key: number): number => Math.floor(key / LANGUAGE_SLOTS) % RESOURCE_SLOTS;

function bitCount(bits: number): number {
  let n = bits - ((bits >>> 1) & 0x55555555);
  n = (n & 0x33333333) + ((n >>> 2) & 0x33333333);
  return (((n + (n >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * What one search writes as it goes, kept between searches so that a search allocates no
 * per-name or per-resource arrays: a generation number marks which slots belong to this search.
 */
class SearchScratch {
  readonly distance = new BoundedEditDistance();
  private generation = 0;
  private readonly entryGeneration: Int32Array;
  private readonly resourceGeneration: Int32Array;
  private readonly resourceKey: Float64Array;
  private readonly resourceEntry: Int32Array;
  private touched: number[] = [];

  constructor(entryCount: number, resourceCount: number) {
    this.entryGeneration = new Int32Array(entryCount);
    this.resourceGeneration = new Int32Array(resourceCount);
    this.resourceKey = new Float64Array(resourceCount);
    this.resourceEntry = new Int32Array(resourceCount);
  }

  begin(): void {
    this.generation++;
    this.touched = [];
  }

  isMatched(entry: number): boolean {
    return this.entryGeneration[entry] === this.generation;
  }
  markMatched(entry: number): void {
    this.entryGeneration[entry] = this.generation;
  }

  /** Keeps the entry when it is the resource's best so far. */
  offer(resource: number, entry: number, key: number): void {
    if (this.resourceGeneration[resource] !== this.generation) {
      this.resourceGeneration[resource] = this.generation;
      this.touched.push(resource);
    } else if (this.resourceKey[resource]! <= key) return;
    this.resourceKey[resource] = key;
    this.resourceEntry[resource] = entry;
  }

  /** Each touched resource's best key, ascending (keys are distinct: each holds its resource). */
  sortedKeys(): Float64Array {
    const keys = new Float64Array(this.touched.length);
    this.touched.forEach((resource, i) => {
      keys[i] = this.resourceKey[resource]!;
    });
    return keys.sort();
  }

  bestEntry(resource: number): number {
    return this.resourceEntry[resource]!;
  }
}
