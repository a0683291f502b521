/**
 * The HTTP figures, in one run on one built dist/ (`npm run bench` ends with it;
 * `node bench/http.ts [DIST]` runs it alone, on OUT_DIR by default):
 *   - the preview and nginx (Debian package, bench/nginx.conf) side by side: req/s and p99 with
 *     autocannon, 64 connections, 15 s, for an item, a default-size page and a computed page
 *   - 256 connections for 30 s on the preview, spread over those requests: errors must be 0
 *   - the request module's page computation in-process: p50 and p99
 * Both servers listen on 127.0.0.1 only and are stopped at the end. Each figure also carries the
 * server's CPU time per request (from /proc): this machine is shared and its load is printed,
 * and CPU per request moves far less with other work than req/s does.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createHandler } from '../edge/handler.ts';
import { listFile, metaFile, type Meta } from '../contract/layout.ts';
import type { FullList } from '../contract/pagination.ts';
import { repoRoot, resolveConfig } from '../generator/config.ts';
import { ensureBuilt } from '../generator/pipeline.ts';
import { diskReader, startPreview } from '../generator/preview/index.ts';
import { readArgs } from './args.ts';
import { childPids, fmtLoadAvg, freePort, isMissing, isRefused, printTable } from './measure.ts';
import { nodeFlagsOf } from './npm-flags.ts';

const AUTOCANNON = join(repoRoot, 'node_modules/autocannon/autocannon.js');
const CONNECTIONS = 64;
const SECONDS = 15;
const STRESS_CONNECTIONS = 256;
const STRESS_SECONDS = 30;
/** Linux reports process CPU time in ticks of 1/100 s (USER_HZ). */
const TICKS_PER_SECOND = 100;

export interface Target {
  label: string;
  path: string;
  /** nginx serves it (items and precomputed pages); a computed page needs code nginx does not run */
  nginx: boolean;
}

export const TARGETS: Target[] = [
  { label: 'item /v2/move/tackle', path: '/v2/move/tackle', nginx: true },
  { label: 'item /v2/creature/bulbasaur', path: '/v2/creature/bulbasaur', nginx: true },
  { label: 'default page /v2/creature/?offset=40&limit=20', path: '/v2/creature/?offset=40&limit=20', nginx: true },
  { label: 'computed page /v2/creature/?offset=7&limit=50', path: '/v2/creature/?offset=7&limit=50', nginx: false },
];

export interface Load {
  requests: number;
  seconds: number;
  p99: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  /** server CPU time per request, µs */
  cpuUs: number | null;
}

interface AutocannonResult {
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  latency: { p99: number };
  requests: { total: number };
}

// ---- servers ----------------------------------------------------------------------------------

export interface Server {
  name: string;
  url: string;
  /** the processes whose CPU time counts (nginx: master and workers) */
  pids(): number[];
  stop(): Promise<void>;
}

const stopped = (child: ChildProcess) =>
  new Promise<void>((done) => (child.exitCode !== null || child.signalCode !== null ? done() : child.once('exit', () => done())));

async function waitUntilServing(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${log()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch (e) {
      // not listening yet
      if (!isRefused(e)) throw e;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no answer from ${url} within 20 s:\n${log()}`);
}

/**
 * The preview as `npm start` runs it (or with other Node flags), in its own process, so the load
 * generator does not share its thread. `tree` is the checkout whose code serves (bench/compare.ts
 * starts an older commit's preview beside this one's).
 */
export async function startPreviewProcess(dist: string, baseUrl: string, nodeFlags = nodeFlagsOf('start'), tree = repoRoot): Promise<Server> {
  const entry = join(tree, 'bench/http.ts');
  const child = spawn(process.execPath, [...nodeFlags, entry, '--serve-preview', dist, baseUrl], { cwd: tree, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  const url = await new Promise<string>((resolveUrl, reject) => {
    child.stdout?.on('data', (c: Buffer) => {
      output += c.toString();
      const found = /^listening (\S+)$/m.exec(output);
      if (found?.[1]) resolveUrl(found[1]);
    });
    child.once('exit', (code) => reject(new Error(`the preview exited (${code}):\n${output}`)));
  });
  await waitUntilServing(`${url}/v2/`, child, () => output);
  return {
    name: 'preview',
    url,
    pids: () => (child.pid === undefined ? [] : [child.pid]),
    stop: async () => {
      child.kill('SIGTERM');
      await stopped(child);
    },
  };
}

/** nginx from Debian, installed with apt-get when it is missing (this needs root, as CI runs). */
function nginxBinary(): string {
  for (const candidate of ['/usr/sbin/nginx', '/usr/local/sbin/nginx']) if (existsSync(candidate)) return candidate;
  const found = spawnSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' }).stdout.trim();
  if (found) return found;
  console.log('nginx is missing: apt-get install nginx');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  // other jobs may hold the dpkg lock for a while: wait for it rather than fail
  spawnSync('apt-get', ['-o', 'DPkg::Lock::Timeout=600', 'update', '-qq'], { stdio: 'inherit', env });
  const installed = spawnSync('apt-get', ['-o', 'DPkg::Lock::Timeout=600', 'install', '-y', '-qq', '--no-install-recommends', 'nginx'], {
    stdio: 'inherit',
    env,
  });
  if (installed.status !== 0 || !existsSync('/usr/sbin/nginx')) throw new Error('could not install nginx with apt-get');
  return '/usr/sbin/nginx';
}

async function startNginx(dist: string, meta: Meta, scratch: string): Promise<Server> {
  const binary = nginxBinary();
  const prefix = join(scratch, 'nginx');
  mkdirSync(prefix, { recursive: true });
  const port = await freePort();
  const config = readFileSync(join(repoRoot, 'bench/nginx.conf'), 'utf8')
    .replaceAll('@PREFIX@', prefix)
    .replaceAll('@ROOT@', dist)
    .replaceAll('@PORT@', String(port))
    .replaceAll('@USER@', userInfo().username)
    .replaceAll('@DATA_VERSION@', meta.upstream_commit);
  writeFileSync(join(prefix, 'nginx.conf'), config);
  const child = spawn(binary, ['-p', prefix, '-c', join(prefix, 'nginx.conf')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  const log = () => `${output}${existsSync(join(prefix, 'error.log')) ? readFileSync(join(prefix, 'error.log'), 'utf8') : ''}`;
  const url = `http://127.0.0.1:${port}`;
  await waitUntilServing(`${url}/v2/`, child, log);
  return {
    name: 'nginx',
    url,
    pids: () => (child.pid === undefined ? [] : [child.pid, ...childPids(child.pid)]),
    stop: async () => {
      child.kill('SIGTERM');
      await stopped(child);
    },
  };
}

/** User + system CPU ticks of these processes (all their threads), or null off Linux. */
function cpuTicks(pids: number[]): number | null {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      // after the command: state is field 3; utime and stime are fields 14 and 15
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch (e) {
      // no /proc (off Linux), or the process is gone
      if (!isMissing(e)) throw e;
      return null;
    }
  }
  return ticks;
}

// ---- load -----------------------------------------------------------------------------------------

export function autocannon(url: string, connections: number, seconds: number): Promise<AutocannonResult> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [AUTOCANNON, '-c', String(connections), '-d', String(seconds), '-j', url], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.once('exit', (code) => {
      try {
        resolveRun(JSON.parse(out) as AutocannonResult);
      } catch (e) {
        // no JSON report (a SyntaxError): autocannon failed, and its stderr says why
        reject(e instanceof SyntaxError ? new Error(`autocannon ${url} failed (${code}): ${err}`) : e);
      }
    });
  });
}

export async function measure(server: Server, paths: string[], connections: number, seconds: number): Promise<Load> {
  const pids = server.pids();
  const before = cpuTicks(pids);
  // the connections are shared out over the paths, one load generator each
  const shares = paths.map((_, i) => Math.floor(connections / paths.length) + (i < connections % paths.length ? 1 : 0));
  const runs = await Promise.all(paths.map((p, i) => autocannon(server.url + p, shares[i]!, seconds)));
  const after = cpuTicks(pids);
  const requests = runs.reduce((n, r) => n + r.requests.total, 0);
  return {
    requests,
    seconds: Math.max(...runs.map((r) => r.duration)),
    p99: Math.max(...runs.map((r) => r.latency.p99)),
    errors: runs.reduce((n, r) => n + r.errors, 0),
    timeouts: runs.reduce((n, r) => n + r.timeouts, 0),
    non2xx: runs.reduce((n, r) => n + r.non2xx, 0),
    cpuUs: before === null || after === null || requests === 0 ? null : (((after - before) / TICKS_PER_SECOND) * 1e6) / requests,
  };
}

/** Both servers answer the same bytes for what nginx serves; the preview answers everything. */
async function checkEquivalent(preview: Server, nginx: Server): Promise<void> {
  for (const target of TARGETS) {
    const a = await fetch(preview.url + target.path);
    const body = Buffer.from(await a.arrayBuffer());
    if (a.status !== 200) throw new Error(`preview ${target.path}: ${a.status}`);
    if (!target.nginx) continue;
    const b = await fetch(nginx.url + target.path);
    if (b.status !== 200 || !body.equals(Buffer.from(await b.arrayBuffer()))) throw new Error(`nginx ${target.path}: ${b.status}, not the preview's bytes`);
  }
  const missing = await fetch(`${nginx.url}/v2/creature/no-such-creature`);
  if (missing.status !== 404 || (await missing.json()) !== 'Not Found') throw new Error('nginx does not answer the JSON 404');
}

// ---- in-process page computation ----------------------------------------------------------

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;

/**
 * Times the request module (web Request → Response, as on the edge) answering pages that are not
 * precomputed: offsets and limits up to 100 drawn over every collection, and separately the
 * largest answer (limit=100000 on the longest list).
 */
async function pageComputation(dist: string, meta: Meta): Promise<{ p50: number; p99: number; n: number; fullP50: number; fullP99: number; fullKind: string }> {
  const handle = createHandler(diskReader(dist), { baseUrl: meta.base_url });
  const kinds = Object.keys(meta.counts);
  const counts = Object.fromEntries(kinds.map((k) => [k, (JSON.parse(readFileSync(join(dist, listFile(k)), 'utf8')) as FullList).count]));
  const origin = new URL(meta.base_url).origin;
  // a fixed sequence (a linear congruential generator) so runs are comparable
  let seed = 12345;
  const next = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % Math.max(1, n));
  const urls = Array.from({ length: 4000 }, () => {
    const kind = kinds[next(kinds.length)]!;
    let limit = 1 + next(100);
    if (limit === 20) limit = 21; // 20 would be served from a precomputed file
    return `${origin}/v2/${kind}/?offset=${next(counts[kind]! + 1)}&limit=${limit}`;
  });
  const time = async (list: string[], rounds: number) => {
    const ms: number[] = [];
    for (let r = 0; r < rounds; r++) {
      for (const url of list) {
        const started = performance.now();
        const response = await handle(new Request(url));
        await response.arrayBuffer();
        ms.push(performance.now() - started);
        if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
      }
    }
    return ms.sort((a, b) => a - b);
  };
  await time(urls, 1); // warm: every list read once, the JIT settled
  const measured = await time(urls, 2);
  const fullKind = kinds.reduce((a, b) => (counts[b]! > counts[a]! ? b : a));
  const full = await time([`${origin}/v2/${fullKind}/?limit=100000&offset=1`], 200);
  return {
    p50: percentile(measured, 50),
    p99: percentile(measured, 99),
    n: measured.length,
    fullP50: percentile(full, 50),
    fullP99: percentile(full, 99),
    fullKind,
  };
}

// ---- the run ------------------------------------------------------------------------------------

export const rate = (l: Load) => l.requests / l.seconds;
export const fmtLoad = (l: Load) =>
  `${Math.round(rate(l)).toLocaleString('en')} req/s, p99 ${l.p99} ms${l.cpuUs === null ? '' : `, ${Math.round(l.cpuUs)} µs CPU/req`}`;

export interface HttpBenchRow {
  what: string;
  preview: string;
  nginx: string;
  ratio: string;
  target: string;
}

/** Runs every HTTP figure on a built dist/ and prints them as one table; returns the rows. */
export async function runHttpBench(dist: string): Promise<HttpBenchRow[]> {
  const meta = JSON.parse(readFileSync(join(dist, metaFile), 'utf8')) as Meta;
  const scratch = mkdtempSync(join(tmpdir(), 'creature-http-bench-'));
  const rows: HttpBenchRow[] = [];
  const servers: Server[] = [];
  const loadAtStart = fmtLoadAvg();
  try {
    console.log(`\nHTTP bench on ${dist} (load average ${loadAtStart}, ${availableParallelism()} cores)`);
    // in-process first, with no server running beside it
    const pages = await pageComputation(dist, meta);

    const preview = await startPreviewProcess(dist, meta.base_url);
    servers.push(preview);
    const nginx = await startNginx(dist, meta, scratch);
    servers.push(nginx);
    await checkEquivalent(preview, nginx);

    for (const target of TARGETS) {
      for (const server of target.nginx ? [preview, nginx] : [preview]) await autocannon(server.url + target.path, CONNECTIONS, 2); // warm caches and JIT
      const p = await measure(preview, [target.path], CONNECTIONS, SECONDS);
      const n = target.nginx ? await measure(nginx, [target.path], CONNECTIONS, SECONDS) : null;
      const isItem = target.label.startsWith('item');
      rows.push({
        what: `${target.label}, ${CONNECTIONS} conn, ${SECONDS} s`,
        preview: fmtLoad(p) + (p.errors + p.timeouts + p.non2xx ? `, ${p.errors + p.timeouts + p.non2xx} errors` : ''),
        nginx: n ? fmtLoad(n) : 'n/a (a computed page needs njs or similar)',
        ratio: n ? `${Math.round((rate(p) / rate(n)) * 100)}%` : '',
        target: isItem ? '≥ 50% of nginx' : '',
      });
    }

    // what npm start's small semi-space (it keeps the preview under its memory goal) costs in
    // throughput: the largest item, measured back to back with and without it
    const semiSpace = nodeFlagsOf('start').filter((flag) => flag.startsWith('--max-semi-space-size'));
    if (semiSpace.length) {
      const largest = TARGETS[1]!.path;
      const plain = await startPreviewProcess(
        dist,
        meta.base_url,
        nodeFlagsOf('start').filter((flag) => !semiSpace.includes(flag)),
      );
      servers.push(plain);
      await autocannon(plain.url + largest, CONNECTIONS, 2);
      const withFlag = await measure(preview, [largest], CONNECTIONS, SECONDS);
      const without = await measure(plain, [largest], CONNECTIONS, SECONDS);
      await plain.stop();
      servers.splice(servers.indexOf(plain), 1);
      rows.push({
        what: `${largest}, ${CONNECTIONS} conn, ${SECONDS} s: npm start's ${semiSpace.join(' ')} against Node's default`,
        preview: fmtLoad(withFlag),
        nginx: `without it: ${fmtLoad(without)}`,
        ratio: `${Math.round((rate(withFlag) / rate(without)) * 100)}% of the default's`,
        target: '',
      });
    }

    const stress = await measure(
      preview,
      TARGETS.map((t) => t.path),
      STRESS_CONNECTIONS,
      STRESS_SECONDS,
    );
    const failures = stress.errors + stress.timeouts + stress.non2xx;
    rows.push({
      what: `preview, ${STRESS_CONNECTIONS} conn over those ${TARGETS.length} requests, ${STRESS_SECONDS} s`,
      preview: `${stress.requests.toLocaleString('en')} requests, ${failures} errors (${stress.errors} connection, ${stress.timeouts} timeouts, ${stress.non2xx} non-2xx), p99 ${stress.p99} ms`,
      nginx: '',
      ratio: '',
      target: '0 errors',
    });
    rows.push({
      what: `page computation in-process, ${pages.n} pages (limit 1–100)`,
      preview: `p50 ${pages.p50.toFixed(3)} ms, p99 ${pages.p99.toFixed(3)} ms`,
      nginx: '',
      ratio: '',
      target: 'p99 ≤ 1 ms',
    });
    rows.push({
      what: `page computation in-process, /${pages.fullKind}/?limit=100000 (largest)`,
      preview: `p50 ${pages.fullP50.toFixed(3)} ms, p99 ${pages.fullP99.toFixed(3)} ms`,
      nginx: '',
      ratio: '',
      target: '',
    });
  } finally {
    for (const server of servers.reverse()) await server.stop().catch(() => undefined);
    rmSync(scratch, { recursive: true, force: true });
  }
  const cols = ['what', 'preview', 'nginx', 'ratio', 'target'] as const;
  const header: HttpBenchRow = { what: 'what', preview: 'preview', nginx: 'nginx', ratio: 'preview ÷ nginx', target: 'target' };
  printTable([header, ...rows].map((row) => cols.map((c) => row[c])));
  console.log(`load average ${loadAtStart} at the start, ${fmtLoadAvg()} at the end (1-, 5-, 15-minute)`);
  return rows;
}

// ---- entry points ---------------------------------------------------------------------------------

const USAGE = 'node bench/http.ts [DIST]';
const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
const args = isMain ? readArgs(USAGE, { 'serve-preview': { type: 'boolean' } }, true) : undefined;
if (args?.values['serve-preview']) {
  // the preview process the bench measures (`--serve-preview DIST BASE_URL`): loopback only, stopped by the bench
  const [dist, baseUrl, ...more] = args.positionals;
  if (!dist || !baseUrl || more.length) throw new Error('usage: node bench/http.ts --serve-preview DIST BASE_URL (the bench starts it)');
  const preview = await startPreview({ root: dist, baseUrl, port: 0, host: '127.0.0.1' });
  console.log(`listening ${preview.url}`);
  const stop = () => void preview.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
} else if (args) {
  const [dist, ...more] = args.positionals;
  if (more.length) throw new Error(`usage: ${USAGE}`);
  const config = resolveConfig({ ...(dist ? { out: dist } : {}) });
  await ensureBuilt(config);
  await runHttpBench(config.outDir);
}
