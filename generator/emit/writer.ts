/**
 * The one place a build's files are written, for the full build and the dev loop's planner
 * alike. A writer opens onto a folder the build fills (the full build: each worker shard for
 * its kinds, then the main thread for the rest) or onto a hard-linked copy of the served build
 * (an update), and writes:
 *   - a kind (KindWriter): each record's item with its subresources and its bulk line, the
 *     records that went, then, on close, the name links and the files made from the kind's
 *     whole set of records (`kindFiles`: its list and default-size pages, its query indexes
 *     and the query facts an update reads back for the records it does not make again);
 *   - the rest (finish): root, 404, routing table, meta, artifacts, the packed search index of
 *     every kind (read back from the kinds' search files as written), stamp, archive, build index.
 * On a copy, a file is replaced only when its bytes change, a folder a kind file owns loses
 * the files it no longer makes, and bulk and archive members none of whose files changed are
 * copied from the served build. Either way the bytes are those of a full build.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  archiveFile, buildIndexFile, buildStampFile, bulkFile, DEFAULT_LIMIT, fieldColumnFile, filterIndexFile, itemFile, listFile, metaFile, notFoundFile, pageFile, rootFile, routesFile,
  languageSearchFile, languageSearchPackFile, searchIndexFile, searchPackFile, subresourceFile, type QueryShape, type Meta, type Routes,
} from '../../edge/layout.ts';
import { paginate, type FullList } from '../../edge/pagination.ts';
import { allResources } from '../resources/index.ts';
import { artifactMakers } from './artifacts.ts';
import { BuildError } from './build-error.ts';
import { MemberGzipFile, memberSource, writeTarGz, type ArchiveEntry, type GzipMember } from './archive.ts';
import { kindList, nameOwners, type KindEmitter, type RecordDocuments } from './emit-kinds.ts';
import { CopyOutput, Output } from './output.ts';
import { kindQuery, queryFactsFile, type QueryFacts } from './query-facts.ts';
import { fieldColumns, filterIndex, searchIndex, searchPack, type RecordFacts } from './query-index.ts';
import type { BuildStamp } from './stamp.ts';
import type { SearchIndexFile } from '../../edge/query/search-index.ts';

type AnyRecord = { id: number; name: string | null };

/** What a kind's writing leaves for the rest of the build (and, in the build index, for the next one). */
export interface KindResult {
  kind: string;
  count: number;
  subresources: string[];
  idOnly: boolean;
  /** the members of the kind's bulk file, keyed by chunk */
  bulk: GzipMember[];
}

/**
 * What a build of dist/ keeps for the next one to reuse: the gzip members of every bulk file
 * and of the archive (see archive.ts). Not served.
 */
export interface BuildIndex {
  kinds: KindResult[];
  archive: { file: string; members: GzipMember[] };
}

export function readBuildIndex(outDir: string): BuildIndex | null {
  try {
    return JSON.parse(readFileSync(join(outDir, buildIndexFile), 'utf8')) as BuildIndex;
  } catch {
    return null;
  }
}

/** What the files besides the kinds' say: the base URL, the stamp's input hash, meta's facts. */
export interface FinishOptions {
  baseUrl: string;
  inputHash: string;
  /** what `GET {base}/meta/` says besides the counts */
  about: { upstreamCommit: string; version: string; builtAt: string };
  /** only these kinds were built (tests): no artifacts */
  only?: ReadonlySet<string> | undefined;
}

/** What a kind file is made from: the kind's records in id order and its whole list, and its query facts. */
export interface KindFileInput {
  kind: string;
  records: readonly AnyRecord[];
  list: FullList;
  baseUrl: string;
  query: KindFacts;
}

/** A kind's query declaration with the facts of its records. */
export interface KindFacts {
  shape: QueryShape;
  /** every record's facts, in id order */
  all: readonly RecordFacts[];
  /** the listed records' facts, in list order: index positions are positions here */
  listed: readonly RecordFacts[];
}

/** What a build keeps of a kind's facts (queryFactsFile), for the next update's records it does not make again. */
interface KeptFacts {
  format: 'query-facts/1';
  kind: string;
  /** the declaration the facts were made for: another one makes them unusable */
  shape: QueryShape;
  records: Array<[id: number, facts: QueryFacts]>;
}

/**
 * A file (or files) made from a kind's whole set of records. Every entry is written by both
 * builds: a new per-kind output is one more entry here. `folder`, when given, holds only what
 * the maker makes: an update removes the files in it that the maker no longer makes.
 */
export interface KindFileMaker {
  make(input: KindFileInput): Array<[path: string, body: string]>;
  folder?: (kind: string) => string;
}

const folderOf = (path: string) => path.slice(0, path.lastIndexOf('/'));
const pagesFolder = (kind: string) => folderOf(pageFile(kind, 0));
const fieldsFolder = (kind: string) => folderOf(fieldColumnFile(kind, 'id'));

export const kindFiles: readonly KindFileMaker[] = [
  { make: ({ kind, list }) => [[listFile(kind), JSON.stringify(list)]] },
  {
    // the default-size pages: the first is written even for an empty list
    make: ({ kind, list, baseUrl }) => {
      const files: Array<[string, string]> = [];
      for (let offset = 0; offset === 0 || offset < list.count; offset += DEFAULT_LIMIT) {
        files.push([pageFile(kind, offset), JSON.stringify(paginate(list, `${baseUrl}/${kind}/`, offset, DEFAULT_LIMIT))]);
      }
      return files;
    },
    folder: pagesFolder,
  },
  // the query indexes (issue 18): the request side's filters, q, search and fields
  { make: ({ kind, query }) => [[filterIndexFile(kind), JSON.stringify(filterIndex(kind, query.shape, query.listed))]] },
  {
    make: ({ kind, query }) => {
      const search = searchIndex(kind, query.listed);
      return search ? [[searchIndexFile(kind), JSON.stringify(search)]] : [];
    },
  },
  {
    make: ({ kind, query }) => {
      const search = searchIndex(kind, query.listed, true);
      return search ? [[languageSearchFile(kind), JSON.stringify(search)]] : [];
    },
  },
  {
    make: ({ kind, query }) => fieldColumns(kind, query.shape, query.listed).map((c): [string, string] => [fieldColumnFile(kind, c.field), JSON.stringify(c)]),
    folder: fieldsFolder,
  },
  {
    make: ({ kind, query }) => {
      const kept: KeptFacts = { format: 'query-facts/1', kind, shape: query.shape, records: query.all.map((r) => [r.id, r.facts]) };
      return [[queryFactsFile(kind), JSON.stringify(kept)]];
    },
  },
];

/** The facts a served build kept for a kind, by id; a BuildError when they are missing or were made for another declaration. */
function readKeptFacts(dir: string, kind: string, shape: QueryShape): Map<number, QueryFacts> {
  let kept: KeptFacts;
  try {
    kept = JSON.parse(readFileSync(join(dir, queryFactsFile(kind)), 'utf8')) as KeptFacts;
  } catch {
    throw new BuildError([`${dir} has no query facts of ${kind}; run a full build (npm run build -- --force)`]);
  }
  if (kept.format !== 'query-facts/1' || JSON.stringify(kept.shape) !== JSON.stringify(shape)) {
    throw new BuildError([`${dir} holds query facts of ${kind} made for other declarations; run a full build (npm run build -- --force)`]);
  }
  return new Map(kept.records);
}

/**
 * Bulk files are gzip members of up to 16 consecutive ids each (the chunk is the id's bucket),
 * so an edit of one record recompresses one member and copies the rest.
 */
export const bulkChunk = (id: number): string => String(Math.floor(id / 16));

const NEWLINE = Buffer.from('\n');

/**
 * Writes a bulk file from lines given in id order, one gzip member per chunk. A chunk none of
 * whose lines changed (`changed`) is copied from the previous file when it has it; otherwise
 * its lines are asked for, at most one chunk's at a time.
 */
class BulkWriter {
  private readonly file: MemberGzipFile;
  private chunk: string | null = null;
  private lines: Array<() => Buffer> = [];
  constructor(
    path: string,
    private readonly previous: { get(key: string): Buffer | null; close(): void },
    private readonly changed: (chunk: string) => boolean,
  ) {
    mkdirSync(dirname(path), { recursive: true });
    this.file = new MemberGzipFile(path);
  }
  add(id: number, line: () => Buffer): void {
    const chunk = bulkChunk(id);
    if (chunk !== this.chunk) this.flush();
    this.chunk = chunk;
    this.lines.push(line);
  }
  private flush(): void {
    if (this.chunk === null) return;
    const old = this.changed(this.chunk) ? null : this.previous.get(this.chunk);
    if (old) this.file.append(this.chunk, old);
    else this.file.add(this.chunk, Buffer.concat(this.lines.flatMap((line) => [line(), NEWLINE])));
    this.chunk = null;
    this.lines = [];
  }
  close(): GzipMember[] {
    this.flush();
    this.previous.close();
    return this.file.close();
  }
}

/** The served build a copy was made from. */
interface Served {
  dir: string;
  index: BuildIndex;
  /** its archive's entries (archive.ts patchArchiveEntries) */
  entries: readonly ArchiveEntry[];
}

const noPrevious = { get: () => null, close: () => {} };

/**
 * One kind's files. Records come in id order, after every `remove`; `close` then writes the
 * name links, the kind files and the bulk file's last member.
 */
export class KindWriter {
  private readonly records: AnyRecord[] = [];
  /** ids whose files this writer replaced or removed: their names are linked again, their bulk chunks recompressed */
  private readonly rewritten = new Set<number>();
  private readonly changedChunks = new Set<string>();
  /** the query facts of the records made by this writer */
  private readonly facts = new Map<number, QueryFacts>();
  private readonly bulk: BulkWriter;
  private started = false;

  constructor(
    private readonly out: Output,
    private readonly em: KindEmitter,
    private readonly baseUrl: string,
    /** the served build's result for the kind and its records, when writing onto a copy */
    private readonly served: { dir: string; result: KindResult | undefined; records: readonly AnyRecord[] } | null,
  ) {
    const previous = served?.result ? memberSource({ file: join(served.dir, bulkFile(em.kind)), members: served.result.bulk }) : noPrevious;
    this.bulk = new BulkWriter(join(out.root, bulkFile(em.kind)), previous, (chunk) => this.changedChunks.has(chunk));
  }

  /** A record that is gone: its item and subresources (its names go on close). */
  remove(id: number): void {
    if (this.started) throw new Error(`${this.em.kind} ${id}: records that went are removed before any record is written`);
    this.out.remove(itemFile(this.em.kind, id));
    for (const sub of this.em.subs) this.out.remove(subresourceFile(this.em.kind, id, sub));
    this.mark(id);
  }

  /**
   * A record and those of its documents that were made (all of them in a full build; on a
   * copy, those an edit reached); a document with the bytes already there is left as it is.
   */
  async record(record: AnyRecord, docs: RecordDocuments): Promise<void> {
    // an item that could not be made in a full build: that build stops with its problem, and nothing may link to it
    if (!docs.item && !this.served) return;
    this.started = true;
    this.records.push(record);
    const kind = this.em.kind;
    let replaced = false;
    const put = async (rel: string, body: string | Buffer) => {
      if (this.out.holds(rel, body)) return;
      await this.out.write(rel, body);
      replaced = true;
    };
    if (docs.item) await put(itemFile(kind, record.id), docs.item);
    for (const { sub, body } of docs.subs) await put(subresourceFile(kind, record.id, sub), body);
    if (replaced) this.mark(record.id);
    if (docs.facts) this.facts.set(record.id, docs.facts);
    const item = docs.item;
    this.bulk.add(record.id, item ? () => item : () => this.servedItem(record.id));
  }

  /** A record whose documents stay as they are (an update only). */
  keep(record: AnyRecord): void {
    if (!this.served) throw new Error(`${this.em.kind} ${record.id}: a full build writes every record`);
    this.started = true;
    this.records.push(record);
    this.bulk.add(record.id, () => this.servedItem(record.id));
  }

  async close(): Promise<KindResult> {
    this.linkNames();
    const list = kindList(this.em, this.baseUrl, this.records);
    const query = this.queryInput();
    for (const maker of kindFiles) await this.writeKindFiles(maker, { kind: this.em.kind, records: this.records, list, baseUrl: this.baseUrl, query });
    return { kind: this.em.kind, count: list.count, subresources: this.em.subs, idOnly: this.em.idOnly, bulk: this.bulk.close() };
  }

  /** Every record's facts: made now, or (on a copy) as the served build kept them. */
  private queryInput(): KindFacts {
    const query = this.em.query;
    let kept: Map<number, QueryFacts> | null = null;
    const all = this.records.map((record): RecordFacts => {
      let facts = this.facts.get(record.id);
      if (!facts && this.served) facts = (kept ??= readKeptFacts(this.served.dir, this.em.kind, query.shape)).get(record.id);
      if (!facts) throw new BuildError([`${this.em.kind} ${record.id}: no query facts made or kept`]);
      return { id: record.id, name: record.name, facts };
    });
    const listed = this.em.listed;
    return { shape: query.shape, all, listed: listed ? all.filter((_, i) => listed(this.records[i])) : all };
  }

  private mark(id: number): void {
    this.rewritten.add(id);
    this.changedChunks.add(bulkChunk(id));
  }

  /** The item as the copy holds it: the served build's bytes, as this writer did not replace it. */
  private servedItem(id: number): Buffer {
    return readFileSync(join(this.out.root, itemFile(this.em.kind, id)));
  }

  /** `{kind}/{name}.json` (and each subresource's) is a hard link to the file of the lowest id with that name. */
  private linkNames(): void {
    const kind = this.em.kind;
    const before = nameOwners(this.served?.records ?? []);
    const after = nameOwners(this.records);
    for (const name of new Set([...before.keys(), ...after.keys()])) {
      const was = before.get(name);
      const now = after.get(name);
      if (was === now && (now === undefined || !this.rewritten.has(now))) continue;
      if (now === undefined) {
        this.out.remove(itemFile(kind, name));
        for (const sub of this.em.subs) this.out.remove(subresourceFile(kind, name, sub));
        continue;
      }
      this.out.alias(itemFile(kind, name), itemFile(kind, now));
      for (const sub of this.em.subs) this.out.alias(subresourceFile(kind, name, sub), subresourceFile(kind, now, sub));
    }
  }

  private async writeKindFiles(maker: KindFileMaker, input: KindFileInput): Promise<void> {
    const files = maker.make(input);
    for (const [rel, body] of files) if (!this.out.holds(rel, body)) await this.out.write(rel, body);
    if (!this.served || !maker.folder) return;
    const folder = maker.folder(input.kind);
    const made = new Set(files.map(([rel]) => rel));
    let present: string[] = [];
    try {
      present = readdirSync(join(this.out.root, folder));
    } catch {
      present = [];
    }
    for (const name of present) if (!made.has(`${folder}/${name}`)) this.out.remove(`${folder}/${name}`);
  }
}

export class BuildWriter {
  private constructor(
    private readonly out: Output,
    private readonly served: Served | null,
  ) {}

  /** Onto a folder this build fills (a full build's temporary folder). */
  static fresh(root: string): BuildWriter {
    return new BuildWriter(new Output(root), null);
  }

  /** Onto `root`, a hard-linked copy of the build served from `servedDir` (whose archive entries are `entries`). */
  static onCopy(root: string, servedDir: string, entries: readonly ArchiveEntry[]): BuildWriter {
    const index = readBuildIndex(servedDir);
    if (!index) throw new BuildError([`${servedDir} has no build index; run a full build (npm run build -- --force)`]);
    return new BuildWriter(new CopyOutput(root), { dir: servedDir, index, entries });
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
   * The files made once every kind is written: the root, 404, routing table, meta, the
   * artifacts (OpenAPI, types, docs page), the packed search index, the stamp, the build index
   * and, last, the archive of the whole v2/ tree. `kinds`: the results of the kinds written (on a copy, the served
   * build's stand for the others).
   */
  async finish(options: FinishOptions, kinds: readonly KindResult[]): Promise<{ files: number; bytes: number; archiveEntries: ArchiveEntry[] }> {
    const byKind = new Map((this.served?.index.kinds ?? []).map((k) => [k.kind, k]));
    for (const k of kinds) byKind.set(k.kind, k);
    const built = [...byKind.values()].sort((a, b) => (a.kind < b.kind ? -1 : 1));
    const { files, bytes } = this.out;
    // every kind's files landed, for the packed search index to read them back
    await this.out.finish();
    const archive = await this.writeSmallFiles(options, built);
    await this.out.finish();
    // last, so that it holds every file of v2/ as served
    const previous = this.served && { file: join(this.served.dir, this.served.index.archive.file), members: this.served.index.archive.members, entries: this.served.entries };
    const rewritten = this.out instanceof CopyOutput ? this.out.rewritten : new Set<string>();
    const { members, entries } = writeTarGz(this.out.root, 'v2', join(this.out.root, archive), previous ? { ...previous, rewritten } : undefined);
    if (this.served && this.served.index.archive.file !== archive) rmSync(join(this.out.root, this.served.index.archive.file), { force: true });
    const index: BuildIndex = { kinds: built, archive: { file: archive, members } };
    rmSync(join(this.out.root, buildIndexFile), { force: true });
    writeFileSync(join(this.out.root, buildIndexFile), JSON.stringify(index));
    return { files: this.out.files - files, bytes: this.out.bytes - bytes, archiveEntries: entries };
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
    return routes.kinds.filter((kind) => !routes.idOnly.includes(kind)).flatMap((kind) => {
      let text: string;
      try {
        text = readFileSync(join(this.out.root, kindFile(kind)), 'utf8');
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw e;
      }
      return [JSON.parse(text) as SearchIndexFile];
    });
  }

  /** Everything but the archive and the build index; returns the archive's path. */
  private async writeSmallFiles(options: FinishOptions, built: readonly KindResult[]): Promise<string> {
    const out = this.out;
    const kinds = built.map((k) => k.kind);
    const resources = allResources.filter((r) => kinds.includes(r.kind));
    const routes: Routes = {
      kinds,
      subresources: Object.fromEntries(built.filter((k) => k.subresources.length).map((k) => [k.kind, k.subresources])),
      idOnly: built.filter((k) => k.idOnly).map((k) => k.kind),
      // each kind's query declaration (issue 18), in the kinds' order
      queries: Object.fromEntries(kinds.flatMap((kind) => {
        const resource = resources.find((r) => r.kind === kind);
        return resource ? [[kind, kindQuery(resource).shape]] : [];
      })),
      site: {},
    };
    // the upstream's root lists `meta` among the collections; here it says what was built
    const rootEntries = [...routes.kinds, 'meta'].sort().map((k) => [k, `${options.baseUrl}/${k}/`]);
    await out.write(rootFile, JSON.stringify(Object.fromEntries(rootEntries)));
    await out.write(notFoundFile, JSON.stringify('Not Found'));
    const siteUrl = options.baseUrl.replace(/\/v2$/, '');
    const archive = archiveFile(options.about.version, options.about.upstreamCommit);
    const downloadType = 'application/gzip';
    routes.site[`/${archive}`] = { file: archive, type: downloadType };
    for (const { kind } of built) routes.site[`/${bulkFile(kind)}`] = { file: bulkFile(kind), type: downloadType };
    const meta: Meta = {
      upstream_commit: options.about.upstreamCommit,
      built_at: options.about.builtAt,
      version: options.about.version,
      base_url: options.baseUrl,
      counts: Object.fromEntries(built.map((k) => [k.kind, k.count])),
      downloads: {
        archive: `${siteUrl}/${archive}`,
        collections: Object.fromEntries(built.map(({ kind }) => [kind, `${siteUrl}/${bulkFile(kind)}`])),
      },
      deploy_date: String(Math.floor(Date.parse(options.about.builtAt) / 1000)),
      hash: options.about.upstreamCommit,
      tag: null,
    };
    for (const maker of options.only ? [] : artifactMakers) {
      try {
        for (const artifact of await maker.make({ baseUrl: options.baseUrl, outDir: out.root, resources, routes, meta })) {
          await out.write(artifact.path, artifact.body);
          if (artifact.route !== undefined) routes.site[artifact.route] = { file: artifact.path, type: artifact.contentType ?? 'application/octet-stream' };
        }
      } catch (e) {
        throw new BuildError([`${maker.name}: ${e instanceof Error ? e.message : String(e)}`]);
      }
    }
    await this.writeSearchPack(routes);
    // lang='s: the same, each language's names kept apart
    await this.writeSearchPack(routes, languageSearchPackFile, languageSearchFile);
    await out.write(routesFile, JSON.stringify(routes));
    await out.write(metaFile, JSON.stringify(meta));
    const stamp: BuildStamp = { inputHash: options.inputHash, baseUrl: options.baseUrl };
    await out.write(buildStampFile, JSON.stringify(stamp));
    return archive;
  }
}
