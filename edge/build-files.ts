/**
 * One build's files as the request logic reads them: through the reader it is given, with the
 * routing table, meta, lists and query indexes parsed (the packed search index decoded) once
 * and kept, and each file's ETag computed once.
 * Files do not change under one instance: a CDN deploy is immutable, and the preview makes a new
 * instance for each build it serves.
 *
 * A file the reader finds no trace of is missing (null), which a route may answer with a 404; a
 * file that is there but cannot be parsed, or one the build always writes (the routing table,
 * each listed kind's list and filter index, the search packs) that is missing, is a broken build:
 * a BrokenBuild error, which the request logic answers with a 500.
 */
import { contentHash, type Answer, type AnswerIdentity } from './http.ts';
import {
  fieldColumnFile,
  filterIndexFile,
  itemFile,
  languageSearchFile,
  listPackFile,
  languageSearchPackFile,
  listFile,
  metaFile,
  routesFile,
  searchIndexFile,
  searchPackFile,
  type Meta,
  type Routes,
} from '../contract/layout.ts';
import type { FullList, ListEntry } from '../contract/pagination.ts';
import { FieldColumn, PatchedColumn, type ColumnReader } from '../contract/field-column.ts';
import { FilterIndex } from './query/filter.ts';
import { decodeFilterPack, type PackedFilters } from '../contract/filter-pack.ts';
import { decodeListPack, type ListPack } from '../contract/list-pack.ts';
import { firstAtLeast } from '../contract/pack.ts';
import type { SearchIndexFile } from '../contract/search-index.ts';
import { decodeSearchPack } from '../contract/search-pack.ts';
import { SearchIndex } from './query/search.ts';
import { borrowingIn, BorrowingError, withBorrowed } from '../contract/borrowed-field.ts';

export interface FileReader {
  /**
   * the bytes of a file under dist/, by its relative path, or null when there is none; a file
   * that is there but cannot be read throws
   */
  read(path: string): Promise<Uint8Array | null>;
}

const decoder = new TextDecoder();

/** A file of the build that is missing though the build always writes it, or that cannot be parsed (`cause`: what its parser threw). */
export class BrokenBuild extends Error {
  readonly path: string;
  constructor(path: string, reason: string, options?: ErrorOptions) {
    super(`${path}: ${reason}`, options);
    this.path = path;
    this.name = 'BrokenBuild';
  }
}

/** `parse` of a file's bytes; whatever it throws is the file's fault, told with its path. */
function parsed<T>(path: string, bytes: Uint8Array, parse: (bytes: Uint8Array) => T): T {
  try {
    return parse(bytes);
  } catch (error) {
    throw new BrokenBuild(path, error instanceof Error ? error.message : String(error), { cause: error });
  }
}

const parseJson = <T>(bytes: Uint8Array): T => JSON.parse(decoder.decode(bytes)) as T;
/** The content types whose files are checked once before they are served: JSON, which every client parses. */
const isJson = (contentType: string | undefined): boolean => contentType === undefined || /\bjson\b/.test(contentType);

/**
 * Starts a read (a BuildFiles call) without waiting for it: the call that later waits gets the
 * same read, kept, so a cold start's reads go side by side. A failure is that call's to answer:
 * it meets the same failure (or, once a failed read is forgotten, reads again), so the catch
 * here only keeps it from being an unhandled rejection, and hides nothing.
 */
export const readAhead = (read: Promise<unknown>): void => void read.catch(() => {});

export class BuildFiles {
  /**
   * Parsed files by path, and the bytes of files read by ranges. A read that failed or found nothing is not kept, so a passing fault
   * (a CDN fetch, a rebuild in progress) does not outlive itself.
   */
  private readonly kept = new Map<string, Promise<unknown>>();
  private readonly fileHashes = new Map<string, Promise<string>>();

  private readonly files: FileReader;
  readonly baseUrl: string;
  constructor(
    files: FileReader,
    /** `{base_url}` as links in the files carry it */
    baseUrl: string,
  ) {
    this.files = files;
    this.baseUrl = baseUrl;
  }

  read(path: string): Promise<Uint8Array | null> {
    return this.files.read(path);
  }

  /**
   * A file read again and again in parts (a download served by ranges, a few pages a request):
   * read once and kept while this build is served, so a range costs a slice, not a read of the
   * whole file.
   */
  readKept(path: string): Promise<Uint8Array | null> {
    return this.keep(`bytes ${path}`, () => this.files.read(path));
  }

  /**
   * An item as served: its file (`started`: its read, when one began before the routing table
   * was known), with the field it leaves to another document spliced in when its kind's files
   * borrow one (contract/borrowed-field.ts; then `file` names both, whose answer's hash is as
   * lasting as theirs); null when there is no such item.
   */
  async item(kind: string, key: string, started: Promise<Uint8Array | null> | null = null): Promise<{ bytes: Uint8Array; file?: string } | null> {
    const path = itemFile(kind, key);
    const bytes = await (started ?? this.files.read(path));
    if (bytes === null) return null;
    if (!(await this.routes()).borrowing?.includes(kind)) return { bytes, file: path };
    try {
      const borrowing = borrowingIn(bytes);
      if (borrowing === null) return { bytes, file: path };
      const lender = await this.files.read(borrowing.path);
      if (lender === null) throw new BrokenBuild(borrowing.path, `missing, though ${path} borrows its ${borrowing.field}`);
      const whole = withBorrowed(bytes, borrowing, lender);
      if (!looksWhole(whole)) throw new BrokenBuild(path, 'cut short: its bytes do not end as they begin');
      return { bytes: whole, file: `${path}+${borrowing.path}` };
    } catch (error) {
      if (error instanceof BorrowingError) throw new BrokenBuild(path, error.message, { cause: error });
      throw error;
    }
  }

  /** An item as served (`item`), parsed; null when there is none; one that cannot be parsed is a broken build. */
  async itemJson<T>(kind: string, key: string): Promise<T | null> {
    const item = await this.item(kind, key);
    return item === null ? null : parsed(item.file ?? itemFile(kind, key), item.bytes, parseJson<T>);
  }

  /** The routing table; every build writes one, so a build without it is broken. */
  async routes(): Promise<Routes> {
    const routes = (await this.keep(routesFile, () => this.readRequired<Routes>(routesFile, parseJson)))!;
    this.routesIn = true;
    return routes;
  }

  /** Whether the routing table has been read: until it is (a cold start), some reads start beside it. */
  get routesKnown(): boolean {
    return this.routesIn;
  }
  private routesIn = false;

  meta(): Promise<Meta | null> {
    return this.keepRead<Meta>(metaFile);
  }

  /** A kind's whole list; null for a kind the routing table does not list. */
  list(kind: string): Promise<FullList | null> {
    return this.keep(listFile(kind), () => this.readKindFile<FullList>(kind, listFile(kind), parseJson));
  }

  /** A kind's list as queries read it (its entries, by id and by name), from its packed file: no parse. */
  listKeys(kind: string): Promise<ListKeys | null> {
    return this.keep(`list-keys:${kind}`, () => this.readKindFile(kind, listPackFile(kind), (bytes) => new ListKeys(decodeListPack(bytes), this.baseUrl)));
  }

  /**
   * A kind's filter index (value filters and range columns), loaded once from its packed file:
   * views into its bytes, no parse. A filter the kind takes from another kind's index
   * (`QueryFilter.from`: the entry's `move`, the creature's) is that index's, read beside.
   */
  filterIndex(kind: string): Promise<FilterIndex | null> {
    return this.keep(`filter-index:${kind}`, async () => {
      const filters = (await this.routes()).queries[kind]?.filters ?? [];
      const lenders = [...new Set(filters.flatMap((f) => (f.from === undefined ? [] : [f.from])))];
      const path = filterIndexFile(kind);
      const [packed, ...lent] = await Promise.all([this.readKindFile(kind, path, decodeFilterPack), ...lenders.map((from) => this.filterIndex(from))]);
      if (packed === null || lenders.length === 0) return packed && new FilterIndex(packed);
      const values = filters.map(({ name, from }) => {
        const source = from === undefined ? packed : lent[lenders.indexOf(from)]?.packed;
        const filter = source?.values.find((v) => v.name === name);
        if (!filter)
          throw new BrokenBuild(
            from === undefined ? path : filterIndexFile(from),
            `holds no filter ${name}, though the routing table says ${kind} reads it there`,
          );
        if (source!.count !== packed.count)
          throw new BrokenBuild(path, `${packed.count} items, where ${from}'s index, which its filter ${name} is read from, holds ${source!.count}`);
        return filter;
      });
      return new FilterIndex({ ...packed, values });
    });
  }

  /** A kind's search index file (that kind only); null for kinds without names. */
  searchFile(kind: string): Promise<SearchIndexFile | null> {
    return this.keepRead<SearchIndexFile>(searchIndexFile(kind));
  }

  /**
   * The search index of every named kind, loaded once from the packed file: one read, views
   * into its bytes, no parse (what `GET /v2/search/` answers from, whatever `kind=` asks).
   */
  searchIndex(): Promise<SearchIndex | null> {
    return this.keep('search-index', () => this.readRequired(searchPackFile, (bytes) => new SearchIndex(decodeSearchPack(bytes))));
  }

  /** A kind's search index with each language's names kept apart (`lang=`); null for kinds without names. */
  languageSearchFile(kind: string): Promise<SearchIndexFile | null> {
    return this.keepRead<SearchIndexFile>(languageSearchFile(kind));
  }

  /** Every named kind's `languageSearchFile`, loaded once from their packed file (`GET /v2/search/?lang=`). */
  languageSearchIndex(): Promise<SearchIndex | null> {
    return this.keep('language-search-index', () => this.readRequired(languageSearchPackFile, (bytes) => new SearchIndex(decodeSearchPack(bytes))));
  }

  /** One allowed field's values for every entry of a kind's list, read by entry. */
  fieldColumn(kind: string, field: string): Promise<ColumnReader | null> {
    const path = fieldColumnFile(kind, field);
    return this.keep(path, () => this.readOptional(path, (bytes) => new FieldColumn(bytes)));
  }

  /** A filter pack every build writes at `path` (`why` says so), decoded once and kept: a list's `move` filter as of a game. */
  filterPackAt(path: string, why: string): Promise<PackedFilters> {
    return this.keep(path, () => this.readRequired(path, decodeFilterPack, why)) as Promise<PackedFilters>;
  }

  /** `base` through the column patch at `path`, one the build writes (`why` says so), kept once read; the patch is read beside `base`. */
  patchedColumn(path: string, base: Promise<ColumnReader>, why: string): Promise<ColumnReader> {
    return this.keep(path, async () => {
      const [bytes, column] = await Promise.all([this.readRequired(path, (read) => read, why), base]);
      return new PatchedColumn(column, bytes);
    }) as Promise<ColumnReader>;
  }

  /**
   * A `names` field's column in one language; null when the build wrote none (no entry has a
   * name in it). Unlike other reads, not finding it is kept: the whole column gives the same
   * answer (slower), so a passing fault costs time, never a wrong answer, and a language without
   * a column costs one read per build, not one per request.
   */
  async languageColumn(kind: string, field: string, lang: string): Promise<FieldColumn | null> {
    const path = fieldColumnFile(kind, field, lang);
    const found = await this.keep(path, async () => ({ column: await this.readOptional(path, (bytes) => new FieldColumn(bytes)) }));
    return found!.column;
  }

  /** A JSON file, parsed, not kept (an item read once per answer); null when there is none; one that cannot be parsed is a broken build. */
  json<T>(path: string): Promise<T | null> {
    return this.readOptional<T>(path, parseJson);
  }

  /** A JSON file every build writes (`why` says so), parsed, not kept: missing or unparsable, a broken build. */
  requiredJson<T>(path: string, why = 'missing, though every build writes it'): Promise<T> {
    return this.readRequired<T>(path, parseJson, why);
  }

  /**
   * Something made from the files, kept under `key` once made; like a read, a result of null or
   * a failure is not kept.
   */
  keep<T>(key: string, make: () => Promise<T | null>): Promise<T | null> {
    let made = this.kept.get(key) as Promise<T | null> | undefined;
    if (!made) {
      made = make();
      this.kept.set(key, made);
      made.then(
        (value) => value === null && this.kept.delete(key),
        () => this.kept.delete(key),
      );
    }
    return made;
  }

  /**
   * The answer's ETag (a file's computed once) and the build's data version (none when the build
   * has no meta; a meta that cannot be parsed throws). A JSON file's ends are checked before its
   * first ETag, so a file cut short is never served as a 200.
   */
  async identify(answer: Answer): Promise<AnswerIdentity> {
    const version = (await this.meta())?.upstream_commit;
    let etag: Promise<string>;
    if (answer.file !== undefined) {
      let known = this.fileHashes.get(answer.file);
      if (!known) this.fileHashes.set(answer.file, (known = checkedHash(answer.file, answer)));
      etag = known;
    } else etag = contentHash(answer.body);
    return { etag: await etag, version };
  }

  private keepRead<T>(path: string): Promise<T | null> {
    return this.keep(path, () => this.readOptional<T>(path, parseJson));
  }

  /** A file that may be missing (null); one that is there must parse. */
  private async readOptional<T>(path: string, parse: (bytes: Uint8Array) => T): Promise<T | null> {
    const bytes = await this.files.read(path);
    return bytes === null ? null : parsed(path, bytes, parse);
  }

  /** A file every build writes. */
  private async readRequired<T>(path: string, parse: (bytes: Uint8Array) => T, why = 'missing, though every build writes it'): Promise<T> {
    const bytes = await this.files.read(path);
    if (bytes === null) throw new BrokenBuild(path, why);
    return parsed(path, bytes, parse);
  }

  /** A file the build writes for each kind the routing table lists: null for any other kind. */
  private async readKindFile<T>(kind: string, path: string, parse: (bytes: Uint8Array) => T): Promise<T | null> {
    const bytes = await this.files.read(path);
    if (bytes !== null) return parsed(path, bytes, parse);
    if ((await this.routes()).kinds.includes(kind)) throw new BrokenBuild(path, `missing, though the routing table lists ${kind}`);
    return null;
  }
}

/**
 * What a collection's answer reads of a build: a BuildFiles, or a view of one as of a game
 * (edge/as-of-collection.ts), which answers the same calls with the entries as of the game.
 */
export type CollectionFiles = Pick<
  BuildFiles,
  'baseUrl' | 'read' | 'routes' | 'list' | 'listKeys' | 'filterIndex' | 'searchFile' | 'languageSearchFile' | 'fieldColumn' | 'languageColumn' | 'keep'
>;

/**
 * A served file's ETag, once its bytes look whole when they are JSON. The build checked every
 * document against its schema; what can break one after that is a copy or an upload cut short
 * (or emptied), which the file's two ends show. Parsing it instead would cost 4-12 ms for a large
 * creature on each fresh handler's first answer (SPEED.md), where hashing it costs 0.25 ms.
 */
async function checkedHash(path: string, answer: Answer): Promise<string> {
  if (isJson(answer.contentType) && !looksWhole(answer.body)) throw new BrokenBuild(path, 'cut short: its bytes do not end as they begin');
  return contentHash(answer.body);
}

const WHITESPACE = new Set([0x20, 0x0a, 0x0d, 0x09]);
/** The closing byte of a JSON document that opens with an object, an array or a string. */
const CLOSING: ReadonlyMap<number, number> = new Map([
  [0x7b, 0x7d],
  [0x5b, 0x5d],
  [0x22, 0x22],
]);

/**
 * Whether a JSON document's first and last bytes (past whitespace) are a pair that opens and
 * closes it. The build writes objects, arrays and strings only.
 */
export function looksWhole(bytes: Uint8Array): boolean {
  let first = 0;
  let last = bytes.length - 1;
  while (first <= last && WHITESPACE.has(bytes[first]!)) first++;
  while (last > first && WHITESPACE.has(bytes[last]!)) last--;
  if (first >= last) return false;
  const closing = CLOSING.get(bytes[first]!);
  return closing !== undefined && bytes[last] === closing;
}

/**
 * A kind's list as a query reads it, from its packed form (contract/list-pack.ts): how many
 * entries, each entry made when asked, positions by id and by name. Made on a cold start for
 * every list a query touches, so it is compact: the ids searched by halves in a typed array, the
 * names decoded and mapped only when first asked.
 */
export class ListKeys {
  /** the positions ascending by id (of equal ids, the last listed first: it is the one found, as a map's last set); made only for ids out of order */
  private byIdOrder: Int32Array | null = null;
  private byName: Map<string, number> | null = null;

  private readonly pack: ListPack;
  private readonly baseUrl: string;
  constructor(pack: ListPack, baseUrl: string) {
    this.pack = pack;
    this.baseUrl = baseUrl;
  }

  get count(): number {
    return this.pack.count;
  }

  /** Entry `p` as the list's JSON has it: `{name, url}`, or `{url}` for an entry without a name. */
  entry(p: number): ListEntry {
    const name = this.pack.name(p);
    const url = `${this.baseUrl}/${this.pack.kind}/${this.pack.ids[p]!}/`;
    return name === undefined ? { url } : { name, url };
  }

  /** Each entry's name, undefined where it has none. */
  names(): ReadonlyArray<string | undefined> {
    return this.pack.names();
  }

  /** Each entry's name's rank among the list's names in code-point order (equal names share one), -1 where it has none. */
  nameRanks(): Int32Array {
    return this.pack.nameRanks;
  }

  id(p: number): number {
    return this.pack.ids[p]!;
  }

  /** Where each entry's link `field` leads, as the target kind's ids (NO_LINK for none); undefined when the kind has no such link. */
  linkIds(field: string): Int32Array | undefined {
    return this.pack.linkIds(field);
  }

  positionOfId(id: number): number | undefined {
    const ids = this.pack.ids;
    // the i-th position by id: itself when the ids climb (every list the build writes)
    const order = this.pack.idsAscending ? null : this.idOrder();
    const nth = (i: number) => (order === null ? i : order[i]!);
    const at = firstAtLeast(ids.length, (i) => ids[nth(i)]! < id);
    return at < ids.length && ids[nth(at)] === id ? nth(at) : undefined;
  }

  private idOrder(): Int32Array {
    if (this.byIdOrder === null) {
      const ids = this.pack.ids;
      this.byIdOrder = Int32Array.from({ length: ids.length }, (_, p) => p).sort((a, b) => ids[a]! - ids[b]! || b - a);
    }
    return this.byIdOrder;
  }

  positionOfName(name: string): number | undefined {
    if (this.byName === null) {
      this.byName = new Map();
      this.pack.names().forEach((own, position) => own !== undefined && this.byName!.set(own, position));
    }
    return this.byName.get(name);
  }

  /** The position of a lowercase name or a decimal id. */
  positionOf(token: string): number | undefined {
    return /^\d{1,9}$/.test(token) ? this.positionOfId(Number(token)) : this.positionOfName(token);
  }
}
