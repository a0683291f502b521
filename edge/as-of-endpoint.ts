/**
 * `GET /v2/as-of/{v}/{kind}/{id or name}/`, and a creature's matchups today
 * (`/v2/creature/{id or name}/matchups/`) or as of `{v}`: answers made from today's documents
 * and the as-of facts the build wrote (edge/as-of/), the same for every request of a URL
 * within a build, so cached as any file's answer is.
 */
import { jsonAnswer, notFound, notFoundBecause } from './answers.ts';
import { BrokenBuild, type BuildFiles } from './build-files.ts';
import type { Answer } from './http.ts';
import { canonicalKey, idOfUrl, itemFile, listFile } from './layout.ts';
import { abilityAsOf, creatureAsOf, matchups, moveAsOf, typeAsOf, type AsOf } from './as-of/documents.ts';
import { asOfDocumentFile, asOfFactsFile, type CreatureAsOfDocument, type FactKind, type FactsFile, type MoveAsOfDocument } from './as-of/facts.ts';
import type { VersionGroup } from './as-of/versions.ts';
import { AsOfWorld } from './as-of/world.ts';
import { collectionAsOf } from './as-of-collection.ts';

export const AS_OF_PATH = 'as-of';
export const MATCHUPS = 'matchups';
/** The kinds answered as of a game. */
export const AS_OF_KINDS = ['creature', 'move', 'type', 'ability'] as const;
type AsOfKind = (typeof AS_OF_KINDS)[number];
export const isAsOfKind = (kind: string): kind is AsOfKind => (AS_OF_KINDS as readonly string[]).includes(kind);

const decoder = new TextDecoder();
type Doc = Record<string, unknown>;

/** A JSON file of the build, parsed; null when there is none; one that cannot be parsed is a broken build. */
async function readJson<T>(build: BuildFiles, path: string): Promise<T | null> {
  const bytes = await build.read(path);
  if (bytes === null) return null;
  try {
    return JSON.parse(decoder.decode(bytes)) as T;
  } catch (error) {
    throw new BrokenBuild(path, error instanceof Error ? error.message : String(error));
  }
}

async function readFacts<K extends FactKind>(build: BuildFiles, kind: K): Promise<FactsFile<K>> {
  const file = await readJson<FactsFile<K>>(build, asOfFactsFile(kind));
  if (file === null) throw new BrokenBuild(asOfFactsFile(kind), 'missing, though every build writes it');
  return file;
}

/** The facts of every kind, read and indexed once per build. */
function world(build: BuildFiles): Promise<AsOfWorld> {
  return build.keep('as-of-world', async () => {
    const [versionGroups, forms, creatures, moves, types, abilities, stats] = await Promise.all([
      readFacts(build, 'version-group'), readFacts(build, 'creature-form'), readFacts(build, 'creature'), readFacts(build, 'move'), readFacts(build, 'type'), readFacts(build, 'ability'), readFacts(build, 'stat'),
    ]);
    return new AsOfWorld({ versionGroups, forms, creatures, moves, types, abilities, stats });
  }) as Promise<AsOfWorld>;
}

/**
 * `rest`: the segments after `as-of`; `withQuery` reads a list's query string (the handler's
 * cap on its length) and answers with it.
 */
export async function asOf(build: BuildFiles, rest: readonly string[], withQuery: (answer: (params: URLSearchParams) => Promise<Answer>) => Promise<Answer>): Promise<Answer> {
  const [v, kind, key, sub] = rest;
  if (v === undefined || kind === undefined || rest.length > 4) return notFound();
  const facts = await world(build);
  const vg = facts.versions.resolve(v);
  if (!vg) return notFoundBecause(`no version group, version or generation is named "${v}"`);
  if (!isAsOfKind(kind)) return notFoundBecause(`"${kind}" is not answered as of a game: ${AS_OF_KINDS.join(', ')} are`);
  if (key === undefined) return withQuery((params) => collectionAsOf(build, facts, vg, v, kind, params));
  const context: AsOf = { vg, world: facts, base: build.baseUrl };
  if (sub !== undefined) return sub === MATCHUPS && kind === 'creature' ? creatureMatchups(build, key, context) : notFound();
  return itemAsOf(build, kind, canonicalKey(key), context);
}

/** `GET /v2/creature/{key}/matchups/`: as of the newest version group. */
export async function matchupsToday(build: BuildFiles, key: string): Promise<Answer> {
  const facts = await world(build);
  const vg = facts.versions.newest();
  return creatureMatchups(build, key, { vg, world: facts, base: build.baseUrl });
}

async function itemAsOf(build: BuildFiles, kind: AsOfKind, key: string, context: AsOf): Promise<Answer> {
  const today = kind === 'creature' ? null : await readJson<Doc>(build, itemFile(kind, key));
  const id = kind === 'creature' ? context.world.creatureId(key) : (today?.id as number | undefined);
  if (id === undefined || id === null) return notFound();
  if (!existed(kind, id, context)) return notFoundBecause(`${kind} "${key}" did not exist as of ${context.vg.name}`);
  if (kind === 'creature') return jsonAnswer(200, creatureAsOf(await asOfDocument<CreatureAsOfDocument>(build, 'creature', id), context));
  if (kind === 'move') return jsonAnswer(200, moveAsOf(today!, await asOfDocument<MoveAsOfDocument>(build, 'move', id), context));
  return jsonAnswer(200, kind === 'type' ? typeAsOf(today!, context) : abilityAsOf(today!, context));
}

function existed(kind: AsOfKind, id: number, { vg, world: facts }: AsOf): boolean {
  if (kind === 'creature') return facts.creatureExists(id, vg);
  if (kind === 'move') return facts.moveExists(id, vg);
  if (kind === 'type') return facts.typeExists(id, vg);
  return facts.abilityExists(id, vg);
}

async function asOfDocument<T>(build: BuildFiles, kind: 'creature' | 'move', id: number): Promise<T> {
  const doc = await readJson<T>(build, asOfDocumentFile(kind, id));
  if (doc === null) throw new BrokenBuild(asOfDocumentFile(kind, id), `missing, though ${kind} ${id} has an item`);
  return doc;
}

async function creatureMatchups(build: BuildFiles, key: string, context: AsOf): Promise<Answer> {
  const id = context.world.creatureId(canonicalKey(key));
  if (id === null) return notFound();
  if (!context.world.creatureExists(id, context.vg)) return notFoundBecause(`creature "${key}" did not exist as of ${context.vg.name}`);
  const types = await build.list('type');
  if (!types) throw new BrokenBuild(listFile('type'), 'missing, though matchups read it');
  const listed = types.results.map((entry) => idOfUrl(entry.url)!);
  return jsonAnswer(200, matchups(id, listed, context));
}

export type { VersionGroup };
