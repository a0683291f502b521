/**
 * The incremental planner: after an edit of the data set, redo only what the edit reaches and
 * swap the result in as a whole new dist/, byte for byte what a full build of the same inputs
 * writes.
 *
 * It keeps, between updates: the tables (re-reading only files whose bytes changed), the
 * records of every kind, and what every document read while it was made (the build context
 * reports each read: emit/context.ts `readKeys`). An update
 *   1. re-reads the changed tables and checks their keys (and the keys that point into them);
 *   2. re-assembles only the records those rows belong to, and keeps those that differ;
 *   3. finds every document (an item, or one of its subresources: each has reads of its own)
 *      that read one of them (or a reverse-index entry they are in, or a media path that
 *      appeared or went) and makes it again, with the same code as a build;
 *   4. writes a new folder of hard links to the served build, replaces what changed (items,
 *      names, lists and pages, the bulk members holding changed lines), rewrites the small
 *      files and artifacts, and lets the archive copy every gzip member none of whose files
 *      changed; then swaps it in.
 * A bad edit stops at step 1, 2 or 3 with the named error, and dist/ stays as it was.
 * Code changes are not watched: they need a restart (and `npm start` builds again).
 */
import { promises as fsp } from 'node:fs';
import { existsSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { FileMemo } from './files/file-memo.ts';
import { folderIdentity, linkTree, linkTreeAsync, swapOut } from './files/folders.ts';
import { join } from 'node:path';
import { createAjv, validatorFor } from '../schemas/ajv.ts';
import { tables as tableDeclarations, type TableKey } from '../schemas/tables.ts';
import { API_PREFIX, bulkFile, itemFile, pageFile, subresourceFile, DEFAULT_LIMIT } from '../edge/layout.ts';
import { BuildError, finishBuild, readBuildIndex, type BuildIndex, type FinishOptions } from './emit/build.ts';
import { archiveEntries, memberSource, type ArchiveEntry } from './emit/archive.ts';
import { createContext, patchIndexes, readKeys, WHOLE_RECORD, type BuildContext, type Media } from './emit/context.ts';
import { BulkWriter, bulkChunk, emitRecord, kindEmitter, kindList, listFiles, manifestPaths, nameOwners, readMedia, type KindEmitter, type KindResult, type RecordDocuments } from './emit/emit-kinds.ts';
import { checkKindRecords } from './import/import.ts';
import { checkKeys, DataError, readTable, storeOf, type TableStore } from './import/tables.ts';
import { assembleRecords, ownedTables, ownersOfRows, recordSchema, type KindSpec } from './model/define.ts';
import { allKinds, type KindName } from './model/kinds.ts';
import { allResources } from './resources/index.ts';

type AnyRow = Record<string, unknown>;
type AnyRecord = AnyRow & { id: number; name: string | null };
type Problems = ConstructorParameters<typeof DataError>[0][number][];

export interface IncrementalOptions {
  dataDir: string;
  /** the media manifests: the data set's `media/`, or the committed gzip'd copies (pipeline.ts `mediaDir`) */
  mediaDir: string;
  outDir: string;
  baseUrl: string;
  /** what the build's stamp and meta say; asked again on every update */
  finish: () => Omit<FinishOptions, 'baseUrl' | 'only'>;
}

export interface UpdateReport {
  /** tables whose bytes changed */
  tables: string[];
  /** sprite and cry paths that appeared or went */
  mediaPaths: number;
  /** records that differ, by kind */
  records: Record<string, number>;
  /** documents made again (an item or one subresource of a record), and records that went */
  documents: number;
  /** the documents made again by kind and document (`creature item`, `creature encounters`) */
  made: Record<string, number>;
  /** nothing the API serves changed, so dist/ was left as it was */
  unchanged: boolean;
  /** seconds spent in each step, in order */
  steps: Record<string, number>;
}

export interface IncrementalBuild {
  /** Brings dist/ up to date with the data set; throws DataError or BuildError and changes nothing when the edit is bad. */
  update(): Promise<UpdateReport>;
  /** Removes the folders it keeps beside dist/. */
  close(): Promise<void>;
}

/** What the planner makes again: one document of one record (`part`: emit-kinds.ts DocumentMaker). */
const unitOf = (kind: string, id: number, part: string) => `${kind} ${id} ${part}`;
const recordOf = (kind: string, id: number) => `${kind} ${id}`;

/**
 * Where two versions of a table differ: rows outside the longest common prefix and suffix
 * (compared cell by cell), old and new. One edited, added or removed row gives just that row;
 * it is a superset in general, which is all the planner needs.
 */
export function changedRows(before: readonly AnyRow[], after: readonly AnyRow[]): AnyRow[] {
  const same = (a: AnyRow, b: AnyRow) => {
    for (const k in a) if (a[k] !== b[k]) return false;
    return true;
  };
  let start = 0;
  while (start < before.length && start < after.length && same(before[start]!, after[start]!)) start++;
  let endB = before.length;
  let endA = after.length;
  while (endB > start && endA > start && same(before[endB - 1]!, after[endA - 1]!)) {
    endB--;
    endA--;
  }
  return [...before.slice(start, endB), ...after.slice(start, endA)];
}

/**
 * The values of one reverse index whose entries a record's change alters, as a reader of an
 * entry sees it: for an index of whole records, whether the record is in it (what else it reads
 * of the record is a read of its own, see emit/context.ts); for an index of child rows, which
 * rows the record has there, as they are.
 */
export function changedIndexEntries(before: AnyRow | undefined, after: AnyRow | undefined, child: string, field: string): unknown[] {
  const entriesByValue = (record: AnyRow | undefined): Map<unknown, string> => {
    const byValue = new Map<unknown, string>();
    if (!record) return byValue;
    if (child === WHOLE_RECORD) return byValue.set(record[field], '');
    for (const row of (record[child] as AnyRow[] | undefined) ?? []) byValue.set(row[field], (byValue.get(row[field]) ?? '') + JSON.stringify(row) + '\n');
    return byValue;
  };
  const was = entriesByValue(before);
  const now = entriesByValue(after);
  return [...new Set([...was.keys(), ...now.keys()])].filter((value) => was.get(value) !== now.get(value));
}

/** A TableStore that notes which tables are read (the name functions read other tables). */
function recordingStore(store: TableStore, read: Set<TableKey>): TableStore {
  return {
    rows: (t) => (read.add(t), store.rows(t)),
    byId: (t) => (read.add(t), store.byId(t)),
  };
}

/** How long after a swap the planner waits before its background file work (see prepareSpare). */
const BACKGROUND_PAUSE_MS = 1500;

interface Reads {
  /** read key → units (unitOf: kind, id and document) that made that read */
  readers: Map<string, Set<string>>;
  /** unit → its read keys, to forget them when it is made again */
  byUnit: Map<string, string[]>;
  /** `kind child field` of every reverse index read */
  indexes: Set<string>;
}

function forget(reads: Reads, unit: string): void {
  for (const key of reads.byUnit.get(unit) ?? []) reads.readers.get(key)?.delete(unit);
  reads.byUnit.delete(unit);
}
function remember(reads: Reads, unit: string, keys: Set<string>): void {
  const list = [...keys];
  reads.byUnit.set(unit, list);
  for (const key of list) {
    let units = reads.readers.get(key);
    if (!units) reads.readers.set(key, (units = new Set()));
    units.add(unit);
    if (key.startsWith('g ')) reads.indexes.add(key.split(' ', 4).slice(1).join(' '));
  }
}

/**
 * Opens the planner over `dist/`, which must hold a full build of the data set as it is now
 * (the caller builds first). Reads the tables, assembles the records and learns what every
 * document reads, by making each once in memory: about as long as a build, once per session.
 */
export function openIncremental(options: IncrementalOptions): IncrementalBuild {
  const csvDir = join(options.dataDir, 'csv');
  const mediaDir = options.mediaDir;
  const tableNames = Object.keys(tableDeclarations) as TableKey[];
  const specs = new Map<KindName, KindSpec>(allKinds.map((k) => [k.kind, k as unknown as KindSpec]));
  const ajv = createAjv();
  const emitters = new Map<KindName, KindEmitter>(allResources.map((r) => [r.kind, kindEmitter(ajv, r)]));
  const recordChecks = new Map<KindName, (record: unknown) => string | null>();
  const recordCheck = (kind: KindName) => {
    let check = recordChecks.get(kind);
    if (!check) recordChecks.set(kind, (check = validatorFor(ajv, recordSchema(specs.get(kind)!))));
    return check;
  };

  // the tables, as they are now
  // the digest of each table and manifest as the planner's state has it; the memo saves reading unchanged files
  const files = new FileMemo();
  const digests = new Map<string, string>();
  /** The file's text when its bytes differ from those the planner's state was made from, else null. */
  const look = (path: string, state: ReadonlyMap<string, string>): { digest: string; text: string | null } => {
    const found = files.look(path);
    if (found.digest === state.get(path)) return { digest: found.digest, text: null };
    return { digest: found.digest, text: (found.bytes ?? readFileSync(path)).toString('utf8') };
  };
  let tableRows = new Map<TableKey, AnyRow[]>();
  {
    const problems: Problems = [];
    for (const table of tableNames) {
      const path = join(csvDir, `${table}.csv`);
      const { digest, text } = look(path, digests);
      digests.set(path, digest);
      tableRows.set(table, readTable(table, text ?? readFileSync(path, 'utf8'), problems) as AnyRow[]);
    }
    if (problems.length) throw new DataError(problems);
  }
  let tables = storeOf(tableRows);
  let media: Media = readMedia(mediaDir);
  // a manifest is watched when it is a plain file of the data set; the committed gzip'd copies are pinned facts
  const watchedMedia = (file: string) => existsSync(join(mediaDir, file));
  for (const file of ['sprites.txt', 'cries.txt']) if (watchedMedia(file)) digests.set(join(mediaDir, file), look(join(mediaDir, file), digests).digest);

  // the records, and which tables each kind reads beyond those it owns
  let records = new Map<KindName, AnyRecord[]>();
  const otherTables = new Map<KindName, Set<TableKey>>();
  for (const [kind, spec] of specs) {
    const read = new Set<TableKey>();
    records.set(kind, assembleRecords(spec, recordingStore(tables, read)) as AnyRecord[]);
    const owned = ownedTables(spec);
    otherTables.set(kind, new Set([...read].filter((t) => !owned.has(t))));
  }

  // what every document reads
  const reads: Reads = { readers: new Map(), byUnit: new Map(), indexes: new Set() };
  let reading: Set<string> | null = null;
  /** the reverse indexes of the last context, handed to the next for the kinds an edit did not touch */
  let indexes = new Map<string, unknown>();
  const contextOver = (recs: ReadonlyMap<KindName, readonly AnyRecord[]>, m: Media, memo: Map<string, unknown>): BuildContext =>
    createContext(options.baseUrl, recs, m, (key) => reading?.add(key), memo);
  {
    const ctx = contextOver(records, media, indexes);
    for (const [kind, em] of emitters) {
      for (const record of records.get(kind) ?? []) {
        // unchecked (the served build checked every document): only the reads are wanted here
        for (const { part, emit } of em.documents) {
          // every document of a record reads the record: an edit of it makes them all again
          reading = new Set([readKeys.record(kind, record.id)]);
          try {
            emit(record, ctx);
          } catch {
            // the served build had no problems; should this record fail now, its update will say so
          }
          remember(reads, unitOf(kind, record.id, part), reading);
        }
      }
    }
    reading = null;
  }
  const listJson = new Map<KindName, string>();
  {
    const ctx = createContext(options.baseUrl, records, media);
    for (const [kind, em] of emitters) listJson.set(kind, JSON.stringify(kindList(em, ctx, records.get(kind) ?? [])));
  }

  /**
   * The served build, by its folder's inode: the planner's state describes that build only.
   * After each update a spare copy of it (hard links) is made in the background, so the next
   * update starts from a copy instead of making one while the user waits.
   */
  let served = folderIdentity(options.outDir);
  /** the served build's archive entries: each update's copy of it differs only where it rewrote */
  let servedEntries: readonly ArchiveEntry[] = archiveEntries(options.outDir, API_PREFIX);
  let spare: { from: number | null; path: string; ready: Promise<boolean> } | null = null;
  let swaps = 0;
  /**
   * Starts the spare copy of the served build; first, after a pause, removes the folder an
   * update swapped out. The pause lets the preview's first reads of a new build go ahead of the
   * thousands of unlinks and links, which share Node's thread pool with them.
   */
  const prepareSpare = (swappedOut?: string) => {
    const path = `${options.outDir}.spare-${process.pid}`;
    const from = served;
    const ready = new Promise((r) => setTimeout(r, swappedOut ? BACKGROUND_PAUSE_MS : 0))
      .then(() => (swappedOut === undefined ? undefined : fsp.rm(swappedOut, { recursive: true, force: true })))
      .then(() => fsp.rm(path, { recursive: true, force: true }))
      .then(() => linkTreeAsync(options.outDir, path))
      .then(() => folderIdentity(options.outDir) === from)
      .catch(() => false);
    spare = { from, path, ready };
  };
  prepareSpare();
  /** A folder of links to the served build: the spare when it is ready and still of this build. */
  const freshCopy = async (): Promise<string> => {
    const tmp = `${options.outDir}.tmp-${process.pid}`;
    rmSync(tmp, { recursive: true, force: true });
    const candidate = spare;
    spare = null;
    if (candidate && candidate.from === served && (await candidate.ready)) {
      renameSync(candidate.path, tmp);
      return tmp;
    }
    if (candidate) await candidate.ready.then(() => fsp.rm(candidate.path, { recursive: true, force: true }));
    linkTree(options.outDir, tmp);
    return tmp;
  };
  /** Swaps the new build in; returns the old folder, which prepareSpare removes later. */
  const swap = (tmp: string): string | undefined => {
    const old = swapOut(tmp, options.outDir, `${options.outDir}.old-${process.pid}-${++swaps}`);
    served = folderIdentity(options.outDir);
    return old ?? undefined;
  };

  async function update(): Promise<UpdateReport> {
    if (folderIdentity(options.outDir) !== served) {
      throw new BuildError([`${options.outDir} was replaced by another build while npm run dev was running; restart it to build from there`]);
    }
    const steps: Record<string, number> = {};
    let lap = performance.now();
    const step = (name: string) => {
      const now = performance.now();
      steps[name] = Number(((now - lap) / 1000).toFixed(3));
      lap = now;
    };
    // 1. tables whose bytes changed, read again and checked
    const problems: Problems = [];
    const changedTables = new Map<TableKey, AnyRow[]>();
    const newDigests = new Map<string, string>();
    for (const table of tableNames) {
      const path = join(csvDir, `${table}.csv`);
      let found;
      try {
        found = look(path, digests);
      } catch {
        problems.push({ table: `${table}.csv`, message: `cannot be read from ${csvDir}` });
        continue;
      }
      newDigests.set(path, found.digest);
      if (found.text === null) continue;
      changedTables.set(table, readTable(table, found.text, problems) as AnyRow[]);
    }
    if (problems.length) throw new DataError(problems);
    const nextRows = new Map(tableRows);
    for (const [table, rows] of changedTables) nextRows.set(table, rows);
    if (changedTables.size) {
      checkKeys(nextRows, problems, new Set(changedTables.keys()));
      if (problems.length) throw new DataError(problems);
    }
    const nextTables = storeOf(nextRows);

    // media paths that appeared or went
    let nextMedia = media;
    const mediaKeys: string[] = [];
    for (const [file, key] of [['sprites.txt', 'sprites'], ['cries.txt', 'cries']] as const) {
      if (!watchedMedia(file)) continue;
      const path = join(mediaDir, file);
      const found = look(path, digests);
      newDigests.set(path, found.digest);
      if (found.text === null) continue;
      const paths = manifestPaths(found.text);
      const before = media[key];
      const toKey = key === 'sprites' ? readKeys.sprite : readKeys.cry;
      for (const p of paths) if (!before.has(p)) mediaKeys.push(toKey(p));
      for (const p of before) if (!paths.has(p)) mediaKeys.push(toKey(p));
      nextMedia = { ...nextMedia, [key]: paths };
    }

    step('read tables');
    // 2. the records those rows belong to, assembled again; those that differ
    const nextRecords = new Map(records);
    const changed = new Map<KindName, Map<number, { before: AnyRecord | undefined; after: AnyRecord | undefined }>>();
    if (changedTables.size) {
      const diffs = [...changedTables].map(([table, rows]) => ({ table, rows: changedRows(tableRows.get(table) ?? [], rows) }));
      const stores = [tables, nextTables];
      for (const [kind, spec] of specs) {
        const owned = ownedTables(spec);
        const others = otherTables.get(kind)!;
        let ids: Set<number> | 'all' = new Set<number>();
        for (const { table, rows } of diffs) {
          if (others.has(table)) ids = 'all';
          else if (ids !== 'all' && owned.has(table)) for (const id of ownersOfRows(spec, table, rows, stores)) ids.add(id);
        }
        if (ids !== 'all' && ids.size === 0) continue;
        const fresh = assembleRecords(spec, nextTables, ids === 'all' ? undefined : ids) as AnyRecord[];
        const old = records.get(kind) ?? [];
        const oldById = new Map(old.map((r) => [r.id, r]));
        const freshById = new Map(fresh.map((r) => [r.id, r]));
        const touched = ids === 'all' ? new Set([...oldById.keys(), ...freshById.keys()]) : ids;
        const diff = new Map<number, { before: AnyRecord | undefined; after: AnyRecord | undefined }>();
        for (const id of touched) {
          const before = oldById.get(id);
          const after = freshById.get(id);
          if (before && after && JSON.stringify(before) === JSON.stringify(after)) continue;
          if (before || after) diff.set(id, { before, after });
        }
        if (!diff.size) continue;
        const all = ids === 'all' ? fresh : old.filter((r) => !diff.has(r.id)).concat([...diff.values()].flatMap((d) => (d.after ? [d.after] : []))).sort((a, b) => a.id - b.id);
        checkKindRecords(spec, recordCheck(kind), [...diff.values()].flatMap((d) => (d.after ? [d.after] : [])), problems, undefined, all);
        nextRecords.set(kind, all);
        changed.set(kind, diff);
      }
      if (problems.length) throw new DataError(problems);
    }

    step('records');
    // 3. every document that read something that changed
    const dirtyKeys = new Set<string>(mediaKeys);
    for (const [kind, diff] of changed) {
      dirtyKeys.add(readKeys.kind(kind));
      const signatures = [...reads.indexes].map((sig) => sig.split(' ')).filter(([k]) => k === kind);
      for (const [id, { before, after }] of diff) {
        dirtyKeys.add(readKeys.record(kind, id));
        if (before?.name !== after?.name || !before || !after) dirtyKeys.add(readKeys.name(kind, id));
        for (const [, child, field] of signatures as [string, string, string][]) {
          for (const value of changedIndexEntries(before, after, child, field)) dirtyKeys.add(readKeys.group(kind, child, field, value));
        }
      }
    }
    const nextIndexes = new Map(indexes);
    for (const [kind, diff] of changed) patchIndexes(nextIndexes, kind, [...diff.values()]);
    const dirty = new Set<string>();
    for (const key of dirtyKeys) for (const unit of reads.readers.get(key) ?? []) dirty.add(unit);
    for (const [kind, diff] of changed) {
      const em = emitters.get(kind);
      if (em) for (const id of diff.keys()) for (const { part } of em.documents) dirty.add(unitOf(kind, id, part));
    }

    if (!dirty.size) {
      commit();
      return { tables: [...changedTables.keys()].map((t) => `${t}.csv`), mediaPaths: mediaKeys.length, records: {}, documents: 0, made: {}, unchanged: true, steps };
    }

    const index = readBuildIndex(options.outDir);
    if (!index) throw new BuildError([`${options.outDir} has no build index; run a full build (npm run build -- --force)`]);
    const ctx = contextOver(nextRecords, nextMedia, nextIndexes);
    /** by record (`kind id`): the documents made again, and what each read */
    const made = new Map<string, { kind: KindName; record: AnyRecord; docs: RecordDocuments; reads: Map<string, Set<string>> }>();
    const gone: Array<{ kind: KindName; record: AnyRecord }> = [];
    const buildProblems: string[] = [];
    const byId = new Map<KindName, Map<number, AnyRecord>>();
    const nextRecord = (kind: KindName, id: number) => {
      let map = byId.get(kind);
      if (!map) byId.set(kind, (map = new Map((nextRecords.get(kind) ?? []).map((r) => [r.id, r]))));
      return map.get(id);
    };
    const partsByRecord = new Map<string, { kind: KindName; id: number; parts: Set<string> }>();
    for (const unit of [...dirty].sort()) {
      const [kind, idText, part] = unit.split(' ') as [KindName, string, string];
      const key = recordOf(kind, Number(idText));
      const entry = partsByRecord.get(key);
      if (entry) entry.parts.add(part);
      else partsByRecord.set(key, { kind, id: Number(idText), parts: new Set([part]) });
    }
    let documents = 0;
    const madeByPart: Record<string, number> = {};
    for (const [key, { kind, id, parts }] of partsByRecord) {
      const em = emitters.get(kind);
      if (!em) continue;
      const record = nextRecord(kind, id);
      if (!record) {
        const before = changed.get(kind)?.get(id)?.before;
        if (before) gone.push({ kind, record: before });
        continue;
      }
      const partReads = new Map<string, Set<string>>();
      const docs = emitRecord(em, ctx, record, {
        parts,
        // each document's reads are its own
        beforeEach: (part) => {
          reading = new Set([readKeys.record(kind, id)]);
          partReads.set(unitOf(kind, id, part), reading);
          documents++;
          madeByPart[`${kind} ${part}`] = (madeByPart[`${kind} ${part}`] ?? 0) + 1;
        },
      });
      reading = null;
      made.set(key, { kind, record, docs, reads: partReads });
      buildProblems.push(...docs.problems);
    }
    reading = null;
    if (buildProblems.length) throw new BuildError(buildProblems);
    step('documents');

    // 4. a new folder of links to the served build, with what changed replaced
    const tmp = await freshCopy();
    let swappedOut: string | undefined;
    const rewritten = new Set<string>();
    const replace = (rel: string, body: string | Buffer) => {
      const path = join(tmp, rel);
      rmSync(path, { force: true });
      mkdirSync(join(path, '..'), { recursive: true });
      writeFileSyncFresh(path, body);
      rewritten.add(rel);
    };
    const remove = (rel: string) => {
      rmSync(join(tmp, rel), { force: true });
      rewritten.add(rel);
    };
    const link = (rel: string, existing: string) => {
      rmSync(join(tmp, rel), { force: true });
      linkSync(join(tmp, existing), join(tmp, rel));
      rewritten.add(rel);
    };
    try {
      step('link copy');
      const kindsTouched = new Set<KindName>(
        [...made.values()].map((m) => m.kind).concat(gone.map((g) => g.kind), [...changed.keys()].filter((k) => emitters.has(k))),
      );
      const owners = new Map<KindName, { before: Map<string, number>; after: Map<string, number> }>();
      for (const kind of kindsTouched) owners.set(kind, { before: nameOwners(records.get(kind) ?? []), after: nameOwners(nextRecords.get(kind) ?? []) });

      for (const { kind, record } of gone) {
        remove(itemFile(kind, record.id));
        for (const sub of emitters.get(kind)!.subs) remove(subresourceFile(kind, record.id, sub));
      }
      // a document made again with the same bytes stays the served build's file (and its links)
      const sameAsServed = (rel: string, body: string | Buffer) => {
        try {
          return readFileSync(join(tmp, rel)).equals(typeof body === 'string' ? Buffer.from(body) : body);
        } catch {
          return false;
        }
      };
      const replacedItems = new Set<string>();
      for (const [key, { kind, record, docs }] of made) {
        let replaced = false;
        if (docs.item && !sameAsServed(itemFile(kind, record.id), docs.item)) {
          replace(itemFile(kind, record.id), docs.item);
          replaced = true;
        }
        for (const { sub, body } of docs.subs) {
          if (sameAsServed(subresourceFile(kind, record.id, sub), body)) continue;
          replace(subresourceFile(kind, record.id, sub), body);
          replaced = true;
        }
        if (replaced) replacedItems.add(key);
      }
      // names: every name whose owner changed, or whose owner's files were made again
      for (const [kind, { before, after }] of owners) {
        const subs = emitters.get(kind)!.subs;
        const names = new Set([...before.keys(), ...after.keys()]);
        for (const name of names) {
          const was = before.get(name);
          const now = after.get(name);
          if (was === now && (now === undefined || !replacedItems.has(recordOf(kind, now)))) continue;
          if (now === undefined) {
            remove(itemFile(kind, name));
            for (const sub of subs) remove(subresourceFile(kind, name, sub));
            continue;
          }
          link(itemFile(kind, name), itemFile(kind, now));
          for (const sub of subs) link(subresourceFile(kind, name, sub), subresourceFile(kind, now, sub));
        }
      }

      step('write documents');
      // lists and pages, and bulk files, of the kinds whose records changed or were made again
      const listCtx = createContext(options.baseUrl, nextRecords, nextMedia);
      const nextLists = new Map(listJson);
      const kindResults = new Map(index.kinds.map((k) => [k.kind as KindName, k]));
      for (const kind of kindsTouched) {
        const em = emitters.get(kind)!;
        const recs = nextRecords.get(kind) ?? [];
        const full = kindList(em, listCtx, recs);
        const json = JSON.stringify(full);
        if (json !== listJson.get(kind)) {
          const old = JSON.parse(listJson.get(kind) ?? '{"count":0}') as { count: number };
          for (let offset = 0; offset === 0 || offset < old.count; offset += DEFAULT_LIMIT) remove(pageFile(kind, offset));
          for (const [path, body] of listFiles(kind, full, options.baseUrl)) replace(path, body);
          nextLists.set(kind, json);
        }
        // the bulk lines that changed: items written again, and items that came or went
        const kindDirty = [...made.values()]
          .filter((m) => m.kind === kind && rewritten.has(itemFile(kind, m.record.id)))
          .map((m) => m.record.id)
          .concat(gone.filter((g) => g.kind === kind).map((g) => g.record.id));
        const previous = kindResults.get(kind);
        const oldBulk = memberSource(previous ? { file: join(options.outDir, bulkFile(kind)), members: previous.bulk } : undefined);
        const dirtyChunks = new Set(kindDirty.map(bulkChunk));
        const bulk = new BulkWriter(join(tmp, bulkFile(kind)));
        try {
          for (const record of recs) {
            bulk.add(
              record.id,
              () => made.get(recordOf(kind, record.id))?.docs.item ?? readFileSync(join(tmp, itemFile(kind, record.id))),
              (chunk) => (dirtyChunks.has(chunk) ? null : oldBulk.get(chunk)),
            );
          }
        } finally {
          oldBulk.close();
        }
        rewritten.add(bulkFile(kind));
        const result: KindResult = { kind, count: full.count, subresources: em.subs, idOnly: em.idOnly, bulk: bulk.close() };
        kindResults.set(kind, result);
      }

      step('lists and bulk');
      // the small files, the artifacts and the archive, as a full build makes them
      const finish = options.finish();
      const oldArchive = join(options.outDir, index.archive.file);
      const finished = await finishBuild(tmp, { ...finish, baseUrl: options.baseUrl }, [...kindResults.values()], {
        file: oldArchive,
        members: index.archive.members,
        rewritten,
        entries: servedEntries,
      });
      const newIndex = readBuildIndex(tmp);
      if (newIndex && newIndex.archive.file !== index.archive.file) rmSync(join(tmp, index.archive.file), { force: true });
      step('artifacts and archive');
      swappedOut = swap(tmp);
      step('swap');

      // the new state, now that it is served
      for (const unit of dirty) forget(reads, unit);
      for (const m of made.values()) for (const [unit, keys] of m.reads) remember(reads, unit, keys);
      servedEntries = finished.archiveEntries;
      listJson.clear();
      for (const [k, v] of nextLists) listJson.set(k, v);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
      prepareSpare(swappedOut);
    }
    commit();
    return {
      tables: [...changedTables.keys()].map((t) => `${t}.csv`),
      mediaPaths: mediaKeys.length,
      records: Object.fromEntries([...changed].map(([k, d]) => [k, d.size])),
      documents: documents + gone.length,
      made: madeByPart,
      unchanged: false,
      steps,
    };

    function commit() {
      for (const [path, digest] of newDigests) digests.set(path, digest);
      records = nextRecords;
      indexes = nextIndexes;
      tableRows = nextRows;
      tables = nextTables;
      media = nextMedia;
    }
  }

  return {
    update,
    close: async () => {
      const last = spare;
      spare = null;
      if (last) await last.ready.then(() => fsp.rm(last.path, { recursive: true, force: true }));
    },
  };
}

/** Writes a new file (the path was just removed, so this never writes through a link). */
function writeFileSyncFresh(path: string, body: string | Buffer): void {
  writeFileSync(path, body, { flag: 'wx' });
}
