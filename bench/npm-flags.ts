/**
 * The Node flags an npm script passes to tsx (package.json `scripts`), so that a bench starts a
 * process as `npm start` or `npm run dev` would: the same flags, one place that says them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../generator/config.ts';

/** `tree`: the checkout whose package.json says them (bench/compare.ts runs an older commit too). */
export function nodeFlagsOf(script: string, tree = repoRoot): string[] {
  const scripts = (JSON.parse(readFileSync(join(tree, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const command = scripts[script];
  if (command === undefined) throw new Error(`package.json has no script "${script}"`);
  const [runner, ...words] = command.split(/\s+/);
  if (runner !== 'tsx') throw new Error(`script "${script}" does not start with tsx: ${command}`);
  const flags: string[] = [];
  for (const word of words) {
    if (!word.startsWith('--')) break;
    flags.push(word);
  }
  return flags;
}
