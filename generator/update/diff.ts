/**
 * The change report's items: two builds of dist/ in (the new one possibly not finished yet: its
 * kinds written, its once-made files not), what was added, removed and changed out, kind by
 * kind, with the field paths that differ. It reads each kind's bulk file (one full
 * response a line, `downloads/{kind}.ndjson.gz`, a gzip member per 16 ids) rather than the item
 * files, and unpacks only the members whose bytes differ; a kind's subresource files
 * (`v2/_sub/{kind}/{sub}/{id}.json`) are parsed only where their bytes differ.
 *
 *   diffBuilds(finishedSide(oldDist), unfinishedSide(dir, kinds)) → { kinds, summary }   (no values, names and paths only)
 *
 * A file that is there but cannot be read, unpacked or parsed stops the report with an
 * UnreadableInput naming it: it is never "no change". Missing files mean what they say (see each).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { bulkFile, itemFile, rootFile } from '../../contract/layout.ts';
import type { GzipMember } from '../builder/archive.ts';
import { readIfThere, readJsonIfThere } from '../files/folders.ts';
import { inServedOrder, readBuildIndex, type KindResult } from '../builder/build-index.ts';
import type { ChangeReport, KindChanges } from '../../schemas/output/changes.ts';

type Json = unknown;
type Item = Record<string, Json>;

const isObject = (v: Json): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An input of the change report that is there but cannot be unpacked or parsed. */
export class UnreadableInput extends Error {
  readonly path: string;
  constructor(path: string, reason: string, options?: ErrorOptions) {
    super(`the change report cannot read ${path}: ${reason}`, options);
    this.path = path;
    this.name = 'UnreadableInput';
  }
}

/** zlib's failures carry a `Z_…` code (a truncated member: Z_BUF_ERROR; bad bytes: Z_DATA_ERROR). */
const isZlibError = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^Z_/.test(code);
};

/** `read()` of a file's contents; a parse or unpack failure is rethrown naming the file. */
function readingFile<T>(path: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof SyntaxError || isZlibError(error)) throw new UnreadableInput(path, (error as Error).message, { cause: error });
    throw error;
  }
}

const parseJsonFile = (path: string, text: string): Json => readingFile(path, () => JSON.parse(text) as Json);

/**
 * Where two responses differ, as paths (`forms[0].trigger_conditions`): the deepest object key
 * or array index at which they part, with three things kept whole, each one path: an array
 * whose length changed or whose entries only moved (a new order), an object all of whose
 * fields changed (a link to another item), and a value whose type changed. A key present on one
 * side only is the key's path. The response itself is the empty path.
 */
export function fieldPaths(a: Json, b: Json, path = '', out: string[] = []): string[] {
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length || sameEntries(a, b)) out.push(path);
    else a.forEach((v, i) => fieldPaths(v, b[i], `${path}[${i}]`, out));
  } else if (isObject(a) && isObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    const inner: string[] = [];
    for (const key of keys) {
      const at = path ? `${path}.${key}` : key;
      if (!(key in a) || !(key in b)) inner.push(at);
      else fieldPaths(a[key], b[key], at, inner);
    }
    const whole =
      keys.length > 1 &&
      path !== '' &&
      keys.every((key) => inner.some((p) => p === `${path}.${key}` || p.startsWith(`${path}.${key}.`) || p.startsWith(`${path}.${key}[`)));
    out.push(...(whole ? [path] : inner));
  } else if (a !== b) out.push(path);
  return out;
}

/** Two arrays of the same entries in another order (and not equal). */
function sameEntries(a: readonly Json[], b: readonly Json[]): boolean {
  const left = new Map<string, number>();
  for (const v of a) left.set(JSON.stringify(v), (left.get(JSON.stringify(v)) ?? 0) + 1);
  for (const v of b) {
    const key = JSON.stringify(v);
    const n = left.get(key) ?? 0;
    if (!n) return false;
    left.set(key, n - 1);
  }
  return JSON.stringify(a) !== JSON.stringify(b);
}

/**
 * What the diff reads of one build: its folder, the kinds it serves in the API's order, and
 * where each kind's bulk gzip members lie (a kind without: its bulk file read whole).
 */
export interface BuildSide {
  dir: string;
  kinds: readonly string[];
  bulk: ReadonlyMap<string, readonly GzipMember[]>;
}

/** A finished build (dist/ as served): its kinds from its root document, its members from its build index. */
export function finishedSide(dist: string): BuildSide {
  const index = readBuildIndex(dist);
  return { dir: dist, kinds: kindsOf(dist), bulk: new Map((index?.kinds ?? []).map((k) => [k.kind, k.bulk])) };
}

/**
 * A build whose once-made files are not written yet (runBuild's `beforeFinish`): its kinds and
 * members from the kinds' results, in the order its root document will have them.
 */
export function unfinishedSide(dir: string, kinds: readonly Pick<KindResult, 'kind' | 'bulk'>[]): BuildSide {
  return { dir, kinds: inServedOrder(kinds).map((k) => k.kind), bulk: new Map(kinds.map((k) => [k.kind, k.bulk])) };
}

/**
 * The kinds a build serves, in the API's order (its root document's keys). None when it has no
 * root document: a build not finished yet has none (its kinds are compared by their bulk files
 * all the same; only kinds gone are read from here).
 */
function kindsOf(dist: string): string[] {
  const path = join(dist, rootFile);
  const root = readJsonIfThere<Record<string, string>>(path, (error) => {
    throw new UnreadableInput(path, error.message, { cause: error });
  });
  return root === null ? [] : Object.keys(root).filter((k) => k !== 'meta');
}

/**
 * A kind's bulk file by chunk: each chunk's gzip member (its compressed bytes), where the side
 * places them; the whole file as one when it does not. A build compresses a chunk the same way
 * every time, so equal bytes are equal items and need not be read.
 */
function bulkMembers(side: BuildSide, kind: string): Map<string, Buffer> {
  const path = join(side.dir, bulkFile(kind));
  // a kind this build does not have: none of its items, so all of them added or removed
  const bytes = readIfThere(path);
  if (bytes === null) return new Map();
  const members = side.bulk.get(kind);
  if (!members) return new Map([['whole', bytes]]);
  return new Map(members.map((m) => [m.key, bytes.subarray(m.offset, m.offset + m.length)]));
}

/** The items of some gzip members of the bulk file at `path`: id → the response's JSON text. */
function itemsOf(path: string, members: Iterable<Buffer>): Map<number, string> {
  const items = new Map<number, string>();
  for (const member of members) {
    for (const line of readingFile(path, () => gunzipSync(member))
      .toString('utf8')
      .split('\n')) {
      if (!line) continue;
      const id = /^\{"id":(-?\d+)/.exec(line)?.[1] ?? String((parseJsonFile(path, line) as Item).id);
      items.set(Number(id), line);
    }
  }
  return items;
}

/** The items of the chunks whose bytes differ between two builds (both sides). */
function differingItems(old: BuildSide, next: BuildSide, kind: string): [Map<number, string>, Map<number, string>] {
  const before = bulkMembers(old, kind);
  const after = bulkMembers(next, kind);
  const keys = [...new Set([...before.keys(), ...after.keys()])].filter((key) => !(before.get(key)?.equals(after.get(key) ?? Buffer.alloc(0)) ?? false));
  const pick = (members: Map<string, Buffer>) => keys.flatMap((key) => (members.has(key) ? [members.get(key)!] : []));
  return [itemsOf(join(old.dir, bulkFile(kind)), pick(before)), itemsOf(join(next.dir, bulkFile(kind)), pick(after))];
}

/** The name in an item's JSON text, from the file at `path`; null when it has none. */
const nameOf = (path: string, text: string): string | null => {
  const name = (parseJsonFile(path, text) as Item).name;
  return typeof name === 'string' ? name : null;
};

/** An item's name from its document; null when it has none (or no document: an item whose subresource alone is left). */
function itemName(dir: string, kind: string, id: number): string | null {
  const path = join(dir, itemFile(kind, id));
  const document = readIfThere(path);
  return document === null ? null : nameOf(path, document.toString('utf8'));
}

/** The subresources of a kind a build has (`encounters`…), each with its files by item id; none when the kind has no folder of them. */
function subresources(dist: string, kind: string): Map<string, Set<string>> {
  const dir = join(dist, 'v2/_sub', kind);
  const out = new Map<string, Set<string>>();
  if (!existsSync(dir)) return out;
  for (const sub of readdirSync(dir)) out.set(sub, new Set(readdirSync(join(dir, sub))));
  return out;
}

const ID_FILE = /^-?\d+\.json$/;

/** The changed paths of a kind's subresources, by item id, prefixed `sub/`. */
function subresourcePaths(oldDist: string, newDist: string, kind: string): Map<number, string[]> {
  const out = new Map<number, string[]>();
  const before = subresources(oldDist, kind);
  const after = subresources(newDist, kind);
  for (const sub of new Set([...before.keys(), ...after.keys()])) {
    const files = new Set([...(before.get(sub) ?? []), ...(after.get(sub) ?? [])]);
    for (const file of files) {
      // by id only: the files by name are hard links to them
      if (!ID_FILE.test(file)) continue;
      const [pathA, pathB] = [join(oldDist, 'v2/_sub', kind, sub, file), join(newDist, 'v2/_sub', kind, sub, file)];
      // missing on one side: the item gained or lost the subresource
      const [a, b] = [readIfThere(pathA), readIfThere(pathB)];
      // bytes first: nearly every file is equal, and only a differing one is decoded and parsed
      if (a !== null && b !== null && a.equals(b)) continue;
      const paths =
        a === null || b === null
          ? [`${sub}/`]
          : fieldPaths(parseJsonFile(pathA, a.toString('utf8')), parseJsonFile(pathB, b.toString('utf8'))).map((p) => `${sub}/${p}`);
      const id = Number(file.replace(/\.json$/, ''));
      out.set(id, [...(out.get(id) ?? []), ...paths]);
    }
  }
  return out;
}

/** One kind's changes, or null when it has none. */
export function diffKind(old: BuildSide, next: BuildSide, kind: string): KindChanges | null {
  const [before, after] = differingItems(old, next, kind);
  const subs = subresourcePaths(old.dir, next.dir, kind);
  const [oldFile, newFile] = [join(old.dir, bulkFile(kind)), join(next.dir, bulkFile(kind))];
  const changes: KindChanges = { added: [], removed: [], changed: [] };
  for (const [id, text] of after) if (!before.has(id)) changes.added.push({ id, name: nameOf(newFile, text) });
  for (const [id, text] of before) if (!after.has(id)) changes.removed.push({ id, name: nameOf(oldFile, text) });
  for (const [id, text] of after) {
    const was = before.get(id);
    if (was === undefined) continue;
    const paths = [...(was === text ? [] : fieldPaths(parseJsonFile(oldFile, was), parseJsonFile(newFile, text))), ...(subs.get(id) ?? [])];
    if (paths.length) changes.changed.push({ id, name: nameOf(newFile, text), paths });
  }
  // an item whose document is in a chunk that did not change, and whose subresource did (new encounters alone)
  for (const [id, paths] of subs) {
    if (after.has(id) || before.has(id)) continue;
    changes.changed.push({ id, name: itemName(next.dir, kind, id), paths });
  }
  for (const list of [changes.added, changes.removed, changes.changed]) list.sort((x, y) => x.id - y.id);
  return changes.added.length + changes.removed.length + changes.changed.length ? changes : null;
}

/** Every kind's changes between two builds, in the new build's kind order (kinds gone at the end). */
export function diffBuilds(old: BuildSide, next: BuildSide): Pick<ChangeReport, 'kinds' | 'summary'> {
  return new KindByKindDiff(old).result(next);
}

/**
 * A comparison with one build made kind by kind, as the other build's kinds are written (runBuild's
 * `kindsWritten`): the kinds compared early are not compared again at the end.
 */
export class KindByKindDiff {
  private readonly known = new Map<string, KindChanges | null>();
  /** how long `add` took, all calls together */
  earlySeconds = 0;

  private readonly old: BuildSide;
  constructor(old: BuildSide) {
    this.old = old;
  }

  /** Compares the kinds written so far (their bulk members from the kinds' results). */
  add(dir: string, kinds: readonly Pick<KindResult, 'kind' | 'bulk'>[]): void {
    const started = performance.now();
    const next = unfinishedSide(dir, kinds);
    for (const kind of next.kinds) this.known.set(kind, diffKind(this.old, next, kind));
    this.earlySeconds += (performance.now() - started) / 1000;
  }

  /** Every kind's changes against `next`, comparing those not compared yet. */
  result(next: BuildSide): Pick<ChangeReport, 'kinds' | 'summary'> {
    const kinds: Record<string, KindChanges> = {};
    const summary = { added: 0, removed: 0, changed: 0 };
    for (const kind of new Set([...next.kinds, ...this.old.kinds])) {
      const changes = this.known.has(kind) ? this.known.get(kind)! : diffKind(this.old, next, kind);
      if (!changes) continue;
      kinds[kind] = changes;
      summary.added += changes.added.length;
      summary.removed += changes.removed.length;
      summary.changed += changes.changed.length;
    }
    return { kinds, summary };
  }
}
