/**
 * One build's files as the request logic reads them: through the reader it is given, with the
 * routing table, meta, lists and query indexes parsed (the packed search index decoded) once
 * and kept, and each file's ETag computed once.
 * Files do not change under one instance: a CDN deploy is immutable, and the preview makes a new
 * instance for each build it serves.
 */
import { contentHash, type Answer, type AnswerIdentity } from './http.ts';
import {
  fieldColumnFile, filterIndexFile, idOfUrl, languageSearchFile, languageSearchPackFile, listFile, metaFile, routesFile, searchIndexFile, searchPackFile, type Meta, type Routes,
} from './layout.ts';
import type { FullList } from './pagination.ts';
import { FieldColumn } from './query/field-column.ts';
import { FilterIndex } from './query/filter.ts';
import { decodeFilterPack } from './query/filter-pack.ts';
import type { SearchIndexFile } from './query/search-index.ts';
import { decodeSearchPack } from './query/search-pack.ts';
import { SearchIndex } from './query/search.ts';

export interface FileReader {
  /** the bytes of a file under dist/, by its relative path, or null when there is none */
  read(path: string): Promise<Uint8Array | null>;
}

const decoder = new TextDecoder();

/**
 * Starts a read (a BuildFiles call) without waiting for it: the call that later waits gets the
 * same read, kept, so a cold start's reads go side by side. A failure is that call's to answer.
 */
export const readAhead = (read: Promise<unknown>): void => void read.catch(() => {});

export class BuildFiles {
  /**
   * Parsed files by path. A read that failed or found nothing is not kept, so a passing fault
   * (a CDN fetch, a rebuild in progress) does not outlive itself.
   */
  private readonly kept = new Map<string, Promise<unknown>>();
  private readonly fileHashes = new Map<string, Promise<string>>();

  constructor(
    private readonly files: FileReader,
    /** `{base_url}` as links in the files carry it */
    readonly baseUrl: string,
  ) {}

  read(path: string): Promise<Uint8Array | null> {
    return this.files.read(path);
  }

  routes(): Promise<Routes | null> {
    return this.keepRead<Routes>(routesFile);
  }

  meta(): Promise<Meta | null> {
    return this.keepRead<Meta>(metaFile);
  }

  list(kind: string): Promise<FullList | null> {
    return this.keepRead<FullList>(listFile(kind));
  }

  /** A kind's list entries by id and by name, for `id=`/`name=` batches and the search's positions. */
  listKeys(kind: string): Promise<ListKeys | null> {
    return this.keep(`list-keys:${kind}`, async () => {
      const list = await this.list(kind);
      return list && new ListKeys(list);
    });
  }

  /** A kind's filter index (value filters and range columns), loaded once from its packed file: views into its bytes, no parse. */
  filterIndex(kind: string): Promise<FilterIndex | null> {
    return this.keep(`filter-index:${kind}`, async () => {
      const bytes = await this.files.read(filterIndexFile(kind));
      return bytes && new FilterIndex(decodeFilterPack(bytes));
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
    return this.keep('search-index', async () => {
      const bytes = await this.files.read(searchPackFile);
      return bytes && new SearchIndex(decodeSearchPack(bytes));
    });
  }

  /** A kind's search index with each language's names kept apart (`lang=`); null for kinds without names. */
  languageSearchFile(kind: string): Promise<SearchIndexFile | null> {
    return this.keepRead<SearchIndexFile>(languageSearchFile(kind));
  }

  /** Every named kind's `languageSearchFile`, loaded once from their packed file (`GET /v2/search/?lang=`). */
  languageSearchIndex(): Promise<SearchIndex | null> {
    return this.keep('language-search-index', async () => {
      const bytes = await this.files.read(languageSearchPackFile);
      return bytes && new SearchIndex(decodeSearchPack(bytes));
    });
  }

  /** One allowed field's values for every entry of a kind's list, read by entry. */
  fieldColumn(kind: string, field: string): Promise<FieldColumn | null> {
    const path = fieldColumnFile(kind, field);
    return this.keep(path, async () => {
      const bytes = await this.files.read(path);
      return bytes && new FieldColumn(bytes);
    });
  }

  /**
   * A `names` field's column in one language; null when the build wrote none (no entry has a
   * name in it). Unlike other reads, not finding it is kept: the whole column gives the same
   * answer (slower), so a passing fault costs time, never a wrong answer, and a language without
   * a column costs one read per build, not one per request.
   */
  async languageColumn(kind: string, field: string, lang: string): Promise<FieldColumn | null> {
    const path = fieldColumnFile(kind, field, lang);
    const found = await this.keep(path, async () => {
      const bytes = await this.files.read(path);
      return { column: bytes && new FieldColumn(bytes) };
    });
    return found!.column;
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

  /** The answer's ETag (a file's computed once) and the build's data version. */
  async identify(answer: Answer): Promise<AnswerIdentity> {
    const version = (await this.meta().catch(() => null))?.upstream_commit;
    let etag: Promise<string>;
    if (answer.file !== undefined) {
      let known = this.fileHashes.get(answer.file);
      if (!known) this.fileHashes.set(answer.file, (known = contentHash(answer.body)));
      etag = known;
    } else etag = contentHash(answer.body);
    return { etag: await etag, version };
  }

  private keepRead<T>(path: string): Promise<T | null> {
    return this.keep(path, () => this.readJson<T>(path));
  }

  private async readJson<T>(path: string): Promise<T | null> {
    const bytes = await this.files.read(path);
    return bytes === null ? null : (JSON.parse(decoder.decode(bytes)) as T);
  }
}

/**
 * A list's positions by id (from each entry's URL) and by name. Made on a cold start for every
 * list a query touches, so it is compact: the ids in one typed array searched by halves, and
 * the names' map made only when a name is first looked up.
 */
export class ListKeys {
  /** the positions of the entries that have an id, ascending by id (of equal ids, the last listed first: it is the one found, as a map's last set) */
  private readonly byId: Int32Array;
  /** each entry's id, NaN for none */
  private readonly ids: Float64Array;
  private byName: Map<string, number> | null = null;

  constructor(readonly list: FullList) {
    const results = list.results;
    this.ids = new Float64Array(results.length);
    let withId = 0, ascending = true, last = -Infinity;
    for (let p = 0; p < results.length; p++) {
      const id = idOfUrl(results[p]!.url);
      this.ids[p] = id ?? NaN;
      if (id === null) continue;
      if (id <= last) ascending = false;
      last = id;
      withId++;
    }
    this.byId = new Int32Array(withId);
    for (let p = 0, at = 0; p < results.length; p++) if (!Number.isNaN(this.ids[p])) this.byId[at++] = p;
    // most lists are in id order already
    if (!ascending) this.byId.sort((a, b) => this.ids[a]! - this.ids[b]! || b - a);
  }

  positionOfId(id: number): number | undefined {
    let low = 0, high = this.byId.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.ids[this.byId[middle]!]! < id) low = middle + 1;
      else high = middle;
    }
    return low < this.byId.length && this.ids[this.byId[low]!] === id ? this.byId[low] : undefined;
  }

  positionOfName(name: string): number | undefined {
    if (this.byName === null) {
      this.byName = new Map();
      this.list.results.forEach((entry, position) => entry.name !== undefined && this.byName!.set(entry.name, position));
    }
    return this.byName.get(name);
  }

  /** The position of a lowercase name or a decimal id. */
  positionOf(token: string): number | undefined {
    return /^\d{1,9}$/.test(token) ? this.positionOfId(Number(token)) : this.positionOfName(token);
  }
}
