/**
 * `npm run bench -- --against REF`: the main figures of an earlier commit (REF, e.g. `main`) and
 * of this working tree, measured in one run and printed side by side, so that a change is read
 * against the same machine at the same hour (this machine's load moves a figure more than most
 * changes do). Each measurement alternates between the two checkouts:
 *   - import, then the full build (median of 3, alternating), and a rebuild with nothing changed;
 *   - the dev loop: this tree's `bench/dev.ts` on each checkout's CLI (edit → served, median of
 *     three edits back and forth; the preview's peak RSS);
 *   - HTTP: each checkout's preview on its own build, autocannon on the same requests, alternating.
 * REF is checked out with `git worktree` in a scratch folder (sharing this node_modules) and
 * removed at the end; nothing outside the scratch folder is written.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { metaFile, type Meta } from '../contract/layout.ts';
import { repoRoot, resolveConfig } from '../generator/config.ts';
import { autocannon, fmtLoad, measure as measureLoad, rate, startPreviewProcess, TARGETS, type Load, type Server } from './http.ts';
import { fmtLoadAvg, measure, median, printTable, range, treeSize } from './measure.ts';
import { cliOf, nodeFlagsOf } from './npm-flags.ts';

const BUILD_ROUNDS = 3;
const HTTP_CONNECTIONS = 64;
const HTTP_SECONDS = 10;

/** One checkout being measured, with its own build folders. */
interface Checkout {
  label: string;
  root: string;
  dist: string;
  records: string;
}

interface Row {
  what: string;
  before: string;
  after: string;
  /** after ÷ before of the figure that row compares, when it has one */
  ratio: string;
}

const git = (args: string[]) => {
  const result = spawnSync('git', args, { cwd: repoRoot, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout.trim();
};

/**
 * REF as a worktree in the scratch folder, sharing this checkout's node_modules when its lock
 * file is the same, else with its own (`npm ci`: an older commit may use a package since dropped).
 */
function checkOut(ref: string, scratch: string): Checkout {
  const root = join(scratch, 'before');
  const commit = git(['rev-parse', '--short', ref]);
  git(['worktree', 'add', '--detach', root, ref]);
  const lock = (tree: string) => readFileSync(join(tree, 'package-lock.json'), 'utf8');
  if (lock(root) === lock(repoRoot)) symlinkSync(join(repoRoot, 'node_modules'), join(root, 'node_modules'));
  else {
    const installed = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: root, stdio: 'inherit' });
    if (installed.status !== 0) throw new Error(`npm ci in ${root} failed`);
  }
  // its bench finds the data set as a checkout does: the copy in ../shared at its lock's commit, when there is one
  const shared = join(dirname(repoRoot), 'shared');
  if (existsSync(shared)) symlinkSync(shared, join(scratch, 'shared'));
  return { label: `${ref} (${commit})`, root, dist: join(scratch, 'before-dist'), records: join(scratch, 'before-records') };
}

const envOf = (tree: Checkout, dataDir: string): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, OUT_DIR: tree.dist, RECORDS_DIR: tree.records, CI: 'true' };
  delete env['BASE_URL'];
  return env;
};
const seconds = (s: number) => `${s.toFixed(2)} s`;
const sizeOf = ({ files, bytes }: { files: number; bytes: number }) => `${files} files, ${(bytes / 1e6).toFixed(1)} MB`;
const ratioOf = (before: number, after: number) => (Number.isFinite(before) && Number.isFinite(after) && before > 0 ? `${(after / before).toFixed(2)}×` : '');

/** Import, builds (alternating, median of 3) and a rebuild with nothing changed, in both checkouts. */
function buildRows(trees: [Checkout, Checkout], dataDir: string): Row[] {
  const imports = trees.map((t) => measure([...cliOf(t.root), 'import', '--force'], envOf(t, dataDir), t.root));
  const builds: number[][] = [[], []];
  const rss: number[][] = [[], []];
  for (let round = 0; round < BUILD_ROUNDS; round++) {
    trees.forEach((t, i) => {
      rmSync(t.dist, { recursive: true, force: true });
      spawnSync('sync');
      const m = measure([...cliOf(t.root), 'build', '--force'], envOf(t, dataDir), t.root);
      builds[i]!.push(m.seconds);
      rss[i]!.push(m.peakRssMb);
    });
  }
  const again = trees.map((t) => measure([...cliOf(t.root), 'build'], envOf(t, dataDir), t.root).seconds);
  const sizes = trees.map((t) => treeSize(t.dist));
  const [b, a] = [median(builds[0]!), median(builds[1]!)];
  return [
    {
      what: 'import (tables → records)',
      before: seconds(imports[0]!.seconds),
      after: seconds(imports[1]!.seconds),
      ratio: ratioOf(imports[0]!.seconds, imports[1]!.seconds),
    },
    {
      what: `build, median of ${BUILD_ROUNDS} (range)`,
      before: `${seconds(b)} (${range(builds[0]!)})`,
      after: `${seconds(a)} (${range(builds[1]!)})`,
      ratio: ratioOf(b, a),
    },
    {
      what: 'build, peak RSS',
      before: `${Math.max(...rss[0]!).toFixed(0)} MB`,
      after: `${Math.max(...rss[1]!).toFixed(0)} MB`,
      ratio: ratioOf(Math.max(...rss[0]!), Math.max(...rss[1]!)),
    },
    { what: 'rebuild, nothing changed', before: seconds(again[0]!), after: seconds(again[1]!), ratio: ratioOf(again[0]!, again[1]!) },
    { what: 'dist/: files, bytes (links once)', before: sizeOf(sizes[0]!), after: sizeOf(sizes[1]!), ratio: ratioOf(sizes[0]!.bytes, sizes[1]!.bytes) },
  ];
}

/** The dev-loop figures of a checkout, measured by this tree's `bench/dev.ts` (the same method for both), as `what → figure`. */
async function devFigures(tree: Checkout, dataDir: string): Promise<Map<string, string>> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  delete env['BASE_URL'];
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, ['bench/dev.ts', '--root', tree.root], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`bench/dev.ts in ${tree.root} failed (${code}):\n${out}`))));
  });
  const figures = new Map<string, string>();
  for (const line of output.split('\n')) {
    const found = /^((?:npm run dev|edit →|preview peak RSS)\S*(?: \S+)*?)\s{2,}(\S.*?)(?:\s{2,}.*)?$/.exec(line);
    if (found) figures.set(found[1]!.replace(/ \(\d+ items, \d+ MB sent\)/, ''), found[2]!);
  }
  return figures;
}

/** The first number of a figure (`0.40 s (…)`, `174 MB (…)`). */
const firstNumber = (figure: string | undefined) => Number(/[\d.]+/.exec(figure ?? '')?.[0] ?? NaN);

async function devRows(trees: [Checkout, Checkout], dataDir: string): Promise<Row[]> {
  const before = await devFigures(trees[0], dataDir);
  const after = await devFigures(trees[1], dataDir);
  const shorten = (figure: string | undefined) => (figure ?? 'missing').replace(/\s+\(.*$/, '');
  return [...new Set([...before.keys(), ...after.keys()])].map((what) => ({
    what,
    before: shorten(before.get(what)),
    after: shorten(after.get(what)),
    ratio: ratioOf(firstNumber(before.get(what)), firstNumber(after.get(what))),
  }));
}

/** Each checkout's preview on its own build, the same requests alternating between them. */
async function httpRows(trees: [Checkout, Checkout]): Promise<Row[]> {
  const servers: Server[] = [];
  try {
    for (const t of trees) {
      const meta = JSON.parse(readFileSync(join(t.dist, metaFile), 'utf8')) as Meta;
      servers.push(await startPreviewProcess(t.dist, meta.base_url, nodeFlagsOf('start', t.root), t.root));
    }
    const rows: Row[] = [];
    for (const target of TARGETS) {
      for (const s of servers) await autocannon(s.url + target.path, HTTP_CONNECTIONS, 2); // warm caches and JIT
      const loads: Load[] = [];
      for (const s of servers) loads.push(await measureLoad(s, [target.path], HTTP_CONNECTIONS, HTTP_SECONDS));
      const [b, a] = loads as [Load, Load];
      rows.push({
        what: `${target.label}, ${HTTP_CONNECTIONS} conn, ${HTTP_SECONDS} s`,
        before: fmtLoad(b),
        after: fmtLoad(a),
        ratio: `${ratioOf(rate(b), rate(a))} req/s`,
      });
    }
    return rows;
  } finally {
    for (const s of servers) await s.stop().catch(() => undefined);
  }
}

function printRows(rows: Row[], trees: [Checkout, Checkout], loadAtStart: string): void {
  const header: Row = { what: 'figure', before: `before: ${trees[0].label}`, after: `after: ${trees[1].label}`, ratio: 'after ÷ before' };
  const cols = ['what', 'before', 'after', 'ratio'] as const;
  console.log(
    `\nbench --against on ${new Date().toISOString()} (node ${process.version}, ${availableParallelism()} cores; load ${loadAtStart} at the start, ${fmtLoadAvg()} at the end)\n`,
  );
  printTable([header, ...rows].map((row) => cols.map((c) => row[c])));
}

export async function runComparison(ref: string): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'creature-bench-against-'));
  const dataDir = resolveConfig({}, {}).dataDir;
  const loadAtStart = fmtLoadAvg();
  const dirty = git(['status', '--porcelain']) !== '';
  const after: Checkout = {
    label: `working tree (${git(['rev-parse', '--short', 'HEAD'])}${dirty ? ', with changes' : ''})`,
    root: repoRoot,
    dist: join(scratch, 'after-dist'),
    records: join(scratch, 'after-records'),
  };
  let before: Checkout | null = null;
  try {
    before = checkOut(ref, scratch);
    const trees: [Checkout, Checkout] = [before, after];
    const rows = [...buildRows(trees, dataDir), ...(await devRows(trees, dataDir)), ...(await httpRows(trees))];
    printRows(rows, trees, loadAtStart);
  } finally {
    if (before) spawnSync('git', ['worktree', 'remove', '--force', before.root], { cwd: repoRoot });
    rmSync(scratch, { recursive: true, force: true });
  }
}
