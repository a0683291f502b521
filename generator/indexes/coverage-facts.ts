/**
 * The coverage facts a build keeps of each covered kind (beside the build index, outside v2/:
 * not served, not archived): what the coverage map is made from, and what the next update reads
 * back for the records it does not make again.
 */
import { join } from 'node:path';
import { coverageFile } from '../../contract/layout.ts';
import type { CoverageMap } from '../../schemas/output/coverage.ts';
import { BuildError } from '../build-error.ts';
import { readJsonIfThere } from '../files/folders.ts';
import { COVERAGE_KINDS, coverageMap, type CoverageFacts } from './coverage.ts';
import { asOfDisagreements, readWorld } from './as-of-coverage.ts';

const FORMAT = 'coverage-facts/1';

export const coverageFactsFile = (kind: string): string => `coverage-facts/${kind}.json`;

interface KeptCoverage {
  format: typeof FORMAT;
  kind: string;
  /** in id order */
  records: Array<[id: number, facts: CoverageFacts]>;
}

export function coverageFactsBody(kind: string, records: Array<[number, CoverageFacts]>): string {
  const kept: KeptCoverage = { format: FORMAT, kind, records };
  return JSON.stringify(kept);
}

function readKept(dir: string, kind: string): KeptCoverage {
  const path = join(dir, coverageFactsFile(kind));
  const kept = readJsonIfThere<KeptCoverage>(path, (error) => {
    throw new BuildError([`${path} cannot be parsed (${error.message}); run a full build (npm run build -- --force)`], { cause: error });
  });
  if (kept === null) throw new BuildError([`${dir} has no coverage facts of ${kind}; run a full build (npm run build -- --force)`]);
  if (kept.format !== FORMAT) throw new BuildError([`${dir} holds coverage facts of ${kind} in another format; run a full build (npm run build -- --force)`]);
  return kept;
}

/** The facts a served build kept for a kind, by id. */
export const readCoverageFacts = (dir: string, kind: string): Map<number, CoverageFacts> => new Map(readKept(dir, kind).records);

/** The covered kinds among `kinds`, in the map's order. */
export const coveredKinds = (kinds: readonly string[]): string[] => COVERAGE_KINDS.map((c) => c.kind).filter((k) => kinds.includes(k));

/** The map of the build under `root`, from the kept facts of the covered kinds among `kinds` and the as-of facts (as-of-coverage.ts). */
export function makeCoverage(root: string, kinds: readonly string[]): CoverageMap {
  const world = readWorld(root);
  return coverageMap(
    new Map(coveredKinds(kinds).map((kind) => [kind, readKept(root, kind).records.map(([, facts]) => facts)])),
    world ? asOfDisagreements(world) : [],
  );
}

/** The map a build under `root` holds already, or null: none, or one cut short, which is then made again from the kept facts. */
export function readCoverage(root: string): CoverageMap | null {
  return readJsonIfThere<CoverageMap>(join(root, coverageFile), () => null);
}
