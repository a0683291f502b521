/**
 * The kept-facts format: what a build keeps of a kind's query facts (queryFactsFile), so that
 * the next update can make the kind's query indexes without making again the records it did
 * not touch.
 */
import { join } from 'node:path';
import type { QueryShape } from '../../contract/layout.ts';
import { BuildError } from '../build-error.ts';
import { readJsonIfThere } from '../files/folders.ts';
import { queryFactsFile, type QueryFacts } from './query-facts.ts';
import type { RecordFacts } from './query-index.ts';

const FORMAT = 'query-facts/1';

interface KeptFacts {
  format: typeof FORMAT;
  kind: string;
  /** the declaration the facts were made for: another one makes them unusable */
  shape: QueryShape;
  records: Array<[id: number, facts: QueryFacts]>;
}

/** The kept-facts file of a kind: its path and body. */
export function keptFactsFile(kind: string, shape: QueryShape, all: readonly RecordFacts[]): [path: string, body: string] {
  const kept: KeptFacts = { format: FORMAT, kind, shape, records: all.map((r) => [r.id, r.facts]) };
  return [queryFactsFile(kind), JSON.stringify(kept)];
}

/** The facts a served build kept for a kind, by id; a BuildError when they are missing or were made for another declaration. */
export function readKeptFacts(dir: string, kind: string, shape: QueryShape): Map<number, QueryFacts> {
  const path = join(dir, queryFactsFile(kind));
  const kept = readJsonIfThere<KeptFacts>(path, (error) => {
    throw new BuildError([`${path} cannot be parsed (${error.message}); run a full build (npm run build -- --force)`], { cause: error });
  });
  if (kept === null) throw new BuildError([`${dir} has no query facts of ${kind}; run a full build (npm run build -- --force)`]);
  if (kept.format !== FORMAT || JSON.stringify(kept.shape) !== JSON.stringify(shape)) {
    throw new BuildError([`${dir} holds query facts of ${kind} made for other declarations; run a full build (npm run build -- --force)`]);
  }
  return new Map(kept.records);
}
