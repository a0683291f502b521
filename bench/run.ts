/**
 * `npm run bench`: the speed and memory figures of issue targets, measured side by side in
 * one run on this machine (never asserted in tests: the machines are noisy).
 *   - full import + build of the whole data set: wall seconds and peak RSS of each process
 *   - a rebuild with nothing changed (what `npm start` pays on a warm tree)
 *   - `cp -r` of the resulting dist/, the floor a build that writes the same files can approach
 *   - the dev loop (bench/dev.ts): edit → served answer for a stat change, a move rename and a
 *     save that changes nothing; the preview's peak RSS serving every item once
 *   - the serving process's RSS after a first `npm start`, beside one started on a built dist/
 *     (bench/start-memory.ts; `node bench/start-memory.ts` for this part alone)
 *   - filters and search (bench/query.ts): warm and cold answers in-process and under Deno, index sizes
 *   - `npm run data:update` to a commit changing a few tables, beside a full build (bench/update.ts;
 *     `npm run bench -- --update` for this part alone)
 * `npm run bench -- --against REF` measures the main figures of REF and of this tree side by side
 * instead (bench/compare.ts).
 * It works in a scratch folder and leaves data/records and dist/ alone.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveConfig } from '../generator/config.ts';
import { readArgs } from './args.ts';
import { CLI, measure, median, printRows, range, treeSize, type Measured } from './measure.ts';

const ROUNDS = 3;

/** Every figure of the working tree, in one table. */
async function runBench(): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'creature-bench-'));
  const dist = join(scratch, 'dist');
  const env = { ...process.env, OUT_DIR: dist, RECORDS_DIR: join(scratch, 'records') };
  const rows: Array<[string, string, string]> = [];

  try {
    const imported = measure([...CLI, 'import', '--force'], env);
    // This machine's disk is noisy (the same cp -r has taken 1 s and 20 s): build and copy are
    // measured in alternation, each into an empty folder, and compared by their medians.
    const builds: Measured[] = [];
    const copies: Measured[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      rmSync(dist, { recursive: true, force: true });
      spawnSync('sync');
      builds.push(measure([...CLI, 'build', '--force'], env));
      spawnSync('sync');
      copies.push(measure(['cp', '-r', dist, join(scratch, `copy-${round}`)], env));
      rmSync(join(scratch, `copy-${round}`), { recursive: true, force: true });
    }
    const again = measure([...CLI, 'build'], env);
    const size = treeSize(dist);
    const buildSeconds = builds.map((b) => b.seconds);
    const copySeconds = copies.map((c) => c.seconds);
    const buildRss = Math.max(...builds.map((b) => b.peakRssMb));

    rows.push(['import (tables → records)', `${imported.seconds.toFixed(2)} s, peak RSS ${imported.peakRssMb.toFixed(0)} MB`, '']);
    rows.push([
      `build (records → dist/), median of ${ROUNDS}`,
      `${median(buildSeconds).toFixed(2)} s (${range(buildSeconds)}), peak RSS ${buildRss.toFixed(0)} MB`,
      '',
    ]);
    rows.push([
      'import + build, whole data set',
      `${(imported.seconds + median(buildSeconds)).toFixed(2)} s, peak RSS ${Math.max(imported.peakRssMb, buildRss).toFixed(0)} MB`,
      '≤ 20 s, ≤ 1.5 GB',
    ]);
    rows.push(['rebuild, nothing changed', `${again.seconds.toFixed(2)} s`, '≤ 2 s']);
    rows.push([`cp -r dist/, median of ${ROUNDS}`, `${median(copySeconds).toFixed(2)} s (${range(copySeconds)})`, '']);
    rows.push(['build ÷ cp -r (medians)', `${(median(buildSeconds) / median(copySeconds)).toFixed(1)}×`, '≤ 3×']);
    rows.push(['dist/', `${size.files} files, ${(size.bytes / 1e6).toFixed(0)} MB (hard-linked names counted once)`, '']);

    // the dev loop beside the full build of the same run, and the preview's memory on this dist/
    const { previewPeakRss, runDevBench } = await import('./dev.ts');
    rows.push(...(await runDevBench(scratch, resolveConfig({}, {}).dataDir)).map((r): [string, string, string] => [r.what, r.figure, r.goal]));
    const rss = await previewPeakRss(dist, env);
    rows.push([rss.what, rss.figure, rss.goal]);
    // the process that serves after a first `npm start` (which builds in a child), beside one started on a built dist/
    const { runStartMemoryBench } = await import('./start-memory.ts');
    rows.push(...(await runStartMemoryBench(scratch, resolveConfig({}, {}).dataDir)).map((r): [string, string, string] => [r.what, r.figure, r.goal]));

    console.log(`\nbench on ${new Date().toISOString()} (node ${process.version}, ${availableParallelism()} cores)\n`);
    printRows(rows);
    // the HTTP figures (preview and nginx side by side, page computation) on the same dist/
    await (await import('./http.ts')).runHttpBench(dist);
    // filters and search: in-process and under Deno, and the indexes' sizes
    const queryRows = await (await import('./query.ts')).runQueryBench(dist, resolveConfig({}, {}).baseUrl);
    console.log('');
    printRows(queryRows);
    // as of a game: answers made at the edge from today's documents and the as-of files
    const asOfRows = await (await import('./as-of.ts')).runAsOfBench(dist, resolveConfig({}, {}).baseUrl);
    console.log('');
    printRows(asOfRows);
    await printUpdateBench(scratch);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The data update beside a full build, in its own part of the scratch folder. */
async function printUpdateBench(scratch: string): Promise<void> {
  const rows = await (await import('./update.ts')).runUpdateBench(scratch);
  console.log('');
  for (const row of rows) console.log(`${row.what.padEnd(56)}  ${row.figure}  ${row.goal}`);
}

const USAGE = 'npm run bench -- [--against REF | --update]';
const { values: flags } = readArgs(USAGE, { against: { type: 'string' }, update: { type: 'boolean' } });
// `npm run bench -- --against REF`: the main figures of REF and of the working tree side by side
if (flags.against !== undefined) {
  if (!flags.against) throw new Error(`--against needs a commit or branch, e.g. --against main\nusage: ${USAGE}`);
  await (await import('./compare.ts')).runComparison(flags.against);
} else if (flags.update) {
  const scratch = mkdtempSync(join(tmpdir(), 'creature-bench-'));
  try {
    await printUpdateBench(scratch);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
} else {
  await runBench();
}
