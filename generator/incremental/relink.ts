/**
 * Relinking: a document whose only read of what an edit changed is a link to a renamed record
 * holds the old name in that link's `{"name":…,"url":…}` and nowhere else (resources/context.ts
 * `Read`: its facts' code, which may read a name for more, tells a `name` read when it does). Its
 * new bytes are then the served ones with each such link's text replaced, and its query facts the
 * kept ones with the name replaced where they copy the link: a filter's value, a field. A move
 * renamed reaches every creature that learns it, hundreds of documents of hundreds of kilobytes:
 * splicing their bytes costs a small part of making them again, and gives the same bytes.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { itemFile, subresourceFile, type QueryShape } from '../../contract/layout.ts';
import { asOfDocumentFile } from '../../contract/as-of/facts.ts';
import type { Json } from '../../contract/query/fields.ts';
import { BuildError } from '../build-error.ts';
import { AS_OF_PART, emptyDocuments, ITEM_PART, type KindEmitter, type RecordDocuments } from '../builder/emit-kinds.ts';
import { hasAsOfDocument, hasAsOfPart } from '../indexes/as-of.ts';
import { readKeptFacts } from '../indexes/kept-facts.ts';
import type { FactValue, QueryFacts } from '../indexes/query-facts.ts';
import type { KindName } from '../model/kinds.ts';
import { resourceUrl } from '../resources/context.ts';
import type { DocumentId } from './ledger.ts';
import { countMade, type MadeDocuments } from './documents.ts';
import type { RecordChange } from './record-changes.ts';

/** The text of a renamed record's link before and after, as JSON.stringify writes a link. */
interface Rename {
  before: Buffer;
  after: Buffer;
}

/** The records renamed among those that changed (both there, another name), and how their links change. */
export class Renames {
  private readonly all: Rename[] = [];
  /** the new name by kind and id */
  private readonly byKind = new Map<string, Map<number, string>>();
  /** the new name by link URL */
  private readonly byUrl = new Map<string, string>();

  constructor(changed: ReadonlyMap<KindName, ReadonlyMap<number, RecordChange>>, baseUrl: string) {
    for (const [kind, diff] of changed) {
      for (const [id, { before, after }] of diff) {
        if (!before || !after || before.name === after.name || before.name === null || after.name === null) continue;
        const url = resourceUrl(baseUrl, kind, id);
        const linkText = (name: string) => Buffer.from(JSON.stringify({ name, url }));
        this.all.push({ before: linkText(before.name), after: linkText(after.name) });
        let names = this.byKind.get(kind);
        if (!names) this.byKind.set(kind, (names = new Map<number, string>()));
        names.set(id, after.name);
        this.byUrl.set(url, after.name);
      }
    }
  }

  /** The most a file's bytes can grow by relinking: each link's text replaced by one longer by this factor at most. */
  get growth(): number {
    return Math.max(1, ...this.all.map(({ before, after }) => after.length / before.length));
  }

  /** The pieces `served` is made of with every link to a renamed record written with its new name, in order. */
  pieces(served: Buffer): Buffer[] {
    const hits: Array<[at: number, rename: Rename]> = [];
    for (const rename of this.all) {
      for (let at = served.indexOf(rename.before); at >= 0; at = served.indexOf(rename.before, at + rename.before.length)) hits.push([at, rename]);
    }
    if (hits.length === 0) return [served];
    hits.sort((a, b) => a[0] - b[0]);
    const pieces: Buffer[] = [];
    let from = 0;
    for (const [at, { before, after }] of hits) {
      pieces.push(served.subarray(from, at), after);
      from = at + before.length;
    }
    pieces.push(served.subarray(from));
    return pieces;
  }

  /** Query facts with a renamed record's name where they copy its link; the same object when nothing changed. */
  facts(facts: QueryFacts, shape: QueryShape): QueryFacts {
    let changed = false;
    const values = facts.values.map((entries, i) => {
      const names = this.byKind.get(shape.filters[i]?.target ?? '');
      if (!names) return entries;
      return entries.map((entry): FactValue => {
        const to = entry[1] === null ? undefined : names.get(entry[1]);
        if (to === undefined) return entry;
        changed = true;
        return [to, entry[1]];
      });
    });
    const fields = facts.fields.map((value) => {
      const relinked = this.json(value);
      if (relinked !== value) changed = true;
      return relinked;
    });
    return changed ? { ...facts, values, fields } : facts;
  }

  /** A JSON value with every link to a renamed record given its new name; the same value where none is. */
  private json(value: Json): Json {
    if (typeof value !== 'object' || value === null) return value;
    if (Array.isArray(value)) {
      const items = value.map((item) => this.json(item));
      return items.some((item, i) => item !== value[i]) ? items : value;
    }
    const keys = Object.keys(value);
    if (keys.length === 2 && keys[0] === 'name' && keys[1] === 'url' && typeof value.url === 'string') {
      const to = this.byUrl.get(value.url);
      return to === undefined ? value : { name: to, url: value.url };
    }
    const entries = keys.map((key): [string, Json] => [key, this.json(value[key]!)]);
    return entries.some(([key, item]) => item !== value[key]) ? Object.fromEntries(entries) : value;
  }
}

/**
 * The two buffers relinking reads each served file into and writes the relinked ones into, kept
 * from one update to the next (and so good for one update only). A buffer of tens of megabytes
 * allocated anew counts as that much more memory outside V8's heap, and V8 answers with a full
 * collection of the planner's heap: hundreds of milliseconds, more than the relinking itself.
 */
export class SpliceBuffers {
  private readonly buffers: Buffer[] = [Buffer.alloc(0), Buffer.alloc(0)];

  /** Buffer `which` (0: read, 1: written) with room for `size` bytes; what it held may be overwritten. */
  room(which: 0 | 1, size: number): Buffer {
    if (this.buffers[which]!.length < size) this.buffers[which] = Buffer.allocUnsafeSlow(Math.ceil(size * 1.25));
    return this.buffers[which]!;
  }
}

/**
 * Adds the relinked documents to what an update made: each made from the served build's file of
 * that document (in `servedDir`) and, for an item, its kind's kept query facts. A record some of
 * whose documents were made again gets the others relinked beside them.
 */
export function relinkDocuments(
  relink: readonly DocumentId[],
  renames: Renames,
  servedDir: string,
  emitters: ReadonlyMap<KindName, KindEmitter>,
  documents: MadeDocuments,
  buffers: SpliceBuffers,
): void {
  /** each kind's kept facts, read once */
  const kept = new Map<KindName, ReadonlyMap<number, QueryFacts>>();
  /** each served file to relink, and where its relinked bytes go */
  const files: Array<{ rel: string; to: (bytes: Buffer) => void }> = [];
  for (const { kind, id, part } of relink) {
    const em = emitters.get(kind);
    if (!em) continue;
    let made = documents.made.get(kind);
    if (!made) documents.made.set(kind, (made = new Map<number, RecordDocuments>()));
    const docs = made.get(id) ?? emptyDocuments();
    made.set(id, docs);
    countMade(documents, `${kind} ${part} (relinked)`);
    if (part === ITEM_PART) {
      files.push({ rel: itemFile(kind, id), to: (bytes) => (docs.item = bytes) });
      let keptOfKind = kept.get(kind);
      if (!keptOfKind) kept.set(kind, (keptOfKind = readKeptFacts(servedDir, kind, em.query.shape)));
      const facts = keptOfKind.get(id);
      if (!facts) throw new BuildError([`${servedDir} kept no query facts of ${kind} ${id}; run a full build (npm run build -- --force)`]);
      docs.facts = renames.facts(facts, em.query.shape);
      // a move's as-of document is made with its item; a creature's in its own part
      if (hasAsOfDocument(kind) && !hasAsOfPart(kind)) files.push({ rel: asOfDocumentFile(kind, id), to: (bytes) => (docs.asOfDocument = bytes) });
    } else if (part === AS_OF_PART) {
      if (hasAsOfDocument(kind)) files.push({ rel: asOfDocumentFile(kind, id), to: (bytes) => (docs.asOfDocument = bytes) });
    } else files.push({ rel: subresourceFile(kind, id, part), to: (bytes) => docs.subs.push({ sub: part, body: bytes }) });
  }
  splicedFiles(
    servedDir,
    files.map((f) => f.rel),
    renames,
    buffers,
  ).forEach((bytes, i) => files[i]!.to(bytes));
}

/**
 * The served files at `rels`, each with its links to renamed records relinked: each file read into
 * the first of `buffers`, and written, relinked, into the second, sized for the most its bytes can
 * grow. A page of a buffer is paid for when it is first written (microseconds on these machines), so the
 * pages beyond what is written cost nothing, and a file read into the same pages costs no more.
 */
function splicedFiles(servedDir: string, rels: readonly string[], renames: Renames, buffers: SpliceBuffers): Buffer[] {
  const sizes = rels.map((rel) => {
    const size = statSync(join(servedDir, rel), { throwIfNoEntry: false })?.size;
    if (size === undefined) throw new BuildError([`${servedDir} has no ${rel} to relink; run a full build (npm run build -- --force)`]);
    return size;
  });
  const written = buffers.room(1, Math.ceil(sizes.reduce((sum, size) => sum + size, 0) * renames.growth));
  let offset = 0;
  return rels.map((rel, i) => {
    const file = buffers.room(0, sizes[i]!).subarray(0, sizes[i]);
    const fd = openSync(join(servedDir, rel), 'r');
    try {
      for (let done = 0; done < file.length;) {
        const n = readSync(fd, file, done, file.length - done, done);
        if (n === 0) throw new BuildError([`${servedDir}/${rel} was cut short while it was relinked`]);
        done += n;
      }
    } finally {
      closeSync(fd);
    }
    const start = offset;
    for (const part of renames.pieces(file)) offset += part.copy(written, offset);
    return written.subarray(start, offset);
  });
}
