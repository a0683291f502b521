/**
 * The kept-facts format: what a build keeps of a kind's query facts (queryFactsFile), so that
 * the next update can make the kind's query indexes without making again the records it did
 * not touch.
 */
import { join } from 'node:path';
import type { QueryShape } from '../../contract/layout.ts';
import { BuildError } from '../build-error.ts';
import { parsedJson, readIfThere } from '../files/folders.ts';
import { queryFactsFile, type QueryFacts } from './query-facts.ts';
import { jsonText } from './json-text.ts';
import type { RecordFacts } from './query-index.ts';

const FORMAT = 'query-facts/1';

interface KeptFacts {
  format: typeof FORMAT;
  kind: string;
  /** the declaration the facts were made for: another one makes them unusable */
  shape: QueryShape;
  records: Array<[id: number, facts: QueryFacts]>;
}

/**
 * Per kind, the kept-facts file this process last made or read, with its facts: the dev loop's
 * planner reads a kind's file back on each update that writes the kind, and parsing a large one
 * (the creature's, megabytes) costs tens of milliseconds where comparing its bytes costs one.
 */
const lastKept = new Map<string, { bytes: Buffer; shape: string; facts: ReadonlyMap<number, QueryFacts> }>();

/**
 * Each record's `[id, facts]` as UTF-8, by its facts (never changed once made): an update writes
 * a kind's whole file again, and encoding the text of the records it did not make again (the
 * creature's and the entry's: megabytes) cost more than copying their bytes.
 */
const recordBytes = new WeakMap<QueryFacts, { id: number; bytes: Buffer }>();
const bytesOf = ({ id, facts }: RecordFacts): Buffer => {
  let known = recordBytes.get(facts);
  if (known?.id !== id) recordBytes.set(facts, (known = { id, bytes: Buffer.from(`[${id},${jsonText(facts)}]`) }));
  return known.bytes;
};
const COMMA = Buffer.from(',');

/** The kept-facts file of a kind: its path and bytes (encoded once: kept here, and written). */
export function keptFactsFile(kind: string, shape: QueryShape, all: readonly RecordFacts[]): [path: string, body: Buffer] {
  // a KeptFacts object's JSON, with each record's facts' text made once (json-text.ts)
  const head = JSON.stringify({ format: FORMAT, kind, shape } satisfies Omit<KeptFacts, 'records'>);
  const parts: Buffer[] = [Buffer.from(`${head.slice(0, -1)},"records":[`)];
  all.forEach((record, i) => {
    if (i > 0) parts.push(COMMA);
    parts.push(bytesOf(record));
  });
  parts.push(Buffer.from(']}'));
  const bytes = Buffer.concat(parts);
  lastKept.set(kind, { bytes, shape: JSON.stringify(shape), facts: new Map(all.map((r) => [r.id, r.facts])) });
  return [queryFactsFile(kind), bytes];
}

/** The facts a served build kept for a kind, by id; a BuildError when they are missing or were made for another declaration. */
export function readKeptFacts(dir: string, kind: string, shape: QueryShape): ReadonlyMap<number, QueryFacts> {
  const path = join(dir, queryFactsFile(kind));
  const bytes = readIfThere(path);
  if (bytes === null) throw new BuildError([`${dir} has no query facts of ${kind}; run a full build (npm run build -- --force)`]);
  const last = lastKept.get(kind);
  if (last?.shape === JSON.stringify(shape) && bytes.equals(last.bytes)) return last.facts;
  const kept = parsedJson<KeptFacts>(bytes, (error) => {
    throw new BuildError([`${path} cannot be parsed (${error.message}); run a full build (npm run build -- --force)`], { cause: error });
  });
  if (kept?.format !== FORMAT || JSON.stringify(kept.shape) !== JSON.stringify(shape)) {
    throw new BuildError([`${dir} holds query facts of ${kind} made for other declarations; run a full build (npm run build -- --force)`]);
  }
  const facts = new Map(kept.records);
  lastKept.set(kind, { bytes, shape: JSON.stringify(shape), facts });
  return facts;
}
