/**
 * Where a move rename's update (or, `--edit stat`, a base stat's) spends its time, per step of
 * `UpdateReport.steps`, in the planner of two checkouts side by side ("move rename →
 * served" got slower with the pipeline refactor). Wall time alone moves with the load of this shared 2-core machine, so
 * each step is also measured as CPU time: of the main thread (`/proc/thread-self/schedstat`)
 * and of the whole process (`process.cpuUsage()`: the main thread, the thread pool's file
 * writes, the collector's helpers), and as the event loop's active time.
 *
 *   node bench/rename-steps.ts --before DIR [--after DIR] [--also DIR]... [--edit rename|stat] [--warmup 2] [--rounds 10] [--profiles 1] [--out DIR]
 *
 * The first `--warmup` renames (2) of each checkout are not counted. DIR is a checkout with its own node_modules (`git worktree add --detach DIR be32bb2 && cd DIR
 * && npm ci`). Each checkout gets a worker process (this file with `--worker`): a copy of the data set, a full build by its
 * own CLI, then its own planner (`openIncremental`), in memory for the whole run. The driver
 * then renames move 33 (tackle ↔ body-tackle in moves.csv, as bench/dev.ts does; `--edit stat`:
 * creature 25's first base stat, 35 ↔ 36 in pokemon_stats.csv, bench/dev.ts's other edit) in the two
 * workers in turn, ABBA (the order turns by one each round; `--also` adds more checkouts), waiting after each update until its
 * process is idle (the planner prepares its next copy in the background), so no update shares
 * the cores with the other checkout's work. After the measured rounds, `--profiles` more
 * updates per checkout run under the V8 CPU profiler; their profiles go to `--out` and their
 * top self-time functions are printed. The step boundaries are taken where the planner's own
 * clock reads `performance.now()` (the only caller during an update, in both checkouts).
 * Everything is written under a scratch folder, removed at the end (the profiles excepted).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { performance as nodePerformance } from 'node:perf_hooks';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { repoRoot, resolveConfig } from '../generator/config.ts';
import { countFlag, readArgs } from './args.ts';
import { fmtLoadAvg, median, printTable } from './measure.ts';
import { nodeFlagsOf } from './npm-flags.ts';

/** One reading of the clocks. */
interface Sample {
  /** ms, performance.now() */
  wall: number;
  /** ms of CPU, main thread */
  thread: number;
  /** ms of CPU, whole process (user + system) */
  process: number;
  /** ms the event loop was active */
  loop: number;
}

/** One update as a worker measured it: the report's steps with each step's share of every clock. */
interface UpdateFigures {
  steps: Array<{ step: string } & Omit<Sample, 'wall'> & { wall: number }>;
  documents: number;
  profile?: string;
}

type Message = { type: 'ready'; openSeconds: number } | { type: 'updated'; figures: UpdateFigures } | { type: 'error'; message: string };
type Command = { type: 'edit'; edit: EditName; round: number; profile: string | null } | { type: 'stop' };

const schedstat = '/proc/thread-self/schedstat';

const sample = (wall: number): Sample => {
  const cpu = process.cpuUsage();
  return {
    wall,
    thread: Number(readFileSync(schedstat, 'utf8').split(' ')[0]) / 1e6,
    process: (cpu.user + cpu.system) / 1000,
    loop: nodePerformance.eventLoopUtilization().active,
  };
};

/**
 * The planner's step boundaries: while recording, every `performance.now()` call (the planner's
 * step clock, in both checkouts) also reads the CPU clocks.
 */
class StepMarks {
  private readonly now = performance.now.bind(performance);
  private marks: Sample[] | null = null;
  constructor() {
    performance.now = () => {
      const t = this.now();
      this.marks?.push(sample(t));
      return t;
    };
  }
  start(): Sample {
    this.marks = [];
    return sample(this.now());
  }
  stop(): { marks: Sample[]; end: Sample } {
    const end = sample(this.now());
    const marks = this.marks ?? [];
    this.marks = null;
    return { marks, end };
  }
}

const minus = (a: Sample, b: Sample) => ({ wall: a.wall - b.wall, thread: a.thread - b.thread, process: a.process - b.process, loop: a.loop - b.loop });

/** The steps of one update from its report and the marks: mark 0 is the clock's start, mark i the end of step i. */
function stepFigures(steps: Record<string, number>, begin: Sample, marks: Sample[], end: Sample): UpdateFigures['steps'] {
  const names = Object.keys(steps);
  if (marks.length !== names.length + 1) throw new Error(`expected ${names.length + 1} clock reads for steps ${names.join(', ')}, saw ${marks.length}`);
  const rows = names.map((step, i) => ({ step, ...minus(marks[i + 1]!, marks[i]!) }));
  rows.push({ step: 'after the steps', ...minus(end, marks[marks.length - 1]!) });
  rows.push({ step: 'whole update', ...minus(end, begin) });
  return rows;
}

/** Waits until the process has used less than 3 ms of CPU in 250 ms (the background copy is done), at least `minMs`. */
async function settle(minMs: number): Promise<void> {
  await new Promise((r) => setTimeout(r, minMs));
  const deadline = Date.now() + 60_000;
  for (let last = sample(performance.now()).process; Date.now() < deadline;) {
    await new Promise((r) => setTimeout(r, 250));
    const now = sample(performance.now()).process;
    if (now - last < 3) return;
    last = now;
  }
}

interface PlannerModule {
  openIncremental: (options: {
    dataDir: string;
    mediaDir: string;
    outDir: string;
    baseUrl: string;
    finish: () => { inputHash: string; about: { upstreamCommit: string; version: string; builtAt: string } };
  }) => { update(): Promise<{ steps: Record<string, number>; documents: number; unchanged: boolean }>; close(): Promise<void> };
}

interface WorkerSetup {
  root: string;
  scratch: string;
  baseUrl: string;
}

/** The edits measured, as an editor's save makes them: round `round`'s table, what it matches, and what replaces it. */
const EDITS = {
  rename: (round: number) => ({ table: 'moves.csv', pattern: /^33,[a-z-]+,/m, replacement: `33,${round % 2 === 0 ? 'body-tackle' : 'tackle'},` }),
  stat: (round: number) => ({ table: 'pokemon_stats.csv', pattern: /^25,1,3[56],0/m, replacement: `25,1,${round % 2 === 0 ? 36 : 35},0` }),
};
type EditName = keyof typeof EDITS;

function makeEdit(data: string, edit: EditName, round: number): void {
  const { table, pattern, replacement } = EDITS[edit](round);
  const path = join(data, 'csv', table);
  const text = readFileSync(path, 'utf8');
  const next = text.replace(pattern, replacement);
  if (next === text) throw new Error(`${table}: already ${replacement}`);
  writeFileSync(path, next);
}

/** One checkout's side: builds, opens its planner, then runs the driver's renames one at a time. */
async function runWorker(setup: WorkerSetup): Promise<void> {
  const send = (m: Message) => process.send!(m);
  const data = join(setup.scratch, 'data');
  const dist = join(setup.scratch, 'dist');
  const env = { ...process.env, DATA_DIR: data, OUT_DIR: dist, RECORDS_DIR: join(setup.scratch, 'records'), BASE_URL: setup.baseUrl, CI: 'true' };
  const built = spawnSync(process.execPath, [...nodeFlagsOf('cli', setup.root), 'generator/cli.ts', 'build'], { cwd: setup.root, env, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`build in ${setup.root} failed:\n${built.stdout}\n${built.stderr}`);
  const meta = JSON.parse(readFileSync(join(dist, 'v2', 'meta.json'), 'utf8')) as { upstream_commit: string; version: string; built_at: string };
  const stamp = JSON.parse(readFileSync(join(dist, 'build-stamp.json'), 'utf8')) as { inputHash: string };
  const modulePath = [join(setup.root, 'generator/incremental/index.ts'), join(setup.root, 'generator/incremental.ts')].find(existsSync)!;
  const { openIncremental } = (await import(pathToFileURL(modulePath).href)) as PlannerModule;
  const opened = performance.now();
  const planner = openIncremental({
    dataDir: data,
    mediaDir: join(data, 'media'),
    outDir: dist,
    baseUrl: setup.baseUrl,
    // the served build's own facts, so that the archive keeps its name as in npm run dev
    finish: () => ({ inputHash: stamp.inputHash, about: { upstreamCommit: meta.upstream_commit, version: meta.version, builtAt: meta.built_at } }),
  });
  const openSeconds = (performance.now() - opened) / 1000;
  const marks = new StepMarks();
  await settle(2000);
  send({ type: 'ready', openSeconds });
  process.on('message', (command: Command) => {
    if (command.type === 'stop') {
      void planner.close().then(() => process.exit(0));
      return;
    }
    void (async () => {
      makeEdit(data, command.edit, command.round);
      const session = command.profile ? new Session() : null;
      if (session) {
        session.connect();
        await session.post('Profiler.enable');
        await session.post('Profiler.setSamplingInterval', { interval: 200 });
        await session.post('Profiler.start');
      }
      const begin = marks.start();
      const report = await planner.update();
      const { marks: taken, end } = marks.stop();
      if (session && command.profile) {
        const { profile } = await session.post('Profiler.stop');
        writeFileSync(command.profile, JSON.stringify(profile));
        session.disconnect();
      }
      if (report.unchanged) throw new Error(`the ${command.edit} edit changed nothing`);
      const figures: UpdateFigures = {
        steps: stepFigures(report.steps, begin, taken, end),
        documents: report.documents,
        ...(command.profile ? { profile: command.profile } : {}),
      };
      await settle(2000);
      send({ type: 'updated', figures });
    })().catch((e: unknown) => send({ type: 'error', message: e instanceof Error ? (e.stack ?? e.message) : String(e) }));
  });
}

/** A worker process on one checkout, answering one command at a time. */
class Worker {
  private readonly child: ChildProcess;
  private waiting: { resolve: (m: Message) => void; reject: (e: Error) => void } | null = null;
  readonly label: string;
  constructor(label: string, root: string, scratch: string, baseUrl: string) {
    this.label = label;
    const setup: WorkerSetup = { root, scratch, baseUrl };
    this.child = spawn(process.execPath, [...nodeFlagsOf('dev', root), fileURLToPath(import.meta.url), '--worker', JSON.stringify(setup)], {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child.on('message', (m: Message) => this.answer(m));
    this.child.once('exit', (code) => this.waiting?.reject(new Error(`${label}: worker exited (${code})`)));
  }
  private answer(m: Message): void {
    const waiting = this.waiting;
    this.waiting = null;
    if (m.type === 'error') waiting?.reject(new Error(`${this.label}: ${m.message}`));
    else waiting?.resolve(m);
  }
  next(command?: Command): Promise<Message> {
    const answer = new Promise<Message>((resolve, reject) => (this.waiting = { resolve, reject }));
    if (command) this.child.send(command);
    return answer;
  }
  stop(): void {
    if (this.child.exitCode === null) this.child.send({ type: 'stop' } satisfies Command);
  }
}

/** Every figure of one checkout: step → clock → values. */
type Collected = Map<string, { wall: number[]; thread: number[]; process: number[]; loop: number[] }>;

function collect(into: Collected, figures: UpdateFigures): void {
  for (const s of figures.steps) {
    let row = into.get(s.step);
    if (!row) into.set(s.step, (row = { wall: [], thread: [], process: [], loop: [] }));
    row.wall.push(s.wall);
    row.thread.push(s.thread);
    row.process.push(s.process);
    row.loop.push(s.loop);
  }
}

const fmt = (xs: number[]) => (xs.length ? `${median(xs).toFixed(0)} (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})` : '');

function printSteps(label: string, figures: Collected): void {
  console.log(`\n${label}: ms per step, median (range) of ${[...figures.values()][0]?.wall.length ?? 0} updates`);
  const rows = [
    ['step', 'wall', 'main thread CPU', 'process CPU', 'event loop active'],
    ...[...figures].map(([step, f]) => [step, fmt(f.wall), fmt(f.thread), fmt(f.process), fmt(f.loop)]),
  ];
  printTable(rows);
}

/** Self time by function in a V8 CPU profile, largest first. */
function topSelfTime(path: string, count: number): string[] {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as {
    nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>;
    samples: number[];
    timeDeltas: number[];
  };
  const frameOf = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const self = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const f = frameOf.get(id)!;
    const key = `${f.functionName || '(anonymous)'} ${f.url ? `${basename(f.url)}:${f.lineNumber + 1}` : ''}`.trim();
    const us = profile.timeDeltas[i + 1] ?? 0;
    self.set(key, (self.get(key) ?? 0) + us);
    total += us;
  });
  return [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([key, us]) => `${(us / 1000).toFixed(1).padStart(7)} ms ${((100 * us) / total).toFixed(1).padStart(5)}%  ${key}`);
}

interface DriverOptions {
  before: string;
  after: string;
  /** more checkouts measured the same way (variants of a fix) */
  also: string[];
  /** renames per checkout not counted: the first updates run code the JIT has not optimised yet */
  warmup: number;
  rounds: number;
  profiles: number;
  out: string;
  edit: EditName;
}

async function drive(options: DriverOptions): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'creature-rename-steps-'));
  const upstream = resolveConfig({}, {}).dataDir;
  const baseUrl = 'http://localhost:8080/v2';
  const workers: Worker[] = [];
  mkdirSync(options.out, { recursive: true });
  console.log(`rename-steps (${options.edit} edit) on ${new Date().toISOString()}, node ${process.version}, load ${fmtLoadAvg()}`);
  try {
    const trees: Array<[string, string]> = [
      ['before', options.before],
      ['after', options.after],
      ...options.also.map((dir, i): [string, string] => [`also${i + 1}`, dir]),
    ];
    for (const [label, root] of trees) {
      const dir = join(scratch, label);
      for (const part of ['csv', 'media', 'PROVENANCE.md']) cpSync(join(upstream, part), join(dir, 'data', part), { recursive: true });
      const w = new Worker(`${label} (${basename(root)})`, root, dir, baseUrl);
      const ready = await w.next();
      if (ready.type === 'ready') console.log(`${w.label}: planner opened in ${ready.openSeconds.toFixed(1)} s`);
      workers.push(w);
    }
    const figures = new Map<Worker, Collected>(workers.map((w) => [w, new Map()]));
    const measured = options.warmup + options.rounds;
    for (let round = 0; round < measured + options.profiles; round++) {
      // the order turns by one each round: ABBA… with two checkouts
      const turn = round % workers.length;
      const order = [...workers.slice(turn), ...workers.slice(0, turn)];
      for (const w of order) {
        const profile = round >= measured ? join(options.out, `${w.label.split(' ')[0]}-${round}.cpuprofile`) : null;
        const m = await w.next({ type: 'edit', edit: options.edit, round, profile });
        if (m.type !== 'updated') continue;
        if (profile) console.log(`\n${w.label}, profiled update (${m.figures.documents} documents): top self time\n${topSelfTime(profile, 30).join('\n')}`);
        else if (round >= options.warmup) collect(figures.get(w)!, m.figures);
      }
    }
    for (const w of workers) printSteps(w.label, figures.get(w)!);
    writeFileSync(join(options.out, 'figures.json'), JSON.stringify(Object.fromEntries(workers.map((w) => [w.label, Object.fromEntries(figures.get(w)!)]))));
    console.log(`\nload at the end ${fmtLoadAvg()}; raw figures and profiles in ${options.out}`);
  } finally {
    for (const w of workers) w.stop();
    await new Promise((r) => setTimeout(r, 3000));
    rmSync(scratch, { recursive: true, force: true });
  }
}

function editArgument(name: string): EditName {
  if (!(name in EDITS)) throw new Error(`--edit ${name}: one of ${Object.keys(EDITS).join(', ')}`);
  return name as EditName;
}

const USAGE =
  'node bench/rename-steps.ts --before DIR [--after DIR] [--also DIR]... [--edit rename|stat] [--warmup 2] [--rounds 10] [--profiles 1] [--out DIR]';

/** The driver's options from the command line (`--worker JSON` is how the driver starts a worker). */
function commandLine(): DriverOptions | { worker: WorkerSetup } {
  const { values } = readArgs(USAGE, {
    worker: { type: 'string' },
    before: { type: 'string' },
    after: { type: 'string', default: repoRoot },
    also: { type: 'string', multiple: true, default: [] },
    edit: { type: 'string', default: 'rename' },
    warmup: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '10' },
    profiles: { type: 'string', default: '1' },
    out: { type: 'string', default: join(tmpdir(), 'creature-rename-steps-out') },
  });
  if (values.worker !== undefined) return { worker: JSON.parse(values.worker) as WorkerSetup };
  if (!values.before) throw new Error(`--before DIR: a checkout of the earlier commit, with its node_modules\nusage: ${USAGE}`);
  const { before, after, also, out } = values;
  const counts = { warmup: countFlag(values.warmup, 'warmup'), rounds: countFlag(values.rounds, 'rounds'), profiles: countFlag(values.profiles, 'profiles') };
  return { before, after, also, out, ...counts, edit: editArgument(values.edit) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const options = commandLine();
  if ('worker' in options) await runWorker(options.worker);
  else await drive(options);
}
