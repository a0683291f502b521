/**
 * The query layer's figures, on a built dist/: three answers, the heaviest filtered
 * query (creature, three filters plus `fields`, over the whole list), a search, and
 * the heaviest shaped query (three all-of filters, a sort, two facets, a summary, species.names with lang), each measured
 *   - in-process (Node, the request module over the disk): p50 and p99 warm (after WARM_UP_ROUNDS answers), and the first
 *     answer of a fresh handler (cold: every index read and parsed again; the OS's file cache
 *     stays warm, as a CDN's does);
 *   - under Deno, the edge function's runtime, the same way in a Deno process of its own;
 * the heaviest shaped query also as the first answer of a fresh handler whose reads each take a few
 * milliseconds (the edge's reads are fetches), and of a fresh Deno process; and the size of every kind's index files and of the packed all-kinds search index, raw and gzip'd.
 * `node bench/query.ts DIST [BASE_URL]` prints them alone; `npm run bench` prints them with the rest.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { FileReader } from '../edge/build-files.ts';
import { createResponder } from '../edge/handler.ts';
import { API_PREFIX, searchPackFile } from '../contract/layout.ts';
import { repoRoot } from '../generator/config.ts';
import { diskReader } from '../generator/preview/disk-reader.ts';
import { distArgs } from './args.ts';
import { isMissing, median, printRows } from './measure.ts';

/** The answers measured, as paths below the base URL's origin. */
export const QUERY_TARGETS = [
  {
    what: 'filtered: creature, 3 filters + fields, whole list',
    path: '/v2/creature/?type=fire,water,grass&generation=1,3,5&speed=60..&fields=types,stats,sprites.front_default&limit=100000',
  },
  { what: 'search: q=charzard', path: '/v2/search/?q=charzard' },
  {
    // the heaviest shaped query: three all-of filters, a two-key sort, two facets, a summary, and fields over the whole list
    // including species.names (read through the species link) in one language
    what: 'all-of ×3, sort, 2 facets, summary, species.names + lang: creature, whole list',
    path:
      '/v2/creature/?type=grass,water,poison,bug&type=poison,water,flying&move=tackle,cut,surf&move=strength,swift,toxic&generation=1,2,3,4&generation=1,3,4,5' +
      '&sort=-base_stat_total,name&facets=generation,egg_group&summary=base_stat_total,speed&fields=types,stats,sprites.front_default,species.names&lang=de&limit=100000',
  },
  { what: 'entry by its species’ name: giratina (a file)', path: '/v2/entry/giratina/' },
  {
    what: 'entry list: stage, evolution_trigger, sort, facet, fields, whole list',
    path: '/v2/entry/?stage=2..&evolution_trigger=level-up,trade&sort=-base_stat_total&facets=generation&fields=types,base_stat_total,evolution.stage&limit=100000',
  },
] as const;

/**
 * The floor under every first answer of a fresh process: an item's file, which the handler
 * serves as it is (no index read, no query code run). What a query's first answer costs beyond
 * it is the query's own.
 */
const FLOOR_TARGET = { what: "an item's file (no query: the floor of any first answer)", path: '/v2/creature/1/' } as const;

const WARM_ROUNDS = 2000;
/**
 * Answers given before the warm ones are timed. The optimizing compiler still works on the
 * request module's functions for several hundred answers (in the background, on this machine's
 * 2 cores). The heaviest shaped query alone in a process, warm p99 after one answer: 6.2–7.0 ms,
 * its slowest answers running beside compiles; after 1,000: 4.0–4.4 ms; after 2,000: 3.4–3.6 ms,
 * with almost no compile left in the timed answers.
 */
const WARM_UP_ROUNDS = 2000;
const COLD_ROUNDS = 15;

export interface Timing {
  p50: number;
  p99: number;
  cold: number;
  status: number;
}

export const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

/** Warm p50/p99 of one path on one responder, and the median first answer of fresh ones (ms). */
export async function timeInProcess(dist: string, baseUrl: string, path: string): Promise<Timing> {
  const request = { method: 'GET', url: new URL(baseUrl).origin + path, headers: new Headers() };
  const { colds, status } = await firstAnswers(() => diskReader(dist), baseUrl, path);
  const respond = createResponder(diskReader(dist), { baseUrl });
  for (let round = 0; round < WARM_UP_ROUNDS; round++) await respond(request);
  const warm: number[] = [];
  for (let round = 0; round < WARM_ROUNDS; round++) {
    const start = performance.now();
    await respond(request);
    warm.push(performance.now() - start);
  }
  return summarize(warm, colds, status);
}

/** How long a read takes in `firstAnswerOverFetches`: about a fetch from the CDN's own cache. */
export const FETCH_MS = 5;

/**
 * The first answer of a fresh handler (median of COLD_ROUNDS) whose every read waits FETCH_MS
 * first, as the edge function's reads are fetches of the deploy's files: what reading files side
 * by side rather than one after another saves (edge/collection.ts `startReads`).
 */
export async function firstAnswerOverFetches(dist: string, baseUrl: string, path: string): Promise<number> {
  const disk = diskReader(dist);
  const reader = { read: async (p: string) => (await new Promise((wait) => setTimeout(wait, FETCH_MS)), disk.read(p)) };
  const { colds, status } = await firstAnswers(() => reader, baseUrl, path);
  if (status !== 200) throw new Error(`${path}: status ${status}`);
  return median(colds);
}

/** The first answer of COLD_ROUNDS fresh handlers, each over its own reader (ms), and the last one's status. */
async function firstAnswers(reader: () => FileReader, baseUrl: string, path: string): Promise<{ colds: number[]; status: number }> {
  const colds: number[] = [];
  let status = 0;
  for (let round = 0; round < COLD_ROUNDS; round++) {
    const respond = createResponder(reader(), { baseUrl });
    const request = { method: 'GET', url: new URL(baseUrl).origin + path, headers: new Headers() };
    const start = performance.now();
    status = (await respond(request)).status;
    colds.push(performance.now() - start);
  }
  return { colds, status };
}

/** What every Deno script starts with: the request module over the build's files. */
const denoPreamble = (dist: string, baseUrl: string) => `import { createResponder } from '${pathToFileURL(join(repoRoot, 'edge/handler.ts')).href}';
const dist = ${JSON.stringify(dist)};
const files = { read: async (p: string) => { try { return await Deno.readFile(dist + '/' + p); } catch (e) { if (e instanceof Deno.errors.NotFound) return null; throw e; } } };
const baseUrl = ${JSON.stringify(baseUrl)};
`;

/** Runs a script in `runs` Deno processes of their own; each one's last line of output, parsed. */
function runInDeno<T>(script: string, runs = 1): T[] {
  const scratch = mkdtempSync(join(tmpdir(), 'query-bench-deno-'));
  try {
    const file = join(scratch, 'time.ts');
    writeFileSync(file, script);
    const deno = join(repoRoot, 'node_modules/.bin/deno');
    return Array.from({ length: runs }, () => {
      const out = execFileSync(deno, ['run', '--allow-read', '--no-check', file], {
        env: { ...process.env, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' },
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      });
      return JSON.parse(out.trim().split('\n').pop()!) as T;
    });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Warm p50/p99 and the median cold answer, from the times measured. */
function summarize(warm: number[], colds: number[], status: number): Timing {
  warm.sort((a, b) => a - b);
  colds.sort((a, b) => a - b);
  return { p50: quantile(warm, 0.5), p99: quantile(warm, 0.99), cold: quantile(colds, 0.5), status };
}

/** The same measurement in a Deno process: the edge function's runtime. */
export function timeUnderDeno(dist: string, baseUrl: string, path: string): Timing {
  const script = `${denoPreamble(dist, baseUrl)}
const request = { method: 'GET', url: ${JSON.stringify(new URL(baseUrl).origin + path)}, headers: new Headers() };
const colds: number[] = [];
let status = 0;
for (let i = 0; i < ${COLD_ROUNDS}; i++) {
  const respond = createResponder(files, { baseUrl });
  const t = performance.now(); status = (await respond(request)).status; colds.push(performance.now() - t);
}
const respond = createResponder(files, { baseUrl });
for (let i = 0; i < ${WARM_UP_ROUNDS}; i++) await respond(request);
const warm: number[] = [];
for (let i = 0; i < ${WARM_ROUNDS}; i++) { const t = performance.now(); await respond(request); warm.push(performance.now() - t); }
console.log(JSON.stringify({ warm, colds, status }));
`;
  const { warm, colds, status } = runInDeno<{ warm: number[]; colds: number[]; status: number }>(script)[0]!;
  return summarize(warm, colds, status);
}

export const FRESH_PROCESSES = 10;

/**
 * The first answer of a Deno process of its own, median of a few processes: a true cold start,
 * where the code has not run before and the JIT has compiled none of it (a fresh handler in a
 * process that has answered before, as `cold` above, is faster).
 */
export function firstAnswerInFreshDeno(dist: string, baseUrl: string, path: string): { ms: number; faults: number } {
  const script = `${denoPreamble(dist, baseUrl)}
import process from 'node:process';
const respond = createResponder(files, { baseUrl });
// the request exists before the handler is called (the runtime makes it), so its making is not timed
const request = { method: 'GET', url: ${JSON.stringify(new URL(baseUrl).origin + path)}, headers: new Headers() };
const before = process.resourceUsage().minorPageFault;
const t = performance.now();
const { status } = await respond(request);
const first = performance.now() - t;
console.log(JSON.stringify({ first, status, faults: process.resourceUsage().minorPageFault - before }));
`;
  const firsts = runInDeno<{ first: number; status: number; faults: number }>(script, FRESH_PROCESSES).map(({ first, status, faults }) => {
    if (status !== 200) throw new Error(`${path}: status ${status} in a fresh process`);
    return { first, faults };
  });
  return { ms: median(firsts.map((f) => f.first)), faults: median(firsts.map((f) => f.faults)) };
}

/**
 * What this machine charges for memory a process touches for the first time, in µs a page: a
 * new Deno process fills 64 MB. Every first answer of a new process pays it for the heap, the
 * compiled code and the files it grows by, which makes its figures this machine's as much as
 * the code's.
 */
function firstTouchMicrosPerPage(): { micros: number; faults: number } {
  const script = `import process from 'node:process';
const bytes = new Uint8Array(64 * 1024 * 1024);
const before = process.resourceUsage().minorPageFault;
const t = performance.now();
for (let i = 0; i < bytes.length; i += 4096) bytes[i] = 1;
const ms = performance.now() - t;
const faults = process.resourceUsage().minorPageFault - before;
console.log(JSON.stringify({ micros: (ms * 1000) / faults, faults }));
`;
  const runs = runInDeno<{ micros: number; faults: number }>(script, 3);
  return { micros: median(runs.map((r) => r.micros)), faults: runs[0]!.faults };
}

/** The files a fresh handler reads for its first answer of `path`, in the order it asks for them. */
async function filesRead(dist: string, baseUrl: string, path: string): Promise<string[]> {
  const disk = diskReader(dist);
  const asked: string[] = [];
  const respond = createResponder({ read: (p: string) => (asked.push(p), disk.read(p)) }, { baseUrl });
  await respond({ method: 'GET', url: new URL(baseUrl).origin + path, headers: new Headers() });
  return asked;
}

/**
 * The same files read side by side in a Deno process of its own, and nothing else done: what
 * a fresh process pays for the bytes alone (median of a few processes, ms), beside the bytes.
 */
function readsInFreshDeno(dist: string, files: readonly string[]): { ms: number; bytes: number } {
  const script = `const dist = ${JSON.stringify(dist)};
const files = ${JSON.stringify(files)};
const t = performance.now();
const read = await Promise.all(files.map((p) => Deno.readFile(dist + '/' + p)));
console.log(JSON.stringify({ ms: performance.now() - t, bytes: read.reduce((n, b) => n + b.length, 0) }));
`;
  const runs = runInDeno<{ ms: number; bytes: number }>(script, FRESH_PROCESSES);
  return { ms: median(runs.map((r) => r.ms)), bytes: runs[0]!.bytes };
}

/** Every file under a folder, recursively. */
function filesUnder(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (e) {
    // a build without this folder
    if (!isMissing(e)) throw e;
    return [];
  }
  return entries.flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
}

export interface IndexSize {
  kind: string;
  /** filters, search, fields: raw bytes and gzip'd bytes */
  parts: Record<string, { raw: number; gzip: number }>;
}

/** Each kind's index files under v2/_query/{part}/, raw and gzip'd, biggest kinds first. */
export function indexSizes(dist: string): IndexSize[] {
  const byKind = new Map<string, IndexSize>();
  const queryDir = join(dist, API_PREFIX, '_query');
  for (const part of ['filters', 'search', 'fields']) {
    for (const file of filesUnder(join(queryDir, part))) {
      const relative = file.slice(join(queryDir, part).length + 1);
      const kind = relative.includes('/') ? relative.slice(0, relative.indexOf('/')) : relative.replace(/\.(json|bin)$/, '');
      const size = byKind.get(kind) ?? { kind, parts: {} };
      const sum = (size.parts[part] ??= { raw: 0, gzip: 0 });
      sum.raw += statSync(file).size;
      sum.gzip += gzipSync(readFileSync(file)).length;
      byKind.set(kind, size);
    }
  }
  const total = (s: IndexSize) => Object.values(s.parts).reduce((n, p) => n + p.raw, 0);
  return [...byKind.values()].sort((a, b) => total(b) - total(a));
}

/** The packed search index's size, raw and gzip'd; null for a build without one. */
function packedSize(dist: string): { raw: number; gzip: number } | null {
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(dist, searchPackFile));
  } catch (e) {
    if (!isMissing(e)) throw e;
    return null;
  }
  return { raw: bytes.length, gzip: gzipSync(bytes).length };
}

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} kB`;
export const ms = (x: number) => `${x.toFixed(2)} ms`;

/** The figures as rows of the bench's table: what, figure, goal. */
export async function runQueryBench(dist: string, baseUrl: string): Promise<Array<[string, string, string]>> {
  const rows: Array<[string, string, string]> = [];
  for (const { what, path } of QUERY_TARGETS) {
    const node = await timeInProcess(dist, baseUrl, path);
    rows.push([`${what}, in-process`, `p50 ${ms(node.p50)}, p99 ${ms(node.p99)}, cold ${ms(node.cold)} (status ${node.status})`, 'p99 ≤ 5 ms, cold ≤ 25 ms']);
    const deno = timeUnderDeno(dist, baseUrl, path);
    rows.push([`${what}, Deno`, `p50 ${ms(deno.p50)}, p99 ${ms(deno.p99)}, cold ${ms(deno.cold)} (status ${deno.status})`, 'p99 ≤ 5 ms, cold ≤ 25 ms']);
  }
  const overFetches = await firstAnswerOverFetches(dist, baseUrl, QUERY_TARGETS[2].path);
  rows.push([`${QUERY_TARGETS[2].what}, in-process, first answer of a fresh handler whose reads take ${FETCH_MS} ms each`, ms(overFetches), '']);
  for (const target of [FLOOR_TARGET, QUERY_TARGETS[1], QUERY_TARGETS[2], QUERY_TARGETS[4]]) {
    const fresh = firstAnswerInFreshDeno(dist, baseUrl, target.path);
    rows.push([
      `${target.what}, Deno, first answer of a fresh process`,
      `${ms(fresh.ms)}, ${fresh.faults} page faults (medians of ${FRESH_PROCESSES} processes)`,
      target === FLOOR_TARGET ? '' : 'cold ≤ 25 ms',
    ]);
  }
  const heaviestFiles = await filesRead(dist, baseUrl, QUERY_TARGETS[2].path);
  const reads = readsInFreshDeno(dist, heaviestFiles);
  rows.push([
    `  the heaviest query's ${heaviestFiles.length} files read side by side in a fresh Deno process, nothing else done`,
    `${ms(reads.ms)} for ${kb(reads.bytes)} (median of ${FRESH_PROCESSES} processes)`,
    '',
  ]);
  const touch = firstTouchMicrosPerPage();
  rows.push([
    '  this machine: memory touched for the first time, a new process filling 64 MB',
    `${touch.micros.toFixed(1)} µs a page (${touch.faults} page faults; median of 3 processes)`,
    '',
  ]);
  const sizes = indexSizes(dist);
  const all = { raw: 0, gzip: 0 };
  for (const size of sizes) {
    for (const p of Object.values(size.parts)) {
      all.raw += p.raw;
      all.gzip += p.gzip;
    }
  }
  rows.push([`query indexes, ${sizes.length} kinds`, `${kb(all.raw)} raw, ${kb(all.gzip)} gzip'd`, '']);
  const pack = packedSize(dist);
  rows.push([`packed search index, every kind (${searchPackFile})`, pack ? `${kb(pack.raw)} raw, ${kb(pack.gzip)} gzip'd` : 'none in this build', '']);
  for (const size of sizes.slice(0, 8)) {
    const parts = Object.entries(size.parts).map(([part, p]) => `${part} ${kb(p.raw)} (${kb(p.gzip)} gz)`);
    rows.push([`  ${size.kind}`, parts.join(', '), '']);
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { dist, baseUrl } = distArgs('node bench/query.ts DIST [BASE_URL]');
  printRows(await runQueryBench(dist, baseUrl));
}
