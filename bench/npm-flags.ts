/**
 * The Node arguments an npm script runs its TypeScript entry with (package.json `scripts`), so
 * that a bench starts a process as `npm start` or `npm run dev` would: the same flags, one place
 * that says them. An older checkout (bench/compare.ts) may still run its sources through tsx's
 * loader; its scripts say so, and the loader comes with its arguments.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../generator/config.ts';

const RUNNERS: Readonly<Record<string, readonly string[]>> = { node: [], tsx: ['--import', 'tsx'] };

/** `tree`: the checkout whose package.json says them (bench/compare.ts runs an older commit too). */
export function nodeFlagsOf(script: string, tree = repoRoot): string[] {
  const scripts = (JSON.parse(readFileSync(join(tree, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const command = scripts[script];
  if (command === undefined) throw new Error(`package.json has no script "${script}"`);
  const [runner = '', ...words] = command.split(/\s+/);
  const loader = RUNNERS[runner];
  if (loader === undefined) throw new Error(`script "${script}" starts with neither node nor tsx: ${command}`);
  const flags: string[] = [];
  for (const word of words) {
    if (!word.startsWith('--')) break;
    flags.push(word);
  }
  return [...flags, ...loader];
}

/** The command that runs the CLI of the checkout at `tree`, as its `npm run cli` does. */
export const cliOf = (tree = repoRoot): string[] => ['node', ...nodeFlagsOf('cli', tree), 'generator/cli.ts'];
