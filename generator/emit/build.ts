/**
 * `build`: canonical records → every response as a file under dist/v2/. Each document is made
 * by its resource's emitter, checked against its output schema, and written to a temporary
 * folder; `dist/` is replaced only when every document of every kind was good.
 */
import { linkSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createAjv, validatorFor } from '../../schemas/ajv.ts';
import {
  buildStampFile, DEFAULT_LIMIT, itemFile, listFile, metaFile, notFoundFile, pageFile, rootFile, routesFile, subresourceFile, type Meta, type Routes,
} from '../../edge/layout.ts';
import { paginate, type FullList, type ListEntry } from '../../edge/pagination.ts';
import { allKinds, type KindName } from '../model/kinds.ts';
import { readRecords, swapIn } from '../import/records.ts';
import { allResources } from '../resources/index.ts';
import type { AnyResource } from '../resources/define.ts';
import { createContext, type BuildContext, type Media } from './context.ts';

export interface BuildStamp {
  inputHash: string;
  baseUrl: string;
}

export interface BuildOptions {
  recordsDir: string;
  mediaDir: string;
  outDir: string;
  baseUrl: string;
  inputHash: string;
  /** what `GET {base}/meta/` says besides the counts */
  about: { upstreamCommit: string; version: string; builtAt: string };
  /** only these kinds (for tests and quick iterations); default: all */
  only?: ReadonlySet<string>;
  progress?: (done: number, total: number, label: string) => void;
}

export interface BuildSummary {
  files: number;
  bytes: number;
  kinds: number;
}

export class BuildError extends Error {
  constructor(readonly problems: string[]) {
    super(`the build found ${problems.length} bad document(s):\n${problems.slice(0, 30).join('\n')}`);
    this.name = 'BuildError';
  }
}

export function readMedia(mediaDir: string): Media {
  const lines = (file: string) => new Set(readFileSync(join(mediaDir, file), 'utf8').split('\n').map((l) => l.trim()).filter(Boolean));
  return { sprites: lines('sprites.txt'), cries: lines('cries.txt') };
}

/**
 * Writes documents under one root folder, creating folders once, counting files and bytes.
 * Writes go through the libuv thread pool with a bounded number in flight, so the file system's
 * work overlaps with making the next documents instead of stalling the build on each syscall.
 */
class Output {
  files = 0;
  bytes = 0;
  private readonly dirs = new Set<string>();
  private readonly inFlight = new Set<Promise<void>>();
  private failure: unknown = null;
  constructor(readonly root: string, private readonly maxInFlight = 64) {}
  private ensureDir(path: string) {
    const dir = dirname(path);
    if (!this.dirs.has(dir)) {
      mkdirSync(dir, { recursive: true });
      this.dirs.add(dir);
    }
  }
  private track(work: Promise<void>) {
    const tracked = work.catch((e: unknown) => {
      this.failure ??= e;
    }).finally(() => this.inFlight.delete(tracked));
    this.inFlight.add(tracked);
  }
  /** Resolves once there is room for another write; rethrows the first failed write. */
  async write(rel: string, body: string): Promise<void> {
    const path = join(this.root, rel);
    this.ensureDir(path);
    this.files++;
    this.bytes += Buffer.byteLength(body);
    this.track(writeFile(path, body));
    while (this.inFlight.size >= this.maxInFlight) await Promise.race(this.inFlight);
    if (this.failure) throw this.failure;
  }
  private readonly aliases: Array<[string, string]> = [];
  /** The same document under a second path: a hard link, made once every write has landed. */
  alias(rel: string, existing: string): void {
    this.aliases.push([rel, existing]);
    this.files++;
  }
  /** Waits for every write, then makes the links. */
  async finish(): Promise<void> {
    await Promise.all(this.inFlight);
    if (this.failure) throw this.failure;
    for (const [rel, existing] of this.aliases) {
      const path = join(this.root, rel);
      this.ensureDir(path);
      linkSync(join(this.root, existing), path);
    }
  }
}

/** The list entry of a record: name and URL, or URL alone for kinds without names. */
function listEntry(ctx: BuildContext, kind: KindName, record: { id: number; name: string | null }): ListEntry {
  const url = ctx.url(kind, record.id);
  return record.name === null ? { url } : { name: record.name, url };
}

export async function runBuild(options: BuildOptions): Promise<BuildSummary> {
  const tmp = `${options.outDir}.tmp-${process.pid}`;
  try {
    return await buildInto(tmp, options);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

async function buildInto(tmp: string, options: BuildOptions): Promise<BuildSummary> {
  const records = readRecords(options.recordsDir);
  const ctx = createContext(options.baseUrl, records, readMedia(options.mediaDir));
  const ajv = createAjv();
  const out = new Output(tmp);
  const problems: string[] = [];
  const resources = allResources.filter((r) => !options.only || options.only.has(r.kind));
  const specs = new Map(allKinds.map((k) => [k.kind as KindName, k]));
  const routes: Routes = { kinds: [], subresources: {}, idOnly: [] };
  const counts: Record<string, number> = {};
  const total = resources.reduce((n, r) => n + ctx.records(r.kind).length, 0);
  let done = 0;

  for (const resource of resources as AnyResource[]) {
    const kind = resource.kind;
    const spec = specs.get(kind);
    const check = validatorFor(ajv, resource.schema);
    const subs = Object.entries(resource.subresources ?? {}).map(([sub, def]) => ({ sub, def, check: validatorFor(ajv, def.schema) }));
    const nameOwners = new Map<string, number>();
    const list: ListEntry[] = [];
    for (const record of ctx.records(kind) as ReadonlyArray<{ id: number; name: string | null }>) {
      done++;
      try {
        const doc = (resource.emit as (r: unknown, c: BuildContext) => unknown)(record, ctx);
        const error = check(doc);
        if (error) {
          problems.push(`${kind} ${record.id}: ${error}`);
          continue;
        }
        await out.write(itemFile(kind, record.id), JSON.stringify(doc));
        const ownsName = record.name !== null && !nameOwners.has(record.name);
        if (ownsName && record.name !== null) {
          nameOwners.set(record.name, record.id);
          out.alias(itemFile(kind, record.name), itemFile(kind, record.id));
        }
        for (const { sub, def, check: checkSub } of subs) {
          const subDoc = (def.emit as (r: unknown, c: BuildContext) => unknown)(record, ctx);
          const subError = checkSub(subDoc);
          if (subError) {
            problems.push(`${kind} ${record.id} ${sub}: ${subError}`);
            continue;
          }
          await out.write(subresourceFile(kind, record.id, sub), JSON.stringify(subDoc));
          if (ownsName && record.name !== null) out.alias(subresourceFile(kind, record.name, sub), subresourceFile(kind, record.id, sub));
        }
      } catch (e) {
        problems.push(`${kind} ${record.id}: ${e instanceof Error ? e.message : String(e)}`);
      }
      if (spec?.listed === undefined || (spec.listed as (r: unknown) => boolean)(record)) list.push(listEntry(ctx, kind, record));
      if (problems.length > 50) throw new BuildError(problems);
      if (done % 500 === 0) options.progress?.(done, total, kind);
    }
    const full: FullList = { count: list.length, results: list };
    await out.write(listFile(kind), JSON.stringify(full));
    const collectionUrl = `${options.baseUrl}/${kind}/`;
    for (let offset = 0; offset === 0 || offset < full.count; offset += DEFAULT_LIMIT) {
      await out.write(pageFile(kind, offset), JSON.stringify(paginate(full, collectionUrl, offset, DEFAULT_LIMIT)));
    }
    routes.kinds.push(kind);
    counts[kind] = full.count;
    if (subs.length) routes.subresources[kind] = subs.map((s) => s.sub);
    if (spec?.name === null) routes.idOnly.push(kind);
  }
  options.progress?.(done, total, 'done');
  if (problems.length) throw new BuildError(problems);

  routes.kinds.sort();
  // the upstream's root lists `meta` among the collections; here it says what was built
  const rootEntries = [...routes.kinds, 'meta'].sort().map((k) => [k, `${options.baseUrl}/${k}/`]);
  await out.write(rootFile, JSON.stringify(Object.fromEntries(rootEntries)));
  await out.write(routesFile, JSON.stringify(routes));
  await out.write(notFoundFile, JSON.stringify('Not Found'));
  const meta: Meta = {
    upstream_commit: options.about.upstreamCommit,
    built_at: options.about.builtAt,
    version: options.about.version,
    base_url: options.baseUrl,
    counts: Object.fromEntries(Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : 1))),
  };
  await out.write(metaFile, JSON.stringify(meta));
  const stamp: BuildStamp = { inputHash: options.inputHash, baseUrl: options.baseUrl };
  await out.write(buildStampFile, JSON.stringify(stamp));
  await out.finish();
  swapIn(tmp, options.outDir);
  return { files: out.files, bytes: out.bytes, kinds: routes.kinds.length };
}

export function readBuildStamp(outDir: string): BuildStamp | null {
  try {
    return JSON.parse(readFileSync(join(outDir, buildStampFile), 'utf8')) as BuildStamp;
  } catch {
    return null;
  }
}
