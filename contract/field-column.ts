/**
 * A field column as the build writes it (contract/layout.ts `fieldColumnFile`): the value at one declared
 * field of each listed item, in list order, as text lines (UTF-8), each entry's JSON text whole:
 *
 *   {"format":"field-column/3","kind":"creature","field":"types","count":1350}
 *   [{"slot":1,"type":{"name":"grass","url":"…"}}, …]      ← entry 0's value, its JSON text
 *   …                                                      ← one line per entry
 *
 * or, where that is smaller, as shapes (`shapes` in the header says how many) and runs: a shape
 * is an entry's JSON text with each run that differs between the entries of the shape cut out (a
 * byte 0x01 in its place, which JSON text never holds raw), and an entry is its shape's index,
 * then its runs in order, separated by commas:
 *
 *   {"format":"field-column/3","kind":"creature","field":"stats","count":1350,"shapes":1}
 *   [{"base_stat":\x01,"effort":\x01,"stat":{"name":"hp","url":"…/stat/1/"}}, …]   ← shape 0
 *   0 45,0,49,0,49,0,65,1,65,0,45,0                                              ← entry 0
 *
 * A run is a run of digits, or (`WORD_RUNS`) also a run of anything but digits, quotes,
 * backslashes, slashes and JSON's brackets, colons and commas: a name, a word of a URL. Cut out and
 * put back as bytes, the runs need no meaning: `-1.5` keeps its `-` and `.` in the shape, a link
 * its URL around the id. The build writes whichever of the three is smallest. A creature's stats
 * differ in their numbers only: whole, 784 kB, every entry repeating the same six links; shaped,
 * 46 kB. A species' German names (94 kB) are one shape and each entry its name: 11 kB. All the
 * columns: 15.6 MB whole, 2.7 MB. A fresh process reads fewer bytes, and an answer fills in only
 * the entries it shows.
 *
 * JSON text never holds a raw line break, so each entry is one line. The request side reads the
 * file's bytes and touches only the entries of the page it answers: their bytes go into the
 * answer as they are (contract/raw-json.ts), or, where a path below the field is asked, just
 * those entries are parsed. Nothing else of the file is decoded.
 *
 * A `names` field also has one column per language its entries use (`lang` in the file name):
 * each entry's names in that language only (`onlyLanguage`), so `lang=de` reads German text only.
 */
import type { Json } from './query/fields.ts';
import { jsonBytes, RawJson, SplicedJson, type JsonPart } from './raw-json.ts';

export const FIELD_COLUMN_FORMAT = 'field-column/3';

/** A column's first line. `lang`: the language of a `names` field's column of one language. */
export interface FieldColumnHeader {
  format: typeof FIELD_COLUMN_FORMAT;
  kind: string;
  field: string;
  lang?: string;
  count: number;
  /** how many shape lines come before the entries; absent when each entry is its whole JSON text */
  shapes?: number;
}

const LINE_BREAK = 0x0a;
const SPACE = 0x20;
const COMMA = 0x2c;
/** where a shape's run was cut out */
const HOLE = 0x01;
const HOLE_TEXT = '\u0001';
/** what a hole stands for: a run of digits, in a number or in a string (an id in a link) */
const DIGIT_RUNS = /[0-9]+/g;
/** or also a run of other text, up to a quote, backslash, slash, digit or JSON punctuation */
const WORD_RUNS = /[0-9]+|[^"\\{}[\]:,/0-9]+/g;
// eslint-disable-next-line no-control-regex -- U+0001 is the hole mark (HOLE_TEXT), which JSON text never holds raw
const HOLES = /\u0001/g;
const decoder = new TextDecoder();

/** The file's text: its header line, then each value's JSON text on a line of its own, or its shapes and entries where either cut makes it shorter. */
export function encodeFieldColumn(header: Omit<FieldColumnHeader, 'format' | 'count' | 'shapes'>, values: readonly Json[]): string {
  return encodeFieldColumnTexts(
    header,
    values.map((value) => JSON.stringify(value)),
  );
}

/** `encodeFieldColumn` of values whose JSON texts are made already (`texts`). */
export function encodeFieldColumnTexts(header: Omit<FieldColumnHeader, 'format' | 'count' | 'shapes'>, texts: readonly string[]): string {
  return columnText(header, columnBody(texts));
}

/** What follows a column's header line, whatever the column's kind and field: the entries as `columnBody` writes them. */
export interface ColumnBody {
  count: number;
  /** the header's `shapes`; null when each entry is its whole JSON text */
  shapes: number | null;
  text: string;
}

/** The entries' texts written the shortest way: whole, or as shapes (their count for the header) and runs. */
export function columnBody(whole: readonly string[]): ColumnBody {
  let best = { length: textLength(whole), shapes: null as number | null, lines: whole };
  for (const runs of [WORD_RUNS, DIGIT_RUNS]) {
    const { shapes, entries } = shapedEntries(whole, runs);
    const length = textLength(shapes) + textLength(entries);
    if (length < best.length) best = { length, shapes: shapes.length, lines: [...shapes, ...entries] };
  }
  return { count: whole.length, shapes: best.shapes, text: linesOf(best.lines) };
}

/** A column's file: its header line, then `body`. */
export function columnText(header: Omit<FieldColumnHeader, 'format' | 'count' | 'shapes'>, body: ColumnBody): string {
  return headed({ format: FIELD_COLUMN_FORMAT, ...header, count: body.count } satisfies FieldColumnHeader, body);
}

/** A header line (with the body's `shapes` when it has shapes), then the body: a column's or a patch's file. */
const headed = (head: object, body: ColumnBody): string => `${JSON.stringify(body.shapes === null ? head : { ...head, shapes: body.shapes })}\n${body.text}`;

/** `count` entries from `from` on, after `shapes` shape lines when the file has them: each read as the answer takes it. */
function entriesAt(bytes: Uint8Array, from: number, count: number, shapes: number): JsonLines {
  const lines = new LineIndex(bytes, from, shapes + count);
  return new JsonLines(shapes === 0 ? (p) => new RawJson(lines.line(p)) : shapedEntry(lines, shapes));
}

const linesOf = (lines: readonly string[]): string => lines.map((line) => line + '\n').join('');
const textLength = (lines: readonly string[]): number => lines.reduce((n, line) => n + line.length + 1, 0);

/**
 * Each distinct shape of the entries' texts, in order of first use, and each entry's line. A run
 * every entry of a shape shares (a stat's id in its link, the `2` of `/v2/`) stays in
 * the shape: only the runs that differ are cut out.
 */
function shapedEntries(texts: readonly string[], runsOf: RegExp): { shapes: string[]; entries: string[] } {
  const shapes = new Map<string, { index: number; runs: string[][]; shared: (string | null)[] }>();
  const cut = texts.map((text) => {
    const key = text.replace(runsOf, HOLE_TEXT);
    let shape = shapes.get(key);
    if (shape === undefined) shapes.set(key, (shape = { index: shapes.size, runs: [], shared: [] }));
    const runs = text.match(runsOf) ?? [];
    shape.runs.push(runs);
    return { shape, runs };
  });
  for (const shape of shapes.values()) shape.shared = sharedRuns(shape.runs);
  const shapeTexts = [...shapes].map(([key, { shared }]) => fillHoles(key, shared));
  const entries = cut.map(({ shape: { index, shared }, runs }) => {
    const own = runs.filter((_, hole) => shared[hole] === null);
    return own.length === 0 ? String(index) : `${index} ${own.join(',')}`;
  });
  return { shapes: shapeTexts, entries };
}

/** For each hole of a shape, the run all its entries have there, or null where they differ. */
function sharedRuns(entries: readonly string[][]): (string | null)[] {
  return entries[0]!.map((run, hole) => (entries.every((runs) => runs[hole] === run) ? run : null));
}

/** A shape's text with the shared runs put back in their holes (null: the hole stays). */
function fillHoles(shape: string, runs: readonly (string | null)[]): string {
  let hole = 0;
  return shape.replace(HOLES, () => runs[hole++] ?? HOLE_TEXT);
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

/** The file's bytes, read by entry: its lines found once, an entry made (a shaped one) and parsed only when asked. */
export class FieldColumn implements ColumnReader {
  readonly header: FieldColumnHeader;
  private readonly entries: JsonLines;

  constructor(bytes: Uint8Array) {
    const { header, end } = headerLine<FieldColumnHeader>(bytes, FIELD_COLUMN_FORMAT, 'a field column');
    this.header = header;
    this.entries = entriesAt(bytes, end + 1, header.count, header.shapes ?? 0);
  }

  get count(): number {
    return this.header.count;
  }

  /** Entry `p`'s JSON text, as its bytes or its shape's pieces and its runs. */
  raw(p: number): RawJson | SplicedJson {
    return this.entries.raw(p);
  }

  value(p: number): Json {
    return this.entries.value(p);
  }
}

/** Each entry's JSON text, as the answers take it: what an edit is compared against (generator/indexes/as-of-lists.ts). */
export function entryTexts(bytes: Uint8Array): string[] {
  const column = new FieldColumn(bytes);
  return Array.from({ length: column.count }, (_, p) => decoder.decode(jsonBytes(column.raw(p))));
}

/** Where each of a file's lines from `from` starts: each line's bytes, a view. */
class LineIndex {
  /** where each line starts, then the end of the last */
  private readonly starts: Uint32Array;

  readonly bytes: Uint8Array;
  constructor(bytes: Uint8Array, from: number, count: number) {
    this.bytes = bytes;
    this.starts = lineStarts(bytes, from, count);
  }

  line(i: number): Uint8Array {
    return this.bytes.subarray(this.start(i), this.end(i));
  }

  /** Where line `i` starts in the file's bytes (`bytes`), and where it ends (its line break): no view made. */
  start(i: number): number {
    return this.starts[i]!;
  }

  end(i: number): number {
    return this.starts[i + 1]! - 1;
  }
}

/**
 * A shaped column's entry `p`: its shape's pieces (cut at the holes, copied once a shape) and the
 * entry's runs, for the answer to write one after the other; throws naming the entry when the two
 * do not fit. Neither a view nor a text of its own is made per entry: made so, 124 entries of
 * three columns took 3-4 ms of a fresh process's first answer.
 */
function shapedEntry(lines: LineIndex, shapes: number): (p: number) => SplicedJson {
  const pieces: (Uint8Array[] | undefined)[] = [];
  return (p) => {
    const bytes = lines.bytes,
      start = lines.start(shapes + p),
      end = lines.end(shapes + p);
    let at = start,
      index = 0;
    for (; at < end && bytes[at] !== SPACE; at++) index = bytes[at]! >= 0x30 && bytes[at]! <= 0x39 ? index * 10 + bytes[at]! - 0x30 : NaN;
    if (!(at > start && index < shapes)) throw new Error(`a field column's entry ${p} names no shape`);
    const parts = (pieces[index] ??= holesOf(lines.line(index)));
    const from = Math.min(at + 1, end);
    let runs = at < end ? 1 : 0;
    for (let k = from; k < end; k++) if (bytes[k] === COMMA) runs++;
    if (runs < parts.length - 1) throw new Error(`a field column's entry ${p} holds ${runs} runs for ${parts.length - 1} holes`);
    if (runs > parts.length - 1) throw new Error(`a field column's entry ${p} holds more runs than its shape's ${parts.length - 1} holes`);
    return new SplicedJson(parts, bytes, from, end);
  };
}

/** A shape's text cut at its holes, each piece a copy (written into every entry of the shape). */
function holesOf(shape: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  let start = 0;
  for (let at = shape.indexOf(HOLE); at >= 0; at = shape.indexOf(HOLE, start)) {
    out.push(shape.slice(start, at));
    start = at + 1;
  }
  out.push(shape.slice(start));
  return out;
}

/** JSON texts by number (`partOf` gives each one's): each one as the answer writes it (made once) or its value (parsed once). */
class JsonLines {
  private readonly parsed = new Map<number, Json>();
  private readonly parts: (RawJson | SplicedJson | undefined)[] = [];

  private readonly partOf: (line: number) => RawJson | SplicedJson;
  constructor(partOf: (line: number) => RawJson | SplicedJson) {
    this.partOf = partOf;
  }

  raw(line: number): RawJson | SplicedJson {
    return (this.parts[line] ??= this.partOf(line));
  }

  value(line: number): Json {
    let value = this.parsed.get(line);
    if (value === undefined) this.parsed.set(line, (value = JSON.parse(decoder.decode(jsonBytes(this.raw(line)))) as Json));
    return value;
  }
}

/**
 * A column that differs from another in a few entries, as the build writes it (a list as of a
 * game: edge/as-of-collection.ts): the positions where it differs, then each one's JSON text, as
 * a field column writes its entries (whole, or as shapes and runs), in the same order:
 *
 *   {"format":"column-patch/2","kind":"creature","field":"stats","count":1350,"positions":[3,17]}
 *   [{"base_stat":…}]      ← entry 3's value as of the game
 *   [{"base_stat":…}]      ← entry 17's
 *
 * A creature's stats of a generation differ from today's for the creatures whose stats changed
 * since: the patch holds those, where a whole column would hold every creature. Generation I's
 * stats (its `special`) differ for every creature: whole, that patch was 527 kB.
 */
export const COLUMN_PATCH_FORMAT = 'column-patch/2';

export interface ColumnPatchHeader {
  format: typeof COLUMN_PATCH_FORMAT;
  kind: string;
  field: string;
  /** the entries of the whole column */
  count: number;
  /** the positions patched, ascending */
  positions: number[];
  /** how many shape lines come before the entries; absent when each entry is its whole JSON text */
  shapes?: number;
}

/** The patch's text: its header line, then the entries (`lines`: each patched position's JSON text, in order). */
export function encodeColumnPatch(header: Omit<ColumnPatchHeader, 'format' | 'shapes'>, lines: readonly string[]): string {
  return columnPatchText(header, columnBody(lines));
}

/** A patch's file: its header line, then `body` (`columnBody` of each patched position's JSON text). */
export function columnPatchText(header: Omit<ColumnPatchHeader, 'format' | 'shapes'>, body: ColumnBody): string {
  return headed({ format: COLUMN_PATCH_FORMAT, ...header } satisfies ColumnPatchHeader, body);
}

/** A column read through a patch: the patched entries from the patch's bytes, every other from `base`. */
export class PatchedColumn implements ColumnReader {
  private readonly patch: JsonLines;
  /** by position, the patch's entry for it, -1 for none */
  private readonly entryAt: Int32Array;

  private readonly base: ColumnReader;
  constructor(base: ColumnReader, bytes: Uint8Array) {
    this.base = base;
    const { header, end } = headerLine<ColumnPatchHeader>(bytes, COLUMN_PATCH_FORMAT, 'a column patch');
    if (header.count !== base.count) throw new Error(`a column patch of ${header.count} entries over a column of ${base.count}`);
    this.patch = entriesAt(bytes, end + 1, header.positions.length, header.shapes ?? 0);
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
