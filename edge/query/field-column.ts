/**
 * A field column as the build writes it (layout.ts `fieldColumnFile`): the value at one declared
 * field of each listed item, in list order, as text lines (UTF-8):
 *
 *   {"format":"field-column/2","kind":"creature","field":"types","count":1350}
 *   [{"slot":1,"type":{"name":"grass","url":"…"}}, …]      ← entry 0's value, its JSON text
 *   …                                                      ← one line per entry
 *
 * JSON text never holds a raw line break, so each entry is one line. The request side reads the
 * file's bytes and touches only the entries of the page it answers: their bytes go into the
 * answer as they are (edge/query/raw-json.ts), or, where a path below the field is asked, just
 * those entries are parsed. Nothing else of the file is decoded.
 *
 * A `names` field also has one column per language its entries use (`lang` in the file name):
 * each entry's names in that language only (`onlyLanguage`), so `lang=de` reads German text only.
 */
import type { Json } from './fields.ts';
import { RawJson, type JsonPart } from './raw-json.ts';

export const FIELD_COLUMN_FORMAT = 'field-column/2';

/** A column's first line. `lang`: the language of a `names` field's column of one language. */
export interface FieldColumnHeader {
  format: typeof FIELD_COLUMN_FORMAT;
  kind: string;
  field: string;
  lang?: string;
  count: number;
}

const LINE_BREAK = 0x0a;
const decoder = new TextDecoder();

/** The file's text: its header line, then each value's JSON text on a line of its own. */
export function encodeFieldColumn(header: Omit<FieldColumnHeader, 'format' | 'count'>, values: readonly Json[]): string {
  const head: FieldColumnHeader = { format: FIELD_COLUMN_FORMAT, ...header, count: values.length };
  return [head, ...values].map((value) => JSON.stringify(value) + '\n').join('');
}

/**
 * What an answer reads of a column: each entry as the answer takes it whole (`raw`: bytes, or a
 * value written as JSON) or parsed (`value`): a built column's file (FieldColumn).
 */
export interface ColumnReader {
  readonly count: number;
  raw(p: number): JsonPart;
  value(p: number): Json;
}

/** The file's bytes, read by entry: its lines found once, an entry parsed only when asked. */
export class FieldColumn implements ColumnReader {
  readonly header: FieldColumnHeader;
  private readonly lines: JsonLines;

  constructor(bytes: Uint8Array) {
    const { header, end } = headerLine<FieldColumnHeader>(bytes, FIELD_COLUMN_FORMAT, 'a field column');
    this.header = header;
    this.lines = new JsonLines(bytes, end + 1, header.count);
  }

  get count(): number {
    return this.header.count;
  }

  /** Entry `p`'s JSON text, as its bytes. */
  raw(p: number): RawJson {
    return this.lines.raw(p);
  }

  value(p: number): Json {
    return this.lines.value(p);
  }
}

/** JSON texts, one a line from `from` on: each line's bytes (a view, made once) or its value (parsed once). */
class JsonLines {
  /** where each line starts, then the end of the last */
  private readonly starts: Uint32Array;
  private readonly parsed = new Map<number, Json>();
  private readonly views: (RawJson | undefined)[] = [];

  constructor(
    private readonly bytes: Uint8Array,
    from: number,
    count: number,
  ) {
    this.starts = lineStarts(bytes, from, count);
  }

  raw(line: number): RawJson {
    return (this.views[line] ??= new RawJson(this.bytes.subarray(this.starts[line]!, this.starts[line + 1]! - 1)));
  }

  value(line: number): Json {
    let value = this.parsed.get(line);
    if (value === undefined) this.parsed.set(line, (value = JSON.parse(decoder.decode(this.raw(line).bytes)) as Json));
    return value;
  }
}

/**
 * A column that differs from another in a few entries, as the build writes it (a list as of a
 * game: edge/as-of-collection.ts): the positions where it differs, then each one's JSON text on
 * a line of its own, in the same order:
 *
 *   {"format":"column-patch/1","kind":"creature","field":"stats","count":1350,"positions":[3,17]}
 *   [{"base_stat":…}]      ← entry 3's value of then
 *   [{"base_stat":…}]      ← entry 17's
 *
 * A creature's stats of a generation differ from today's for the creatures whose stats changed
 * since: the patch holds those, where a whole column would hold every creature (784 kB).
 */
export const COLUMN_PATCH_FORMAT = 'column-patch/1';

export interface ColumnPatchHeader {
  format: typeof COLUMN_PATCH_FORMAT;
  kind: string;
  field: string;
  /** the entries of the whole column */
  count: number;
  /** the positions patched, ascending */
  positions: number[];
}

/** The patch's text: its header line, then the JSON text (`lines`, one per position) of each patched entry. */
export function encodeColumnPatch(header: Omit<ColumnPatchHeader, 'format'>, lines: readonly string[]): string {
  const head: ColumnPatchHeader = { format: COLUMN_PATCH_FORMAT, ...header };
  return [JSON.stringify(head), ...lines].map((line) => line + '\n').join('');
}

/** A column read through a patch: the patched entries from the patch's bytes, every other from `base`. */
export class PatchedColumn implements ColumnReader {
  private readonly patch: JsonLines;
  /** by position, the patch's entry for it, -1 for none */
  private readonly entryAt: Int32Array;

  constructor(private readonly base: ColumnReader, bytes: Uint8Array) {
    const { header, end } = headerLine<ColumnPatchHeader>(bytes, COLUMN_PATCH_FORMAT, 'a column patch');
    if (header.count !== base.count) throw new Error(`a column patch of ${header.count} entries over a column of ${base.count}`);
    this.patch = new JsonLines(bytes, end + 1, header.positions.length);
    this.entryAt = new Int32Array(header.count).fill(-1);
    header.positions.forEach((p, entry) => (this.entryAt[p] = entry));
  }

  get count(): number {
    return this.base.count;
  }

  raw(p: number): JsonPart {
    const entry = this.entryAt[p]!;
    return entry < 0 ? this.base.raw(p) : this.patch.raw(entry);
  }

  value(p: number): Json {
    const entry = this.entryAt[p]!;
    return entry < 0 ? this.base.value(p) : this.patch.value(entry);
  }
}

/** A file's first line, parsed, of the format `format` (`what` names the file's kind in the error), and where it ends. */
function headerLine<T extends { format: string }>(bytes: Uint8Array, format: T['format'], what: string): { header: T; end: number } {
  const end = bytes.indexOf(LINE_BREAK);
  const header = JSON.parse(decoder.decode(bytes.subarray(0, end))) as T;
  if (header.format !== format) throw new Error(`${what} of the format ${String(header.format)}`);
  return { header, end };
}

/** The start of each of `count` lines from `from`, then the end of the last line (after its break). */
function lineStarts(bytes: Uint8Array, from: number, count: number): Uint32Array {
  const starts = new Uint32Array(count + 1);
  let at = from;
  for (let p = 0; p < count; p++) {
    starts[p] = at;
    const end = bytes.indexOf(LINE_BREAK, at);
    if (end === -1) throw new Error(`a field column cut short: ${p} of ${count} entries`);
    at = end + 1;
  }
  starts[count] = at;
  return starts;
}

/** A `names` list with only the entries in `lang` (`{name, language: {name}}`); anything else as it is. */
export function onlyLanguage(value: Json, lang: string): Json {
  if (!Array.isArray(value)) return value;
  return value.filter((entry) => languageOf(entry) === lang);
}

/** The languages a column's `names` lists use, in order of first use. */
export function languagesOf(values: readonly Json[]): string[] {
  const seen = new Set<string>();
  for (const value of values) {
    if (!Array.isArray(value)) continue;
    for (const entry of value) {
      const language = languageOf(entry);
      if (language !== undefined) seen.add(language);
    }
  }
  return [...seen];
}

/** A names entry's `language.name`; undefined when it has none. */
function languageOf(entry: Json): string | undefined {
  const language = typeof entry === 'object' && entry !== null && !Array.isArray(entry) ? entry['language'] : undefined;
  const name = typeof language === 'object' && language !== null && !Array.isArray(language) ? language['name'] : undefined;
  return typeof name === 'string' ? name : undefined;
}

/** Whether a declared field holds `names` lists: its last key is `names`. */
export const isNamesField = (field: string): boolean => field.split('.').pop() === 'names';
