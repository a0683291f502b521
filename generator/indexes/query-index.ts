/**
 * A kind's query index files, made from the facts of its listed records in list
 * order, in the shapes the request side reads (edge/query/): the list packed, the filter index,
 * the search index of this kind alone, and one column per declared field
 * (and per language of a `names` field). Pure: the writer's `kindFiles` call
 * these with the facts of the records made now and, on an update, those kept from the served
 * build, so both builds write the same bytes. Also the packed all-kinds search index, made from
 * every kind's search index once all are written (the writer's `finish`).
 */
import { createHash } from 'node:crypto';
import { columnBody, columnText, isNamesField, languagesOf, onlyLanguage, type ColumnBody } from '../../contract/field-column.ts';
import type { Json } from '../../contract/query/fields.ts';
import { positionGaps, type FilterIndexFile, type FilterValueRow } from '../../contract/filter-pack.ts';
import { makeSearchKind, packSearchFiles, SEARCH_INDEX_FORMAT, type SearchIndexFile } from '../../contract/search-index.ts';
import { encodeSearchPack } from '../../contract/search-pack.ts';
import { idOfUrl, type QueryShape } from '../../contract/layout.ts';
import { encodeListPack } from '../../contract/list-pack.ts';
import type { QueryFacts } from './query-facts.ts';
import { jsonText } from './json-text.ts';

/** A record with its query facts (in the index files: a listed one, arrays in list order). */
export interface RecordFacts {
  id: number;
  name: string | null;
  facts: QueryFacts;
}

export function filterIndex(kind: string, shape: QueryShape, listed: readonly RecordFacts[]): FilterIndexFile {
  const values: FilterIndexFile['values'] = {};
  shape.filters.forEach(({ name, about, target, from }, f) => {
    // read from the other kind's index by the request logic (edge/build-files.ts `filterIndex`)
    if (from !== undefined) return;
    values[name] = {
      about,
      ...(target === null ? {} : { target }),
      values: VALUE_ROWS.rows(
        `${kind}/${name}`,
        listed.map((r) => r.facts.values[f] ?? []),
      ),
    };
  });
  const ranges: FilterIndexFile['ranges'] = {};
  shape.ranges.forEach(({ name }, r) => {
    ranges[name] = listed.map((record) => record.facts.ranges[r] ?? null);
  });
  return { format: 'filter-index/1', kind, count: listed.length, values, ranges };
}

/** A hash of JSON texts (which hold no raw newline), in one update: an update per text costs more than the hash itself. */
const textsHash = (texts: readonly string[]): string => createHash('sha1').update(texts.join('\n')).digest('hex');

/**
 * The last rows made for each value filter, by a hash of what each record holds: an update makes
 * a kind's filter index again when its ranges changed (a base stat), and its value filters are
 * most often as they were, while grouping the creature's moves by value costs tens of
 * milliseconds where hashing their text (made once per facts object, json-text.ts) costs a few.
 */
class ValueRowsMemo {
  private readonly made = new Map<string, { hash: string; rows: FilterValueRow[] }>();

  rows(filter: string, perRecord: ReadonlyArray<ReadonlyArray<[string, number | null]>>): FilterValueRow[] {
    const digest = textsHash(perRecord.map(jsonText));
    const last = this.made.get(filter);
    if (last?.hash === digest) return last.rows;
    const rows = valueRows(perRecord);
    this.made.set(filter, { hash: digest, rows });
    return rows;
  }
}

const VALUE_ROWS = new ValueRowsMemo();

/** A value some record holds, with the positions of the records holding it. */
type HeldValue = { name: string; id: number | null; positions: number[] };

/** Each value held, by id (then name), with the positions of the records holding it. */
function valueRows(perRecord: ReadonlyArray<ReadonlyArray<[string, number | null]>>): FilterValueRow[] {
  // by id, then name: no key string made for each of the hundred thousand values the creatures hold
  const byValue = new Map<number | null, Map<string, HeldValue>>();
  perRecord.forEach((held, position) => {
    for (const [name, id] of held) {
      let named = byValue.get(id);
      if (!named) byValue.set(id, (named = new Map<string, HeldValue>()));
      let value = named.get(name);
      if (!value) named.set(name, (value = { name, id, positions: [] }));
      // a record may hold a value twice (two slots of one link); it is one member
      if (value.positions[value.positions.length - 1] !== position) value.positions.push(position);
    }
  });
  return [...byValue.values()]
    .flatMap((named) => [...named.values()])
    .sort((a, b) => (a.id ?? -1) - (b.id ?? -1) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((v): FilterValueRow => [v.name, v.id, positionGaps(v.positions)]);
}

/**
 * The kind's names: each record's own and its translations, languages in order of first use
 * along the list. Null for a kind without names (addressed by id only). `byLanguage`: each
 * language's names kept apart, for `lang=` (contract/search-index.ts `makeSearchKind`).
 */
export function searchIndex(kind: string, listed: readonly RecordFacts[], byLanguage = false): SearchIndexFile | null {
  if (listed.some((r) => r.name === null)) return null;
  const languages: string[] = [];
  const seen = new Set<string>();
  for (const { facts } of listed) {
    for (const [language] of facts.names) {
      if (!seen.has(language)) {
        seen.add(language);
        languages.push(language);
      }
    }
  }
  const resources = listed.map(({ id, name, facts }) => ({
    id,
    name: name ?? '',
    names: facts.names.map(([language, translated]) => ({ language, name: translated })),
  }));
  return { format: SEARCH_INDEX_FORMAT, languages, kinds: [makeSearchKind(kind, resources, languages, byLanguage)] };
}

/**
 * The kind's list packed (contract/list-pack.ts): each listed record's id and name (the list's
 * entries are made from them: `kindList`), and each declared link's target id. Throws naming the
 * entry whose link is neither null nor a link: the pack could not give it back.
 */
export function listPack(kind: string, shape: QueryShape, listed: readonly RecordFacts[]): Uint8Array {
  const links = Object.fromEntries(
    Object.keys(shape.links ?? {}).map((field) => {
      const f = shape.fields.indexOf(field);
      return [field, listed.map((r) => linkId(kind, field, r.facts.fields[f]))];
    }),
  );
  return encodeListPack({ kind, entries: listed.map(({ id, name }) => ({ id, name })), links });
}

/** A link value's id; null for none. */
function linkId(kind: string, field: string, value: unknown): number | null {
  if (value === null || value === undefined) return null;
  const url = typeof value === 'object' && !Array.isArray(value) ? (value as { url?: unknown }).url : undefined;
  const id = typeof url === 'string' ? idOfUrl(url) : null;
  if (id === null) throw new Error(`the list of ${kind}: a ${field} that is no link: ${JSON.stringify(value)}`);
  return id;
}

/** A field column's file: its field, its language (a `names` field's, one language only) and its text (null: as served). */
export interface FieldColumnText {
  field: string;
  lang: string | null;
  text: string | null;
}

/**
 * One column per declared field: each listed item's value there; for a `names` field, also one
 * per language its lists use, each list in that language only. `asServed(f)`: whether the
 * served build's columns of the field at index `f` hold these values already (an update's), whose
 * texts are then not made (null).
 */
export function fieldColumns(
  kind: string,
  shape: QueryShape,
  listed: readonly RecordFacts[],
  asServed: (f: number) => boolean = () => false,
): FieldColumnText[] {
  return shape.fields.flatMap((field, f) => {
    const values = listed.map((r) => r.facts.fields[f]!);
    const kept = asServed(f);
    const whole = { field, lang: null, text: kept ? null : COLUMN_TEXTS.encode({ kind, field }, values) };
    if (!isNamesField(field)) return [whole];
    return [
      whole,
      ...languagesOf(values).map((lang) => ({
        field,
        lang,
        text: kept
          ? null
          : COLUMN_TEXTS.encode(
              { kind, field, lang },
              values.map((v) => onlyLanguage(v, lang)),
            ),
      })),
    ];
  });
}

/**
 * The last text made for each column, by a hash of its values: an update makes every column of
 * a kind whose records changed again, from all its records, and most columns are as they were
 * (a move renamed changes no creature column), while cutting a column into shapes costs about
 * 6 times its JSON (creature's and move's columns: 120 ms, their JSON 23 ms). What a process
 * keeps is a hash and the text of each column, about 3 MB for every kind.
 */
class ColumnTexts {
  private readonly made = new Map<string, { hash: string; text: string }>();
  /**
   * The body of each column text kept in `made`, by its values' hash, with the files it was last
   * made for: a column of another kind with the same values (the entry's `stats`, the
   * creature's, position for position) takes the body and writes its own header.
   */
  private readonly bodies = new Map<string, { body: ColumnBody; files: Set<string> }>();

  encode(header: { kind: string; field: string; lang?: string }, values: readonly Json[]): string {
    const file = `${header.kind}/${header.field}~${header.lang ?? ''}`;
    const texts = values.map(jsonText);
    const digest = textsHash(texts);
    const last = this.made.get(file);
    if (last?.hash === digest) return last.text;
    let shared = this.bodies.get(digest);
    if (!shared) this.bodies.set(digest, (shared = { body: columnBody(texts), files: new Set() }));
    const text = columnText(header, shared.body);
    if (last) this.release(last.hash, file);
    shared.files.add(file);
    this.made.set(file, { hash: digest, text });
    return text;
  }

  /** `file` no longer made from the body of `hash`: a body no file was last made from is dropped. */
  private release(hash: string, file: string): void {
    const shared = this.bodies.get(hash);
    shared?.files.delete(file);
    if (shared?.files.size === 0) this.bodies.delete(hash);
  }
}

const COLUMN_TEXTS = new ColumnTexts();

/** The packed search index (contract/search-pack.ts) of these kinds' search indexes, in the order given. */
export function searchPack(files: readonly SearchIndexFile[]): Uint8Array {
  return encodeSearchPack(packSearchFiles(files));
}
