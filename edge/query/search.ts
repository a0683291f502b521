/**
 * Ranked name search over a precomputed index: what `GET /v2/search/?q=` and a collection's `q`
 * answer from. The build writes a `SearchIndexFile` (each resource's own name and its translated
 * names, already folded by `foldText`); the request side loads it once into a `SearchIndex` and
 * asks it for a folded query.
 *
 * Ranking, best first: exact, then prefix, then substring, then within a few edits. Edits are
 * counted as optimal string alignment (Damerau–Levenshtein restricted to adjacent transpositions,
 * so `chraizard` is one edit from `charizard`), on UTF-16 code units (the data's names are all in
 * the Basic Multilingual Plane; a character outside it would count as two). Ties: fewer edits, the
 * API's own name before translations, the shorter matched name, the kind's order in the index,
 * the id, the language's order. Each resource appears once, with its best-ranked name.
 *
 * For an autocomplete box, short queries are held back: one character matches prefixes only (a
 * one-letter substring is in most names); two or three characters add substrings; fuzzy
 * matching starts at 4 characters with one edit and allows two from 7 (on the real index a
 * 3-letter query within one edit matches hundreds of 2–4 letter names, and a 5-letter one within
 * two edits a good part of all short names: noise, not help).
 */

/** How a name matched, best first. */
export const MatchRank = { Exact: 0, Prefix: 1, Substring: 2, Fuzzy: 3 } as const;
export type MatchRank = (typeof MatchRank)[keyof typeof MatchRank];

/** Shortest folded query (code units) that matches inside a name rather than at its start. */
export const SUBSTRING_MIN_LENGTH = 2;
/** Edits allowed for a folded query of this length (code units). */
export function maxEditsFor(queryLength: number): number {
  if (queryLength >= 7) return 2;
  if (queryLength >= 4) return 1;
  return 0;
}

/**
 * The index as the build writes it: per kind, one row per resource in list order:
 * `[id, ownName, ownFolded, languageIndex, name, folded, languageIndex, name, folded, …]`, where
 * a folded form equal to its name is written `0` (most katakana, hangul and han names) and a
 * name equal after folding to one before it in the row is left out.
 */
export interface SearchIndexFile {
  format: 'search-index/1';
  /** the languages names are in (`en`, `ja-hrkt`, …), referred to by position */
  languages: string[];
  kinds: SearchKindRows[];
}

export interface SearchKindRows {
  kind: string;
  resources: SearchRow[];
}

export type SearchRow = [number, string, string | 0, ...(number | string)[]];

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
}

/** A search's matches, sorted; hits are made only for the page asked for. */
export interface SearchResult {
  count: number;
  hits(offset: number, limit: number): SearchHit[];
}

const OWN_NAME = -1;
/** Folded names never hold a line feed (white space folds to a space), so it can separate them. */
const SEPARATOR = '\n';

/**
 * A match's sort key packs, from most to least significant: rank and edits, own name or not,
 * folded length (up to 255), the resource's position in the index (kind order, then list order,
 * i.e. id), the language. One integer below 2^53, so ranking is a numeric sort and the best name
 * of a resource is the smallest key.
 */
const LANGUAGE_SLOTS = 32;
const RESOURCE_SLOTS = 2 ** 20;
const LENGTH_SLOTS = 256;
const HEAD_UNIT = LANGUAGE_SLOTS * RESOURCE_SLOTS * LENGTH_SLOTS * 2;

/** The loaded index: names folded and deduplicated into one string, entries in flat columns. */
export class SearchIndex {
  readonly kinds: string[];
  private readonly languages: string[];
  private readonly resourceKind: number[] = [];
  private readonly resourceId: number[] = [];
  private readonly resourceName: string[] = [];
  private readonly entryResource: number[] = [];
  private readonly entryLanguage: number[] = [];
  private readonly entryName: string[] = [];
  private readonly entryFolded: number[] = [];
  /** distinct folded names, and where each starts in `joined` */
  private readonly folded: string[] = [];
  private readonly foldedStart: Int32Array;
  /** `\n` + every distinct folded name + `\n`: one native indexOf finds every substring match */
  private readonly joined: string;
  /** the entries of each distinct folded name (CSR: `entriesOf[foldedEntryStart[f]…foldedEntryStart[f + 1]]`) */
  private readonly foldedEntryStart: Int32Array;
  private readonly entriesOf: Int32Array;
  /** distinct folded names by length, for fuzzy candidates */
  private readonly foldedByLength: number[][] = [];
  /** each distinct folded name's character signature (see `signature`), made on the first fuzzy search */
  private foldedSignature: Int32Array | null = null;
  private readonly scratch: SearchScratch;

  constructor(file: SearchIndexFile) {
    if (file.languages.length >= LANGUAGE_SLOTS) throw new Error(`search index: at most ${LANGUAGE_SLOTS - 1} languages`);
    this.languages = file.languages;
    this.kinds = file.kinds.map((k) => k.kind);
    const foldedIds = new Map<string, number>();
    file.kinds.forEach((kindRows, kindIndex) => {
      for (const row of kindRows.resources) this.addRow(kindIndex, row, foldedIds);
    });
    if (this.resourceId.length >= RESOURCE_SLOTS) throw new Error(`search index: at most ${RESOURCE_SLOTS - 1} resources`);
    this.foldedStart = new Int32Array(this.folded.length);
    let offset = 1;
    this.folded.forEach((name, f) => {
      this.foldedStart[f] = offset;
      offset += name.length + 1;
      (this.foldedByLength[name.length] ??= []).push(f);
    });
    this.joined = SEPARATOR + this.folded.join(SEPARATOR) + SEPARATOR;
    [this.foldedEntryStart, this.entriesOf] = groupEntries(this.entryFolded, this.folded.length);
    this.scratch = new SearchScratch(this.folded.length, this.resourceId.length);
  }

  get resourceCount(): number { return this.resourceId.length; }
  get entryCount(): number { return this.entryName.length; }

  private addRow(kindIndex: number, row: SearchRow, foldedIds: Map<string, number>): void {
    const resource = this.resourceId.length;
    const [id, ownName, ownFolded] = row;
    this.resourceKind.push(kindIndex);
    this.resourceId.push(id);
    this.resourceName.push(ownName);
    this.addEntry(resource, OWN_NAME, ownName, ownFolded, foldedIds);
    for (let i = 3; i < row.length; i += 3) {
      const language = row[i], name = row[i + 1], folded = row[i + 2];
      if (typeof language !== 'number' || typeof name !== 'string' || (folded !== 0 && typeof folded !== 'string')) {
        throw new Error(`search index: ${this.kinds[kindIndex]} ${id}: malformed name at position ${i}`);
      }
      this.addEntry(resource, language, name, folded, foldedIds);
    }
  }

  private addEntry(resource: number, language: number, name: string, folded: string | 0, foldedIds: Map<string, number>): void {
    const text = folded === 0 ? name : folded;
    if (text.length === 0 || text.includes(SEPARATOR)) return;
    let f = foldedIds.get(text);
    if (f === undefined) {
      f = this.folded.length;
      foldedIds.set(text, f);
      this.folded.push(text);
    }
    this.entryResource.push(resource);
    this.entryLanguage.push(language);
    this.entryName.push(name);
    this.entryFolded.push(f);
  }

  /** Every resource matching a folded query (see `foldText`), best first. An empty query matches nothing. */
  search(foldedQuery: string, options: SearchOptions = {}): SearchResult {
    if (foldedQuery.length === 0 || foldedQuery.includes(SEPARATOR)) return this.result(new Float64Array(0), new Int32Array(0));
    const filtering = options.purpose === 'filter';
    const scratch = this.scratch;
    scratch.begin();
    this.matchText(foldedQuery, filtering ? 1 : SUBSTRING_MIN_LENGTH);
    const maxEdits = filtering ? 0 : maxEditsFor(foldedQuery.length);
    if (maxEdits > 0) this.matchFuzzy(foldedQuery, maxEdits);
    const allowedKind = this.kinds.map((kind) => options.kinds?.has(kind) ?? true);
    for (const [f, head] of scratch.matchedFolded()) {
      for (let i = this.foldedEntryStart[f]!; i < this.foldedEntryStart[f + 1]!; i++) {
        const entry = this.entriesOf[i]!;
        const resource = this.entryResource[entry]!;
        if (allowedKind[this.resourceKind[resource]!]) scratch.offer(resource, entry, this.sortKey(head, entry));
      }
    }
    const keys = scratch.sortedKeys();
    const entries = new Int32Array(keys.length);
    keys.forEach((key, i) => { entries[i] = scratch.bestEntry(keyResource(key)); });
    return this.result(keys, entries);
  }

  /** Exact, prefix and substring matches, in one pass of indexOf over the joined names. */
  private matchText(query: string, substringFrom: number): void {
    const prefixOnly = query.length < substringFrom;
    const needle = prefixOnly ? SEPARATOR + query : query;
    const shift = prefixOnly ? 1 : 0;
    let position = this.joined.indexOf(needle);
    while (position !== -1) {
      const at = position + shift;
      const f = this.foldedAt(at);
      const start = this.foldedStart[f]!;
      const length = this.folded[f]!.length;
      const rank = at !== start ? MatchRank.Substring : length === query.length ? MatchRank.Exact : MatchRank.Prefix;
      this.scratch.matchFolded(f, rank * 3);
      // indexOf found the earliest occurrence in this name: go on from the next name
      position = this.joined.indexOf(needle, start + length + 1 - shift);
    }
  }

  /** Names within `maxEdits` that matched no other way; only lengths within `maxEdits` can be. */
  private matchFuzzy(query: string, maxEdits: number): void {
    const signatures = this.foldedSignature ??= Int32Array.from(this.folded, signature);
    const querySignature = signature(query);
    for (let length = Math.max(1, query.length - maxEdits); length <= query.length + maxEdits; length++) {
      for (const f of this.foldedByLength[length] ?? []) {
        if (this.scratch.isMatched(f)) continue;
        // each edit brings in at most one character and takes out at most one: a name with more
        // than maxEdits characters (or signature bits) the query lacks, or the other way round, is too far
        const name = signatures[f]!;
        if (bitCount(name & ~querySignature) > maxEdits || bitCount(querySignature & ~name) > maxEdits) continue;
        const edits = this.scratch.distance.within(query, this.folded[f]!, maxEdits);
        if (edits !== null) this.scratch.matchFolded(f, MatchRank.Fuzzy * 3 + edits);
      }
    }
  }

  /** The distinct folded name holding position `at` of `joined` (binary search of starts). */
  private foldedAt(at: number): number {
    let low = 0, high = this.foldedStart.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.foldedStart[middle]! <= at) low = middle; else high = middle - 1;
    }
    return low;
  }

  /** `head` is rank × 3 + edits. */
  private sortKey(head: number, entry: number): number {
    const language = this.entryLanguage[entry]!;
    const length = Math.min(LENGTH_SLOTS - 1, this.folded[this.entryFolded[entry]!]!.length);
    const notOwn = language === OWN_NAME ? 0 : 1;
    return (((head * 2 + notOwn) * LENGTH_SLOTS + length) * RESOURCE_SLOTS + this.entryResource[entry]!) * LANGUAGE_SLOTS + language + 1;
  }

  private result(keys: Float64Array, entries: Int32Array): SearchResult {
    return {
      count: keys.length,
      hits: (offset, limit) => {
        const from = Math.max(0, offset), to = Math.min(keys.length, from + Math.max(0, limit));
        const hits: SearchHit[] = [];
        for (let i = from; i < to; i++) hits.push(this.hit(keys[i]!, entries[i]!));
        return hits;
      },
    };
  }

  private hit(key: number, entry: number): SearchHit {
    const resource = this.entryResource[entry]!;
    const language = this.entryLanguage[entry]!;
    const head = Math.floor(key / HEAD_UNIT);
    return {
      kind: this.kinds[this.resourceKind[resource]!]!,
      id: this.resourceId[resource]!,
      name: this.resourceName[resource]!,
      matchedName: this.entryName[entry]!,
      language: language === OWN_NAME ? null : this.languages[language] ?? null,
      rank: Math.floor(head / 3) as MatchRank,
      edits: head % 3,
    };
  }
}

const keyResource = (key: number): number => Math.floor(key / LANGUAGE_SLOTS) % RESOURCE_SLOTS;

/** Which of 32 character classes (code unit mod 32: a–z apart from each other) a text uses, as bits. */
function signature(text: string): number {
  let bits = 0;
  for (let i = 0; i < text.length; i++) bits |= 1 << (text.charCodeAt(i) & 31);
  return bits;
}

function bitCount(bits: number): number {
  let n = bits - ((bits >>> 1) & 0x55555555);
  n = (n & 0x33333333) + ((n >>> 2) & 0x33333333);
  return (((n + (n >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** Entries grouped by their folded name, as offsets and a flat list (compressed sparse rows). */
function groupEntries(entryFolded: number[], foldedCount: number): [Int32Array, Int32Array] {
  const start = new Int32Array(foldedCount + 1);
  for (const f of entryFolded) start[f + 1]!++;
  for (let f = 0; f < foldedCount; f++) start[f + 1]! += start[f]!;
  const filled = start.slice(0, foldedCount);
  const entries = new Int32Array(entryFolded.length);
  entryFolded.forEach((f, entry) => { entries[filled[f]!++] = entry; });
  return [start, entries];
}

/**
 * What one search writes as it goes, kept between searches so that a search allocates no
 * per-name or per-resource arrays: a generation number marks which slots belong to this search.
 */
class SearchScratch {
  readonly distance = new BoundedEditDistance();
  private generation = 0;
  private readonly foldedGeneration: Int32Array;
  private readonly foldedHead: Int32Array;
  private matched: number[] = [];
  private readonly resourceGeneration: Int32Array;
  private readonly resourceKey: Float64Array;
  private readonly resourceEntry: Int32Array;
  private touched: number[] = [];

  constructor(foldedCount: number, resourceCount: number) {
    this.foldedGeneration = new Int32Array(foldedCount);
    this.foldedHead = new Int32Array(foldedCount);
    this.resourceGeneration = new Int32Array(resourceCount);
    this.resourceKey = new Float64Array(resourceCount);
    this.resourceEntry = new Int32Array(resourceCount);
  }

  begin(): void {
    this.generation++;
    this.matched = [];
    this.touched = [];
  }

  isMatched(f: number): boolean { return this.foldedGeneration[f] === this.generation; }

  matchFolded(f: number, head: number): void {
    if (this.isMatched(f)) return;
    this.foldedGeneration[f] = this.generation;
    this.foldedHead[f] = head;
    this.matched.push(f);
  }

  *matchedFolded(): Generator<[number, number]> {
    for (const f of this.matched) yield [f, this.foldedHead[f]!];
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
    this.touched.forEach((resource, i) => { keys[i] = this.resourceKey[resource]!; });
    return keys.sort();
  }

  bestEntry(resource: number): number { return this.resourceEntry[resource]!; }
}

/**
 * Optimal string alignment distance, computed only within `max` of the diagonal and given up
 * as soon as a whole row exceeds `max`. Its three rows are kept between calls (one allocation
 * per index, not per candidate).
 */
export class BoundedEditDistance {
  private previous2 = new Int32Array(64);
  private previous = new Int32Array(64);
  private current = new Int32Array(64);

  /** The distance between a and b when it is at most `max`, else null. */
  within(a: string, b: string, max: number): number | null {
    const n = a.length, m = b.length;
    if (Math.abs(n - m) > max) return null;
    if (n === 0 || m === 0) return Math.max(n, m) <= max ? Math.max(n, m) : null;
    this.ensure(m + 1);
    const outside = max + 1;
    let previous2 = this.previous2, previous = this.previous, current = this.current;
    for (let j = 0; j <= m; j++) previous[j] = j <= max ? j : outside;
    for (let i = 1; i <= n; i++) {
      const from = Math.max(1, i - max), to = Math.min(m, i + max);
      current[from - 1] = from === 1 && i <= max ? i : outside;
      let rowMin = current[from - 1]!;
      const ai = a.charCodeAt(i - 1);
      for (let j = from; j <= to; j++) {
        const bj = b.charCodeAt(j - 1);
        let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (ai === bj ? 0 : 1));
        if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj) value = Math.min(value, previous2[j - 2]! + 1);
        current[j] = value;
        if (value < rowMin) rowMin = value;
      }
      if (to < m) current[to + 1] = outside;
      if (rowMin > max) return null;
      const recycled = previous2;
      previous2 = previous; previous = current; current = recycled;
    }
    this.previous2 = previous2; this.previous = previous; this.current = current;
    const distance = previous[m]!;
    return distance <= max ? distance : null;
  }

  private ensure(size: number): void {
    if (this.previous.length >= size) return;
    this.previous2 = new Int32Array(size);
    this.previous = new Int32Array(size);
    this.current = new Int32Array(size);
  }
}
