/**
 * The memory of the process that serves after `npm start` (issue 32): on a fresh clone it must
 * build first, which it does in a child process, so the process that then serves should hold
 * what a preview started on an already built dist/ holds. Measured side by side, on a build made
 * by that same `npm start` in a scratch folder (never the user's dist/ or data/records/):
 *   - `npm start` with no records and no dist/: the serving process's RSS once it serves, its
 *     peak (it never built), and the build child's peak;
 *   - `npm start` again on the dist/ it built: the serving process's RSS once it serves.
 * `node bench/start-memory.ts` prints these figures alone; `npm run bench` prints them with the rest.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { repoRoot, resolveConfig } from '../generator/config.ts';
import { cli, type Cli, type DevBenchRow } from './dev.ts';
import { checkoutArg, freePort, statusMb } from './measure.ts';
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
  return [
    {
      what: 'npm start on a fresh build: serving process RSS once serving',
      figure: `${fresh.rssMb.toFixed(0)} MB (its peak ${fresh.peakMb.toFixed(0)} MB; ${Number.isNaN(buildPeak) ? 'no build child' : `the build child's peak ${buildPeak.toFixed(0)} MB`})`,
      goal: 'as a preview on a built dist/',
    },
    { what: 'a preview started on the built dist/: RSS once serving', figure: `${built.rssMb.toFixed(0)} MB (its peak ${built.peakMb.toFixed(0)} MB)`, goal: '' },
  ];
}

// `node bench/start-memory.ts [--root DIR]`: with the CLI of the checkout at DIR (default: this one)
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const scratch = mkdtempSync(join(tmpdir(), 'creature-bench-start-'));
  const root = checkoutArg();
  try {
    const rows = await runStartMemoryBench(scratch, resolveConfig({}, {}).dataDir, root);
    const width = Math.max(...rows.map((r) => r.what.length));
    for (const r of rows) console.log(`${r.what.padEnd(width)}  ${r.figure.padEnd(70)}  ${r.goal}`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
