/**
 * The incremental planner (`npm run dev`): after an edit of the data set, redo only what the
 * edit reaches and swap the result in as a whole new dist/, byte for byte what a full build of
 * the same inputs writes. Its steps, one module each:
 *   1. sources.ts: which tables and media manifests changed on disk, read again and checked;
 *   2. record-changes.ts: which records those rows belong to, assembled again, those that differ;
 *   3. ledger.ts: which documents read something that changed (an item, or one of its
 *      subresources: each has reads of its own);
 *   4. documents.ts: those documents made again, with the build's code; relink.ts: those that
 *      only link to a renamed record, their served bytes with the link's name replaced;
 *   5. served.ts and write.ts: a hard-linked copy of the served build, written by the build's
 *      writer, swapped in: the answers first; then, by `refreshDownloads`, the downloads (the
 *      bulk files and the archive) on another copy, while the stamp says they are stale.
 * A bad edit stops at step 1, 2 or 4 with the named error, and dist/ stays as it was.
 * Code changes are not watched: they need a restart (and `npm start` builds again).
 */
import { StepClock } from '../progress.ts';
import { createContext, IndexMemo } from '../resources/context.ts';
import { kindEmitter, type KindEmitter } from '../builder/emit-kinds.ts';
import type { FinishOptions } from '../builder/writer.ts';
import { hashFiles, type FileMemo } from '../files/file-memo.ts';
import type { KindName } from '../model/kinds.ts';
import { allResources } from '../resources/index.ts';
import { learnReads, makeDocuments } from './documents.ts';
import { KeptReads } from './kept-reads.ts';
import { ReadLedger } from './ledger.ts';
import { RecordState, type RecordChanges } from './record-changes.ts';
import { relinkDocuments, Renames, SpliceBuffers } from './relink.ts';
import { ServedFolder } from './served.ts';
import { DataSetFiles, type SourceLook } from './sources.ts';
import { writeDownloads, writeUpdate } from './write.ts';
import type { StaleDownloads } from '../builder/writer.ts';

export { changedRows } from './record-changes.ts';
export { changedIndexEntries } from './ledger.ts';

export interface IncrementalOptions {
  dataDir: string;
  /** the media manifests: the data set's `media/`, or the committed gzip'd copies (pipeline.ts `mediaDir`) */
  mediaDir: string;
  outDir: string;
  baseUrl: string;
  /** the file memo of the input hash, to share (dev/index.ts); default: one of its own */
  memo?: FileMemo;
  /** what the build's stamp and meta say; asked again on every update */
  finish: () => Omit<FinishOptions, 'baseUrl' | 'only'>;
  /** keep what every document reads beside dist/ (kept-reads.ts), read at the start when it is of the served build, written at close */
  keepReads?: boolean;
}

export interface UpdateReport {
  /** tables whose bytes changed */
  tables: string[];
  /** sprite and cry paths that appeared or went */
  mediaPaths: number;
  /** records that differ, by kind */
  records: Record<string, number>;
  /** documents made again (an item or one subresource of a record), relinked ones among them, and records that went */
  documents: number;
  /** documents made again by relinking the served ones (relink.ts) */
  relinked: number;
  /** the documents made again by kind and document (`creature item`, `creature encounters`; `creature item (relinked)`) */
  made: Record<string, number>;
  /** the committed change reports (FinishOptions' changesDir) changed: the files made from them were made again */
  reports: boolean;
  /** nothing the API serves changed, so dist/ was left as it was */
  unchanged: boolean;
  /** the served downloads are older than the answers: `refreshDownloads` makes them again */
  downloadsStale: boolean;
  /** seconds spent in each step, in order */
  steps: Record<string, number>;
}

export interface IncrementalBuild {
  /**
   * Brings dist/'s answers up to date with the data set; throws DataError or BuildError and
   * changes nothing when the edit is bad. The downloads stay the previous build's, and the stamp
   * says so, until `refreshDownloads`.
   */
  update(): Promise<UpdateReport>;
  /**
   * Makes the downloads of dist/ again when an update left them stale; the kinds whose bulk files
   * were made again, or null when nothing was stale. `signal` stops it (rejecting with its reason):
   * dist/ is left as it was, its downloads still stale.
   */
  refreshDownloads(signal?: AbortSignal): Promise<string[] | null>;
  /** whether what every document reads was kept from a session before rather than learned at the start */
  readonly readsKept: boolean;
  /** Removes the folders it keeps beside dist/ (and keeps the reads, when asked to). */
  close(): Promise<void>;
}

/** The planner's state between updates: each step's module, and the reverse indexes of the last context. */
class Planner implements IncrementalBuild {
  private readonly emitters: Map<KindName, KindEmitter>;
  private readonly sources: DataSetFiles;
  private readonly records: RecordState;
  private readonly ledger: ReadLedger;
  private readonly keptReads: KeptReads | null;
  readonly readsKept: boolean;
  private indexes = new IndexMemo();
  private readonly spliceBuffers = new SpliceBuffers();
  private readonly served: ServedFolder;
  /** a hash of the change reports the served build was finished with */
  private reports: string;
  /** what the served build's downloads lack; null when they are whole */
  private stale: StaleDownloads | null = null;

  private readonly options: IncrementalOptions;
  constructor(options: IncrementalOptions) {
    this.options = options;
    this.emitters = new Map(allResources.map((r) => [r.kind, kindEmitter(r)]));
    this.sources = new DataSetFiles(options.dataDir, options.mediaDir, options.memo);
    this.records = new RecordState(this.sources.store);
    this.keptReads = options.keepReads ? new KeptReads(options.outDir) : null;
    const kept = this.keptReads?.load() ?? null;
    this.readsKept = kept !== null;
    this.ledger = kept ?? new ReadLedger();
    if (!kept)
      learnReads(createContext(options.baseUrl, this.records.records, this.sources.media, this.indexes), this.emitters, this.records.records, this.ledger);
    this.served = new ServedFolder(options.outDir);
    this.reports = this.reportsHash(options.finish());
  }

  async update(): Promise<UpdateReport> {
    this.served.check();
    const clock = new StepClock();
    const look = this.sources.look();
    clock.step('read tables');
    const changes = this.records.changes(look, this.sources);
    clock.step('records');
    const indexes = this.indexes.copy();
    for (const [kind, diff] of changes.changed) indexes.patch(kind, [...diff.values()]);
    const dirty = this.ledger.dirty(changes.changed, look.mediaReads, this.emitters);
    const finish = { ...this.options.finish(), baseUrl: this.options.baseUrl };
    const reports = this.reportsHash(finish);
    const report = {
      tables: [...look.changedTables.keys()].map((t) => `${t}.csv`),
      mediaPaths: look.mediaReads.length,
      reports: reports !== this.reports,
      steps: clock.steps,
    };
    if (!dirty.remake.length && !dirty.relink.length && !report.reports) {
      this.commit(look, changes, indexes);
      return { ...report, records: {}, documents: 0, relinked: 0, made: {}, unchanged: true, downloadsStale: this.stale !== null };
    }
    const documents = makeDocuments(
      dirty.remake,
      createContext(this.options.baseUrl, changes.records, look.media, indexes),
      this.emitters,
      changes,
      this.ledger,
    );
    clock.step('documents');
    try {
      relinkDocuments(dirty.relink, new Renames(changes.changed, this.options.baseUrl), this.served.dir, this.emitters, documents, this.spliceBuffers);
    } catch (e) {
      this.ledger.discard();
      throw e;
    }
    clock.step('relink');
    const copy = await this.served.copy();
    clock.step('link copy');
    let swappedOut: string | null = null;
    // added to only once the answers are swapped in: a failed update leaves the downloads as stale as they were
    const stale = copyStale(this.stale);
    try {
      const update = {
        copy,
        served: this.served,
        emitters: this.emitters,
        before: this.records.records,
        changes,
        documents,
        baseUrl: this.options.baseUrl,
        finish,
      };
      const entries = await writeUpdate(update, stale);
      clock.step('write');
      swappedOut = this.served.swap(copy, entries);
      clock.step('swap');
    } catch (e) {
      this.ledger.discard();
      throw e;
    } finally {
      this.served.release(copy, swappedOut);
    }
    // a relinked document reads what it read before: only those made again have new reads
    this.ledger.replace(dirty.remake);
    this.commit(look, changes, indexes);
    this.reports = reports;
    this.stale = stale;
    return {
      ...report,
      records: Object.fromEntries([...changes.changed].map(([k, d]) => [k, d.size])),
      documents: documents.count,
      relinked: dirty.relink.length,
      made: documents.byPart,
      unchanged: false,
      downloadsStale: true,
    };
  }

  async refreshDownloads(signal?: AbortSignal): Promise<string[] | null> {
    const stale = this.stale;
    if (stale === null) return null;
    this.served.check();
    const copy = await this.served.copy();
    let swappedOut: string | null = null;
    try {
      const entries = await writeDownloads(copy, this.served, stale, this.records.records, signal);
      swappedOut = this.served.swap(copy, entries);
    } finally {
      this.served.release(copy, swappedOut);
    }
    this.stale = null;
    return [...stale.chunks.keys()];
  }

  async close(): Promise<void> {
    await this.served.close();
    this.keptReads?.save(this.ledger);
  }

  /** The change reports' hash (a report committed by a teammate is a change the writer serves); with the sources' memo, a few stat calls. */
  private reportsHash(finish: Pick<FinishOptions, 'changesDir'>): string {
    return finish.changesDir ? hashFiles([finish.changesDir], this.options.memo) : '';
  }

  /** What an update found becomes the state the next one starts from. */
  private commit(look: SourceLook, changes: RecordChanges, indexes: IndexMemo): void {
    this.sources.commit(look);
    this.records.commit(changes);
    this.indexes = indexes;
  }
}

/**
 * Opens the planner over `dist/`, which must hold a full build of the data set as it is now
 * (the caller builds first). Reads the tables, assembles the records and learns what every
 * document reads, by making each once in memory (about as long as a build), unless it was kept
 * for this build by a session before (`keepReads`).
 */
export function openIncremental(options: IncrementalOptions): IncrementalBuild {
  return new Planner(options);
}

/** A copy of what the downloads lack, to add an update's changes to; empty when they are whole. */
function copyStale(stale: StaleDownloads | null): StaleDownloads {
  if (stale === null) return { chunks: new Map(), rewritten: new Set(), answered: new Map(), archive: '', about: null };
  return {
    chunks: new Map([...stale.chunks].map(([kind, chunks]) => [kind, new Set(chunks)])),
    rewritten: new Set(stale.rewritten),
    answered: new Map([...stale.answered].map(([kind, ids]) => [kind, new Set(ids)])),
    archive: stale.archive,
    about: stale.about,
  };
}
