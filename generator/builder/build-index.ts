/**
 * What a build keeps for the next one to reuse (build-index.json, not served): each kind's
 * result and where the gzip members of every bulk file and of the archive lie (archive.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildIndexFile } from '../../edge/layout.ts';
import type { GzipMember } from './archive.ts';

/** What a kind's writing leaves for the rest of the build (and, in the build index, for the next one). */
export interface KindResult {
  kind: string;
  count: number;
  subresources: string[];
  idOnly: boolean;
  /** the members of the kind's bulk file, keyed by chunk */
  bulk: GzipMember[];
}

/** The kinds in the order a build serves them (its root document's, meta's and the finish's order): by name. */
export const inServedOrder = <T extends Pick<KindResult, 'kind'>>(kinds: readonly T[]): T[] => [...kinds].sort((a, b) => (a.kind < b.kind ? -1 : 1));

export interface BuildIndex {
  kinds: KindResult[];
  archive: { file: string; members: GzipMember[] };
}

export function readBuildIndex(outDir: string): BuildIndex | null {
  try {
    return JSON.parse(readFileSync(join(outDir, buildIndexFile), 'utf8')) as BuildIndex;
  } catch {
    return null;
  }
}
