/**
 * The type check of `npm test`, run beside the global setup instead of before it: the setup's
 * import runs on one thread for most of its time, so tsc's 12 s fit beside it on a 2-core
 * machine. Only the README's test command runs it (npm names the script it runs in
 * npm_lifecycle_event): a developer's `npx vitest run one.test.ts` does not wait on it.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

export interface TypeCheck {
  /** tsc's exit code and what it printed */
  readonly done: Promise<{ code: number; output: string }>;
}

export const typeCheckWanted = (): boolean => process.env.npm_lifecycle_event === 'test';

export function startTypeCheck(root: string): TypeCheck {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const child = spawn(process.execPath, [tsc, '--noEmit', '--pretty', 'false'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  child.stderr.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  const done = new Promise<{ code: number; output: string }>((resolve) => {
    child.on('error', (error) => resolve({ code: 1, output: `tsc did not start: ${error.message}` }));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
  return { done };
}
