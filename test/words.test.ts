/**
 * Words a newcomer can follow: no issue number and no dated measurement in the code, the contract
 * or the docs page. Both belong in commit messages and notes; in a comment they age into riddles.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../generator/config.ts';
import { filesUnder } from './support/rooms.ts';

const ROOTS = ['generator', 'contract', 'edge', 'netlify', 'schemas', 'site'];
/** Code a user does not read, where an issue number ages as badly (a date there may be a fixture's). */
const TOOLING = ['bench', 'scripts', 'test'];
const DOCS = ['README.md', 'ARCHITECTURE.md', 'CONTRIBUTING.md', 'SPEED.md'];

/** Each line of `paths` that `pattern` finds, as `file:line: text`. */
function linesMatching(paths: readonly string[], pattern: RegExp): string[] {
  return paths.flatMap((path) =>
    readFileSync(path, 'utf8')
      .split('\n')
      .flatMap((line, i) => (pattern.test(line) ? [`${relative(repoRoot, path)}:${i + 1}: ${line.trim()}`] : [])),
  );
}

const sources = (roots = ROOTS): string[] => roots.flatMap((root) => filesUnder(join(repoRoot, root))).filter((file) => !file.includes('/fixtures/'));

describe('words', () => {
  it('names no issue number in the code, its tests and bench, the contract, the docs page or the docs', () => {
    const found = linesMatching([...sources([...ROOTS, ...TOOLING]), ...DOCS.map((doc) => join(repoRoot, doc))], /\bissues? #?\d+/i);
    expect(found).toEqual([]);
  });

  it('dates no measurement in the code, the contract or the docs page', () => {
    expect(linesMatching(sources(), /\b20\d\d-[01]\d-[0-3]\d\b/)).toEqual([]);
  });
});
