/**
 * `npm run bench`: the speed and memory figures of issue targets, measured side by side in
 * one run on this machine (never asserted in tests: the machines are noisy).
 *   - full import + build of the whole data set: wall seconds and peak RSS of each process
 *   - a rebuild with nothing changed (what `npm start` pays on a warm tree)
 *   - `cp -r` of the resulting dist/, the floor a build that writes the same files can approach
 * It works in a scratch folder and leaves data/records and dist/ alone.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../generator/config.ts';

interface Measured {
  seconds: number;
  peakRssMb: number;
  output: string;
}

/** Runs a command under GNU time; wall seconds and peak RSS come from its report. */
function measure(command: string[], env: NodeJS.ProcessEnv): Measured {
  const result = spawnSync('/usr/bin/time', ['-v', ...command], { cwd: repoRoot, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const report = result.stderr;
  if (result.status !== 0) throw new Error(`${command.join(' ')} failed:\n${result.stdout}\n${report}`);
  const wall = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)/.exec(report);
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(report);
  if (!wall || !rss) throw new Error(`no figures from /usr/bin/time:\n${report}`);
  const seconds = Number(wall[1] ?? 0) * 3600 + Number(wall[2]) * 60 + Number(wall[3]);
  return { seconds, peakRssMb: Number(rss[1]) / 1024, output: result.stdout.trim() };
}

function treeSize(dir: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  const seen = new Set<number>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const full = join(d, e.name);
      if (e.isDirectory()) walk(full);
      else {
        const st = statSync(full);
        files++;
        if (!seen.has(st.ino)) {
          seen.add(st.ino);
          bytes += st.size;
        }
      }
    }
  };
  walk(dir);
  return { files, bytes };
}

const scratch = mkdtempSync(join(tmpdir(), 'creature-bench-'));
const env = { ...process.env, OUT_DIR: join(scratch, 'dist'), RECORDS_DIR: join(scratch, 'records') };
const cli = ['node', '--import', 'tsx', 'generator/cli.ts'];
const rows: Array<[string, string, string]> = [];
const row = (what: string, m: Measured | number, target = '') =>
  rows.push([what, typeof m === 'number' ? `${m.toFixed(2)} s` : `${m.seconds.toFixed(2)} s, peak RSS ${m.peakRssMb.toFixed(0)} MB`, target]);

try {
  const imported = measure([...cli, 'import', '--force'], env);
  const built = measure([...cli, 'build', '--force'], env);
  const again = measure([...cli, 'build'], env);
  const copy = measure(['cp', '-r', join(scratch, 'dist'), join(scratch, 'dist-copy')], env);
  const size = treeSize(join(scratch, 'dist'));

  row('import (tables → records)', imported);
  row('build (records → dist/)', built);
  row('import + build, whole data set', imported.seconds + built.seconds, '≤ 20 s, ≤ 1.5 GB peak RSS');
  row('rebuild, nothing changed', again, '≤ 2 s');
  row('cp -r dist/ (same run)', copy);
  rows.push(['build ÷ cp -r', `${(built.seconds / copy.seconds).toFixed(1)}×`, '≤ 3×']);
  rows.push(['dist/', `${size.files} files, ${(size.bytes / 1e6).toFixed(0)} MB (hard-linked names counted once)`, '']);

  const width = Math.max(...rows.map((r) => r[0].length));
  console.log(`\nbench on ${new Date().toISOString()} (node ${process.version})\n`);
  for (const [what, figure, target] of rows) console.log(`${what.padEnd(width)}  ${figure.padEnd(40)}  ${target}`);
  console.log(`\npeak RSS: import ${imported.peakRssMb.toFixed(0)} MB, build ${built.peakRssMb.toFixed(0)} MB`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
