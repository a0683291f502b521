/**
 * How the bench times a command: under GNU time, for its wall seconds and the peak RSS of the
 * process and its threads; and the small statistics the tables print.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { loadavg } from 'node:os';
import { repoRoot } from '../generator/config.ts';
import { isMissing } from '../generator/files/folders.ts';

export interface Measured {
  seconds: number;
  /** the largest RSS of the process and its threads */
  peakRssMb: number;
  output: string;
}

/** The command line as `measure` runs it, in the checkout it is run in. */
export const CLI = ['node', 'generator/cli.ts'];

/** Runs a command under GNU time in `cwd`; wall seconds and peak RSS come from its report. */
export function measure(command: string[], env: NodeJS.ProcessEnv, cwd = repoRoot): Measured {
  const result = spawnSync('/usr/bin/time', ['-v', ...command], { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const report = result.stderr;
  if (result.status !== 0) throw new Error(`${command.join(' ')} failed:\n${result.stdout}\n${report}`);
  const wall = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)/.exec(report);
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(report);
  if (!wall || !rss) throw new Error(`no figures from /usr/bin/time:\n${report}`);
  const seconds = Number(wall[1] ?? 0) * 3600 + Number(wall[2]) * 60 + Number(wall[3]);
  return { seconds, peakRssMb: Number(rss[1]) / 1024, output: result.stdout.trim() };
}

export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
export const range = (xs: number[]): string => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)} s`;
/** The 1-, 5- and 15-minute load averages, printed beside every table: this machine is shared. */
export const fmtLoadAvg = (): string =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');

/** Whether `e` says a file or folder is not there (ENOENT): what a bench reading /proc or an optional file expects, and nothing else. */
export { isMissing };

/** A figure of /proc/<pid>/status in MB (VmRSS now, VmHWM the peak); NaN once the process is gone. */
export function statusMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const path = `/proc/${pid}/status`;
  if (!existsSync(path)) return NaN;
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(path, 'utf8'))?.[1] ?? NaN) / 1024;
}

/** Whether `e` is fetch's failure to connect (nothing listening yet), and nothing else. */
export const isRefused = (e: unknown): boolean => e instanceof TypeError && (e.cause as NodeJS.ErrnoException | undefined)?.code === 'ECONNREFUSED';

/** A TCP port free on this machine now, for a server the bench starts. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolvePort(port));
    });
  });
}

/** The processes `pid` started (its main thread's children), from /proc; none once it is gone. */
export function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch (e) {
    // the process is gone (or this is no Linux)
    if (!isMissing(e)) throw e;
    return [];
  }
}

/** Rows of `[what, figure, goal]` as the bench prints them: aligned columns. */
export function printRows(rows: ReadonlyArray<readonly [string, string, string]>): void {
  const width = Math.max(...rows.map((r) => r[0].length));
  for (const [what, figure, goal] of rows) console.log(`${what.padEnd(width)}  ${figure.padEnd(70)}  ${goal}`);
}

/** A table, its first row the header: each column as wide as its widest cell. */
export function printTable(rows: ReadonlyArray<readonly string[]>): void {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const row of rows)
    console.log(
      row
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    );
}

/** A folder's files and bytes, a file with several links counted once (a build's names are hard links to its ids). */
export function treeSize(dir: string): { files: number; bytes: number } {
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
