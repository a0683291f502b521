/**
 * Making documents for the planner, with the build's own code (emit-kinds.ts): once at the
 * start, every document, only to learn what each reads; then, on each update, the dirty ones,
 * checked against their schemas, each made with a context that tells the ledger its reads.
 */
import { BuildError } from '../build-error.ts';
import { causeOf } from '../problems.ts';
import type { BuildContext } from '../resources/context.ts';
import { emitRecord, itemFacts, ITEM_PART, type KindEmitter, type RecordDocuments } from '../builder/emit-kinds.ts';
import type { KindName } from '../model/kinds.ts';
import type { DocumentId, ReadLedger } from './ledger.ts';
import type { AnyRecord, RecordChanges } from './record-changes.ts';

/** What an update made: by kind, each record's documents (those asked for), and the records that went. */
export interface MadeDocuments {
  made: Map<KindName, Map<number, RecordDocuments>>;
  gone: Map<KindName, number[]>;
  /** documents made, and records that went */
  count: number;
  /** documents made by kind and part (`creature item`, `creature encounters`) */
  byPart: Record<string, number>;
}

/**
 * Makes every document once, unchecked, so the ledger learns what each reads (an item's query
 * facts are read as the item's). The served build made each of them; one that fails now (the
 * data set changed meanwhile) would leave its reads unknown, so it is named in a BuildError as
 * the build names its documents' failures.
 */
export function learnReads(
  ctx: BuildContext,
  emitters: ReadonlyMap<KindName, KindEmitter>,
  records: ReadonlyMap<KindName, readonly AnyRecord[]>,
  ledger: ReadLedger,
): void {
  const problems: string[] = [];
  const thrown: unknown[] = [];
  for (const [kind, em] of emitters) {
    for (const record of records.get(kind) ?? []) {
      for (const { part, emit } of em.documents) {
        const reads = ledger.start({ kind, id: record.id, part });
        // unchecked: the served build checked every document, and only the reads are wanted
        try {
          const docCtx = ctx.forDocument(reads.onRead);
          const doc = emit(record, docCtx);
          if (part === ITEM_PART) itemFacts(em, record, doc as Record<string, unknown>, docCtx);
        } catch (e) {
          // what a document's code throws is its problem, as emitRecord reports it (builder/emit-kinds.ts)
          problems.push(`${kind} ${record.id} ${part}: ${e instanceof Error ? e.message : String(e)}`);
          thrown.push(e);
        }
      }
    }
  }
  if (problems.length) throw new BuildError(problems, causeOf(thrown));
  ledger.replace([]);
}

/** Makes the dirty documents again; throws BuildError naming every bad one. */
export function makeDocuments(
  dirty: readonly DocumentId[],
  ctx: BuildContext,
  emitters: ReadonlyMap<KindName, KindEmitter>,
  changes: RecordChanges,
  ledger: ReadLedger,
): MadeDocuments {
  const result: MadeDocuments = { made: new Map(), gone: new Map(), count: 0, byPart: {} };
  const problems: string[] = [];
  const thrown: unknown[] = [];
  for (const [kind, byId] of partsByRecord(dirty)) {
    const em = emitters.get(kind);
    if (!em) continue;
    const current = new Map((changes.records.get(kind) ?? []).map((r) => [r.id, r]));
    const made = new Map<number, RecordDocuments>();
    for (const [id, parts] of byId) {
      const record = current.get(id);
      if (!record) {
        if (changes.changed.get(kind)?.get(id)?.before) result.gone.set(kind, [...(result.gone.get(kind) ?? []), id]);
        continue;
      }
      const docs = emitRecord(em, ctx, record, {
        parts,
        contextFor: (part) => {
          countMade(result, `${kind} ${part}`);
          return ctx.forDocument(ledger.start({ kind, id, part }).onRead);
        },
      });
      problems.push(...docs.problems);
      thrown.push(...docs.thrown);
      made.set(id, docs);
    }
    result.made.set(kind, made);
  }
  if (problems.length) {
    ledger.discard();
    throw new BuildError(problems, causeOf(thrown));
  }
  for (const ids of result.gone.values()) result.count += ids.length;
  return result;
}

/** One more document made, counted under `what` (`creature item`). */
export function countMade(documents: MadeDocuments, what: string): void {
  documents.count++;
  documents.byPart[what] = (documents.byPart[what] ?? 0) + 1;
}

/** The dirty documents by kind, then record id (in order), as the set of parts to make. */
function partsByRecord(dirty: readonly DocumentId[]): Map<KindName, Map<number, Set<string>>> {
  const out = new Map<KindName, Map<number, Set<string>>>();
  for (const { kind, id, part } of dirty) {
    let byId = out.get(kind);
    if (!byId) out.set(kind, (byId = new Map<number, Set<string>>()));
    let parts = byId.get(id);
    if (!parts) byId.set(id, (parts = new Set()));
    parts.add(part);
  }
  return out;
}
