/**
 * `GET /v2/as-of/{v}/{kind}/{id or name}/`, and a creature's matchups today
 * (`/v2/creature/{id or name}/matchups/`) or as of `{v}`: answers made from today's documents
 * and the as-of facts the build wrote (contract/as-of/), the same for every request of a URL
 * within a build, so cached as any file's answer is.
 */
import { jsonAnswer, notFound, notFoundBecause } from './answers.ts';
import { BrokenBuild, readAhead, type BuildFiles } from './build-files.ts';
import type { Answer } from './http.ts';
import { canonicalKey, idOfUrl, listFile } from '../contract/layout.ts';
import { abilityAsOf, creatureAsOf, entryAsOf, matchups, moveAsOf, typeAsOf, type AsOf, type AsOfAll } from '../contract/as-of/documents.ts';
import { abilityExists, existsInGeneration } from '../contract/as-of/rules.ts';
import { Versions } from '../contract/as-of/versions.ts';
import {
  asOfDocumentFile,
  asOfFactsFile,
  asOfMoveNamesFile,
  type CreatureAsOfDocument,
  type EntryAsOfDocument,
  type FactKind,
  type FactsFile,
  type MoveAsOfDocument,
  type MoveNamesFile,
  AS_OF_KINDS,
  type AsOfKind,
} from '../contract/as-of/facts.ts';
import { AsOfWorld } from '../contract/as-of/world.ts';
import { collectionAsOf, listViewsOf } from './as-of-collection.ts';

export const AS_OF_PATH = 'as-of';
export const MATCHUPS = 'matchups';
export const isAsOfKind = (kind: string): kind is AsOfKind => (AS_OF_KINDS as readonly string[]).includes(kind);

type Doc = Record<string, unknown>;

const readFacts = <K extends FactKind>(build: BuildFiles, kind: K): Promise<FactsFile<K>> => build.requiredJson<FactsFile<K>>(asOfFactsFile(kind));

/**
 * The version groups, read once per build: all an item as of a game needs besides its own
 * files (a creature's and a move's as-of documents say when each creature came).
 */
export function versionsOf(build: BuildFiles): Promise<Versions> {
  return build.keep('as-of-versions', async () => new Versions(await readFacts(build, 'version-group'))) as Promise<Versions>;
}

/** Every move's name by id, read once per build: a creature's as-of document and the facts name moves by id only. */
function moveNamesOf(build: BuildFiles): Promise<Map<number, string>> {
  return build.keep('as-of-move-names', async () => new Map((await build.requiredJson<MoveNamesFile>(asOfMoveNamesFile)).records)) as Promise<
    Map<number, string>
  >;
}

/** The facts of every creature, move, type, ability and stat, read once per build: what answers over all of them read. */
export function worldOf(build: BuildFiles): Promise<AsOfWorld> {
  return build.keep('as-of-world', async () => {
    const [versions, creatures, moves, types, abilities, stats] = await Promise.all([
      versionsOf(build),
      readFacts(build, 'creature'),
      readFacts(build, 'move'),
      readFacts(build, 'type'),
      readFacts(build, 'ability'),
      readFacts(build, 'stat'),
    ]);
    return new AsOfWorld(versions, { creatures, moves, types, abilities, stats });
  }) as Promise<AsOfWorld>;
}

/**
 * `rest`: the segments after `as-of`; `withQuery` reads a list's query string (the handler's
 * cap on its length) and answers with it.
 */
export async function asOf(
  build: BuildFiles,
  rest: readonly string[],
  withQuery: (answer: (params: URLSearchParams) => Promise<Answer>) => Promise<Answer>,
): Promise<Answer> {
  const [v, kind, key, sub] = rest;
  if (v === undefined || kind === undefined || rest.length > 4) return notFound();
  // the reads every answer over all creatures will wait on start now, beside the version groups'
  if (sub !== undefined) startMatchupsReads(build);
  else if (key !== undefined && (kind === 'type' || kind === 'ability')) readAhead(worldOf(build));
  if (sub === undefined && key !== undefined && (kind === 'type' || kind === 'creature')) readAhead(moveNamesOf(build));
  if (key === undefined && isAsOfKind(kind)) readAhead(listViewsOf(build, kind));
  // an item's own file too: at the edge each read is a request, and this one needs no other
  const item = key !== undefined && sub === undefined && isAsOfKind(kind) ? itemRead(build, kind, canonicalKey(key)) : null;
  if (item) readAhead(item);
  const versions = await versionsOf(build);
  const vg = versions.resolve(v);
  if (!vg) return notFoundBecause(`no version group, version or generation is named "${v}"`);
  if (!isAsOfKind(kind)) return notFoundBecause(`"${kind}" is not answered as of a game: ${AS_OF_KINDS.join(', ')} are`);
  if (key === undefined) return withQuery(async (params) => collectionAsOf(build, vg, v, kind, params));
  const context: AsOf = { vg, versions, base: build.baseUrl };
  if (sub !== undefined)
    return sub === MATCHUPS && kind === 'creature' ? creatureMatchups(build, key, { ...context, world: await worldOf(build) }) : notFound();
  return itemAsOf(build, kind, canonicalKey(key), context, item!, v);
}

/** What an item as of a game is made from: a creature's as-of document, or the item today and, for a move or an entry, its as-of document; null where there is none. */
interface ItemFiles {
  doc: Doc | null;
  moveDocument: MoveAsOfDocument | null;
  entryDocument: EntryAsOfDocument | null;
}

/** An item's files, read side by side: each is named by the key (names are hard links, as items' are), so none waits on another. */
async function itemRead(build: BuildFiles, kind: AsOfKind, key: string): Promise<ItemFiles> {
  if (kind === 'creature') return { doc: await build.json<Doc>(asOfDocumentFile('creature', key)), moveDocument: null, entryDocument: null };
  const [doc, moveDocument, entryDocument] = await Promise.all([
    build.itemJson<Doc>(kind, key),
    kind === 'move' ? build.json<MoveAsOfDocument>(asOfDocumentFile('move', key)) : null,
    kind === 'entry' ? build.json<EntryAsOfDocument>(asOfDocumentFile('entry', key)) : null,
  ]);
  return { doc, moveDocument, entryDocument };
}

/** `GET /v2/creature/{key}/matchups/`: as of the newest version group. */
export async function matchupsToday(build: BuildFiles, key: string): Promise<Answer> {
  startMatchupsReads(build);
  const world = await worldOf(build);
  return creatureMatchups(build, key, { vg: world.versions.newest(), versions: world.versions, world, base: build.baseUrl });
}

async function itemAsOf(build: BuildFiles, kind: AsOfKind, key: string, context: AsOf, read: Promise<ItemFiles>, v: string): Promise<Answer> {
  const { doc: today, moveDocument, entryDocument } = await read;
  if (kind === 'creature') return creatureItem(build, key, context, today as CreatureAsOfDocument | null);
  if (today === null) return notFound();
  if (kind === 'entry') return entryItem(key, today, entryDocument, context, v);
  const g = context.vg.generation;
  const generation = idOfUrl((today.generation as { url: string }).url) ?? Infinity;
  const existed = kind === 'ability' ? abilityExists(generation, g) : existsInGeneration(generation, g);
  if (!existed) return notFoundBecause(`${kind} "${key}" did not exist as of ${context.vg.name}`);
  if (kind === 'move') {
    if (moveDocument === null) throw new BrokenBuild(asOfDocumentFile('move', key), `missing, though move ${key} has an item`);
    return jsonAnswer(200, moveAsOf(today, moveDocument, context));
  }
  const all: AsOfAll = { ...context, world: await worldOf(build) };
  if (kind === 'ability') return jsonAnswer(200, abilityAsOf(today, all));
  const names = await moveNamesOf(build);
  return jsonAnswer(
    200,
    typeAsOf(today, all, (id) => names.get(id)),
  );
}

/** A creature as of a game: its as-of document (by id or name) says all but its moves' names, when it came included. */
async function creatureItem(build: BuildFiles, key: string, context: AsOf, doc: CreatureAsOfDocument | null): Promise<Answer> {
  const names = moveNamesOf(build);
  if (doc === null) return notFound();
  if (!context.versions.cameBy(doc.born, context.vg, `creature ${key}`)) return notFoundBecause(`creature "${key}" did not exist as of ${context.vg.name}`);
  const byId = await names;
  return jsonAnswer(
    200,
    creatureAsOf(doc, context, (id) => byId.get(id)),
  );
}

/** An entry as of a game: today's entry and its as-of document (by id or name), which says when its creature came. */
function entryItem(key: string, today: Doc, doc: EntryAsOfDocument | null, context: AsOf, v: string): Answer {
  if (doc === null) throw new BrokenBuild(asOfDocumentFile('entry', key), `missing, though entry ${key} has an item`);
  if (!context.versions.cameBy(doc.born, context.vg, `entry ${key}`)) return notFoundBecause(`entry "${key}" did not exist as of ${context.vg.name}`);
  return jsonAnswer(200, entryAsOf(today, doc, context, context.versions.versionsNamed(v, context.vg)));
}

/** What matchups read, started side by side: the facts of every kind and the type list (its order is the answer's). */
function startMatchupsReads(build: BuildFiles): void {
  readAhead(worldOf(build));
  readAhead(build.list('type'));
}

async function creatureMatchups(build: BuildFiles, key: string, context: AsOfAll): Promise<Answer> {
  const id = context.world.creatureId(canonicalKey(key));
  if (id === null) return notFound();
  if (!context.world.creatureExists(id, context.vg)) return notFoundBecause(`creature "${key}" did not exist as of ${context.vg.name}`);
  const types = await build.list('type');
  if (!types) throw new BrokenBuild(listFile('type'), 'missing, though matchups read it');
  const listed = types.results.map((entry) => idOfUrl(entry.url)!);
  return jsonAnswer(200, matchups(id, listed, context));
}
