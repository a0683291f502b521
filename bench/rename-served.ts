/**
 * "A move renamed → served" as bench/dev.ts times it, in two or more checkouts side by side,
 * with the CPU time `npm run dev` spends on it besides the wall time: the whole process (from
 * /proc/PID/stat: the planner, the preview answering the polls, the watcher and the debounce,
 * the collector's threads) and its main thread (/proc/PID/task/PID/schedstat). CPU time moves
 * far less with the load of this shared 2-core machine than the wall time does.
 *
 *   node bench/rename-served.ts --before DIR [--after DIR] [--also DIR]... [--warmup 2] [--rounds 10]
 *
 * Each checkout runs its own `npm run dev` (its package.json's Node flags) on its own copy of
 * the data set; then move 33 is renamed (tackle ↔ body-tackle in moves.csv) in each in turn,
 * the order turning by one each round (ABBA… with two), each rename timed from the save until
 * the preview answers with the new name (polled every 10 ms, as bench/dev.ts does), and the
 * next one waits until both processes are idle (the planner's background copy is done).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { repoRoot, resolveConfig } from '../generator/config.ts';
import { countFlag, readArgs } from './args.ts';
import { fmtLoadAvg, freePort, median, printTable } from './measure.ts';
import { nodeFlagsOf } from './npm-flags.ts';

const TICK_MS = 10;

/** One `npm run dev` of one checkout, and its CPU clocks. */
class DevProcess {
  private readonly child: ChildProcess;
  private out = '';
  readonly origin: string;
  readonly label: string;
  readonly data: string;
  constructor(label: string, root: string, data: string, scratch: string, port: number) {
    this.label = label;
    this.data = data;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: data,
      OUT_DIR: join(scratch, 'dist'),
      RECORDS_DIR: join(scratch, 'records'),
      PORT: String(port),
      CI: 'true',
    };
    delete env['BASE_URL'];
    this.origin = `http://127.0.0.1:${port}`;
    this.child = spawn(process.execPath, [...nodeFlagsOf('dev', root), 'generator/cli.ts', 'dev'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child.stdout?.on('data', (c: Buffer) => (this.out += c.toString()));
    this.child.stderr?.on('data', (c: Buffer) => (this.out += c.toString()));
  }
  get outputLength(): number {
    return this.out.length;
  }
  async waitFor(pattern: RegExp, from = 0): Promise<RegExpExecArray> {
    for (const deadline = Date.now() + 900_000; ;) {
      const found = pattern.exec(this.out.slice(from));
      if (found) return found;
      if (this.child.exitCode !== null || Date.now() > deadline) throw new Error(`${this.label}: waiting for ${pattern}:\n${this.out}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  /** CPU ms of the whole process (ticks of 10 ms) and of its main thread (ns exact). */
  cpu(): { process: number; main: number } {
    const fields = readFileSync(`/proc/${this.child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    const main = Number(readFileSync(`/proc/${this.child.pid}/task/${this.child.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
    return { process: ticks * TICK_MS, main };
  }
  stop(): void {
    this.child.kill('SIGINT');
  }
}

/** Waits until every process used under 20 ms of CPU in 500 ms, at least `minMs`. */
async function settle(devs: readonly DevProcess[], minMs: number): Promise<void> {
  await new Promise((r) => setTimeout(r, minMs));
  const total = () => devs.reduce((sum, d) => sum + d.cpu().process, 0);
  for (let last = total(), deadline = Date.now() + 60_000; Date.now() < deadline;) {
    await new Promise((r) => setTimeout(r, 500));
    const now = total();
    if (now - last < 20) return;
    last = now;
  }
}

interface Served {
  wall: number;
  process: number;
  main: number;
  /** what dev printed: `swapped in after X s` */
  update: number;
}

async function renameAndWait(dev: DevProcess, to: string): Promise<Served> {
  const path = join(dev.data, 'csv', 'moves.csv');
  const text = readFileSync(path, 'utf8');
  const next = text.replace(/^33,[a-z-]+,/m, `33,${to},`);
  if (next === text) throw new Error(`${dev.label}: move 33 is already ${to}`);
  const from = dev.outputLength;
  const cpu0 = dev.cpu();
  const t0 = performance.now();
  writeFileSync(path, next);
  for (;;) {
    const name = await fetch(`${dev.origin}/v2/move/33`)
      .then((r) => r.json() as Promise<{ name?: string }>)
      .then((b) => b.name)
      .catch(() => undefined);
    if (name === to) break;
    if (performance.now() - t0 > 300_000) throw new Error(`${dev.label}: not served within 300 s`);
    await new Promise((r) => setTimeout(r, 10));
  }
  const wall = performance.now() - t0;
  const cpu1 = dev.cpu();
  const line = await dev.waitFor(/swapped in after ([\d.]+) s/, from);
  return { wall, process: cpu1.process - cpu0.process, main: cpu1.main - cpu0.main, update: Number(line[1]) * 1000 };
}

const fmt = (xs: number[]) => `${median(xs).toFixed(0)} (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`;

async function main(trees: Array<[string, string]>, warmup: number, rounds: number): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'creature-rename-served-'));
  const upstream = resolveConfig({}, {}).dataDir;
  const devs: DevProcess[] = [];
  console.log(`rename-served on ${new Date().toISOString()}, node ${process.version}, load ${fmtLoadAvg()}`);
  try {
    // started one after the other: each start is a full import and build
    for (const [label, root] of trees) {
      const dir = join(scratch, label);
      for (const part of ['csv', 'media', 'PROVENANCE.md']) cpSync(join(upstream, part), join(dir, 'data', part), { recursive: true });
      const dev = new DevProcess(`${label} (${basename(root)})`, root, join(dir, 'data'), dir, await freePort());
      // a checkout that serves before its planner is ready says so after it serves
      await dev.waitFor(/dev: ready in/);
      await settle([dev], 2000);
      devs.push(dev);
    }
    const figures = new Map<DevProcess, Served[]>(devs.map((d) => [d, []]));
    for (let round = 0; round < warmup + rounds; round++) {
      const to = round % 2 === 0 ? 'body-tackle' : 'tackle';
      const turn = round % devs.length;
      for (const dev of [...devs.slice(turn), ...devs.slice(0, turn)]) {
        await settle(devs, 3000);
        const served = await renameAndWait(dev, to);
        if (round >= warmup) figures.get(dev)!.push(served);
      }
    }
    console.log(`\nms from the save until the preview answers, median (range) of ${rounds} renames each`);
    const rows = [
      ['checkout', 'wall', 'process CPU', 'main thread CPU', 'update (dev says)'],
      ...devs.map((d) => {
        const f = figures.get(d)!;
        return [d.label, fmt(f.map((x) => x.wall)), fmt(f.map((x) => x.process)), fmt(f.map((x) => x.main)), fmt(f.map((x) => x.update))];
      }),
    ];
    printTable(rows);
    console.log(`load at the end ${fmtLoadAvg()}`);
  } finally {
    for (const d of devs) d.stop();
    await new Promise((r) => setTimeout(r, 3000));
    rmSync(scratch, { recursive: true, force: true });
  }
}

const USAGE = 'node bench/rename-served.ts --before DIR [--after DIR] [--also DIR]... [--warmup 2] [--rounds 10]';

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = readArgs(USAGE, {
    before: { type: 'string' },
    after: { type: 'string', default: repoRoot },
    also: { type: 'string', multiple: true, default: [] },
    warmup: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '10' },
  });
  if (!values.before) throw new Error(`--before DIR: a checkout of the earlier commit, with its node_modules\nusage: ${USAGE}`);
  const trees: Array<[string, string]> = [
    ['before', values.before],
    ['after', values.after],
    ...values.also.map((dir, i): [string, string] => [`also${i + 1}`, dir]),
  ];
  await main(trees, countFlag(values.warmup, 'warmup'), countFlag(values.rounds, 'rounds'));
}
