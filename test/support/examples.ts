/**
 * The upstream's real responses, the project's own fixtures in test/fixtures/examples/ (and
 * examples-next/), and how to compare ours with them: deep equality, arrays in order, reported as
 * the paths where the two differ.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pinnedCommit, repoRoot } from '../../generator/config.ts';
import { itemFile, rootFile, subresourceFile } from '../../contract/layout.ts';

/**
 * The upstream's responses at its commit 0d8fe2bf (the team's first pin), committed as fixtures
 * so that a clone checks its build against them without the team's ../shared.
 */
export const examplesDir = join(repoRoot, 'test/fixtures/examples');
/** The upstream's responses at its next commit: only those that differ from examples/ (its README names the commit). */
export const examplesNextDir = join(repoRoot, 'test/fixtures/examples-next');

/** The commit examples-next/ was answered at, as its README names it; null when there is none. */
export function examplesNextCommit(dir = examplesNextDir): string | null {
  try {
    return /commit\s+([0-9a-f]{40})/.exec(readFileSync(join(dir, 'README.md'), 'utf8'))?.[1] ?? null;
  } catch {
    return null;
  }
}

/**
 * The examples the build must equal at the pinned commit. Pinned at the next commit, a response
 * examples-next/ holds replaces the same path's in examples/ (and adds those examples/ lacks);
 * every other response is taken from examples/. That is right because examples-next/ is the set
 * of responses the upstream changed between the two commits (data or code), so one it does not
 * hold answers the same at both: the examples test then shows whether an old example still holds
 * under the new rules rather than assuming it.
 */
export function pinnedExamples(commit = pinnedCommit()): Example[] {
  const old = listExamples(examplesDir);
  if (!commit || commit !== examplesNextCommit() || !existsSync(examplesNextDir)) return old;
  const next = new Map(listExamples(examplesNextDir).map((e) => [e.name, e]));
  const merged = old.map((e) => next.get(e.name) ?? e);
  for (const e of next.values()) if (!old.some((o) => o.name === e.name)) merged.push(e);
  return merged.sort((a, b) => a.name.localeCompare(b.name));
}

export interface Example {
  /** e.g. `creature/25`, `creature/25/encounters`, `_root` */
  name: string;
  kind: string;
  file: string;
  /** the dist/ path our build writes the same response to */
  distPath: string;
}

export function listExamples(dir = examplesDir): Example[] {
  const out: Example[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d).sort()) {
      const full = join(d, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (entry.endsWith('.json')) {
        const name = relative(dir, full).slice(0, -'.json'.length);
        const parts = name.split('/');
        const [kind = '', key = '', sub] = parts;
        const distPath = name === '_root' ? rootFile : sub ? subresourceFile(kind, key, sub) : itemFile(kind, key);
        out.push({ name, kind, file: full, distPath });
      }
    }
  };
  walk(dir);
  return out;
}

export function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8'));
}

const show = (v: unknown) => {
  const s = JSON.stringify(v);
  return s === undefined ? 'undefined' : s.length > 160 ? `${s.slice(0, 157)}...` : s;
};

/** Where `actual` differs from `expected`, as `path: expected … actual …` lines (at most `limit`). */
export function differences(expected: unknown, actual: unknown, limit = 20, path = ''): string[] {
  const out: string[] = [];
  const visit = (e: unknown, a: unknown, p: string) => {
    if (out.length >= limit) return;
    if (Array.isArray(e) && Array.isArray(a)) {
      if (e.length !== a.length) out.push(`${p || '/'}: expected ${e.length} entries, found ${a.length}`);
      for (let i = 0; i < Math.min(e.length, a.length); i++) visit(e[i], a[i], `${p}/${i}`);
      return;
    }
    if (e && a && typeof e === 'object' && typeof a === 'object' && !Array.isArray(e) && !Array.isArray(a)) {
      const eo = e as Record<string, unknown>;
      const ao = a as Record<string, unknown>;
      for (const k of Object.keys(eo)) {
        if (!(k in ao)) out.push(`${p}/${k}: missing (expected ${show(eo[k])})`);
        else visit(eo[k], ao[k], `${p}/${k}`);
      }
      for (const k of Object.keys(ao)) if (!(k in eo)) out.push(`${p}/${k}: not expected (found ${show(ao[k])})`);
      return;
    }
    if (e !== a) out.push(`${p || '/'}: expected ${show(e)}, found ${show(a)}`);
  };
  visit(expected, actual, path);
  return out.slice(0, limit);
}
