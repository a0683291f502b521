/**
 * How long `npm run data:update` takes to a commit that changes a few tables, beside a full
 * import + build of the same data, in a scratch folder: a local server answers the git-trees
 * listing and serves the archive of an invented next commit (the pinned tables with three of
 * them edited: a name, a base stat, a move's power), and the update downloads, verifies,
 * imports, builds, compares with the served build and swaps, as the command does. The pair runs
 * ROUNDS times, back to back, and each update is read against the full build just before it.
 *   npm run bench -- --update       (this part alone)
 * The update is run through `runUpdate` in a process of its own (this file with `--run`), with
 * a lock, cache, records and dist/ in the scratch folder: the command itself writes the
 * repository's lock.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lockPath, resolveConfig } from '../generator/config.ts';
import { formatLock, gitBlobSha1, lockForFolder, readLock } from '../generator/fetch/lock.ts';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { upstreamArchive } from '../test/support/upstream-archive.ts';
import { readArgs } from './args.ts';
import { CLI, measure, type Measured } from './measure.ts';

const NEXT = 'f'.repeat(40);

/** The pinned tables with a few edits that keep them valid: what a small upstream commit looks like. */
export function editedTables(from: string, to: string): string[] {
  cpSync(from, to, { recursive: true });
  const edit = (table: string, line: number, change: (row: string) => string) => {
    const lines = readFileSync(join(to, table), 'utf8').split('\n');
    lines[line] = change(lines[line]!);
    writeFileSync(join(to, table), lines.join('\n'));
  };
  edit('ability_names.csv', 1, (row) => row.replace(/,([^,]*)$/, ',$1 (renamed)'));
  edit('pokemon_stats.csv', 1, (row) => row.replace(/^(\d+,\d+),(\d+)/, (_m, head: string, stat: string) => `${head},${Number(stat) + 1}`));
  edit('moves.csv', 1, (row) => row.replace(/^(\d+,[^,]+,\d+,\d+),(\d+)/, (_m, head: string, power: string) => `${head},${Number(power) + 5}`));
  return ['ability_names.csv', 'pokemon_stats.csv', 'moves.csv'];
}

/** A git-trees answer in GitHub's shape for a folder of tables. */
function treeAnswer(csvDir: string, names: string[]): string {
  const tree = names.map((name) => {
    const bytes = readFileSync(join(csvDir, name));
    return { path: `data/v2/csv/${name}`, mode: '100644', type: 'blob', sha: gitBlobSha1(bytes), size: bytes.length };
  });
  return JSON.stringify({ sha: NEXT, tree, truncated: false });
}

export interface UpdateBenchRow {
  what: string;
  figure: string;
  goal: string;
}

/**
 * Rounds of the pair, full build then update: between runs the same work takes 4–14 s more or
 * less on this shared machine, so the goal is read pair by pair, each pair run back to back.
 */
const ROUNDS = 2;

/** One pair: the full import + build of the pinned data, then the update to the invented commit. */
interface Pair {
  full: Measured;
  update: Measured;
  /** the update's download and verify, from its own line */
  download: number;
}

/** The figures: ROUNDS pairs of a full import + build of the pinned data and the update to the invented commit. */
export async function runUpdateBench(scratch: string): Promise<UpdateBenchRow[]> {
  const config = resolveConfig({}, {});
  const lock = readLock(lockPath);
  const root = join(scratch, 'update');
  mkdirSync(root, { recursive: true });
  // the pinned tables as they are here (the team copy's four rebuilt tables hash otherwise than the upstream's): only the edited ones then move
  const pinned = formatLock(lockForFolder(lock.commit, join(config.dataDir, 'csv')));
  const env = { ...process.env, OUT_DIR: join(root, 'dist'), RECORDS_DIR: join(root, 'records'), DATA_DIR: config.dataDir };
  const tables = join(root, 'next-csv');
  const edited = editedTables(join(config.dataDir, 'csv'), tables);
  writeFileSync(join(root, 'tree.json'), treeAnswer(tables, Object.keys(lock.tables)));
  writeFileSync(join(root, 'archive.tar.gz'), upstreamArchive(tables, `pokeapi-${NEXT}`));
  const server = await serveFiles({ [`/trees/${NEXT}`]: join(root, 'tree.json'), '/archive.tar.gz': join(root, 'archive.tar.gz') });
  const updateEnv = { ...process.env, DATA_TREE_URL: `${server.url}/trees/{commit}`, DATA_URL: `${server.url}/archive.tar.gz` };
  const pairs: Pair[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      // each round starts pinned where the update starts from, with no report from the round before,
      // and no records: the full build imports every kind (records there would be reused)
      writeFileSync(join(root, 'lock.json'), pinned);
      for (const made of ['changes', 'records']) rmSync(join(root, made), { recursive: true, force: true });
      const full = measure([...CLI, 'build', '--force'], env);
      const update = measure(['node', 'bench/update.ts', '--run', root, config.dataDir], updateEnv);
      pairs.push({ full, update, download: Number(/^fetch: .* in ([\d.]+) s$/m.exec(update.output)?.[1] ?? NaN) });
    }
  } finally {
    await server.worker.terminate();
  }
  return updateRows(pairs, edited.length);
}

/** Each pair with its verdict, then the steps and the summary of the last update. */
function updateRows(pairs: readonly Pair[], editedTables: number): UpdateBenchRow[] {
  const met = pairs.filter((p) => p.update.seconds <= p.full.seconds + p.download).length;
  const rows = pairs.flatMap(({ full, update, download }, round) => {
    const margin = full.seconds + download - update.seconds;
    return [
      {
        what: `round ${round + 1}: full import + build (the pinned data)`,
        figure: `${full.seconds.toFixed(2)} s, peak RSS ${full.peakRssMb.toFixed(0)} MB`,
        goal: '',
      },
      {
        what: `round ${round + 1}: data:update to a commit changing ${editedTables} tables`,
        figure: `${update.seconds.toFixed(2)} s, peak RSS ${update.peakRssMb.toFixed(0)} MB (download from a local server ${download.toFixed(1)} s, verify, import, build, compare, swap)`,
        goal: `≤ full build + download: ${margin >= 0 ? `met by ${margin.toFixed(1)} s` : `missed by ${(-margin).toFixed(1)} s`}`,
      },
    ];
  });
  const last = pairs[pairs.length - 1]!.update.output.split('\n');
  rows.push({ what: `the goal, pair by pair`, figure: `met in ${met} of ${pairs.length}`, goal: '' });
  rows.push({
    what: "  the last update's steps",
    figure: last
      .filter((l) => /^(compare|fetch): .* in |^update: /.test(l))
      .map((l) => l.trim())
      .join('; '),
    goal: '',
  });
  rows.push({
    what: '  its summary',
    figure: last
      .filter((l) => /items:|table /.test(l))
      .map((l) => l.trim())
      .join('; '),
    goal: '',
  });
  return rows;
}

/**
 * A local server of a few files, in a worker thread: `measure` waits for its command
 * synchronously, which would stop a server on this thread from answering it.
 */
async function serveFiles(routes: Record<string, string>): Promise<{ url: string; worker: Worker }> {
  const code = `
    const { createServer } = require('node:http');
    const { readFileSync } = require('node:fs');
    const { parentPort, workerData } = require('node:worker_threads');
    const server = createServer((req, res) => {
      const file = workerData[req.url];
      if (!file) return res.writeHead(404).end();
      const body = readFileSync(file);
      res.writeHead(200, { 'content-length': body.length }).end(body);
    });
    server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));`;
  const worker = new Worker(code, { eval: true, workerData: routes });
  const port = await new Promise<number>((resolve) => worker.once('message', resolve));
  return { url: `http://127.0.0.1:${port}`, worker };
}

/** `--run ROOT DATA_DIR`: one update of the scratch project at ROOT, the served build made from DATA_DIR. */
async function runOne(root: string, dataDir: string): Promise<void> {
  const { runUpdate } = await import('../generator/update/index.ts');
  const { consoleLog } = await import('../generator/pipeline.ts');
  const config = { ...resolveConfig({ data: dataDir }, {}), outDir: join(root, 'dist'), recordsDir: join(root, 'records'), changesDir: join(root, 'changes') };
  const paths = { lockPath: join(root, 'lock.json'), cacheDir: join(root, 'cache'), sharedRoot: join(root, 'no-shared'), config };
  await runUpdate({ commit: NEXT }, paths, consoleLog, process.env);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const usage = 'node bench/update.ts --run ROOT DATA_DIR (the bench starts it; this part alone: npm run bench -- --update)';
  const { values, positionals } = readArgs(usage, { run: { type: 'boolean' } }, true);
  const [root, dataDir, ...more] = positionals;
  if (!values.run || !root || !dataDir || more.length) throw new Error(`usage: ${usage}`);
  await runOne(root, dataDir);
}
