/** What the tests read off the repository and the build, written once. */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { repoRoot } from '../../generator/config.ts';

/** Every file under `dir` by its relative path, with a hash of its bytes. */
export function fileHashes(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const full = join(d, e.name);
      if (e.isDirectory()) walk(full);
      else out.set(relative(dir, full), createHash('sha256').update(readFileSync(full)).digest('hex'));
    }
  };
  walk(dir);
  return out;
}

/** An `[[edge_functions]]` entry of netlify.toml. */
export interface EdgeDeclaration {
  function: string;
  path: string | string[];
  excludedPath?: string | string[];
  cache?: string;
}

/** The parts of netlify.toml the tests look at (its redirects are read by Netlify's own parser). */
export interface NetlifyConfig {
  build?: { publish?: string };
  edge_functions?: EdgeDeclaration[];
  headers?: { for: string; values: Record<string, string> }[];
}

export const netlifyTomlPath = join(repoRoot, 'netlify.toml');

export function readNetlifyConfig(): NetlifyConfig {
  const toml = createRequire(import.meta.url)('@iarna/toml') as { parse(text: string): NetlifyConfig };
  return toml.parse(readFileSync(netlifyTomlPath, 'utf8'));
}
