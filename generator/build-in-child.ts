/**
 * `npm start`'s build, run in a child process: the import and the build peak at well over a
 * gigabyte and the memory they touched stays with the process that ran them, so the process
 * that then serves must not be the one that built. The child is this same CLI's `build`
 * command; its output is the user's, and its exit code is `npm start`'s when it fails.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Config } from './config.ts';
import type { Log } from './pipeline.ts';

/** this CLI's entry, which the child runs */
export const cliEntry = fileURLToPath(new URL('./cli.ts', import.meta.url));

const SEMI_SPACE_FLAG = '--max-semi-space-size';

/** Node flags without a semi-space size: `npm start` gives its own one that suits serving, not building. */
export function withoutSemiSpace(flags: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < flags.length; i++) {
    const flag = flags[i]!;
    if (flag === SEMI_SPACE_FLAG) i++;
    else if (!flag.startsWith(`${SEMI_SPACE_FLAG}=`)) kept.push(flag);
  }
  return kept;
}

/**
 * The `build` command's arguments for the configuration `serve` resolved: the base URL and the
 * output folder as resolved (a `--port` changes the default base URL), the data folder only when
 * the user gave one (giving it makes it a folder used as it is, never downloaded into), and
 * `--verbose` when the user asked for stacks (DEBUG the child has from the environment).
 */
export function buildCommandArgs(config: Config, givenData: string | undefined, verbose = false): string[] {
  return [...(givenData ? ['--data', givenData] : []), '--base-url', config.baseUrl, '--out', config.outDir, ...(verbose ? ['--verbose'] : []), 'build'];
}

/** The exit code a child stopped by `signal` reports, as a shell does: 128 + the signal's number. */
const signalExitCode = (signal: NodeJS.Signals): number => 128 + (constants.signals[signal] ?? 0);

/**
 * Runs `build` with `args` in a child process, its output passed through, and resolves to its
 * exit code. The build itself leaves the previous dist/ as it was when it fails.
 */
export function buildInChild(args: readonly string[], log: Log): Promise<number> {
  const child = spawn(process.execPath, [...withoutSemiSpace(process.execArgv), cliEntry, ...args], { stdio: 'inherit' });
  log.info(`serve: building in a child process (pid ${child.pid}); this process only serves`);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code !== null) return resolve(code);
      log.warn(`the build process was stopped by ${signal}; dist/ was left as it was`);
      resolve(signal ? signalExitCode(signal) : 1);
    });
  });
}
