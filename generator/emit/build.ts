/**
 * `build`: canonical records → every response as a file under dist/v2/. The kinds are split
 * into shards that run side by side in worker threads (emit-kinds.ts does the work of one);
 * every document is checked against its output schema, everything is written to a temporary
 * folder, and `dist/` is replaced only when every document of every kind was good.
 */
import { availableParallelism } from 'node:os';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { archiveFile, buildIndexFile, buildStampFile, bulkFile, metaFile, notFoundFile, rootFile, routesFile, type Meta, type Routes } from '../../edge/layout.ts';
import { swapIn } from '../files/folders.ts';
import { allResources } from '../resources/index.ts';
import type { WorkerMessage } from './build-worker.ts';
import { emitKinds, type KindResult, type ShardJob, type ShardResult } from './emit-kinds.ts';
import { writeTarGz, type ArchiveEntry, type GzipMember, type PreviousArchive } from './archive.ts';
import { artifactMakers } from './artifacts.ts';
import { Output } from './output.ts';
import type { BuildStamp } from './stamp.ts';

export { readMedia } from './emit-kinds.ts';

export interface BuildOptions {
  recordsDir: string;
  mediaDir: string;
  outDir: string;
  baseUrl: string;
  inputHash: string;
  /** what `GET {base}/meta/` says besides the counts */
  about: { upstreamCommit: string; version: string; builtAt: string };
  /** worker threads to build with; default: up to 2, as the machine has cores */
  workers?: number;
  /** only these kinds (for tests and quick iterations); default: all */
  only?: ReadonlySet<string>;
  progress?: (done: number, total: number) => void;
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

/**
 * Splits kinds into `count` shards of about equal work, the size of a kind's records standing
 * in for its work (largest first, each to the lightest shard).
 */
export function planShards(kinds: readonly string[], cost: (kind: string) => number, count: number): string[][] {
  const shards = Array.from({ length: Math.max(1, Math.min(count, kinds.length)) }, () => ({ kinds: [] as string[], load: 0 }));
  for (const kind of [...kinds].sort((a, b) => cost(b) - cost(a) || (a < b ? -1 : 1))) {
    const lightest = shards.reduce((min, s) => (s.load < min.load ? s : min));
    lightest.kinds.push(kind);
    lightest.load += cost(kind);
  }
  return shards.map((s) => s.kinds).filter((k) => k.length > 0);
}

const YOUNG_GENERATION_MB = 96;

function runShardInWorker(job: ShardJob, progress: (records: number) => void): Promise<ShardResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./worker-boot.mjs', import.meta.url), {
      workerData: { entry: new URL('./build-worker.ts', import.meta.url).href, job },
      // documents are many short-lived objects: a larger young generation means far fewer scavenges
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
    worker.on('message', (message: WorkerMessage) => {
      if (message.type === 'progress') progress(message.records);
      else {
        void worker.terminate();
        if (message.type === 'done') resolve(message.result);
        else reject(new Error(message.message));
      }
    });
    worker.on('error', reject);
  });
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
  const kinds = allResources.map((r) => r.kind as string).filter((k) => !options.only || options.only.has(k));
  const recordBytes = (kind: string) => {
    try {
      return statSync(join(options.recordsDir, `${kind}.ndjson`)).size;
    } catch {
      return 0;
    }
  };
  const counts = recordCounts(options.recordsDir);
  const total = kinds.reduce((n, k) => n + (counts[k] ?? 0), 0);
  let done = 0;
  const progress = (records: number) => {
    done += records;
    options.progress?.(done, total);
  };
  const workers = options.workers ?? Math.min(2, availableParallelism());
  const shards = planShards(kinds, recordBytes, workers);
  const job = (shard: string[]): ShardJob => ({ kinds: shard, recordsDir: options.recordsDir, mediaDir: options.mediaDir, outDir: tmp, baseUrl: options.baseUrl });
  const results = shards.length > 1 ? await Promise.all(shards.map((s) => runShardInWorker(job(s), progress))) : [await emitKinds(job(shards[0] ?? []), progress)];

  const problems = results.flatMap((r) => r.problems);
  if (problems.length) throw new BuildError(problems);
  const built = results.flatMap((r) => r.kinds);
  const finished = await finishBuild(tmp, options, built);
  swapIn(tmp, options.outDir);
  return {
    files: finished.files + results.reduce((n, r) => n + r.files, 0),
    bytes: finished.bytes + results.reduce((n, r) => n + r.bytes, 0),
    kinds: built.length,
  };
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

export type FinishOptions = Pick<BuildOptions, 'baseUrl' | 'inputHash' | 'about' | 'only'>;

/**
 * The files made from every kind's result once their documents are in `tmp`: the root, 404,
 * routing table, meta, the artifacts (OpenAPI, types, docs page), the stamp, the build index
 * and, last, the archive of the whole v2/ tree. Shared by the full and the incremental build:
 * `previous` (the served build's archive and the paths rewritten since) lets the archive copy
 * members whose files did not change. Every write
 * replaces a path rather than writing into it, as `tmp` may hold links to the served build.
 */
export async function finishBuild(
  tmp: string,
  options: FinishOptions,
  kindResults: readonly KindResult[],
  previous?: PreviousArchive,
): Promise<{ files: number; bytes: number; archiveEntries: ArchiveEntry[] }> {
  const built = [...kindResults].sort((a, b) => (a.kind < b.kind ? -1 : 1));
  const routes: Routes = {
    kinds: built.map((k) => k.kind),
    subresources: Object.fromEntries(built.filter((k) => k.subresources.length).map((k) => [k.kind, k.subresources])),
    idOnly: built.filter((k) => k.idOnly).map((k) => k.kind),
    site: {},
  };
  const out = new Output(tmp, 32, { replace: true });
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
  const resources = allResources.filter((r) => routes.kinds.includes(r.kind));
  for (const maker of options.only ? [] : artifactMakers) {
    try {
      for (const artifact of await maker.make({ baseUrl: options.baseUrl, outDir: tmp, resources, routes, meta })) {
        await out.write(artifact.path, artifact.body);
        if (artifact.route !== undefined) routes.site[artifact.route] = { file: artifact.path, type: artifact.contentType ?? 'application/octet-stream' };
      }
    } catch (e) {
      throw new BuildError([`${maker.name}: ${e instanceof Error ? e.message : String(e)}`]);
    }
  }
  await out.write(routesFile, JSON.stringify(routes));
  await out.write(metaFile, JSON.stringify(meta));
  const stamp: BuildStamp = { inputHash: options.inputHash, baseUrl: options.baseUrl };
  await out.write(buildStampFile, JSON.stringify(stamp));
  await out.finish();
  // last, so that it holds every file of v2/ as served
  const { members, entries } = writeTarGz(tmp, 'v2', join(tmp, archive), previous && { ...previous, rewritten: new Set([...previous.rewritten, ...out.written]) });
  const index: BuildIndex = { kinds: built, archive: { file: archive, members } };
  rmSync(join(tmp, buildIndexFile), { force: true });
  writeFileSync(join(tmp, buildIndexFile), JSON.stringify(index));
  return { files: out.files, bytes: out.bytes, archiveEntries: entries };
}

/** How many records each kind has, from the import's manifest (for progress only). */
function recordCounts(recordsDir: string): Record<string, number> {
  try {
    return (JSON.parse(readFileSync(join(recordsDir, 'manifest.json'), 'utf8')) as { kinds?: Record<string, number> }).kinds ?? {};
  } catch {
    return {};
  }
}
