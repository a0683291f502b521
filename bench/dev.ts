/**
 * The dev loop's figures (issue 10), measured on a copy of the data set in a scratch folder:
 *   - `npm run dev`'s start: a full import and build, then the planner reading what each document reads;
 *   - edit → served answer: from the moment a table is saved until the preview answers with the
 *     change, for one creature's base stat, a move's rename, and a save that changes nothing;
 *   - the preview's peak RSS (VmHWM) while it serves every item of every collection once.
 * Every process here is started and stopped by this file; nothing outside the scratch folder is written.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { listFile, type Routes, routesFile } from '../edge/layout.ts';
import type { FullList } from '../edge/pagination.ts';
import { repoRoot, resolveConfig } from '../generator/config.ts';
import { freePort } from './measure.ts';
import { nodeFlagsOf } from './npm-flags.ts';

interface Cli {
  child: ChildProcess;
  output: () => string;
  /** resolves when the output (from `from` on) matches */
  waitFor(pattern: RegExp, from?: number, timeoutMs?: number): Promise<RegExpExecArray>;
  stop(): Promise<void>;
}

/** The CLI, with the Node flags of the npm script that runs it (package.json). */
function cli(args: string[], env: NodeJS.ProcessEnv, nodeFlags: string[] = []): Cli {
  const child = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', 'generator/cli.ts', ...args], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return {
    child,
    output: () => output,
    waitFor: async (pattern, from = 0, timeoutMs = 600_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = pattern.exec(output.slice(from));
        if (found) return found;
        if (child.exitCode !== null || Date.now() > deadline) throw new Error(`waiting for ${pattern}:\n${output}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    stop: async () => {
      child.kill('SIGINT');
      await exited;
    },
  };
}

/** Polls `probe` every 10 ms until it is true; the seconds since `since`. */
async function secondsUntil(since: number, probe: () => Promise<boolean>, timeoutMs = 300_000): Promise<number> {
  for (;;) {
    if (await probe().catch(() => false)) return (performance.now() - since) / 1000;
    if (performance.now() - since > timeoutMs) throw new Error('no change within the time limit');
    await new Promise((r) => setTimeout(r, 10));
  }
}

export interface DevBenchRow {
  what: string;
  figure: string;
  goal: string;
}

/** Replaces the first line matching `pattern` in a table of `data` (keeping CRLF), as an editor's save does. */
function edit(data: string, table: string, pattern: RegExp, replacement: string): void {
  const path = join(data, 'csv', table);
  const text = readFileSync(path, 'utf8');
  const next = text.replace(pattern, replacement);
  if (next === text) throw new Error(`${table}: nothing matched ${pattern}`);
  writeFileSync(path, next);
}

export async function runDevBench(scratch: string, upstream: string): Promise<DevBenchRow[]> {
  const data = join(scratch, 'dev-data');
  mkdirSync(data, { recursive: true });
  for (const part of ['csv', 'media', 'PROVENANCE.md']) cpSync(join(upstream, part), join(data, part), { recursive: true });
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: data, OUT_DIR: join(scratch, 'dev-dist'), RECORDS_DIR: join(scratch, 'dev-records'), PORT: String(port) };
  delete env['BASE_URL'];
  const origin = `http://127.0.0.1:${port}`;
  const rows: DevBenchRow[] = [];

  const started = performance.now();
  const dev = cli(['dev'], env, nodeFlagsOf('dev'));
  try {
    await dev.waitFor(/dev: serving/);
    rows.push({ what: 'npm run dev: start (import + full build + planner)', figure: `${((performance.now() - started) / 1000).toFixed(1)} s`, goal: 'once per session' });
    // the planner prepares a copy of dist/ in the background after each swap; a person saves
    // seconds apart, so each edit below waits as long before it is made
    const settle = () => new Promise((r) => setTimeout(r, 8000));
    const json = async (path: string) => (await (await fetch(origin + path)).json()) as Record<string, unknown>;

    const loop = async (what: string, goal: string, change: () => void, served: () => Promise<boolean>) => {
      await settle();
      const from = dev.output().length;
      const t0 = performance.now();
      change();
      const seconds = await secondsUntil(t0, served);
      const line = (await dev.waitFor(/dev: .*\n/, from))[0].trim();
      rows.push({ what: `edit → served: ${what}`, figure: `${seconds.toFixed(2)} s  (${line.replace(/^dev: /, '')})`, goal });
    };
    await loop('one creature base stat', '≤ 1 s', () => edit(data, 'pokemon_stats.csv', /^25,1,35,0/m, '25,1,36,0'), async () => {
      const body = (await json('/v2/creature/25')) as { stats: Array<{ base_stat: number }> };
      return body.stats[0]?.base_stat === 36;
    });
    await loop('a move renamed (tackle → body-tackle)', '≤ 3 s', () => edit(data, 'moves.csv', /^33,tackle,/m, '33,body-tackle,'), async () => (await json('/v2/move/33')).name === 'body-tackle');

    await settle();
    const from = dev.output().length;
    const t0 = performance.now();
    const stats = join(data, 'csv', 'pokemon_stats.csv');
    writeFileSync(stats, readFileSync(stats));
    const noop = (await dev.waitFor(/dev: .*\n/, from))[0];
    rows.push({ what: 'edit → done: a save that changes nothing', figure: `${((performance.now() - t0) / 1000).toFixed(2)} s  (${noop.trim().replace(/^dev: /, '')})`, goal: '' });
  } finally {
    await dev.stop();
  }
  return rows;
}

/**
 * Peak RSS of the preview (`npm start` on a built dist/) while it serves every item of every
 * collection once, 16 requests in flight, identity and gzip alternately.
 */
export async function previewPeakRss(dist: string, env: NodeJS.ProcessEnv): Promise<DevBenchRow> {
  const port = await freePort();
  // the links keep the base URL dist/ was built with, so `serve` finds it up to date and serves it as it is
  const baseUrl = (JSON.parse(readFileSync(join(dist, 'build-stamp.json'), 'utf8')) as { baseUrl: string }).baseUrl;
  const serve = cli(['serve', '--port', String(port)], { ...env, OUT_DIR: dist, BASE_URL: baseUrl }, nodeFlagsOf('start'));
  try {
    await serve.waitFor(/serving /);
    if (/build: \d+ files/.test(serve.output())) throw new Error(`serve built again; the figure would include a build:\n${serve.output()}`);
    // the peak from here on: serving, not the start's check of the inputs (Linux: 5 resets VmHWM)
    writeFileSync(`/proc/${serve.child.pid}/clear_refs`, '5');
    const rssAtStart = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${serve.child.pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;
    const origin = `http://127.0.0.1:${port}`;
    const routes = JSON.parse(readFileSync(join(dist, routesFile), 'utf8')) as Routes;
    const paths = routes.kinds.flatMap((kind) => (JSON.parse(readFileSync(join(dist, listFile(kind)), 'utf8')) as FullList).results.map((r) => new URL(r.url).pathname));
    let next = 0;
    let bytes = 0;
    const worker = async () => {
      while (next < paths.length) {
        const i = next++;
        const response = await fetch(origin + paths[i]!, { headers: i % 2 ? { 'accept-encoding': 'gzip' } : {} });
        // read first, then add: `bytes += await …` would add to the value read before the await
        const received = (await response.arrayBuffer()).byteLength;
        bytes += received;
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    const status = readFileSync(`/proc/${serve.child.pid}/status`, 'utf8');
    const peak = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) / 1024;
    return {
      what: `preview peak RSS, every item once (${paths.length} items, ${(bytes / 1e6).toFixed(0)} MB sent)`,
      figure: `${peak.toFixed(0)} MB (${rssAtStart.toFixed(0)} MB when it started serving)`,
      goal: '< 200 MB',
    };
  } finally {
    await serve.stop();
  }
}

// `tsx bench/dev.ts`: these figures alone, in a scratch folder of their own
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const scratch = mkdtempSync(join(tmpdir(), 'creature-bench-dev-'));
  try {
    const upstream = resolveConfig({}, {}).dataDir;
    const rows = await runDevBench(scratch, upstream);
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: upstream, RECORDS_DIR: join(scratch, 'records'), OUT_DIR: join(scratch, 'dist') };
    delete env['BASE_URL'];
    const build = cli(['build'], env);
    await build.waitFor(/build: \d+ files/);
    await build.stop();
    rows.push(await previewPeakRss(join(scratch, 'dist'), env));
    const width = Math.max(...rows.map((r) => r.what.length));
    for (const r of rows) console.log(`${r.what.padEnd(width)}  ${r.figure.padEnd(70)}  ${r.goal}`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
