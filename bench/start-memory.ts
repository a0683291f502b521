/**
 * The memory of the process that serves after `npm start`: on a fresh clone it must
 * build first, which it does in a child process, so the process that then serves should hold
 * what a preview started on an already built dist/ holds. Measured side by side, on a build made
 * by that same `npm start` in a scratch folder (never the user's dist/ or data/records/):
 *   - `npm start` with no records and no dist/: the serving process's RSS once it serves, its
 *     peak (it never built), and the build child's peak;
 *   - `npm start` again on the dist/ it built: the serving process's RSS once it serves;
 *   - `npm start` itself, npm and all, on that dist/: the time until it serves, and every process
 *     of the tree that then serves, with its RSS.
 * `node bench/start-memory.ts [--root DIR]` prints these figures alone, with the CLI of the checkout
 * at DIR (default: this one); `npm run bench` prints them with the rest.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { repoRoot, resolveConfig } from '../generator/config.ts';
import { cli, type Cli, type DevBenchRow } from './dev.ts';
import { checkoutArg } from './args.ts';
import { childPids, freePort, median, printRows, statusMb } from './measure.ts';
import { nodeFlagsOf } from './npm-flags.ts';

/** The build child's peak RSS, read every 250 ms while it runs (its last reading before it exits); NaN when the serving process built itself (an older checkout, bench/compare.ts). */
async function childPeak(serve: Cli): Promise<number> {
  const said = await serve.waitFor(/building in a child process \(pid (\d+)\)|serving /, 0, 900_000);
  if (said[1] === undefined) return NaN;
  const pid = Number(said[1]);
  let peak = NaN;
  for (;;) {
    const now = statusMb(pid, 'VmHWM');
    if (Number.isNaN(now)) return peak;
    peak = now;
    await new Promise((r) => setTimeout(r, 250));
  }
}

interface Serving {
  rssMb: number;
  peakMb: number;
  output: string;
}

/** `npm start` with `env` until it serves: its serving process's RSS then, and its peak. */
async function startAndRead(env: NodeJS.ProcessEnv, root: string, whileBuilding?: (serve: Cli) => Promise<void>): Promise<Serving> {
  const serve = cli(['serve', '--port', String(await freePort())], env, nodeFlagsOf('start', root), root);
  try {
    const building = whileBuilding?.(serve);
    await serve.waitFor(/serving /, 0, 900_000);
    await building;
    const pid = serve.child.pid!;
    return { rssMb: statusMb(pid, 'VmRSS'), peakMb: statusMb(pid, 'VmHWM'), output: serve.output() };
  } finally {
    await serve.stop();
  }
}

interface TreeProcess {
  command: string;
  rssMb: number;
}

/** `pid` and every process under it: its command line (program names, not paths) and RSS. */
function processTree(pid: number): TreeProcess[] {
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...childPids(tree[i]!));
  return tree.map((p) => ({
    command: readFileSync(`/proc/${p}/cmdline`, 'utf8')
      .split('\0')
      .filter(Boolean)
      .map((word) => word.replace(/^.*\//, ''))
      .join(' '),
    rssMb: statusMb(p, 'VmRSS'),
  }));
}

/** One `npm start` until it serves: the milliseconds it took, and the tree that serves. */
async function npmStartOnce(env: NodeJS.ProcessEnv, root: string): Promise<{ ms: number; tree: TreeProcess[] }> {
  const started = performance.now();
  // a process group of its own, stopped as Ctrl-C stops it: npm waits for its script's shell, which does not pass a signal on
  const child = spawn('npm', ['start', '--silent'], {
    cwd: root,
    env: { ...env, PORT: String(await freePort()) },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        if (/serving /.test(output)) resolve();
      };
      child.stdout.on('data', read);
      child.stderr.on('data', read);
      child.once('exit', () => reject(new Error(`npm start exited before serving:\n${output}`)));
    });
    const ms = performance.now() - started;
    return { ms, tree: processTree(child.pid!) };
  } finally {
    process.kill(-child.pid!, 'SIGINT');
    await exited;
  }
}

const NPM_START_ROUNDS = 5;

/** `npm start` on a built dist/, npm and all: the time until it serves, and the serving tree. */
export async function npmStartRows(env: NodeJS.ProcessEnv, root: string): Promise<DevBenchRow[]> {
  const rounds = [];
  for (let i = 0; i < NPM_START_ROUNDS; i++) rounds.push(await npmStartOnce(env, root));
  const ms = rounds.map((r) => r.ms);
  const tree = rounds.at(-1)!.tree;
  const sum = tree.reduce((total, p) => total + p.rssMb, 0);
  return [
    {
      what: `npm start on a built dist/: until it serves (median of ${NPM_START_ROUNDS})`,
      figure: `${median(ms).toFixed(0)} ms (${Math.min(...ms).toFixed(0)}–${Math.max(...ms).toFixed(0)})`,
      goal: '',
    },
    {
      what: 'npm start on a built dist/: the serving tree',
      figure: `${sum.toFixed(0)} MB in ${tree.length}: ${tree.map((p) => `${p.command.split(' ').slice(0, 2).join(' ')} ${p.rssMb.toFixed(0)} MB`).join('; ')}`,
      goal: 'one node under npm',
    },
  ];
}

/** The two starts' figures, in `scratch`, with the CLI of the checkout at `root` on the data set in `upstream`. */
export async function runStartMemoryBench(scratch: string, upstream: string, root = repoRoot): Promise<DevBenchRow[]> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: upstream, OUT_DIR: join(scratch, 'start-dist'), RECORDS_DIR: join(scratch, 'start-records') };
  // a fixed base URL, so the second start finds the first one's build up to date whatever its port
  env['BASE_URL'] = 'http://localhost:8080/v2';
  let buildPeak = NaN;
  const fresh = await startAndRead(env, root, async (serve) => {
    buildPeak = await childPeak(serve);
  });
  const built = await startAndRead(env, root);
  if (!built.output.includes('build: dist/ is up to date')) throw new Error(`the second npm start built again:\n${built.output}`);
  const npmStart = await npmStartRows(env, root);
  return [
    {
      what: 'npm start on a fresh build: serving process RSS once serving',
      figure: `${fresh.rssMb.toFixed(0)} MB (its peak ${fresh.peakMb.toFixed(0)} MB; ${Number.isNaN(buildPeak) ? 'no build child' : `the build child's peak ${buildPeak.toFixed(0)} MB`})`,
      goal: 'as a preview on a built dist/',
    },
    {
      what: 'a preview started on the built dist/: RSS once serving',
      figure: `${built.rssMb.toFixed(0)} MB (its peak ${built.peakMb.toFixed(0)} MB)`,
      goal: '',
    },
    ...npmStart,
  ];
}

// `node bench/start-memory.ts [--root DIR]`: with the CLI of the checkout at DIR (default: this one)
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = checkoutArg('node bench/start-memory.ts [--root DIR]');
  const scratch = mkdtempSync(join(tmpdir(), 'creature-bench-start-'));
  try {
    const rows = await runStartMemoryBench(scratch, resolveConfig({}, {}).dataDir, root);
    printRows(rows.map((r) => [r.what, r.figure, r.goal]));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
