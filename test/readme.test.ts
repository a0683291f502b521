/**
 * The documents a newcomer reads first say what is true: every command they show exists, every
 * command of the CLI is listed, every file they name is there, and the README stays short enough
 * to read (the rest lives in ARCHITECTURE.md and CONTRIBUTING.md).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../generator/config.ts';

const read = (file: string) => readFileSync(join(repoRoot, file), 'utf8');
const DOCUMENTS = ['README.md', 'ARCHITECTURE.md', 'CONTRIBUTING.md'];
const scripts = Object.keys((JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts);

/** `npm start`, `npm test`, `npm run x` as a document writes them. */
const npmCommands = (text: string): string[] => [...text.matchAll(/\bnpm (start|test|run ([a-z][\w:-]*))/g)].map((m) => m[2] ?? m[1]!);

/** The CLI's commands, as generator/cli.ts declares them. */
const cliCommands = (): string[] => [...read('generator/cli.ts').matchAll(/\.command\('([a-z-]+)'/g)].map((m) => m[1]!);

/** Paths of the repository a document names in backticks: `generator/builder/writer.ts`, `edge/query/`. */
const namedPaths = (text: string): string[] =>
  [...text.matchAll(/`((?:generator|edge|netlify|schemas|site|test|bench|scripts|\.ci)\/[\w./-]*)`/g)].map((m) => m[1]!);

describe('the documents a newcomer reads first', () => {
  it('keep SPEED.md to the current figures: at most 200 lines (earlier ones are in its history)', () => {
    expect(read('SPEED.md').trimEnd().split('\n').length).toBeLessThanOrEqual(200);
  });

  it('keep the README under 250 lines', () => {
    expect(read('README.md').split('\n').length).toBeLessThanOrEqual(250);
  });

  it.each(DOCUMENTS)('%s names only npm scripts that exist', (file) => {
    const missing = npmCommands(read(file)).filter((name) => !scripts.includes(name));
    expect(missing).toEqual([]);
  });

  it('the README lists every command of the CLI, and every npm script that runs one names a real command', () => {
    const readme = read('README.md');
    const commands = cliCommands();
    expect(commands.length).toBeGreaterThanOrEqual(7);
    expect(commands.filter((command) => !readme.includes(`| \`${command}\` |`))).toEqual([]);
    const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
    const called = Object.values(pkg.scripts).flatMap((line) => [...line.matchAll(/generator\/cli\.ts ([a-z-]+)/g)].map((m) => m[1]!));
    expect(called.filter((command) => !commands.includes(command))).toEqual([]);
  });

  it.each(DOCUMENTS)('%s names only files and folders that exist', (file) => {
    const missing = namedPaths(read(file)).filter((path) => !existsSync(join(repoRoot, path)));
    expect(missing).toEqual([]);
  });
});
