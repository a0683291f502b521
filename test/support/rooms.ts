/**
 * The rooms of the house as the code has them (ARCHITECTURE.md, "The rooms"): which room a file
 * lives in, and which rooms each room imports, read from the source's own import lines (type
 * imports included).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { repoRoot } from '../../generator/config.ts';

/** The folders whose files are rooms' files. */
export const SOURCE_ROOTS = ['generator', 'contract', 'edge', 'netlify', 'schemas', 'site'];

/** Every file below `dir`, at any depth. */
export const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));

/** The code files below `dir`: TypeScript and JavaScript. */
export const sourceFiles = (dir: string): string[] => filesUnder(dir).filter((file) => /\.(ts|mjs|js)$/.test(file));

/** The room a file of the repository lives in: a folder of generator/ (a file directly under it is a room of its own), edge/ or edge/query/, or a top folder (contract/ with its folders, netlify/, schemas/, site/). */
export function roomOf(file: string): string {
  const parts = relative(repoRoot, file).split('/');
  if (parts[0] === 'generator') return parts.length === 2 ? parts.join('/') : `generator/${parts[1]}`;
  if (parts[0] === 'edge') return parts[1] === 'query' && parts.length > 2 ? 'edge/query' : 'edge';
  return parts[0]!;
}

/** The files a source file imports, resolved (static imports, `export … from`, and `import()` of a literal). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]!);
  return specs.map((spec) => resolve(dirname(file), spec));
}

/** Every room of the source, each with the rooms it imports and one example file for each arrow. */
export function roomArrows(): Map<string, Map<string, string>> {
  const arrows = new Map<string, Map<string, string>>();
  for (const root of SOURCE_ROOTS) {
    for (const file of sourceFiles(join(repoRoot, root))) {
      const from = roomOf(file);
      const out = arrows.get(from) ?? new Map<string, string>();
      arrows.set(from, out);
      for (const target of importsOf(file)) {
        const to = roomOf(target);
        if (to === from || !SOURCE_ROOTS.some((r) => relative(repoRoot, target).startsWith(`${r}/`))) continue;
        if (!out.has(to)) out.set(to, `${relative(repoRoot, file)} → ${relative(repoRoot, target)}`);
      }
    }
  }
  return arrows;
}
