/**
 * The build's work for a set of kinds: every item (by id, and by name as a link), its
 * subresources, the collection's whole list and its default-size pages, each document checked
 * against its schema before it is written. One call per shard; shards run side by side.
 * The pieces (one record's documents, a kind's names, list and bulk chunks) are exported for
 * the incremental planner, which redoes them for a few records with the same code.
 */
import { dirname, join } from 'node:path';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { Ajv } from 'ajv';
import { createAjv, validatorFor } from '../../schemas/ajv.ts';
import { bulkFile, DEFAULT_LIMIT, itemFile, listFile, pageFile, subresourceFile } from '../../edge/layout.ts';
import { paginate, type FullList, type ListEntry } from '../../edge/pagination.ts';
import { readRecords } from '../import/records.ts';
import { allKinds, type KindName } from '../model/kinds.ts';
import type { AnyResource } from '../resources/define.ts';
import { allResources } from '../resources/index.ts';
import { createContext, type BuildContext, type Media } from './context.ts';
import { MemberGzipFile, type GzipMember } from './archive.ts';
import { Output } from './output.ts';

export interface ShardJob {
  kinds: string[];
  recordsDir: string;
  mediaDir: string;
  /** the temporary folder the whole build writes into */
  outDir: string;
  baseUrl: string;
}

export interface KindResult {
  kind: string;
  count: number;
  subresources: string[];
  idOnly: boolean;
  /** the members of the kind's bulk file, keyed by chunk */
  bulk: GzipMember[];
}

export interface ShardResult {
  kinds: KindResult[];
  problems: string[];
  files: number;
  bytes: number;
}

type AnyRecord = { id: number; name: string | null };

const NEWLINE = Buffer.from('\n');

/** Stops a shard early when it has found this many bad documents; more would only be noise. */
const MAX_PROBLEMS = 50;

/** The manifests, as plain text or gzip'd (`sprites.txt.gz`: the copies committed in data/media/). */
export function readMedia(mediaDir: string): Media {
  return { sprites: mediaLines(mediaDir, 'sprites.txt'), cries: mediaLines(mediaDir, 'cries.txt') };
}
const mediaLines = (mediaDir: string, file: string) => {
  const plain = join(mediaDir, file);
  const bytes = existsSync(plain) ? readFileSync(plain) : gunzipSync(readFileSync(`${plain}.gz`));
  return manifestPaths(bytes.toString('utf8'));
};
/** The paths a media manifest lists, one a line. */
export const manifestPaths = (text: string): Set<string> => new Set(text.split('\n').map((l) => l.trim()).filter(Boolean));

/**
 * The name of one of a record's documents: `item`, or a subresource's path segment. The
 * incremental planner records what each document reads on its own, so that an edit only the
 * item reads (a move's name, in a creature's moves) does not make its subresources again.
 */
export const ITEM_PART = 'item';

/** How one of a record's documents is made, and the schema check it must pass. */
export interface DocumentMaker {
  part: string;
  emit: (record: unknown, ctx: BuildContext) => unknown;
  check: (doc: unknown) => string | null;
}

/** A kind's resource with its compiled validators: what making one record's documents needs. */
export interface KindEmitter {
  kind: KindName;
  /** the item's maker first, then each subresource's */
  documents: DocumentMaker[];
  /** the subresources' path segments */
  subs: string[];
  listed: ((row: unknown) => boolean) | undefined;
  idOnly: boolean;
}

const specs = new Map(allKinds.map((k) => [k.kind as string, k]));

export function kindEmitter(ajv: Ajv, resource: AnyResource): KindEmitter {
  const spec = specs.get(resource.kind);
  if (resource.subresources && ITEM_PART in resource.subresources) throw new Error(`${resource.kind}: a subresource may not be named ${ITEM_PART}`);
  const subs = Object.entries(resource.subresources ?? {}).map(
    ([sub, def]): DocumentMaker => ({ part: sub, emit: def.emit as DocumentMaker['emit'], check: validatorFor(ajv, def.schema) }),
  );
  return {
    kind: resource.kind,
    documents: [{ part: ITEM_PART, emit: resource.emit as DocumentMaker['emit'], check: validatorFor(ajv, resource.schema) }, ...subs],
    subs: subs.map((s) => s.part),
    listed: spec?.listed as ((row: unknown) => boolean) | undefined,
    idOnly: spec?.name === null,
  };
}

/** One record's documents: the item's bytes (also its bulk line) and each subresource's. */
export interface RecordDocuments {
  /** null when the item was not asked for, or could not be made (then `problems` says why) */
  item: Buffer | null;
  subs: Array<{ sub: string; body: string }>;
  problems: string[];
}

/**
 * Makes a record's documents, or those of `parts` only, each checked against its schema.
 * `beforeEach` is told each document's part just before it is made (the incremental planner
 * starts a new set of reads there).
 */
export function emitRecord(
  em: KindEmitter,
  ctx: BuildContext,
  record: AnyRecord,
  only: { parts?: ReadonlySet<string>; beforeEach?: (part: string) => void } = {},
): RecordDocuments {
  const out: RecordDocuments = { item: null, subs: [], problems: [] };
  try {
    for (const { part, emit, check } of em.documents) {
      if (only.parts && !only.parts.has(part)) continue;
      only.beforeEach?.(part);
      const doc = emit(record, ctx);
      const error = check(doc);
      if (part === ITEM_PART) {
        if (error) {
          out.problems.push(`${em.kind} ${record.id}: ${error}`);
          return out;
        }
        // encoded once: the same bytes go to the item's file and to the collection's bulk file
        out.item = Buffer.from(JSON.stringify(doc));
      } else if (error) out.problems.push(`${em.kind} ${record.id} ${part}: ${error}`);
      else out.subs.push({ sub: part, body: JSON.stringify(doc) });
    }
  } catch (e) {
    out.problems.push(`${em.kind} ${record.id}: ${e instanceof Error ? e.message : String(e)}`);
  }
  return out;
}

/** Which id each name addresses: the lowest id that has it (see the kind's duplicateNames). */
export function nameOwners(records: readonly AnyRecord[]): Map<string, number> {
  const owners = new Map<string, number>();
  for (const r of records) if (r.name !== null && !owners.has(r.name)) owners.set(r.name, r.id);
  return owners;
}

/** The collection's whole list: name and URL, or URL alone for kinds without names. */
export function kindList(em: KindEmitter, ctx: BuildContext, records: readonly AnyRecord[]): FullList {
  const results: ListEntry[] = [];
  for (const record of records) {
    if (em.listed !== undefined && !em.listed(record)) continue;
    const url = ctx.url(em.kind, record.id);
    results.push(record.name === null ? { url } : { name: record.name, url });
  }
  return { count: results.length, results };
}

/** The list's file and its default-size pages, by path. */
export function listFiles(kind: string, full: FullList, baseUrl: string): Array<[string, string]> {
  const files: Array<[string, string]> = [[listFile(kind), JSON.stringify(full)]];
  const collectionUrl = `${baseUrl}/${kind}/`;
  for (let offset = 0; offset === 0 || offset < full.count; offset += DEFAULT_LIMIT) {
    files.push([pageFile(kind, offset), JSON.stringify(paginate(full, collectionUrl, offset, DEFAULT_LIMIT))]);
  }
  return files;
}

/**
 * Bulk files are gzip members of up to 16 consecutive ids each (the chunk is the id's bucket),
 * so an edit of one record recompresses one member and copies the rest.
 */
export const bulkChunk = (id: number): string => String(Math.floor(id / 16));

/** Writes a bulk file from lines in id order, one gzip member per chunk. */
export class BulkWriter {
  private readonly file: MemberGzipFile;
  private chunk: string | null = null;
  /** the current chunk's compressed bytes were copied from the previous build */
  private reused = false;
  private lines: Buffer[] = [];
  constructor(path: string) {
    mkdirSync(dirname(path), { recursive: true });
    this.file = new MemberGzipFile(path);
  }
  /** the line of record `id`; `reuse` gives a chunk's earlier compressed bytes when its lines are known unchanged */
  add(id: number, line: () => Buffer, reuse?: (chunk: string) => Buffer | null): void {
    const chunk = bulkChunk(id);
    if (chunk !== this.chunk) {
      this.flush();
      this.chunk = chunk;
      const old = reuse?.(chunk) ?? null;
      this.reused = old !== null;
      if (old) this.file.append(chunk, old);
    }
    if (!this.reused) this.lines.push(line(), NEWLINE);
  }
  private flush(): void {
    if (this.chunk !== null && !this.reused) this.file.add(this.chunk, Buffer.concat(this.lines));
    this.lines = [];
  }
  close(): GzipMember[] {
    this.flush();
    return this.file.close();
  }
}

export async function emitKinds(job: ShardJob, progress: (records: number) => void = () => {}): Promise<ShardResult> {
  const ctx = createContext(job.baseUrl, readRecords(job.recordsDir), readMedia(job.mediaDir));
  const ajv = createAjv();
  const out = new Output(job.outDir);
  const problems: string[] = [];
  const results: KindResult[] = [];

  for (const resource of allResources.filter((r) => job.kinds.includes(r.kind))) {
    const em = kindEmitter(ajv, resource);
    const kind = em.kind;
    const records = ctx.records(kind) as readonly AnyRecord[];
    const owners = nameOwners(records);
    const bulk = new BulkWriter(join(job.outDir, bulkFile(kind)));
    let sinceProgress = 0;
    for (const record of records) {
      const docs = emitRecord(em, ctx, record);
      problems.push(...docs.problems);
      if (docs.item) {
        const item = docs.item;
        await out.write(itemFile(kind, record.id), item);
        bulk.add(record.id, () => item);
        const ownsName = record.name !== null && owners.get(record.name) === record.id;
        if (ownsName) out.alias(itemFile(kind, record.name!), itemFile(kind, record.id));
        for (const { sub, body } of docs.subs) {
          await out.write(subresourceFile(kind, record.id, sub), body);
          if (ownsName) out.alias(subresourceFile(kind, record.name!, sub), subresourceFile(kind, record.id, sub));
        }
      }
      if (problems.length >= MAX_PROBLEMS) break;
      if (++sinceProgress === 250) {
        progress(sinceProgress);
        sinceProgress = 0;
      }
    }
    progress(sinceProgress);
    const bulkMembers = bulk.close();
    if (problems.length >= MAX_PROBLEMS) break;
    const full = kindList(em, ctx, records);
    for (const [path, body] of listFiles(kind, full, job.baseUrl)) await out.write(path, body);
    results.push({ kind, count: full.count, subresources: em.subs, idOnly: em.idOnly, bulk: bulkMembers });
  }
  await out.finish();
  return { kinds: results, problems, files: out.files, bytes: out.bytes };
}
