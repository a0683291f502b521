/**
 * The dev loop's figures, measured on a copy of the data set in a scratch folder:
 *   - `npm run dev`'s start: a full import and build, then the planner reading what each document reads;
 *     and a second start on what the first left, nothing changed;
 *   - edit → served answer: from the moment a table is saved until every answer the bench checks
 *     of those the edit changes (the item, a list filter, the search, the item as of a game: those
 *     the checkout serves) holds the change, for one creature's base stat and a move's rename;
 *     and a save that changes nothing;
 *   - the preview's peak RSS (VmHWM) while it serves every item of every collection once.
 * `node bench/dev.ts [--root DIR]` prints them alone, for the checkout at DIR (default: this one).
 * Every process here is started and stopped by this file; nothing outside the scratch folder is written.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { listFile, type Routes, routesFile } from '../contract/layout.ts';
import type { FullList } from '../contract/pagination.ts';
import { repoRoot, resolveConfig } from '../generator/config.ts';
import { checkoutArg } from './args.ts';
import { freePort, median, printRows, range, statusMb } from './measure.ts';
import { nodeFlagsOf } from './npm-flags.ts';

export interface Cli {
  child: ChildProcess;
  output: () => string;
  /** resolves when the output (from `from` on) matches */
  waitFor(pattern: RegExp, from?: number, timeoutMs?: number): Promise<RegExpExecArray>;
  stop(): Promise<void>;
}

/** The CLI of the checkout at `root`, with the Node flags of the npm script that runs it (package.json). */
export function cli(args: string[], env: NodeJS.ProcessEnv, nodeFlags: string[] = [], root = repoRoot): Cli {
  const child = spawn(process.execPath, [...nodeFlags, 'generator/cli.ts', ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
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

/** One answer an edit changes: its path in a round, and whether its JSON holds that round's value. */
interface Probe {
  what: string;
  path: (round: number) => string;
  holds: (body: Json, round: number) => boolean;
}
type Json = Record<string, unknown>;
type Named = { name?: string; url: string };

/** The probes this checkout answers (200 before any edit); a checkout without that answer (before "as of a game", say) skips it. */
async function answeredProbes(origin: string, probes: Probe[]): Promise<Probe[]> {
  const answers = await Promise.all(probes.map(async (p) => (await fetch(origin + p.path(-1))).status === 200));
  return probes.filter((_, i) => answers[i]);
}

/**
 * Whether every probe's answer holds the round's value, asked in turn: until the first holds, a
 * poll asks one small answer, so the polling takes little of the two cores the planner needs.
 */
async function allHold(origin: string, probes: Probe[], round: number): Promise<boolean> {
  for (const p of probes) if (!p.holds((await (await fetch(origin + p.path(round))).json()) as Json, round)) return false;
  return true;
}

const results = (body: Json): Named[] => (body.results as Named[] | undefined) ?? [];

/** A base stat edit reaches the item, the range filter over that stat, and the creature as of a game. */
const statProbes = (value: (round: number) => number): Probe[] => {
  const firstStat = (body: Json, round: number) => (body.stats as Array<{ base_stat: number }>)[0]?.base_stat === value(round);
  return [
    {
      what: 'the hp range',
      path: (round) => `/v2/creature/?hp=${value(round)}..${value(round)}&limit=2000`,
      holds: (body) => results(body).some((r) => r.name === 'pikachu'),
    },
    { what: 'the item', path: () => '/v2/creature/25', holds: firstStat },
    { what: 'the item as of X & Y', path: () => '/v2/as-of/x-y/creature/25', holds: firstStat },
  ];
};

/** A move renamed reaches its item, a creature that learns it, the move filter, the search, and the move as of a game. */
const renameProbes = (name: (round: number) => string): Probe[] => [
  { what: 'the item', path: () => '/v2/move/33', holds: (body, round) => body.name === name(round) },
  {
    what: 'a learner',
    path: () => '/v2/creature/1',
    holds: (body, round) => (body.moves as Array<{ move: Named }>).some((m) => m.move.name === name(round)),
  },
  { what: 'the move filter', path: (round) => `/v2/creature/?move=${name(round)}&limit=1`, holds: (body) => (body.count as number) > 0 },
  { what: 'the search', path: (round) => `/v2/move/?q=${name(round)}&limit=5`, holds: (body, round) => results(body).some((r) => r.name === name(round)) },
  { what: 'the item as of Red & Blue', path: () => '/v2/as-of/red-blue/move/33', holds: (body, round) => body.name === name(round) },
];

/** How many times each edit is made (back and forth): one figure is the median, with the range. */
const EDIT_ROUNDS = 3;

/** Seconds as `median s (min–max s)`. */
const spread = (seconds: number[]): string => `${median(seconds).toFixed(2)} s (${range(seconds)})`;

/** `npm run dev`'s start and edit → served figures, on a copy of `upstream`, with the CLI of the checkout at `root`. */
export async function runDevBench(scratch: string, upstream: string, root = repoRoot): Promise<DevBenchRow[]> {
  const data = join(scratch, 'dev-data');
  mkdirSync(data, { recursive: true });
  for (const part of ['csv', 'media', 'PROVENANCE.md']) cpSync(join(upstream, part), join(data, part), { recursive: true });
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: data,
    OUT_DIR: join(scratch, 'dev-dist'),
    RECORDS_DIR: join(scratch, 'dev-records'),
    PORT: String(port),
  };
  delete env['BASE_URL'];
  const origin = `http://127.0.0.1:${port}`;
  const rows: DevBenchRow[] = [];

  const started = performance.now();
  const dev = cli(['dev'], env, nodeFlagsOf('dev', root), root);
  try {
    await dev.waitFor(/dev: serving/);
    const serving = (performance.now() - started) / 1000;
    // a checkout that serves only once its planner is ready says so before it serves
    await dev.waitFor(/dev: ready in/);
    rows.push({
      what: 'npm run dev: start (import + full build; + planner)',
      figure: `serving ${serving.toFixed(1)} s; ready for edits ${((performance.now() - started) / 1000).toFixed(1)} s`,
      goal: 'once per session',
    });
    // the planner prepares a copy of dist/ in the background after each swap; a person saves
    // seconds apart, so each edit below waits as long before it is made
    const settle = () => new Promise((r) => setTimeout(r, 8000));
    // each edit is made EDIT_ROUNDS times, back and forth (`change(round)` makes round's edit); it
    // is served once every probe the checkout answers holds the round's value
    const loop = async (what: string, goal: string, change: (round: number) => void, probes: Probe[]) => {
      const answered = await answeredProbes(origin, probes);
      const skipped = probes.filter((p) => !answered.includes(p)).map((p) => p.what);
      const seconds: number[] = [];
      let line = '';
      for (let round = 0; round < EDIT_ROUNDS; round++) {
        await settle();
        const from = dev.output().length;
        const t0 = performance.now();
        change(round);
        seconds.push(await secondsUntil(t0, () => allHold(origin, answered, round)));
        line = (await dev.waitFor(/dev: .*\n/, from))[0].trim();
      }
      const checked = `checked: ${answered.map((p) => p.what).join(', ')}${skipped.length ? `; not served by this checkout: ${skipped.join(', ')}` : ''}`;
      rows.push({ what: `edit → served: ${what}`, figure: `${spread(seconds)}  (${checked}; last: ${line.replace(/^dev: /, '')})`, goal });
    };
    const baseStat = (round: number) => (round % 2 === 0 ? 36 : 35);
    await loop(
      `one creature base stat (median of ${EDIT_ROUNDS})`,
      '≤ 0.5 s',
      (round) => edit(data, 'pokemon_stats.csv', /^25,1,3[56],0/m, `25,1,${baseStat(round)},0`),
      statProbes(baseStat),
    );
    const moveName = (round: number) => (round % 2 === 0 ? 'body-tackle' : 'tackle');
    await loop(
      `a move renamed (tackle ↔ body-tackle, median of ${EDIT_ROUNDS})`,
      '≤ 1 s',
      (round) => edit(data, 'moves.csv', /^33,(?:tackle|body-tackle),/m, `33,${moveName(round)},`),
      renameProbes(moveName),
    );

    await settle();
    const from = dev.output().length;
    const t0 = performance.now();
    const stats = join(data, 'csv', 'pokemon_stats.csv');
    writeFileSync(stats, readFileSync(stats));
    const noop = (await dev.waitFor(/dev: .*\n/, from))[0];
    rows.push({
      what: 'edit → done: a save that changes nothing',
      figure: `${((performance.now() - t0) / 1000).toFixed(2)} s  (${noop.trim().replace(/^dev: /, '')})`,
      goal: '',
    });
  } finally {
    await dev.stop();
  }
  rows.push(await secondStart(env, origin, root));
  return rows;
}

/**
 * `npm run dev` again on what the first one left: the same tables, code and settings, its
 * `dist/` up to date. The figure is the time until the preview answers, and until the planner
 * is ready for an edit.
 */
async function secondStart(env: NodeJS.ProcessEnv, origin: string, root: string): Promise<DevBenchRow> {
  const started = performance.now();
  const dev = cli(['dev'], env, nodeFlagsOf('dev', root), root);
  try {
    await dev.waitFor(/dev: serving/);
    const serving = await secondsUntil(started, async () => (await fetch(`${origin}/v2/creature/25`)).status === 200);
    await dev.waitFor(/dev: ready in/);
    const ready = (performance.now() - started) / 1000;
    const built = /build: \d+ files/.test(dev.output()) ? '; it built again' : '';
    return {
      what: 'npm run dev: a second start, nothing changed (serving; ready for edits)',
      figure: `${serving.toFixed(1)} s; ${ready.toFixed(1)} s${built}`,
      goal: '≤ 3 s',
    };
  } finally {
    await dev.stop();
  }
}

/**
 * Peak RSS of the preview (`npm start` on a built dist/) while it serves every item of every
 * collection once, 16 requests in flight, identity and gzip alternately.
 */
export async function previewPeakRss(dist: string, env: NodeJS.ProcessEnv, root = repoRoot): Promise<DevBenchRow> {
  const port = await freePort();
  // the links keep the base URL dist/ was built with, so `serve` finds it up to date and serves it as it is
  const baseUrl = (JSON.parse(readFileSync(join(dist, 'build-stamp.json'), 'utf8')) as { baseUrl: string }).baseUrl;
  const serve = cli(['serve', '--port', String(port)], { ...env, OUT_DIR: dist, BASE_URL: baseUrl }, nodeFlagsOf('start', root), root);
  try {
    await serve.waitFor(/serving /);
    if (/build: \d+ files/.test(serve.output())) throw new Error(`serve built again; the figure would include a build:\n${serve.output()}`);
    // the peak from here on: serving, not the start's check of the inputs (Linux: 5 resets VmHWM)
    writeFileSync(`/proc/${serve.child.pid}/clear_refs`, '5');
    const rssAtStart = statusMb(serve.child.pid!, 'VmRSS');
    const origin = `http://127.0.0.1:${port}`;
    const routes = JSON.parse(readFileSync(join(dist, routesFile), 'utf8')) as Routes;
    const paths = routes.kinds.flatMap((kind) =>
      (JSON.parse(readFileSync(join(dist, listFile(kind)), 'utf8')) as FullList).results.map((r) => new URL(r.url).pathname),
    );
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
    const peak = statusMb(serve.child.pid!, 'VmHWM');
    return {
      what: `preview peak RSS, every item once (${paths.length} items, ${(bytes / 1e6).toFixed(0)} MB sent)`,
      figure: `${peak.toFixed(0)} MB (${rssAtStart.toFixed(0)} MB when it started serving)`,
      goal: '< 200 MB',
    };
  } finally {
    await serve.stop();
  }
}

// `node bench/dev.ts [--root DIR]`: these figures alone, in a scratch folder of their own, of the
// checkout at DIR (default: this one; bench/compare.ts measures an earlier commit the same way)
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = checkoutArg('node bench/dev.ts [--root DIR]');
  const scratch = mkdtempSync(join(tmpdir(), 'creature-bench-dev-'));
  try {
    const upstream = resolveConfig({}, {}).dataDir;
    const rows = await runDevBench(scratch, upstream, root);
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: upstream, RECORDS_DIR: join(scratch, 'records'), OUT_DIR: join(scratch, 'dist') };
      delete env['BASE_URL'];
      const build = cli(['build'], env, nodeFlagsOf('build', root), root);
      await build.waitFor(/build: \d+ files/);
      await build.stop();
      rows.push(await previewPeakRss(join(scratch, 'dist'), env, root));
    } finally {
      // the dev loop's figures stand, whatever became of the preview's
      printRows(rows.map((r) => [r.what, r.figure, r.goal]));
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
