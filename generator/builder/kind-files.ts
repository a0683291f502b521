/**
 * The files made from a kind's whole set of records, written on its writer's close by both
 * builds (a full build and the dev loop's update): a new per-kind output is one more entry in
 * `kindFiles`.
 */
import {
  DEFAULT_LIMIT,
  fieldColumnFile,
  filterIndexFile,
  listFile,
  listPackFile,
  languageSearchFile,
  pageFile,
  searchIndexFile,
  type QueryShape,
} from '../../contract/layout.ts';
import { paginate, type FullList } from '../../contract/pagination.ts';
import { encodeFilterPack } from '../../contract/filter-pack.ts';
import { coverageFactsBody, coverageFactsFile } from '../indexes/coverage-facts.ts';
import type { CoverageFacts } from '../indexes/coverage.ts';
import { keptFactsFile } from '../indexes/kept-facts.ts';
import { asOfFactsBodies, type KeptFacts } from '../indexes/as-of.ts';
import type { FactKind } from '../../contract/as-of/facts.ts';
import { fieldColumns, filterIndex, listPack, searchIndex, type RecordFacts } from '../indexes/query-index.ts';
import type { QueryFacts } from '../indexes/query-facts.ts';

export type AnyRecord = { id: number; name: string | null };

/** What a kind file is made from: the kind's records in id order and its whole list, and its query facts. */
export interface KindFileInput {
  kind: string;
  records: readonly AnyRecord[];
  list: FullList;
  baseUrl: string;
  query: KindFacts;
  /** every record's coverage facts in id order, for a kind the coverage map covers */
  coverage: Array<[id: number, facts: CoverageFacts]> | null;
  /** every record's as-of facts in id order, for a kind the as-of rules read; null for another kind, or on a copy that holds them already (kind-writer.ts) */
  asOf: Array<[id: number, facts: KeptFacts]> | null;
  /**
   * On a copy: whether the list is the served one and every record's facts made again hold what
   * `reads` picks of them as the kept ones do, so that a file made from that alone is as served
   * (builder/kind-writer.ts); false in a full build.
   */
  asServed: (reads: (facts: QueryFacts) => unknown) => boolean;
}

/** A kind's query declaration with the facts of its records. */
export interface KindFacts {
  shape: QueryShape;
  /** every record's facts, in id order */
  all: readonly RecordFacts[];
  /** the listed records' facts, in list order: index positions are positions here */
  listed: readonly RecordFacts[];
}

/**
 * A file (or files) made from a kind's whole set of records. `folder`, when given, holds only
 * what the maker makes: an update removes the files in it that the maker no longer makes.
 */
export interface KindFileMaker {
  /** each file's path and body; a null body: the file as the copy holds it from the served build, left as it is */
  make(input: KindFileInput): Array<[path: string, body: string | Uint8Array | null]>;
  folder?: (kind: string) => string;
  /**
   * All the maker reads of a record's facts, when it reads nothing else but the list's ids,
   * names and order (and the base URL). On a copy whose list is the served one, where every
   * record's facts made again hold the same of it as the kept ones, its files are kept as served
   * (builder/kind-writer.ts). Absent: made on every write of the kind.
   */
  reads?: (facts: QueryFacts, shape: QueryShape) => unknown;
}

/** What of the facts the list of names and ids reads: nothing. */
const NOTHING = () => null;
/** The links (to their targets' ids) the list pack holds. */
const linkValues = (facts: QueryFacts, shape: QueryShape) => Object.keys(shape.links ?? {}).map((field) => facts.fields[shape.fields.indexOf(field)]);

const folderOf = (path: string) => path.slice(0, path.lastIndexOf('/'));
const pagesFolder = (kind: string) => folderOf(pageFile(kind, 0));
/** Where a kind's field columns are (`fieldColumnFile`). */
const fieldsFolder = (kind: string) => folderOf(fieldColumnFile(kind, 'id'));

export const kindFiles: readonly KindFileMaker[] = [
  { make: ({ kind, list }) => [[listFile(kind), JSON.stringify(list)]], reads: NOTHING },
  {
    // the default-size pages: the first is written even for an empty list
    make: ({ kind, list, baseUrl }) => {
      const files: Array<[string, string]> = [];
      for (let offset = 0; offset === 0 || offset < list.count; offset += DEFAULT_LIMIT) {
        files.push([pageFile(kind, offset), JSON.stringify(paginate(list, `${baseUrl}/${kind}/`, offset, DEFAULT_LIMIT))]);
      }
      return files;
    },
    folder: pagesFolder,
    reads: NOTHING,
  },
  // the query indexes: the request side's list, filters, q, search and fields
  { make: ({ kind, query }) => [[listPackFile(kind), listPack(kind, query.shape, query.listed)]], reads: linkValues },
  {
    make: ({ kind, query }) => [[filterIndexFile(kind), encodeFilterPack(filterIndex(kind, query.shape, query.listed))]],
    reads: (facts) => [facts.values, facts.ranges],
  },
  {
    make: ({ kind, query }) => {
      const search = searchIndex(kind, query.listed);
      return search ? [[searchIndexFile(kind), JSON.stringify(search)]] : [];
    },
    reads: (facts) => facts.names,
  },
  {
    make: ({ kind, query }) => {
      const search = searchIndex(kind, query.listed, true);
      return search ? [[languageSearchFile(kind), JSON.stringify(search)]] : [];
    },
    reads: (facts) => facts.names,
  },
  {
    // a column whose field no record made again holds otherwise is kept as served (a stat edit remakes the stats' only)
    make: ({ kind, query, asServed }) =>
      fieldColumns(kind, query.shape, query.listed, (f) => asServed((facts) => facts.fields[f])).map((c): [string, string | null] => [
        fieldColumnFile(kind, c.field, c.lang),
        c.text,
      ]),
    folder: fieldsFolder,
    reads: (facts) => facts.fields,
  },
  // what the next update reads back for the records it does not make again
  { make: ({ kind, query }) => [keptFactsFile(kind, query.shape, query.all)] },
  // what the coverage map is made from (coverage-facts.ts)
  { make: ({ kind, coverage }) => (coverage ? [[coverageFactsFile(kind), coverageFactsBody(kind, coverage)]] : []) },
  // what the as-of answers read (contract/as-of/facts.ts)
  { make: ({ kind, asOf }) => (asOf ? asOfFactsBodies(kind as FactKind, asOf) : []) },
];
