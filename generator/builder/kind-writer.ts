/**
 * A kind's writer: each record's item with its subresources and (in a full build) its bulk line,
 * the records that went, then, on close, the name links and the kind files (kind-files.ts). On a
 * copy of the served build, a document is replaced only when its bytes change, and the bulk file
 * is left to the downloads (writer.ts `refreshDownloads`), made after the answers are served:
 * the writer says which of its chunks changed.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { bulkFile, itemFile, subresourceFile } from '../../contract/layout.ts';
import type { KindResult } from './build-index.ts';
import { BuildError } from '../build-error.ts';
import { bulkChunk, BulkWriter, noPrevious } from './bulk-writer.ts';
import { kindList, nameOwners, type KindEmitter, type RecordDocuments } from './emit-kinds.ts';
import { readCoverageFacts } from '../indexes/coverage-facts.ts';
import { isCovered, type CoverageFacts } from '../indexes/coverage.ts';
import { readKeptFacts } from '../indexes/kept-facts.ts';
import { kindFiles, type AnyRecord, type KindFileInput, type KindFileMaker, type KindFacts } from './kind-files.ts';
import type { Output } from './output.ts';
import type { QueryFacts } from '../indexes/query-facts.ts';
import type { RecordFacts } from '../indexes/query-index.ts';
import { asOfDocumentFile } from '../../contract/as-of/facts.ts';
import { hasAsOfDocument, hasAsOfFacts, readAsOfFacts, type KeptFacts } from '../indexes/as-of.ts';

/** The served build's result for a kind and its records, when writing onto a copy. */
export interface ServedKind {
  dir: string;
  result: KindResult | undefined;
  records: readonly AnyRecord[];
}

/**
 * One kind's files. Records come in id order, after every `remove`; `close` then writes the
 * name links, the kind files and the bulk file's last member.
 */
export class KindWriter {
  private readonly records: AnyRecord[] = [];
  /** ids whose files this writer replaced or removed: their names are linked again, their bulk chunks made again */
  private readonly rewritten = new Set<number>();
  private readonly changedChunks = new Set<string>();
  /** the query facts of the records made by this writer */
  private readonly facts = new Map<number, QueryFacts>();
  /** the coverage facts of the records made by this writer */
  private readonly coverage = new Map<number, CoverageFacts>();
  /** the query facts the served build kept, once read (a copy only) */
  private kept: ReadonlyMap<number, QueryFacts> | null = null;
  /** the as-of facts of the records made by this writer */
  private readonly asOf = new Map<number, KeptFacts>();
  /** a full build's bulk file; none on a copy */
  private readonly bulk: BulkWriter | null;
  private started = false;

  private readonly out: Output;
  private readonly em: KindEmitter;
  private readonly baseUrl: string;
  private readonly served: ServedKind | null;
  constructor(
    out: Output,
    em: KindEmitter,
    baseUrl: string,
    /** the served build's result for the kind and its records, when writing onto a copy */
    served: ServedKind | null,
  ) {
    this.out = out;
    this.em = em;
    this.baseUrl = baseUrl;
    this.served = served;
    this.bulk = served ? null : new BulkWriter(join(out.root, bulkFile(em.kind)), noPrevious, () => true);
  }

  /** A record that is gone: its item and subresources (its names go on close). */
  remove(id: number): void {
    if (this.started) throw new Error(`${this.em.kind} ${id}: records that went are removed before any record is written`);
    for (const path of this.recordFiles(id)) this.out.remove(path);
    this.mark(id);
  }

  /**
   * A record and those of its documents that were made (all of them in a full build; on a
   * copy, those an edit reached); a document with the bytes already there is left as it is.
   */
  async record(record: AnyRecord, docs: RecordDocuments): Promise<void> {
    // an item that could not be made in a full build: that build stops with its problem, and nothing may link to it
    if (!docs.item && !this.served) return;
    this.started = true;
    this.records.push(record);
    const kind = this.em.kind;
    let replaced = false;
    const put = async (rel: string, body: string | Buffer) => {
      if (this.out.holds(rel, body)) return;
      await this.out.write(rel, body);
      replaced = true;
    };
    if (docs.item) await put(itemFile(kind, record.id), docs.file ?? docs.item);
    for (const { sub, body } of docs.subs) await put(subresourceFile(kind, record.id, sub), body);
    if (docs.asOfDocument !== null && hasAsOfDocument(kind)) await put(asOfDocumentFile(kind, record.id), docs.asOfDocument);
    if (replaced) this.mark(record.id);
    // a field it borrows may have changed in the other document, not in its own file
    else if (docs.item && this.em.borrows) this.changedChunks.add(bulkChunk(record.id));
    if (docs.facts) this.facts.set(record.id, docs.facts);
    if (docs.coverage) this.coverage.set(record.id, docs.coverage);
    if (docs.asOfFacts) this.asOf.set(record.id, docs.asOfFacts);
    const item = docs.item;
    if (item) this.bulk?.add(record.id, () => item);
  }

  /** A record whose documents stay as they are (an update only). */
  keep(record: AnyRecord): void {
    if (!this.served) throw new Error(`${this.em.kind} ${record.id}: a full build writes every record`);
    this.started = true;
    this.records.push(record);
  }

  async close(): Promise<KindResult> {
    const served = this.served?.result;
    if (served && this.standsAsServed()) return served;
    this.linkNames();
    const list = kindList(this.em, this.baseUrl, this.records);
    const query = this.queryInput();
    const input: KindFileInput = {
      kind: this.em.kind,
      records: this.records,
      list,
      baseUrl: this.baseUrl,
      query,
      coverage: this.coverageInput(),
      asOf: this.asOfInput(),
      asServed: (reads) => this.madeAsServed(reads),
    };
    for (const maker of kindFiles) await this.writeKindFiles(maker, input);
    // on a copy, the bulk file and its members stay the served build's until the downloads are made again
    const bulk = this.bulk ? this.bulk.close() : (this.served?.result?.bulk ?? []);
    return { kind: this.em.kind, count: list.count, subresources: this.em.subs, idOnly: this.em.idOnly, bulk };
  }

  /** The bulk chunks (bulk-writer.ts `bulkChunk`) of the records whose files this writer replaced or removed. */
  get changedBulkChunks(): ReadonlySet<string> {
    return this.changedChunks;
  }

  /**
   * On a copy: whether the kind's files would come out as the served ones, so that they are not
   * made again. So it is when no file of the kind was replaced or removed, its records are the
   * served ones (the same objects: an update keeps every record it did not assemble again), and
   * the facts made again with its documents (a document that reads another kind's record is made
   * again when that record changes, and may come out the same) equal those the served build kept.
   */
  private standsAsServed(): boolean {
    const served = this.served;
    if (!served || this.rewritten.size > 0 || !sameObjects(this.records, served.records)) return false;
    const kind = this.em.kind;
    return (
      madeAsKept(this.facts, () => this.keptFacts()) &&
      madeAsKept(this.coverage, () => readCoverageFacts(served.dir, kind)) &&
      madeAsKept(this.asOf, () => (hasAsOfFacts(kind) ? readAsOfFacts(served.dir, kind) : new Map<number, KeptFacts>()))
    );
  }

  /**
   * On a copy: whether a maker's files come out as served (`KindFileMaker.reads`): the list holds
   * the served ids and names in the served order, each record is listed as it was, and the facts
   * made again hold what the maker reads as the kept ones do.
   */
  private keepsServed(maker: KindFileMaker): boolean {
    const reads = maker.reads;
    const shape = this.em.query.shape;
    return reads !== undefined && this.madeAsServed((facts) => reads(facts, shape));
  }

  /** On a copy: whether the list is the served one and the facts made again hold what `reads` picks as the kept ones do (KindFileInput.asServed). */
  private madeAsServed(reads: (facts: QueryFacts) => unknown): boolean {
    const served = this.served;
    if (!served || !sameNames(this.records, served.records)) return false;
    const listed = this.em.listed;
    if (listed && this.records.some((record, i) => listed(record) !== listed(served.records[i]!))) return false;
    return madeAsKept(this.facts, () => this.keptFacts(), reads);
  }

  /** The facts the served build kept for the kind, read once. */
  private keptFacts(): ReadonlyMap<number, QueryFacts> {
    if (!this.served) throw new Error(`${this.em.kind}: kept facts are read on a copy only`);
    this.kept ??= readKeptFacts(this.served.dir, this.em.kind, this.em.query.shape);
    return this.kept;
  }

  /** Every record's facts: made now, or (on a copy) as the served build kept them. */
  private queryInput(): KindFacts {
    const query = this.em.query;
    const all = this.records.map((record): RecordFacts => {
      let facts = this.facts.get(record.id);
      if (!facts && this.served) facts = this.keptFacts().get(record.id);
      if (!facts) throw new BuildError([`${this.em.kind} ${record.id}: no query facts made or kept`]);
      return { id: record.id, name: record.name, facts };
    });
    const listed = this.em.listed;
    return { shape: query.shape, all, listed: listed ? all.filter((_, i) => listed(this.records[i])) : all };
  }

  /** Every record's coverage facts (a covered kind only): made now, or (on a copy) as the served build kept them. */
  private coverageInput(): Array<[number, CoverageFacts]> | null {
    if (!isCovered(this.em.kind)) return null;
    let kept: Map<number, CoverageFacts> | null = null;
    return this.records.map((record): [number, CoverageFacts] => {
      let facts = this.coverage.get(record.id);
      if (!facts && this.served) facts = (kept ??= readCoverageFacts(this.served.dir, this.em.kind)).get(record.id);
      if (!facts) throw new BuildError([`${this.em.kind} ${record.id}: no coverage facts made or kept`]);
      return [record.id, facts];
    });
  }

  /**
   * Every record's as-of facts (a kind the as-of rules read only): made now, or (on a copy) as the
   * served build wrote them. Null on a copy where none was made and the records are the served
   * ones: the served files hold these facts as they are (a move renamed makes no creature's again).
   */
  private asOfInput(): Array<[number, KeptFacts]> | null {
    const kind = this.em.kind;
    if (!hasAsOfFacts(kind)) return null;
    if (this.served && this.asOf.size === 0 && sameIds(this.records, this.served.records)) return null;
    let kept: Map<number, KeptFacts> | null = null;
    return this.records.map((record): [number, KeptFacts] => {
      let facts = this.asOf.get(record.id);
      if (!facts && this.served) facts = (kept ??= readAsOfFacts(this.served.dir, kind)).get(record.id);
      if (!facts) throw new BuildError([`${kind} ${record.id}: no as-of facts made or kept`]);
      return [record.id, facts];
    });
  }

  /** The files of one record by id or name: its item, its subresources, its as-of document. */
  private recordFiles(key: number | string): string[] {
    const kind = this.em.kind;
    return [
      itemFile(kind, key),
      ...this.em.subs.map((sub) => subresourceFile(kind, key, sub)),
      ...(hasAsOfDocument(kind) ? [asOfDocumentFile(kind, key)] : []),
    ];
  }

  private mark(id: number): void {
    this.rewritten.add(id);
    this.changedChunks.add(bulkChunk(id));
  }

  /** `{kind}/{name}.json` (and each subresource's) is a hard link to the file of the lowest id with that name. */
  private linkNames(): void {
    const before = nameOwners(this.served?.records ?? [], this.em.aliases);
    const after = nameOwners(this.records, this.em.aliases);
    for (const name of new Set([...before.keys(), ...after.keys()])) {
      const was = before.get(name);
      const now = after.get(name);
      if (was === now && (now === undefined || !this.rewritten.has(now))) continue;
      if (now === undefined) {
        for (const path of this.recordFiles(name)) this.out.remove(path);
        continue;
      }
      const targets = this.recordFiles(now);
      this.recordFiles(name).forEach((path, i) => this.out.alias(path, targets[i]!));
    }
  }

  private async writeKindFiles(maker: KindFileMaker, input: KindFileInput): Promise<void> {
    if (this.keepsServed(maker)) return;
    const files = maker.make(input);
    for (const [rel, body] of files) if (body !== null && !this.out.holds(rel, body)) await this.out.write(rel, body);
    if (!this.served || !maker.folder) return;
    const folder = maker.folder(input.kind);
    const made = new Set(files.map(([rel]) => rel));
    // no folder yet: nothing of it to remove
    const present = existsSync(join(this.out.root, folder)) ? readdirSync(join(this.out.root, folder)) : [];
    for (const name of present) if (!made.has(`${folder}/${name}`)) this.out.remove(`${folder}/${name}`);
  }
}

/**
 * Whether every fact made again holds, of what `part` picks of it, what the kept fact of its
 * record holds; `kept` is read only when some fact was made.
 */
function madeAsKept<T>(made: ReadonlyMap<number, T>, kept: () => ReadonlyMap<number, T>, part: (facts: T) => unknown = (facts) => facts): boolean {
  if (made.size === 0) return true;
  const served = kept();
  return [...made].every(([id, facts]) => {
    const was = served.get(id);
    return was !== undefined && JSON.stringify(part(facts)) === JSON.stringify(part(was));
  });
}

/** Whether two lists of records hold the same ids with the same names in the same order. */
const sameNames = (a: readonly AnyRecord[], b: readonly AnyRecord[]): boolean =>
  a.length === b.length && a.every((record, i) => record.id === b[i]!.id && record.name === b[i]!.name);

/** Whether two lists hold the same objects in the same order. */
const sameObjects = <T>(a: readonly T[], b: readonly T[]): boolean => a.length === b.length && a.every((item, i) => item === b[i]);

/** Whether two lists of records hold the same ids in the same order. */
const sameIds = (a: readonly AnyRecord[], b: readonly AnyRecord[]): boolean => a.length === b.length && a.every((record, i) => record.id === b[i]!.id);
