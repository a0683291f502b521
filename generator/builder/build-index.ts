/**
 * What a build keeps for the next one to reuse (build-index.json, not served): each kind's
 * result and where the gzip members of every bulk file and of the archive lie (archive.ts).
 */
import { join } from 'node:path';
import { buildIndexFile } from '../../contract/layout.ts';
import { readJsonIfThere } from '../files/folders.ts';
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

/**
 * The index of the build in `outDir`; null when it has none or one cut short: it only says where
 * members lie, so without it they are made again (a build) or read whole (the change report).
 */
export function readBuildIndex(outDir: string): BuildIndex | null {
  return readJsonIfThere<BuildIndex>(join(outDir, buildIndexFile), () => null);
}
