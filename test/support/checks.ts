/**
 * The checks of `npm test`: the type check (tsc --noEmit), the lint (eslint) and the format
 * check (prettier --check), run beside the global setup instead of before it: the setup's
 * import runs on one thread for most of its time, so they fit beside it on a 2-core machine.
 * Only the README's test command runs them (npm names the script it runs in
 * npm_lifecycle_event): a developer's `npx vitest run one.test.ts` does not wait on them.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export interface Check {
  /** the command as a developer types it */
  readonly command: string;
  /** its exit code and what it printed */
  readonly done: Promise<{ code: number; output: string }>;
}

export const checksWanted = (): boolean => process.env.npm_lifecycle_event === 'test';

const CHECKS = [
  { command: 'tsc --noEmit', pkg: 'typescript', bin: 'tsc', args: ['--noEmit', '--pretty', 'false'] },
  { command: 'eslint .', pkg: 'eslint', bin: 'eslint', args: ['.'] },
  { command: 'prettier --check .', pkg: 'prettier', bin: 'prettier', args: ['--check', '.'] },
];

/** A package's bin file, by its package.json: eslint's `exports` do not name it. */
function binOf(pkg: string, bin: string): string {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve(`${pkg}/package.json`);
  const bins = (require(manifest) as { bin: string | Record<string, string> }).bin;
  const file = typeof bins === 'string' ? bins : bins[bin];
  if (file === undefined) throw new Error(`${pkg} has no bin named ${bin}`);
  return join(dirname(manifest), file);
}

function run(root: string, { command, pkg, bin, args }: (typeof CHECKS)[number]): Promise<{ code: number; output: string }> {
  const child = spawn(process.execPath, [binOf(pkg, bin), ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  return new Promise((resolve) => {
    child.on('error', (error) => resolve({ code: 1, output: `${command} did not start: ${error.message}` }));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

/**
 * Starts the checks one after another: side by side they would take a second core from the
 * setup and the tests, and hold two TypeScript programs (tsc's, eslint's) in memory at once.
 */
export function startChecks(root: string): Check[] {
  let previous: Promise<unknown> = Promise.resolve();
  return CHECKS.map((check) => {
    const done = previous.then(() => run(root, check));
    previous = done;
    return { command: check.command, done };
  });
}
