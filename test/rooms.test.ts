/**
 * The house's rule (ARCHITECTURE.md, "The rooms"): no two rooms import each other. A room is a
 * folder of generator/ (a file directly under generator/ is a room of its own), edge/,
 * edge/query/ or edge/as-of/, netlify/, schemas/. Read from the source's own import lines, type imports
 * included: an arrow back up is a room that cannot be understood, moved or tested without the
 * room that uses it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../generator/config.ts';

const SOURCE_ROOTS = ['generator', 'edge', 'netlify', 'schemas'];

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|mjs)$/.test(name) ? [path] : [];
  });

/** The room a file of the repository lives in. */
export function roomOf(file: string): string {
  const parts = relative(repoRoot, file).split('/');
  if (parts[0] === 'generator') return parts.length === 2 ? parts.join('/') : `generator/${parts[1]}`;
  if (parts[0] === 'edge') return (parts[1] === 'query' || parts[1] === 'as-of') && parts.length > 2 ? `edge/${parts[1]}` : 'edge';
  return parts[0]!;
}

/** The files a source file imports, resolved (static imports, `export … from`, and `import()` of a literal). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]!);
  return specs.map((spec) => resolve(dirname(file), spec));
}

/** Room → rooms it imports, with one example file for each arrow. */
function roomArrows(): Map<string, Map<string, string>> {
  const arrows = new Map<string, Map<string, string>>();
  for (const root of SOURCE_ROOTS) {
    for (const file of sourceFiles(join(repoRoot, root))) {
      const from = roomOf(file);
      for (const target of importsOf(file)) {
        const to = roomOf(target);
        if (to === from || !SOURCE_ROOTS.some((r) => relative(repoRoot, target).startsWith(`${r}/`))) continue;
        const out = arrows.get(from) ?? new Map<string, string>();
        if (!out.has(to)) out.set(to, `${relative(repoRoot, file)} → ${relative(repoRoot, target)}`);
        arrows.set(from, out);
      }
    }
  }
  return arrows;
}

describe('the rooms of the house', () => {
  it('places files as ARCHITECTURE.md names the rooms', () => {
    expect(roomOf(join(repoRoot, 'generator/builder/writer.ts'))).toBe('generator/builder');
    expect(roomOf(join(repoRoot, 'generator/pipeline.ts'))).toBe('generator/pipeline.ts');
    expect(roomOf(join(repoRoot, 'generator/resources/battle/type.ts'))).toBe('generator/resources');
    expect(roomOf(join(repoRoot, 'edge/query/sort.ts'))).toBe('edge/query');
    expect(roomOf(join(repoRoot, 'edge/as-of/rules.ts'))).toBe('edge/as-of');
    expect(roomOf(join(repoRoot, 'edge/handler.ts'))).toBe('edge');
  });

  it('has no two rooms that import each other', () => {
    const arrows = roomArrows();
    expect(arrows.size).toBeGreaterThan(10);
    const mutual: string[] = [];
    for (const [from, out] of arrows) {
      for (const [to, example] of out) {
        if (from < to && arrows.get(to)?.has(from)) mutual.push(`${from} ⇄ ${to}: ${example}; ${arrows.get(to)!.get(from)}`);
      }
    }
    expect(mutual).toEqual([]);
  });

  it('keeps the request logic apart: edge/ imports nothing of generator/ or netlify/', () => {
    const arrows = roomArrows();
    const out = ['edge', 'edge/query', 'edge/as-of'].flatMap((room) => [...(arrows.get(room) ?? new Map<string, string>())]).filter(([to]) => !to.startsWith('edge'));
    expect(out).toEqual([]);
  });
});
