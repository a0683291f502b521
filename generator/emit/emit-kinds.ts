/**
 * The build's work for a set of kinds: every item (by id, and by name as a link), its
 * subresources, the collection's whole list and its default-size pages, each document checked
 * against its schema before it is written. One call per shard; shards run side by side.
 */
import { dirname, join } from 'node:path';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { createAjv, validatorFor } from '../../schemas/ajv.ts';
import { bulkFile, DEFAULT_LIMIT, itemFile, listFile, pageFile, subresourceFile } from '../../edge/layout.ts';
import { paginate, type FullList, type ListEntry } from '../../edge/pagination.ts';
import { readRecords } from '../import/records.ts';
import { allKinds, type KindName } from '../model/kinds.ts';
import type { AnyResource } from '../resources/define.ts';
import { allResources } from '../resources/index.ts';
import { createContext, type BuildContext, type Media } from './context.ts';
import { GzipFile } from './archive.ts';
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
}

export interface ShardResult {
  kinds: KindResult[];
  problems: string[];
  files: number;
  bytes: number;
}

const NEWLINE = Buffer.from('\n');

/** Stops a shard early when it has found this many bad documents; more would only be noise. */
const MAX_PROBLEMS = 50;

/** The manifests, as plain text or gzip'd (`sprites.txt.gz`: the copies committed in data/media/). */
export function readMedia(mediaDir: string): Media {
  const read = (file: string) => (existsSync(join(mediaDir, file)) ? readFileSync(join(mediaDir, file)) : gunzipSync(readFileSync(join(mediaDir, `${file}.gz`))));
  const lines = (file: string) => new Set(read(file).toString('utf8').split('\n').map((l) => l.trim()).filter(Boolean));
  return { sprites: lines('sprites.txt'), cries: lines('cries.txt') };
}

/** The list entry of a record: name and URL, or URL alone for kinds without names. */
function listEntry(ctx: BuildContext, kind: KindName, record: { id: number; name: string | null }): ListEntry {
  const url = ctx.url(kind, record.id);
  return record.name === null ? { url } : { name: record.name, url };
}

export async function emitKinds(job: ShardJob, progress: (records: number) => void = () => {}): Promise<ShardResult> {
  const ctx = createContext(job.baseUrl, readRecords(job.recordsDir), readMedia(job.mediaDir));
  const ajv = createAjv();
  const out = new Output(job.outDir);
  const problems: string[] = [];
  const specs = new Map(allKinds.map((k) => [k.kind as string, k]));
  const results: KindResult[] = [];
  const emit = (fn: (r: unknown, c: BuildContext) => unknown, record: unknown) => fn(record, ctx);

  for (const resource of allResources.filter((r) => job.kinds.includes(r.kind)) as AnyResource[]) {
    const kind = resource.kind;
    const spec = specs.get(kind);
    const listed = spec?.listed as ((row: unknown) => boolean) | undefined;
    const check = validatorFor(ajv, resource.schema);
    const subs = Object.entries(resource.subresources ?? {}).map(([sub, def]) => ({ sub, def, check: validatorFor(ajv, def.schema) }));
    const nameOwners = new Set<string>();
    const list: ListEntry[] = [];
    const bulkPath = join(job.outDir, bulkFile(kind));
    mkdirSync(dirname(bulkPath), { recursive: true });
    const bulk = new GzipFile(bulkPath);
    let sinceProgress = 0;
    for (const record of ctx.records(kind) as ReadonlyArray<{ id: number; name: string | null }>) {
      try {
        const doc = emit(resource.emit as (r: unknown, c: BuildContext) => unknown, record);
        const error = check(doc);
        if (error) problems.push(`${kind} ${record.id}: ${error}`);
        else {
          // encoded once: the same bytes go to the item's file and to the collection's bulk file
          const body = Buffer.from(JSON.stringify(doc));
          await out.write(itemFile(kind, record.id), body);
          await bulk.write(body);
          await bulk.write(NEWLINE);
          // a name used twice addresses the lowest id (see the kind's duplicateNames)
          const ownsName = record.name !== null && !nameOwners.has(record.name);
          if (ownsName && record.name !== null) {
            nameOwners.add(record.name);
            out.alias(itemFile(kind, record.name), itemFile(kind, record.id));
          }
          for (const { sub, def, check: checkSub } of subs) {
            const subDoc = emit(def.emit as (r: unknown, c: BuildContext) => unknown, record);
            const subError = checkSub(subDoc);
            if (subError) {
              problems.push(`${kind} ${record.id} ${sub}: ${subError}`);
              continue;
            }
            await out.write(subresourceFile(kind, record.id, sub), JSON.stringify(subDoc));
            if (ownsName && record.name !== null) out.alias(subresourceFile(kind, record.name, sub), subresourceFile(kind, record.id, sub));
          }
        }
      } catch (e) {
        problems.push(`${kind} ${record.id}: ${e instanceof Error ? e.message : String(e)}`);
      }
      if (listed === undefined || listed(record)) list.push(listEntry(ctx, kind, record));
      if (problems.length >= MAX_PROBLEMS) break;
      if (++sinceProgress === 250) {
        progress(sinceProgress);
        sinceProgress = 0;
      }
    }
    progress(sinceProgress);
    await bulk.close();
    if (problems.length >= MAX_PROBLEMS) break;
    const full: FullList = { count: list.length, results: list };
    await out.write(listFile(kind), JSON.stringify(full));
    const collectionUrl = `${job.baseUrl}/${kind}/`;
    for (let offset = 0; offset === 0 || offset < full.count; offset += DEFAULT_LIMIT) {
      await out.write(pageFile(kind, offset), JSON.stringify(paginate(full, collectionUrl, offset, DEFAULT_LIMIT)));
    }
    results.push({ kind, count: full.count, subresources: subs.map((s) => s.sub), idOnly: spec?.name === null });
  }
  await out.finish();
  return { kinds: results, problems, files: out.files, bytes: out.bytes };
}
