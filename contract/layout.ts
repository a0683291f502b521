/**
 * Where each response lives under `dist/`. The build writes these files and the request logic
 * (preview and CDN edge) reads them, so both import the paths from here.
 */
export const API_PREFIX = 'v2';
export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100_000;

/**
 * A resource link's kind and id: `…/{kind}/{id}/` (the slash at the end optional). An id may be
 * negative (the upstream's move ailment -1, `unknown`). The one reading of an id from a URL.
 */
export function linkOf(url: string): { kind: string; id: number } | null {
  const end = idEnd(url);
  const at = idSlash(url, end);
  return at < 0 ? null : { kind: url.slice(url.lastIndexOf('/', at - 1) + 1, at), id: idAfter(url, at, end) };
}
/**
 * The id at the end of a resource link (`…/creature/1/` → 1), or null when it ends in none.
 * Read by scanning, with no match or substring made: a list answer reads one per entry.
 */
export const idOfUrl = (url: string): number | null => {
  const end = idEnd(url);
  const at = idSlash(url, end);
  return at < 0 ? null : idAfter(url, at, end);
};

const SLASH = 0x2f,
  DASH = 0x2d;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
/** A kind's segment and the slash after it, matched where `lastIndex` says (a test makes no match object). */
const KIND_SEGMENT = /[a-z0-9-]+\//y;

/** Where a link's id ends: before its last slash, if it has one. */
const idEnd = (url: string): number => (url.charCodeAt(url.length - 1) === SLASH ? url.length - 1 : url.length);

/** Where the slash before a link's id (ending at `end`) is: the URL ends `/{kind}/{id}` and maybe `/`, kind `[a-z0-9-]+`, id `-?\d+`; -1 when it does not. */
function idSlash(url: string, end: number): number {
  let i = end;
  while (i > 0 && isDigit(url.charCodeAt(i - 1))) i--;
  if (i === end) return -1;
  if (i > 0 && url.charCodeAt(i - 1) === DASH) i--;
  if (i === 0 || url.charCodeAt(i - 1) !== SLASH) return -1;
  const slash = i - 1;
  // the kind's segment runs from the slash before it (there must be one) to this one
  const kindStart = url.lastIndexOf('/', slash - 1) + 1;
  if (kindStart === 0 || kindStart === slash) return -1;
  KIND_SEGMENT.lastIndex = kindStart;
  return KIND_SEGMENT.test(url) && KIND_SEGMENT.lastIndex === slash + 1 ? slash : -1;
}

/** The id between the slash `idSlash` found and `end`, as `Number` reads it. */
function idAfter(url: string, slash: number, end: number): number {
  const negative = url.charCodeAt(slash + 1) === DASH;
  const first = negative ? slash + 2 : slash + 1;
  // past 15 digits a running sum can round otherwise than Number does
  if (end - first > 15) return Number(url.slice(slash + 1, end));
  let id = 0;
  for (let i = first; i < end; i++) id = id * 10 + (url.charCodeAt(i) - 0x30);
  return negative ? -id : id;
}

/** `007` and `7` are the same id: a key as the files name it. */
export const canonicalKey = (key: string) => (/^\d+$/.test(key) ? String(Number(key)) : key);
/** An item, by id or by name (names are hard links to the id file). */
export const itemFile = (kind: string, key: string | number) => `${API_PREFIX}/${kind}/${key}.json`;
/**
 * A document below an item, e.g. `creature/1/encounters` (by name: a hard link). They share
 * one folder per kind and subresource rather than one folder per item: thousands fewer folders
 * to make, and one placeholder rule maps them on a CDN.
 */
export const subresourceFile = (kind: string, key: string | number, sub: string) => `${API_PREFIX}/_sub/${kind}/${sub}/${key}.json`;
/** A collection's whole list (`count` and every result), the source of every computed page. */
export const listFile = (kind: string) => `${API_PREFIX}/_lists/${kind}.json`;
/** A precomputed page of the default size. */
export const pageFile = (kind: string, offset: number) => `${API_PREFIX}/_pages/${kind}/${offset}.json`;
/**
 * The query indexes of a kind, written by the build for every listed kind, read by
 * the request logic for filters, `q`, `fields` and `GET /v2/search/`. Positions in them are
 * positions in the kind's list (`listFile`), so results come out in list order.
 */
/** FilterIndexFile (edge/query/filter.ts) packed (contract/filter-pack.ts): each value filter's members and each range filter's column. */
export const filterIndexFile = (kind: string) => `${API_PREFIX}/_query/filters/${kind}.bin`;
/** The kind's list packed (contract/list-pack.ts): each entry's id and name, and where its links lead. */
export const listPackFile = (kind: string) => `${API_PREFIX}/_query/lists/${kind}.bin`;
/** SearchIndexFile (contract/search-index.ts) holding this one kind; none for kinds without names. */
export const searchIndexFile = (kind: string) => `${API_PREFIX}/_query/search/${kind}.json`;
/**
 * Every named kind's search index in one binary file (contract/search-pack.ts), kinds in the
 * routing table's order: what `GET /v2/search/` reads, one read and no parse on a cold start.
 */
export const searchPackFile = `${API_PREFIX}/_query/search.bin`;
/**
 * `lang=`'s search indexes: a kind's names with each language's kept apart (search-index.ts
 * `makeSearchKind` `byLanguage`), for a collection's `q`; and every named kind's packed, for
 * `GET /v2/search/`.
 */
export const languageSearchFile = (kind: string) => `${API_PREFIX}/_query/search-lang/${kind}.json`;
export const languageSearchPackFile = `${API_PREFIX}/_query/search-lang.bin`;
/**
 * A field column (contract/field-column.ts): one allowed field's value for every list entry, a
 * line each; with `lang`, a `names` field's entries in that language only. `~` is in no field
 * path and no language name.
 */
export const fieldColumnFile = (kind: string, field: string, lang: string | null = null) =>
  `${API_PREFIX}/_query/fields/${kind}/${field}${lang === null ? '' : `~${lang}`}.jsonl`;
/** The root index: each collection's name and URL. */
export const rootFile = `${API_PREFIX}/index.json`;
/** What the request logic needs to route: kinds and their subresources. */
export const routesFile = `${API_PREFIX}/_routes.json`;
export const notFoundFile = `${API_PREFIX}/404.json`;
/** Bulk downloads live beside v2/, outside the API's own tree. */
export const DOWNLOADS_DIR = 'downloads';
/** A collection's every item, one full response per line, gzip'd. */
export const bulkFile = (kind: string) => `${DOWNLOADS_DIR}/${kind}.ndjson.gz`;
/** The whole dist/v2 tree as one versioned archive. */
export const archiveFile = (version: string, upstreamCommit: string) => `${DOWNLOADS_DIR}/creature-api-v2-${version}-${upstreamCommit.slice(0, 7)}.tar.gz`;
/**
 * Every download of a build with its size and hash: `GET {base}/downloads/`. Beside the downloads,
 * not under v2/: the archive of v2/ is one of the files it describes.
 */
export const downloadsIndexFile = `${DOWNLOADS_DIR}/index.json`;
/** The path segment of the downloads' listing below the base URL. */
export const DOWNLOADS_PATH = 'downloads';

/** What `GET {base}/downloads/` answers. */
export interface DownloadsIndex {
  /** the upstream commit the files were made from */
  data_version: string;
  /** this project's version (package.json) */
  version: string;
  downloads: DownloadEntry[];
}

export interface DownloadEntry {
  /** the whole API as one SQLite database (uncompressed, or gzip'd), as one archive of every answer, or one collection's items */
  type: 'database' | 'database-gzip' | 'archive' | 'collection';
  /** the collection's kind; absent for the others */
  kind?: string;
  url: string;
  bytes: number;
  /** of the file's bytes, in hex */
  sha256: string;
  content_type: string;
  data_version: string;
}

/** The whole API as one SQLite database, named as the archive is: a new data or project version is a new name. */
export const databaseFile = (version: string, upstreamCommit: string) => `${DOWNLOADS_DIR}/creature-api-v2-${version}-${upstreamCommit.slice(0, 7)}.sqlite`;
/** A download's gzip'd copy beside it: the database's, for a whole download (the `.sqlite` is read by ranges, so it is served uncompressed). */
export const gzipCopyFile = (file: string) => `${file}.gz`;
/** What was built: `GET {base}/meta/`. */
export const metaFile = `${API_PREFIX}/meta.json`;
/** The coverage map: `GET {base}/meta/coverage/`. */
export const coverageFile = `${API_PREFIX}/meta/coverage.json`;
/** The data versions' change reports: `GET {base}/changes/` lists them, newest first. */
export const changesListFile = `${API_PREFIX}/changes.json`;
/** `GET {base}/changes/{to}`: the report of the data version at upstream commit `to` (40 hex). */
export const changeReportFile = (to: string) => `${API_PREFIX}/changes/${to}.json`;
/** The folder of the reports, which holds nothing else. */
export const changeReportsFolder = `${API_PREFIX}/changes`;
/** What a build was made from; decides whether `npm start` must build again. */
export const buildStampFile = 'build-stamp.json';
/** What a build keeps for the next one to reuse (where each bulk file's and the archive's gzip members lie); not served. */
export const buildIndexFile = 'build-index.json';

export interface Routes {
  kinds: string[];
  /** subresource names by kind, e.g. `{ creature: ['encounters'] }` */
  subresources: Record<string, string[]>;
  /** kinds addressed by id only */
  idOnly: string[];
  /** kinds of this API's own, not the upstream's (the entry): not in the root index nor in `/v2/search/` (`upstreamKinds`); absent in older builds */
  own?: string[];
  /** kinds whose item files leave a field to another document (contract/borrowed-field.ts): an item of theirs is spliced from both; absent in older builds */
  borrowing?: string[];
  /**
   * What each kind's collection can be asked besides limit and offset: its value
   * filters, range filters and the fields its list entries may carry, in declared order.
   * Kinds without an entry take none of them.
   */
  queries: Record<string, QueryShape>;
  /**
   * pages outside /v2/ (the docs page and its assets, the downloads): URL path → file under dist/
   * and its type; `ranges`: a file read by byte ranges (the database), answered `206` to a `Range`
   */
  site: Record<string, { file: string; type: string; ranges?: true }>;
}

/** The upstream's kinds, in the routing table's order: what the root index lists and `/v2/search/` finds (not `Routes.own`). */
export const upstreamKinds = (routes: Pick<Routes, 'kinds' | 'own'>): string[] => routes.kinds.filter((kind) => !routes.own?.includes(kind));

/**
 * A kind's query vocabulary as the request logic and the contract read it: the parameters its
 * collection takes besides the fixed ones. The build makes it from the resource's declaration
 * (generator/resources/query.ts `QueryDecl`, compiled once by generator/indexes/query-facts.ts
 * `kindQuery`); every reader takes it from the routing table through `queryShape`.
 */
export interface QueryShape {
  /** value filters (`type=fire,water`), in declared order */
  filters: QueryFilter[];
  /** integer range filters (`speed=100..`), in declared order */
  ranges: QueryRange[];
  /** dotted paths `fields=` accepts, in the item's own key order */
  fields: string[];
  /**
   * The paths below a declared field `fields=` also accepts (`stats.base_stat`), from the item's
   * schema (generator/indexes/field-paths.ts); absent: none is accepted.
   */
  below?: string[];
  /**
   * Declared fields that link one resource of another kind, by field: `fields=` takes below
   * such a field any path that kind's entries take (`species.names` on creature). Absent: none.
   */
  links?: Record<string, string>;
}

export interface QueryFilter {
  /** the parameter's name, e.g. `type`, `egg_group`, `is_legendary` */
  name: string;
  /** what a value names, for people: `a type`, `an egg group`, `yes or no` */
  about: string;
  /** the kind whose names and ids are its values; null for a yes/no filter (`true`/`false`, `1`/`0`) */
  target: string | null;
  /**
   * the kind whose filter of the same name this one is, its list being this kind's position for
   * position (the build checks): read from that kind's filter index, this kind's holds none (the
   * entry's `move`, the creature's)
   */
  from?: string;
}

export interface QueryRange {
  /** the parameter's name, e.g. `speed`, `special-attack`, `power` */
  name: string;
  /** what the number is, for people: `base speed`, `power (moves without power match no range)` */
  about: string;
}

/** No parameters besides the fixed ones: a kind the routing table holds no queries for. */
export const NO_QUERIES: QueryShape = { filters: [], ranges: [], fields: [] };

/** A kind's query vocabulary from the routing table; NO_QUERIES for a kind without an entry. */
export const queryShape = (routes: Pick<Routes, 'queries'>, kind: string): QueryShape =>
  (Object.hasOwn(routes.queries, kind) ? routes.queries[kind] : undefined) ?? NO_QUERIES;

export interface Meta {
  /** the upstream data set's commit (its PROVENANCE.md) */
  upstream_commit: string;
  /** when the build ran (SOURCE_DATE_EPOCH when set, for reproducible builds) */
  built_at: string;
  /** this project's version (package.json) */
  version: string;
  base_url: string;
  /** each collection's item count */
  counts: Record<string, number>;
  /**
   * bulk reads: every item of a collection as NDJSON (gzip), the whole API as one archive, and as
   * one SQLite database, uncompressed and gzip'd (both absent from a build of some kinds only)
   */
  downloads: { archive: string; collections: Record<string, string>; database?: string; database_gzip?: string };
  /**
   * The upstream service's own meta keys, for clients written against it (one reads
   * `deploy_date` to decide when to drop its cache): the build time in Unix seconds, as a string
   */
  deploy_date: string;
  /** upstream key: the commit of the data (the same as `upstream_commit`) */
  hash: string;
  /** upstream key: the release tag of that commit; null, as the pinned commit is not a tagged release */
  tag: string | null;
  /** the data versions' change reports: their list, and the report of this build's version (null when none was made) */
  changes: { list: string; latest: string | null };
}
