/**
 * The read ledger: what every document read while it was made (the build context tells each
 * read: resources/context.ts `Read`), and from that, which documents an edit makes dirty. A
 * document is an item or one of its subresources, each with reads of its own.
 */
import type { IndexId, Read } from '../resources/context.ts';
import type { KindEmitter } from '../builder/emit-kinds.ts';
import type { KindName } from '../model/kinds.ts';
import type { AnyRecord, RecordChange } from './record-changes.ts';

/** One document: a record's item or one of its subresources (`part`: emit-kinds.ts DocumentMaker). */
export interface DocumentId {
  kind: KindName;
  id: number;
  part: string;
}

/** What an edit reaches (ReadLedger.dirty): the documents to make again, and those to relink. */
export interface DirtyDocuments {
  remake: DocumentId[];
  relink: DocumentId[];
}

/** Documents in kind, id and part order. */
const inDocumentOrder = (docs: DocumentId[]): DocumentId[] =>
  docs.sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : a.id - b.id || (a.part < b.part ? -1 : a.part > b.part ? 1 : 0)));

/** The reads of one document as it is made. */
export interface DocumentReads {
  doc: DocumentId;
  onRead: (read: Read) => void;
}

/** Map keys for reads, documents and indexes: made here, only ever compared, never parsed back. */
const readKey = (read: Read): string => {
  switch (read.type) {
    case 'record':
      return `r ${read.kind} ${read.id}`;
    case 'link':
      return `l ${read.kind} ${read.id}`;
    case 'name':
      return `n ${read.kind} ${read.id}`;
    case 'field':
      return `f ${read.kind} ${read.id} ${read.field}`;
    case 'kind':
      return `k ${read.kind}`;
    case 'entry':
      return `g ${indexKey(read.index)} ${JSON.stringify(read.value)}`;
    // by file name, whatever the folder: a creature looks for its image in a hundred folders under a
    // handful of names, and a manifest's change of one path remakes the few documents of that name
    case 'sprite':
      return `s ${fileName(read.path)}`;
    case 'cry':
      return `c ${fileName(read.path)}`;
  }
};
const fileName = (path: string): string => path.slice(path.lastIndexOf('/') + 1);
const indexKey = (id: IndexId): string => `${id.kind} ${id.child ?? '.'} ${id.field}`;
const docKey = (doc: DocumentId): string => `${doc.kind} ${doc.id} ${doc.part}`;

/**
 * The entries of one reverse index whose contents a record's change alters, as a reader of an
 * entry sees them: for an index of whole records, whether the record is in it (what else it
 * reads of the record is a read of its own); for an index of child rows, which rows the record
 * has there, as they are.
 */
export function changedIndexEntries(before: AnyRecord | undefined, after: AnyRecord | undefined, index: Pick<IndexId, 'child' | 'field'>): unknown[] {
  const entriesByValue = (record: AnyRecord | undefined): Map<unknown, string> => {
    const byValue = new Map<unknown, string>();
    if (!record) return byValue;
    if (index.child === null) return byValue.set(record[index.field], '');
    for (const row of (record[index.child] as AnyRecord[] | undefined) ?? [])
      byValue.set(row[index.field], (byValue.get(row[index.field]) ?? '') + JSON.stringify(row) + '\n');
    return byValue;
  };
  const was = entriesByValue(before);
  const now = entriesByValue(after);
  return [...new Set([...was.keys(), ...now.keys()])].filter((value) => was.get(value) !== now.get(value));
}

/** The fields whose values differ between a record's two versions (all of them where one is missing), for the `field` reads of them. */
export function changedFields(before: AnyRecord | undefined, after: AnyRecord | undefined): string[] {
  const fields = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  const same = (a: unknown, b: unknown) => a === b || (typeof a === 'object' && typeof b === 'object' && JSON.stringify(a) === JSON.stringify(b));
  return [...fields].filter((field) => !before || !after || !same(before[field], after[field]));
}

/**
 * A ledger as plain data, to keep between sessions (kept-reads.ts): each document with its reads
 * as numbers into one table of read keys (a read is shared by many documents), and the indexes.
 */
export interface LedgerSnapshot {
  reads: string[];
  documents: Array<{ doc: DocumentId; reads: Int32Array }>;
  indexes: IndexId[];
}

export class ReadLedger {
  /** read → the documents that made it */
  private readonly readers = new Map<string, Set<string>>();
  /** document → itself and its reads, to forget them when it is made again */
  private readonly documents = new Map<string, { doc: DocumentId; reads: string[] }>();
  /** every reverse index some document read an entry of */
  private readonly indexes = new Map<string, IndexId>();
  /** the reads of documents being made, not yet the ledger's (`replace` takes them in) */
  private readonly pending = new Map<string, { doc: DocumentId; reads: Set<string> }>();

  /** Starts the reads of a document: every document reads its own record, so any edit of it makes the document again. */
  start(doc: DocumentId): DocumentReads {
    const reads = new Set([readKey({ type: 'record', kind: doc.kind, id: doc.id })]);
    this.pending.set(docKey(doc), { doc, reads });
    return {
      doc,
      onRead: (read) => {
        reads.add(readKey(read));
        if (read.type === 'entry') this.indexes.set(indexKey(read.index), read.index);
      },
    };
  }

  /** The reads of the documents started since the last call replace what those documents and `dirty` read before. */
  replace(dirty: readonly DocumentId[]): void {
    for (const doc of dirty) {
      const key = docKey(doc);
      if (!this.pending.has(key)) this.forget(key);
    }
    for (const [key, { doc, reads }] of this.pending) {
      // made again, it read what it read before (a creature that learns a renamed move): nothing to move
      const known = this.documents.get(key);
      if (known && known.reads.length === reads.size && known.reads.every((read) => reads.has(read))) continue;
      this.forget(key);
      this.enter(key, doc, [...reads]);
    }
    this.pending.clear();
  }

  /** What the ledger holds, as plain data (`restore` takes it back); documents started since the last `replace` are not in it. */
  snapshot(): LedgerSnapshot {
    const numbers = new Map<string, number>();
    const numberOf = (read: string): number => {
      let n = numbers.get(read);
      if (n === undefined) numbers.set(read, (n = numbers.size));
      return n;
    };
    const documents = [...this.documents.values()].map(({ doc, reads }) => ({ doc, reads: Int32Array.from(reads, numberOf) }));
    return { reads: [...numbers.keys()], documents, indexes: [...this.indexes.values()] };
  }

  /** A ledger holding what `snapshot` took. */
  static restore(snapshot: LedgerSnapshot): ReadLedger {
    const ledger = new ReadLedger();
    for (const index of snapshot.indexes) ledger.indexes.set(indexKey(index), index);
    for (const { doc, reads } of snapshot.documents)
      ledger.enter(
        docKey(doc),
        doc,
        Array.from(reads, (n) => snapshot.reads[n]!),
      );
    return ledger;
  }

  /** Drops the reads of documents started since the last `replace` (an update that failed). */
  discard(): void {
    this.pending.clear();
  }

  /**
   * The documents that read something that changed, in kind, id and part order, in two lists.
   * To make again: every document of a changed record; those that read all of it, or a field of
   * it that changed; those that read its name when it changed, came or went, or linked to it when
   * it came or went; those that read an entry of a reverse index it joined, left or changed its
   * rows in; those that read its whole kind; those that asked for a media path that appeared or
   * went. To relink: those whose only such read is
   * a link to a record that was renamed (relink.ts).
   */
  dirty(
    changed: ReadonlyMap<KindName, ReadonlyMap<number, RecordChange>>,
    mediaReads: readonly Read[],
    emitters: ReadonlyMap<KindName, KindEmitter>,
  ): DirtyDocuments {
    const reads: Read[] = [...mediaReads];
    const renamedLinks: Read[] = [];
    for (const [kind, diff] of changed) {
      reads.push({ type: 'kind', kind });
      const indexes = [...this.indexes.values()].filter((index) => index.kind === kind);
      for (const [id, { before, after }] of diff) {
        reads.push({ type: 'record', kind, id });
        for (const field of changedFields(before, after)) reads.push({ type: 'field', kind, id, field });
        if (!before || !after) reads.push({ type: 'name', kind, id }, { type: 'link', kind, id });
        else if (before.name !== after.name) {
          reads.push({ type: 'name', kind, id });
          renamedLinks.push({ type: 'link', kind, id });
        }
        for (const index of indexes) for (const value of changedIndexEntries(before, after, index)) reads.push({ type: 'entry', index, value });
      }
    }
    const readersOf = (all: readonly Read[]): Map<string, DocumentId> => {
      const docs = new Map<string, DocumentId>();
      for (const read of all) for (const key of this.readers.get(readKey(read)) ?? []) docs.set(key, this.documents.get(key)!.doc);
      return docs;
    };
    const remake = readersOf(reads);
    for (const [kind, diff] of changed) {
      for (const id of diff.keys()) for (const { part } of emitters.get(kind)?.documents ?? []) remake.set(docKey({ kind, id, part }), { kind, id, part });
    }
    const relink = [...readersOf(renamedLinks)].filter(([key]) => !remake.has(key)).map(([, doc]) => doc);
    return { remake: inDocumentOrder([...remake.values()]), relink: inDocumentOrder(relink) };
  }

  /** A document and its reads, each read knowing it as one of its readers. */
  private enter(key: string, doc: DocumentId, reads: string[]): void {
    this.documents.set(key, { doc, reads });
    for (const read of reads) {
      let docs = this.readers.get(read);
      if (!docs) this.readers.set(read, (docs = new Set()));
      docs.add(key);
    }
  }

  private forget(key: string): void {
    for (const read of this.documents.get(key)?.reads ?? []) this.readers.get(read)?.delete(key);
    this.documents.delete(key);
  }
}
