/**
 * The one place a build's files are written, for the full build and the dev loop's planner
 * alike. A writer opens onto a folder the build fills (the full build: each worker shard for
 * its kinds, then the main thread for the rest) or onto a hard-linked copy of the served build
 * (the dev loop's planner). What a build writes:
 *   - each kind (kind-writer.ts): its items and subresources, their name links, its bulk file
 *     (bulk-writer.ts) and the files made from its whole set of records (kind-files.ts: list,
 *     default-size pages, query indexes, kept facts);
 *   - then, once (finish): the root index, 404, the change reports (changes.ts), the coverage
 *     map (coverage.ts), the lists as of each version group (as-of-lists.ts), the artifacts
 *     (OpenAPI, types, docs page, CDN rules), the packed search index, the routing table and
 *     meta (routes-meta.ts), the stamp, the archive of v2/ and the build index (build-index.ts);
 *     beside them, on a thread of its own, the database (generator/database/) from the workers'
 *     parts; last, the listing of the downloads with their sizes and hashes.
 * On a copy, a file is replaced only when its bytes change, and a folder a kind file owns loses
 * the files it no longer makes. The downloads (the bulk files and the archive) are not made with
 * the answers on a copy: the stamp marks them stale, and `refreshDownloads`, on a later copy,
 * makes them again, copying every gzip member none of whose files changed. Once it has, the bytes
 * are those of a full build.
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import {
  buildIndexFile,
  buildStampFile,
  bulkFile,
  downloadsIndexFile,
  changeReportsFolder,
  coverageFile,
  gzipCopyFile,
  idOfUrl,
  itemFile,
  listFile,
  metaFile,
  notFoundFile,
  rootFile,
  routesFile,
  languageSearchFile,
  languageSearchPackFile,
  searchIndexFile,
  searchPackFile,
  upstreamKinds,
  type DownloadEntry,
  type DownloadsIndex,
  type Meta,
  type Routes,
} from '../../contract/layout.ts';
import type { SearchIndexFile } from '../../contract/search-index.ts';
import type { FullList } from '../../contract/pagination.ts';
import { allResources } from '../resources/index.ts';
import type { AnyResource } from '../resources/define.ts';
import type { CoverageMap } from '../../schemas/output/coverage.ts';
import { artifactMakers } from '../artifacts/index.ts';
import { folderReader, timeless, type Artifact, type ArtifactContext } from '../artifacts/artifact.ts';
import { artifactMemo } from './artifact-memo.ts';
import { memberSource, writeTarGz, type ArchiveEntry } from './archive.ts';
import { BulkWriter } from './bulk-writer.ts';
import { assembleDatabaseAside, databaseMeta, type AssembleJob } from '../database/index.ts';
import { inServedOrder, readBuildIndex, type BuildIndex, type KindResult } from './build-index.ts';
import { BuildError } from '../build-error.ts';
import { readIfThere } from '../files/folders.ts';
import { servedItem } from '../../contract/borrowed-field.ts';
import { changeChain, changeFiles, readChangeReports } from './change-reports.ts';
import { coveredKinds, coverageFactsFile, makeCoverage, readCoverage } from '../indexes/coverage-facts.ts';
import { AS_OF_FACT_KINDS, AS_OF_KINDS, asOfFactsFile, asOfViewsFolder } from '../../contract/as-of/facts.ts';
import { asOfListFiles } from '../indexes/as-of-lists.ts';
import type { KindEmitter } from './emit-kinds.ts';
import type { AnyRecord } from './kind-files.ts';
import { KindWriter } from './kind-writer.ts';
import { CopyOutput, Output } from './output.ts';
import type { FilePool } from '../files/file-pool.ts';
import { searchPack } from '../indexes/query-index.ts';
import { archiveOf, DATABASE_TYPE, databaseOf, DOWNLOAD_TYPE, downloadFile, metaOf, rootIndex, routesOf, type About } from './routes-meta.ts';
import { readBuildStamp, type BuildStamp } from './stamp.ts';

export { readBuildIndex, type BuildIndex, type KindResult } from './build-index.ts';
export { KindWriter } from './kind-writer.ts';

/** What the files besides the kinds' say: the base URL, the stamp's input hash, meta's facts. */
export interface FinishOptions {
  baseUrl: string;
  inputHash: string;
  /** what `GET {base}/meta/` says besides the counts */
  about: About;
  /** the data folder given with --data / DATA_DIR, for the stamp (stamp.ts) */
  dataDir?: string | undefined;
  /** the committed change reports (data/changes/); none when not given */
  changesDir?: string | undefined;
  /** only these kinds were built (tests): no artifacts */
  only?: ReadonlySet<string> | undefined;
  /** the build workers' parts of the database (shard.ts), made into one file; none: no database (a copy keeps the served one) */
  databaseParts?: readonly string[] | undefined;
}

/** What finish wrote besides the kinds, and the coverage map (the build prints its largest gaps). */
export interface Finished {
  files: number;
  bytes: number;
  archiveEntries: ArchiveEntry[];
  coverage: CoverageMap;
  /** the archive's file, as this build names it */
  archive: string;
}

/**
 * What the answers of updates on copies changed since the downloads were last made: by kind, the
 * bulk chunks whose items were replaced or removed; every path written, linked or removed (the
 * archive looks at them again); the archive's file as the last update named it.
 */
export interface StaleDownloads {
  chunks: Map<string, Set<string>>;
  rewritten: Set<string>;
  /**
   * each kind's items whose answers were made again (not only relinked: the database holds a
   * link as its id, so a renamed record's name changes no row but its own)
   */
  answered: Map<string, Set<number>>;
  archive: string;
  /** what the database is made for (its file's name, its meta), as the last update on a copy said; null before one */
  about: About | null;
}

/** The kinds whose item files leave a field to another document: their items as served are spliced (contract/borrowed-field.ts). */
const BORROWING: ReadonlySet<string> = new Set(allResources.filter((r) => r.borrows).map((r) => r.kind));

/** Waits for both (each writes into the folder a failure removes), then rethrows the first one's failure, or the second's. */
async function bothDone<T>(first: Promise<T>, second: Promise<unknown>): Promise<T> {
  const [a, b] = await Promise.allSettled([first, second]);
  if (a.status === 'rejected') throw a.reason;
  if (b.status === 'rejected') throw b.reason;
  return a.value;
}

/** The served build a copy was made from. */
interface Served {
  dir: string;
  index: BuildIndex;
  /** its archive's entries (archive.ts patchArchiveEntries) */
  entries: readonly ArchiveEntry[];
}

export class BuildWriter {
  private readonly out: Output;
  private readonly served: Served | null;
  private constructor(out: Output, served: Served | null) {
    this.out = out;
    this.served = served;
  }

  /** Onto a folder this build fills (a full build's temporary folder). */
  static fresh(root: string): BuildWriter {
    return new BuildWriter(new Output(root), null);
  }

  /**
   * Onto `root`, a hard-linked copy of the build served from `servedDir` (whose archive entries
   * are `entries`); each file written takes one of `pool`'s while it has one.
   */
  static onCopy(root: string, servedDir: string, entries: readonly ArchiveEntry[], pool: FilePool | null = null): BuildWriter {
    const index = readBuildIndex(servedDir);
    if (!index) throw new BuildError([`${servedDir} has no build index; run a full build (npm run build -- --force)`]);
    return new BuildWriter(new CopyOutput(root, pool), { dir: servedDir, index, entries });
  }

  /** On a copy, every path written, linked or removed so far; none in a full build. */
  get rewritten(): ReadonlySet<string> {
    return this.out instanceof CopyOutput ? this.out.rewritten : new Set();
  }

  get files(): number {
    return this.out.files;
  }
  get bytes(): number {
    return this.out.bytes;
  }

  /** A kind's writer; on a copy, `servedRecords` are the kind's records as the served build has them. */
  kind(em: KindEmitter, baseUrl: string, servedRecords: readonly AnyRecord[] = []): KindWriter {
    const served = this.served && { dir: this.served.dir, result: this.served.index.kinds.find((k) => k.kind === em.kind), records: servedRecords };
    return new KindWriter(this.out, em, baseUrl, served);
  }

  /** Waits for every write and link (a shard's end). */
  async flush(): Promise<void> {
    await this.out.finish();
  }

  /**
   * The files made once every kind is written (see the list above). `kinds`: the results of
   * the kinds written (on a copy, the served build's stand for the others).
   */
  async finish(options: FinishOptions, kinds: readonly KindResult[]): Promise<Finished> {
    const byKind = new Map((this.served?.index.kinds ?? []).map((k) => [k.kind, k]));
    for (const k of kinds) byKind.set(k.kind, k);
    const built = inServedOrder([...byKind.values()]);
    const { files, bytes } = this.out;
    // every kind's files landed, for the packed search index to read them back
    await this.out.finish();
    // the database is made on a thread of its own while this one writes the rest
    const database = options.databaseParts?.length ? this.writeDatabase(options.about, { parts: options.databaseParts }) : Promise.resolve();
    const { meta, ...finished } = await bothDone(this.writeRest(options, built), database);
    // on a copy, the served listing describes the served downloads, kept until refreshDownloads
    if (!this.served) await this.writeDownloadsIndex(meta);
    return { files: this.out.files - files, bytes: this.out.bytes - bytes, ...finished };
  }

  /** What finish writes but the database: the small files, then the archive and the build index; and the meta it wrote. */
  private async writeRest(options: FinishOptions, built: KindResult[]): Promise<Omit<Finished, 'files' | 'bytes'> & { meta: Meta }> {
    const { archive, coverage, meta } = await this.writeSmallFiles(options, built);
    await this.out.finish();
    // on a copy, the served build's archive and bulk files stay until refreshDownloads: the index says where their members lie
    const archiveEntries = this.served
      ? this.writeIndex({ kinds: built, archive: this.served.index.archive }, this.served.entries)
      : this.writeArchive(archive, built, new Set(), null);
    return { archive, coverage, archiveEntries, meta };
  }

  /**
   * On a copy of a build whose downloads are stale (see StaleDownloads): the bulk files of the
   * kinds whose items changed, from the items as the copy holds them (`ids`: each kind's records
   * in id order), then the archive, the build index, and the stamp without its mark. Returns the
   * archive's entries. `signal` stops it between files and the database's thread at once,
   * rejecting with its reason: the copy is then half made, for the caller to throw away.
   */
  async refreshDownloads(stale: StaleDownloads, ids: ReadonlyMap<string, readonly number[]>, signal?: AbortSignal): Promise<ArchiveEntry[]> {
    if (!this.served) throw new Error('the downloads are made again on a copy of a served build only');
    const served = this.served;
    // the database beside the bulk files and the archive: the items answered since read again, every
    // other's rows taken from the served file (the copy's database links to it until the new one is moved over it)
    const about = stale.about;
    const since = about && { database: join(this.out.root, databaseOf(about)), answered: stale.answered };
    const database = about ? this.writeDatabase(about, { items: { root: this.out.root, ids, borrowing: [...BORROWING], since } }, signal) : Promise.resolve();
    const entries = await bothDone(this.refreshFiles(stale, ids, served, signal), database);
    await this.rewriteDownloadsIndex();
    return entries;
  }

  /** The bulk files of the kinds whose items changed, the stamp without its mark, the archive and the build index. */
  private async refreshFiles(
    stale: StaleDownloads,
    ids: ReadonlyMap<string, readonly number[]>,
    served: Served,
    signal?: AbortSignal,
  ): Promise<ArchiveEntry[]> {
    signal?.throwIfAborted();
    const kinds = served.index.kinds.map((result) => {
      const chunks = stale.chunks.get(result.kind);
      if (!chunks) return result;
      const previous = memberSource({ file: join(served.dir, bulkFile(result.kind)), members: result.bulk });
      const bulk = new BulkWriter(join(this.out.root, bulkFile(result.kind)), previous, (chunk) => chunks.has(chunk));
      for (const id of ids.get(result.kind) ?? []) bulk.add(id, () => this.itemAsServed(result.kind, id));
      return { ...result, bulk: bulk.close() };
    });
    const stamp = readBuildStamp(this.out.root);
    if (stamp === null) throw new BuildError([`${served.dir} has no build stamp; run a full build (npm run build -- --force)`]);
    delete stamp.downloads;
    await this.out.write(buildStampFile, JSON.stringify(stamp));
    await this.out.finish();
    signal?.throwIfAborted();
    return this.writeArchive(stale.archive, kinds, stale.rewritten, served.index.archive.file);
  }

  /** The listing of every download meta names (contract/layout.ts `DownloadsIndex`), once each is written: its size and SHA-256. */
  private async writeDownloadsIndex(meta: Meta): Promise<void> {
    const { database, database_gzip: databaseGzip, archive, collections } = meta.downloads;
    const entry = (type: DownloadEntry['type'], url: string, contentType: string, kind?: string): DownloadEntry => ({
      type,
      ...(kind === undefined ? {} : { kind }),
      url,
      ...this.sizeAndHash(downloadFile(meta, url)),
      content_type: contentType,
      data_version: meta.upstream_commit,
    });
    const index: DownloadsIndex = {
      data_version: meta.upstream_commit,
      version: meta.version,
      downloads: [
        ...(database === undefined ? [] : [entry('database', database, DATABASE_TYPE)]),
        ...(databaseGzip === undefined ? [] : [entry('database-gzip', databaseGzip, DOWNLOAD_TYPE)]),
        entry('archive', archive, DOWNLOAD_TYPE),
        ...Object.entries(collections).map(([kind, url]) => entry('collection', url, DOWNLOAD_TYPE, kind)),
      ],
    };
    await this.out.write(downloadsIndexFile, JSON.stringify(index));
    await this.out.finish();
  }

  /** On a copy whose downloads were made again: the served listing, each file's size and hash as they are now. */
  private async rewriteDownloadsIndex(): Promise<void> {
    const read = (rel: string) => readIfThere(join(this.out.root, rel));
    const served = read(downloadsIndexFile);
    const meta = read(metaFile);
    if (served === null || meta === null) return;
    const index = JSON.parse(served.toString('utf8')) as DownloadsIndex;
    const about = JSON.parse(meta.toString('utf8')) as Meta;
    index.downloads = index.downloads.map((entry) => ({ ...entry, ...this.sizeAndHash(downloadFile(about, entry.url)) }));
    await this.out.write(downloadsIndexFile, JSON.stringify(index));
    await this.out.finish();
  }

  private sizeAndHash(file: string): Pick<DownloadEntry, 'bytes' | 'sha256'> {
    const bytes = readFileSync(join(this.out.root, file));
    return { bytes: bytes.byteLength, sha256: createHash('sha256').update(bytes).digest('hex') };
  }

  /** An item as the folder serves it: its file, or for a kind whose files borrow a field, the file with the field spliced in. */
  private itemAsServed(kind: string, id: number): Buffer {
    const line = readFileSync(join(this.out.root, itemFile(kind, id)));
    if (!BORROWING.has(kind)) return line;
    return Buffer.from(servedItem(line, (rel) => readIfThere(join(this.out.root, rel))));
  }

  /** A filter read from another kind's index (`QueryFilter.from`) is right only where the two lists hold the same ids in the same order. */
  private checkBorrowedFilters(routes: Routes): void {
    const ids = (kind: string) => {
      const bytes = readIfThere(join(this.out.root, listFile(kind)));
      return bytes === null ? [] : (JSON.parse(bytes.toString('utf8')) as FullList).results.map((entry) => idOfUrl(entry.url));
    };
    for (const kind of routes.kinds) {
      for (const { name, from } of routes.queries[kind]?.filters ?? []) {
        if (from === undefined) continue;
        const [own, other] = [ids(kind), ids(from)];
        const at = own.findIndex((id, p) => id !== other[p]);
        if (at >= 0 || own.length !== other.length) {
          const where = at >= 0 ? `at position ${at}, ${kind} ${own[at]} against ${from} ${other[at]}` : `${own.length} items against ${other.length}`;
          throw new BuildError([`${kind}: its filter ${name} is read from ${from}'s index, but the two lists differ (${where})`]);
        }
      }
    }
  }

  /** Everything but the archive and the build index; returns the archive's path, the coverage map and meta. */
  private async writeSmallFiles(options: FinishOptions, built: readonly KindResult[]): Promise<{ archive: string; coverage: CoverageMap; meta: Meta }> {
    const out = this.out;
    const kinds = built.map((k) => k.kind);
    const resources = allResources.filter((r) => kinds.includes(r.kind));
    const archive = archiveOf(options.about);
    // a build of every kind has a database: made now, or, on a copy, the served one (made again with the downloads)
    const database = options.only ? null : databaseOf(options.about);
    const routes = routesOf(built, resources, archive, database);
    this.checkBorrowedFilters(routes);
    await out.write(rootFile, JSON.stringify(rootIndex(upstreamKinds(routes), options.baseUrl)));
    await out.write(notFoundFile, JSON.stringify('Not Found'));
    const latestChange = await this.writeChanges(options);
    const meta = metaOf(options.about, options.baseUrl, built, latestChange, database !== null);
    // before the artifacts: the docs page draws it
    const coverage = await this.writeCoverage(kinds);
    await this.writeAsOfLists(kinds, options.baseUrl);
    if (!options.only) await this.writeArtifacts(options.baseUrl, resources, routes, meta);
    await this.writeSearchPack(routes);
    // lang='s: the same, each language's names kept apart
    await this.writeSearchPack(routes, languageSearchPackFile, languageSearchFile);
    await out.write(routesFile, JSON.stringify(routes));
    await out.write(metaFile, JSON.stringify(meta));
    const stamp: BuildStamp = {
      inputHash: options.inputHash,
      baseUrl: options.baseUrl,
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      // last, so that refreshDownloads, deleting it, leaves a full build's bytes
      ...(this.served ? { downloads: 'stale' as const } : {}),
    };
    await out.write(buildStampFile, JSON.stringify(stamp));
    return { archive, coverage, meta };
  }

  /**
   * The change reports that lead to this build's commit, and their list; on a copy, the served
   * reports no longer in the chain go. Returns the `to` of the newest, if any.
   */
  private async writeChanges(options: FinishOptions): Promise<string | null> {
    const chain = changeChain(options.changesDir ? readChangeReports(options.changesDir) : [], options.about.upstreamCommit);
    const files = changeFiles(chain, options.baseUrl);
    for (const [rel, body] of files) if (!this.out.holds(rel, body)) await this.out.write(rel, body);
    if (this.out instanceof CopyOutput && existsSync(join(this.out.root, changeReportsFolder))) {
      const made = new Set(files.map(([rel]) => rel));
      for (const name of readdirSync(join(this.out.root, changeReportsFolder))) {
        if (!made.has(`${changeReportsFolder}/${name}`)) this.out.remove(`${changeReportsFolder}/${name}`);
      }
    }
    return chain[0]?.to ?? null;
  }

  /**
   * The coverage map, from the covered kinds' kept coverage facts and the as-of facts. On a copy
   * where none of those was written again, the served map stands: it was made from the same facts.
   */
  private async writeCoverage(kinds: readonly string[]): Promise<CoverageMap> {
    const out = this.out;
    const covered = coveredKinds(kinds);
    const unchanged = (copy: CopyOutput) =>
      [...covered.map(coverageFactsFile), ...AS_OF_FACT_KINDS.map(asOfFactsFile)].every((file) => !copy.rewritten.has(file));
    const served = out instanceof CopyOutput && unchanged(out) ? readCoverage(out.root) : null;
    if (served) return served;
    const map = makeCoverage(out.root, covered);
    const body = JSON.stringify(map);
    if (!out.holds(coverageFile, body)) await out.write(coverageFile, body);
    return map;
  }

  /**
   * The lists as of each version group (as-of-lists.ts), when every kind they are made from was
   * built. On a copy, only the parts one of whose inputs was written again are made again (the
   * served lists' others stand), and a file of a kind made again that its lists no longer name goes.
   */
  private async writeAsOfLists(kinds: readonly string[], baseUrl: string): Promise<void> {
    const out = this.out;
    if (![...AS_OF_FACT_KINDS, ...AS_OF_KINDS].every((kind) => kinds.includes(kind))) return;
    const rewritten = out instanceof CopyOutput ? (rel: string) => out.rewritten.has(rel) : null;
    const { files, named } = asOfListFiles((rel) => readIfThere(join(out.root, rel)), baseUrl, rewritten);
    for (const [rel, body] of files) if (!out.holds(rel, body)) await out.write(rel, body);
    if (!(out instanceof CopyOutput)) return;
    for (const [kind, names] of named) {
      const folder = asOfViewsFolder(kind);
      if (!existsSync(join(out.root, folder))) continue;
      for (const name of readdirSync(join(out.root, folder))) if (!names.has(`${folder}/${name}`)) out.remove(`${folder}/${name}`);
    }
  }

  /**
   * The artifacts (artifacts.ts), in order; those with a route join the routing table's site
   * pages. Where what they are made from is as it was when this process made them last, those
   * are written (builder/artifact-memo.ts).
   */
  private async writeArtifacts(baseUrl: string, resources: readonly AnyResource[], routes: Routes, meta: Meta): Promise<void> {
    const ctx = { baseUrl, resources, routes, meta: timeless(meta) };
    const key = JSON.stringify([baseUrl, resources.map((r) => r.kind), routes, ctx.meta]);
    const files = folderReader(this.out.root);
    const made = artifactMemo.reuse(key, files);
    if (made === null) return this.makeArtifacts(key, files, ctx);
    for (const artifact of made) await this.writeArtifact(artifact, routes);
  }

  private async makeArtifacts(key: string, files: (rel: string) => string | null, ctx: Omit<ArtifactContext, 'read'>): Promise<void> {
    const recording = artifactMemo.recording(files);
    const made: Artifact[] = [];
    for (const maker of artifactMakers) {
      try {
        for (const artifact of await maker.make({ ...ctx, read: recording.read })) {
          await this.writeArtifact(artifact, ctx.routes);
          made.push(artifact);
        }
      } catch (e) {
        throw new BuildError([`${maker.name}: ${e instanceof Error ? e.message : String(e)}`], { cause: e });
      }
    }
    recording.keep(key, made);
  }

  /** One artifact: on a copy, one with the served bytes stays as it is (not written, not packed into the archive again). */
  private async writeArtifact(artifact: Artifact, routes: Routes): Promise<void> {
    if (!this.out.holds(artifact.path, artifact.body)) await this.out.write(artifact.path, artifact.body);
    if (artifact.route !== undefined) routes.site[artifact.route] = { file: artifact.path, type: artifact.contentType ?? 'application/octet-stream' };
  }

  /**
   * The packed search index of every named kind, made from their search files as written. On a
   * copy where no kind's search file was written again or removed, the served one stands: it was
   * packed from the same files.
   */
  private async writeSearchPack(routes: Routes, packFile = searchPackFile, kindFile = searchIndexFile): Promise<void> {
    const out = this.out;
    if (out instanceof CopyOutput && existsSync(join(out.root, packFile)) && !routes.kinds.some((kind) => out.rewritten.has(kindFile(kind)))) return;
    const pack = searchPack(this.readSearchFiles(routes, kindFile));
    if (!out.holds(packFile, pack)) await out.write(packFile, pack);
  }

  /**
   * Every named kind's search index as written (on a copy: the served build's for the kinds not
   * written again), in the routing table's order; a kind without one is skipped.
   */
  private readSearchFiles(routes: Routes, kindFile: (kind: string) => string): SearchIndexFile[] {
    return upstreamKinds(routes)
      .filter((kind) => !routes.idOnly.includes(kind))
      .flatMap((kind) => {
        const bytes = readIfThere(join(this.out.root, kindFile(kind)));
        return bytes === null ? [] : [JSON.parse(bytes.toString('utf8')) as SearchIndexFile];
      });
  }

  /**
   * Last, so that it holds every file of v2/ as served: the archive (on a copy, members none
   * of whose files are in `rewritten` are copied from the served one), then the build index that
   * says where its members lie; `replaced`, the served archive's file, goes when its name changed.
   */
  private writeArchive(archive: string, built: readonly KindResult[], rewritten: ReadonlySet<string>, replaced: string | null): ArchiveEntry[] {
    const previous = this.served && {
      file: join(this.served.dir, this.served.index.archive.file),
      members: this.served.index.archive.members,
      entries: this.served.entries,
      rewritten,
    };
    const { members, entries } = writeTarGz(this.out.root, 'v2', join(this.out.root, archive), previous ?? undefined);
    if (replaced !== null && replaced !== archive) rmSync(join(this.out.root, replaced), { force: true });
    return this.writeIndex({ kinds: [...built], archive: { file: archive, members } }, entries);
  }

  /**
   * The database (generator/database/), on a thread of its own: from the workers' parts, or, on a
   * copy, from the items as the copy holds them; SQLite writes the file aside, then it is moved in place.
   */
  private async writeDatabase(about: About, source: Pick<AssembleJob, 'parts' | 'items'>, signal?: AbortSignal): Promise<void> {
    const path = this.out.external(databaseOf(about));
    const gzipPath = this.out.external(gzipCopyFile(databaseOf(about)));
    const file = await assembleDatabaseAside({ path, gzipPath, ...source, meta: databaseMeta(about) }, signal);
    this.out.bytes += file.bytes + file.gzipBytes;
  }

  /** The build index (not served, never hard-linked: removed first), returning the archive entries it goes with. */
  private writeIndex(index: BuildIndex, entries: readonly ArchiveEntry[]): ArchiveEntry[] {
    rmSync(join(this.out.root, buildIndexFile), { force: true });
    writeFileSync(join(this.out.root, buildIndexFile), JSON.stringify(index));
    return [...entries];
  }
}
