/**
 * The code's shape, kept: no function in generator/, contract/, edge/ or netlify/ is longer than
 * MAX_LINES (a function one must scroll to read is two functions). Declarative tables are
 * data, not functions, and do not count; a function that is one table may be named below with
 * its reason.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../generator/config.ts';
import { sourceFiles } from './support/rooms.ts';

const MAX_LINES = 100;
const ROOTS = ['generator', 'contract', 'edge', 'netlify'];
/** `path name` (e.g. `generator/builder/x.ts makeTable`) → why it may be longer */
const TABLES: Record<string, string> = {};

interface FunctionSpan {
  /** `path name`, the key of TABLES */
  key: string;
  line: number;
  lines: number;
}

function nameOf(node: ts.Node): string {
  const named = (node as { name?: ts.Node }).name;
  if (named) return named.getText();
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) return parent.name.getText();
  return '(anonymous)';
}

/** Every function with a body, and how many lines it spans. */
function functionSpans(file: string): FunctionSpan[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const spans: FunctionSpan[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && (node as ts.FunctionLikeDeclaration).body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      spans.push({ key: `${relative(repoRoot, file)} ${nameOf(node)}`, line: first + 1, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return spans;
}

describe('function length', () => {
  const spans = ROOTS.flatMap((root) => sourceFiles(join(repoRoot, root)).filter((file) => file.endsWith('.ts'))).flatMap(functionSpans);

  it('finds the functions it measures', () => {
    expect(spans.length).toBeGreaterThan(200);
  });

  it(`has no function longer than ${MAX_LINES} lines outside declared tables`, () => {
    const long = spans.filter((s) => s.lines > MAX_LINES && !(s.key in TABLES));
    expect(long.map((s) => `${s.key} at line ${s.line}: ${s.lines} lines`)).toEqual([]);
  });
});
