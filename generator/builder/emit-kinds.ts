/**
 * How a record becomes its documents, shared by the full build (shard.ts), the planner
 * (incremental/) and the writer (writer.ts): a kind's makers with their schema checks, one
 * record's documents, which id owns each name, the kind's whole list, and the media manifests.
 */
import { join } from 'node:path';
import { existsSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { TSchema } from '@sinclair/typebox';
import { validatorFor } from '../../schemas/ajv.ts';
import type { FullList, ListEntry } from '../../contract/pagination.ts';
import { borrowedMarker } from '../../contract/borrowed-field.ts';
import { itemFile, linkOf } from '../../contract/layout.ts';
import { allKinds, type KindName, type RecordOf } from '../model/kinds.ts';
import type { AnyResource } from '../resources/define.ts';
import { resourceUrl, type BuildContext, type Media } from '../resources/context.ts';
import { coverageFacts, type CoverageFacts, type Doc } from '../indexes/coverage.ts';
import { kindQuery, type KindQuery, type QueryFacts } from '../indexes/query-facts.ts';
import { asOfDocument, asOfFacts, creatureAsOfPart, hasAsOfPart, type CreatureAsOfPart, type KeptFacts } from '../indexes/as-of.ts';

type AnyRecord = { id: number; name: string | null };

/** The manifests, as plain text or gzip'd (`sprites.txt.gz`: the copies committed in data/media/). */
export function readMedia(mediaDir: string): Media {
  return { sprites: mediaLines(mediaDir, 'sprites.txt'), cries: mediaLines(mediaDir, 'cries.txt') };
}
const mediaLines = (mediaDir: string, file: string) => {
  const plain = join(mediaDir, file);
  const bytes = existsSync(plain) ? readFileSync(plain) : gunzipSync(readFileSync(`${plain}.gz`));
  return manifestPaths(bytes.toString('utf8'));
};
/** The paths a media manifest lists, one a line. */
export const manifestPaths = (text: string): Set<string> =>
  new Set(
    text
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean),
  );

/**
 * The name of one of a record's documents: `item`, or a subresource's path segment. The
 * incremental planner records what each document reads on its own, so that an edit only the
 * item reads (a move's name, in a creature's moves) does not make its subresources again.
 */
export const ITEM_PART = 'item';
/** A creature's as-of facts and document, made from its record apart from its item (indexes/as-of.ts creatureAsOfPart): a move renamed makes the item again, not them. */
export const AS_OF_PART = 'as-of';

/** How one of a record's documents is made, and the schema check it must pass. */
export interface DocumentMaker {
  part: string;
  emit: (record: unknown, ctx: BuildContext) => unknown;
  check: (doc: unknown) => string | null;
}

/** A kind's resource with its compiled validators: what making one record's documents needs. */
export interface KindEmitter {
  kind: KindName;
  /** the item's maker first, then each subresource's */
  documents: DocumentMaker[];
  /** the subresources' path segments */
  subs: string[];
  listed: ((row: unknown) => boolean) | undefined;
  /** the other names that address a record (KindSpec.aliases) */
  aliases: ((record: unknown) => readonly string[]) | undefined;
  idOnly: boolean;
  /** what its collection can be asked, and how a record's facts are read off its item */
  query: KindQuery;
  /** a field its item's file leaves to another document (ResourceDef.borrows) */
  borrows: { field: string; from: string } | undefined;
}

const specs = new Map(allKinds.map((k) => [k.kind as string, k]));

export function kindEmitter(resource: AnyResource): KindEmitter {
  const spec = specs.get(resource.kind);
  for (const part of [ITEM_PART, AS_OF_PART])
    if (resource.subresources && part in resource.subresources) throw new Error(`${resource.kind}: a subresource may not be named ${part}`);
  // the registry forgets each kind's record type, as for the item's emit below
  const subs = Object.entries<{ schema: TSchema; emit: unknown }>(resource.subresources ?? {}).map(([sub, def]): DocumentMaker => ({
    part: sub,
    emit: def.emit as DocumentMaker['emit'],
    check: validatorFor(def.schema),
  }));
  const emitItem = resource.emit as DocumentMaker['emit'];
  // made from the record, no document of the service: nothing to check
  const asOfPart: DocumentMaker[] = hasAsOfPart(resource.kind)
    ? [
        {
          part: AS_OF_PART,
          emit: (record, ctx) => creatureAsOfPart(record as RecordOf<'creature'>, (moveless) => emitItem(moveless, ctx) as Doc, ctx),
          check: () => null,
        },
      ]
    : [];
  return {
    kind: resource.kind,
    documents: [{ part: ITEM_PART, emit: emitItem, check: validatorFor(resource.schema) }, ...asOfPart, ...subs],
    subs: subs.map((s) => s.part),
    listed: spec?.listed as ((row: unknown) => boolean) | undefined,
    aliases: spec && 'aliases' in spec ? (spec.aliases as (record: unknown) => readonly string[]) : undefined,
    idOnly: spec?.name === null,
    query: kindQuery(resource),
    borrows: resource.borrows,
  };
}

/** A borrowing kind's item file: the item with, in the field's place, the path of the document its link `from` names. */
function borrowingFile(doc: Doc, { field, from }: { field: string; from: string }): Doc {
  const link = doc[from] as { url?: unknown } | null | undefined;
  const url = typeof link?.url === 'string' ? link.url : null;
  const lender = url === null ? null : linkOf(url);
  if (!lender || !(field in doc)) throw new Error(`${field} cannot be left to the document ${from} names (${url ?? 'no link'})`);
  return { ...doc, [field]: borrowedMarker(itemFile(lender.kind, lender.id)) };
}

/** One record's documents: the item's bytes (also its bulk line) and each subresource's, and its query facts. */
export interface RecordDocuments {
  /** null when the item was not asked for, or could not be made (then `problems` says why) */
  item: Buffer | null;
  /** the item as made, before it was encoded (`item`): the database's rows are made from it */
  answer: unknown;
  /** the item's file, when it is not the item's bytes: a kind whose files borrow a field (KindEmitter.borrows); a relinked item is its served file, in `item` */
  file: Buffer | null;
  /** made with the item */
  facts: QueryFacts | null;
  /** made with the item, for the kinds the coverage map covers */
  coverage: CoverageFacts | null;
  /** made with the item, for the kinds the as-of rules read (indexes/as-of.ts); a creature's in the AS_OF_PART */
  asOfFacts: KeptFacts | null;
  /** made with the item, for a move, or in the AS_OF_PART, for a creature: its as-of document's bytes */
  asOfDocument: string | Buffer | null;
  subs: Array<{ sub: string; body: string | Buffer }>;
  problems: string[];
  /** what a document's code threw, among the problems: kept for the BuildError's cause */
  thrown: unknown[];
}

/** A record's documents before any is made. */
export const emptyDocuments = (): RecordDocuments => ({
  item: null,
  answer: null,
  file: null,
  facts: null,
  coverage: null,
  asOfFacts: null,
  asOfDocument: null,
  subs: [],
  problems: [],
  thrown: [],
});

/**
 * Makes a record's documents, or those of `parts` only, each checked against its schema.
 * `contextFor`, when given, gives the context each document is made with (the planner's tells
 * it that document's reads: BuildContext.forDocument).
 */
export function emitRecord(
  em: KindEmitter,
  ctx: BuildContext,
  record: AnyRecord,
  only: { parts?: ReadonlySet<string>; contextFor?: (part: string) => BuildContext } = {},
): RecordDocuments {
  const out = emptyDocuments();
  try {
    for (const { part, emit, check } of em.documents) {
      if (only.parts && !only.parts.has(part)) continue;
      const docCtx = only.contextFor?.(part) ?? ctx;
      const doc = emit(record, docCtx);
      if (part === AS_OF_PART) {
        const { facts, document } = doc as CreatureAsOfPart;
        out.asOfFacts = facts;
        out.asOfDocument = JSON.stringify(document);
        continue;
      }
      const error = check(doc);
      if (part === ITEM_PART) {
        if (error) {
          out.problems.push(`${em.kind} ${record.id}: ${error}`);
          return out;
        }
        // encoded once: the same bytes go to the item's file and to the collection's bulk file
        out.item = Buffer.from(JSON.stringify(doc));
        out.answer = doc;
        if (em.borrows) out.file = Buffer.from(JSON.stringify(borrowingFile(doc as Doc, em.borrows)));
        const { facts, coverage, asOf } = itemFacts(em, record, doc as Doc, docCtx);
        if ('problem' in facts) {
          out.problems.push(facts.problem);
          if (facts.thrown !== undefined) out.thrown.push(facts.thrown);
          out.item = null;
          return out;
        }
        out.facts = facts;
        out.coverage = coverage;
        out.asOfFacts ??= asOf.facts;
        if (asOf.document) out.asOfDocument = JSON.stringify(asOf.document);
      } else if (error) out.problems.push(`${em.kind} ${record.id} ${part}: ${error}`);
      else out.subs.push({ sub: part, body: JSON.stringify(doc) });
    }
  } catch (e) {
    out.problems.push(`${em.kind} ${record.id}: ${e instanceof Error ? e.message : String(e)}`);
    out.thrown.push(e);
  }
  return out;
}

/**
 * What is read off a made item, with the item's context: its query facts (or why they cannot be
 * made), its coverage facts, and its as-of facts and document, each as its kind has them. The
 * coverage and as-of code reads the item through `forFacts`, as the query facts do.
 */
export function itemFacts(em: KindEmitter, record: AnyRecord, doc: Doc, ctx: BuildContext) {
  const watched = ctx.forFacts(doc);
  return {
    facts: em.query.facts(record, doc, ctx, watched),
    coverage: coverageFacts(em.kind, watched.doc),
    asOf: { facts: asOfFacts(em.kind, watched.doc, watched.ctx), document: asOfDocument(em.kind, watched.doc, watched.ctx) },
  };
}

/**
 * Which id each name addresses: the lowest id that has it (see the kind's duplicateNames); then
 * each alias no name took, the lowest id that has it.
 */
export function nameOwners(records: readonly AnyRecord[], aliases?: (record: unknown) => readonly string[]): Map<string, number> {
  const owners = new Map<string, number>();
  for (const r of records) if (r.name !== null && !owners.has(r.name)) owners.set(r.name, r.id);
  if (aliases) for (const r of records) for (const alias of aliases(r)) if (!owners.has(alias)) owners.set(alias, r.id);
  return owners;
}

/** The collection's whole list: name and URL, or URL alone for kinds without names. */
export function kindList(em: KindEmitter, baseUrl: string, records: readonly AnyRecord[]): FullList {
  const results: ListEntry[] = [];
  for (const record of records) {
    if (em.listed !== undefined && !em.listed(record)) continue;
    const url = resourceUrl(baseUrl, em.kind, record.id);
    results.push(record.name === null ? { url } : { name: record.name, url });
  }
  return { count: results.length, results };
}
