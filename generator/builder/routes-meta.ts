/**
 * The assembly of the build's small index documents from the kinds it wrote: the routing
 * table (`_routes.json`), the root index and meta (`GET /v2/meta/`).
 */
import { archiveFile, bulkFile, databaseFile, gzipCopyFile, type DownloadEntry, type Meta, type Routes } from '../../contract/layout.ts';
import type { AnyResource } from '../resources/define.ts';
import type { KindResult } from './build-index.ts';
import { changeUrl } from './change-reports.ts';
import { kindQuery } from '../indexes/query-facts.ts';
import { ownKinds } from '../model/kinds.ts';

/** What meta says besides the counts. */
export interface About {
  upstreamCommit: string;
  version: string;
  builtAt: string;
}

/** The media type of the archive and the collections' files. */
export const DOWNLOAD_TYPE = 'application/gzip';
/** The database's media type (IANA's, for SQLite 3 files). */
export const DATABASE_TYPE = 'application/vnd.sqlite3';

/** The routing table of the kinds built (in the kinds' order), its site pages the downloads only (`database`: its file, when the build has one). */
export function routesOf(built: readonly KindResult[], resources: readonly AnyResource[], archive: string, database: string | null): Routes {
  const kinds = built.map((k) => k.kind);
  const routes: Routes = {
    kinds,
    subresources: Object.fromEntries(built.filter((k) => k.subresources.length).map((k) => [k.kind, k.subresources])),
    idOnly: built.filter((k) => k.idOnly).map((k) => k.kind),
    own: kinds.filter((kind) => ownKinds.has(kind)),
    borrowing: kinds.filter((kind) => resources.some((r) => r.kind === kind && r.borrows)),
    // each kind's query declaration, in the kinds' order
    queries: Object.fromEntries(
      kinds.flatMap((kind) => {
        const resource = resources.find((r) => r.kind === kind);
        return resource ? [[kind, kindQuery(resource).shape]] : [];
      }),
    ),
    site: {},
  };
  routes.site[`/${archive}`] = { file: archive, type: DOWNLOAD_TYPE };
  if (database !== null) {
    routes.site[`/${database}`] = { file: database, type: DATABASE_TYPE, ranges: true };
    routes.site[`/${gzipCopyFile(database)}`] = { file: gzipCopyFile(database), type: DOWNLOAD_TYPE };
  }
  for (const { kind } of built) routes.site[`/${bulkFile(kind)}`] = { file: bulkFile(kind), type: DOWNLOAD_TYPE };
  return routes;
}

/** The root index: each collection's URL; the upstream's root lists `meta` among them, and here it says what was built. */
export function rootIndex(kinds: readonly string[], baseUrl: string): Record<string, string> {
  return Object.fromEntries([...kinds, 'meta'].sort().map((k) => [k, `${baseUrl}/${k}/`]));
}

/** The archive's path for this build. */
export const archiveOf = (about: About): string => archiveFile(about.version, about.upstreamCommit);

/** The site's URL, below which the downloads are: the base URL without its `/v2`. */
export const siteUrlOf = (baseUrl: string): string => baseUrl.replace(/\/v2$/, '');

/** A download's file under dist/, from its URL in meta (`metaOf`). */
export const downloadFile = (meta: Pick<Meta, 'base_url'>, url: string): string => url.slice(siteUrlOf(meta.base_url).length + 1);

/** The database's path for this build. */
export const databaseOf = (about: About): string => databaseFile(about.version, about.upstreamCommit);

/**
 * The downloads whose name carries the data version (and the project's), by their type in the
 * listing: the files a new data version moves to new paths.
 */
export const versionedDownloads = (
  about: Pick<About, 'version' | 'upstreamCommit'>,
): { type: Exclude<DownloadEntry['type'], 'collection'>; file: string }[] => {
  const database = databaseFile(about.version, about.upstreamCommit);
  return [
    { type: 'database', file: database },
    { type: 'database-gzip', file: gzipCopyFile(database) },
    { type: 'archive', file: archiveFile(about.version, about.upstreamCommit) },
  ];
};

/** `latestChange`: the `to` of the report of this build's version, when there is one; `database`: whether the build has one. */
export function metaOf(about: About, baseUrl: string, built: readonly KindResult[], latestChange: string | null, database: boolean): Meta {
  const siteUrl = siteUrlOf(baseUrl);
  return {
    upstream_commit: about.upstreamCommit,
    built_at: about.builtAt,
    version: about.version,
    base_url: baseUrl,
    counts: Object.fromEntries(built.map((k) => [k.kind, k.count])),
    downloads: {
      archive: `${siteUrl}/${archiveOf(about)}`,
      collections: Object.fromEntries(built.map(({ kind }) => [kind, `${siteUrl}/${bulkFile(kind)}`])),
      ...(database ? { database: `${siteUrl}/${databaseOf(about)}`, database_gzip: `${siteUrl}/${gzipCopyFile(databaseOf(about))}` } : {}),
    },
    deploy_date: String(Math.floor(Date.parse(about.builtAt) / 1000)),
    hash: about.upstreamCommit,
    tag: null,
    changes: { list: `${baseUrl}/changes/`, latest: latestChange === null ? null : changeUrl(baseUrl, latestChange) },
  };
}
