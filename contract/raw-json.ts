/**
 * JSON written straight to UTF-8 bytes, with parts that already are JSON bytes (a field column's
 * entry, contract/field-column.ts) copied in as they are: an answer with fields is spliced from
 * the columns' bytes instead of parsing them and stringifying again. The bytes are exactly what
 * `TextEncoder.encode(JSON.stringify(value))` gives for the same value with each raw part parsed:
 * keys in `Object.keys` order, keys with undefined values left out (null in arrays), and every
 * string and number written by `JSON.stringify` itself.
 *
 * Why not one `JSON.stringify` and an encode: the big string holding a single non-ASCII character
 * is a two-byte string, and Node's TextEncoder takes milliseconds for one of 100 kB.
 */

/** JSON text kept as its UTF-8 bytes: written as it is. */
export class RawJson {
  readonly bytes: Uint8Array;
  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
  }
}

/**
 * JSON text kept as pieces with runs between them (a shaped field column's entry,
 * contract/field-column.ts): piece 0, the first run, piece 1, … The runs are `runs[from..to)`,
 * separated by commas, one fewer than the pieces. Written straight into the answer: no entry's
 * text is made on its own.
 */
export class SplicedJson {
  readonly pieces: readonly Uint8Array[];
  readonly runs: Uint8Array;
  readonly from: number;
  readonly to: number;
  constructor(pieces: readonly Uint8Array[], runs: Uint8Array, from: number, to: number) {
    this.pieces = pieces;
    this.runs = runs;
    this.from = from;
    this.to = to;
  }
}

/** A JSON value whose parts may be raw bytes. */
export type JsonPart = null | boolean | number | string | RawJson | SplicedJson | JsonPart[] | { [key: string]: JsonPart };

/** Whether a part is JSON text already (raw or spliced), not a value. */
export const isText = (value: unknown): value is RawJson | SplicedJson => value instanceof RawJson || value instanceof SplicedJson;

const encoder = new TextEncoder();
/** Up to this many UTF-16 units, an ASCII string is copied without a view (see `ByteWriter.text`). */
const SHORT_TEXT = 256;
const QUOTE = 0x22;
const COMMA = 0x2c;
const BACKSLASH = 0x5c;
const BRACES = { '[': 0x5b, ']': 0x5d, '{': 0x7b, '}': 0x7d, ',': 0x2c } as const;

/**
 * The buffer writers start from, kept between answers (a writer runs to its end without
 * yielding, so one at a time uses it): a 100 kB answer then makes no garbage but its own bytes.
 */
let scratch = new Uint8Array(64 * 1024);
/** Larger buffers are not kept: memory held between answers stays small. */
const KEPT_SCRATCH = 4 * 1024 * 1024;

/** A byte buffer that grows as it is written. */
class ByteWriter {
  private bytes = scratch;
  private length = 0;

  byte(value: number): void {
    this.room(1);
    this.bytes[this.length++] = value;
  }

  raw(bytes: Uint8Array): void {
    this.room(bytes.length);
    this.bytes.set(bytes, this.length);
    this.length += bytes.length;
  }

  /** Each piece, with the next run between it and the next piece, the runs' bytes copied one by one (a run is a few bytes). */
  spliced({ pieces, runs, from, to }: SplicedJson): void {
    let at = from;
    for (let i = 0; i < pieces.length; i++) {
      if (i > 0) {
        let end = at;
        while (end < to && runs[end] !== COMMA) end++;
        this.room(end - at);
        for (let k = at; k < end; k++) this.bytes[this.length++] = runs[k]!;
        at = end + 1;
      }
      this.raw(pieces[i]!);
    }
  }

  /**
   * A string's UTF-8 bytes (at most 3 per UTF-16 unit). Most are short and ASCII (keys, names,
   * URLs, numbers): those are copied unit by unit, since `encodeInto` needs a view of the buffer
   * made for each call, and those views were a sixth of what an answer allocated.
   */
  text(text: string): void {
    this.room(text.length * 3);
    if (text.length <= SHORT_TEXT && this.copyAscii(text, this.length, false)) this.length += text.length;
    else this.length += encoder.encodeInto(text, this.bytes.subarray(this.length)).written;
  }

  /**
   * A string as JSON: a short one with nothing to escape (printable ASCII, no quote or
   * backslash) copied between quotes, any other as `JSON.stringify` writes it.
   */
  quoted(text: string): void {
    this.room(text.length + 2);
    if (text.length > SHORT_TEXT || !this.copyAscii(text, this.length + 1, true)) return this.text(JSON.stringify(text));
    this.bytes[this.length] = QUOTE;
    this.bytes[this.length + 1 + text.length] = QUOTE;
    this.length += text.length + 2;
  }

  /**
   * Copies the string's units to `at` if all are ASCII (and, `plain`, none needs escaping in a
   * JSON string); false when one is not, the length unmoved (what was copied is written over).
   */
  private copyAscii(text: string, at: number, plain: boolean): boolean {
    const bytes = this.bytes;
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      if (unit >= 0x80 || (plain && (unit < 0x20 || unit === QUOTE || unit === BACKSLASH))) return false;
      bytes[at + i] = unit;
    }
    return true;
  }

  done(): Uint8Array {
    return this.bytes.slice(0, this.length);
  }

  private room(more: number): void {
    if (this.length + more <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + more));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
    if (grown.length <= KEPT_SCRATCH) scratch = grown;
  }
}

/** The value's JSON text as UTF-8 bytes (see the module's rules); `undefined` as `null`. */
export function jsonBytes(value: unknown): Uint8Array {
  const out = new ByteWriter();
  writeValue(out, value === undefined ? null : value);
  return out.done();
}

function writeValue(out: ByteWriter, value: unknown): void {
  if (value instanceof RawJson) out.raw(value.bytes);
  else if (value instanceof SplicedJson) out.spliced(value);
  else if (Array.isArray(value)) writeArray(out, value);
  else if (typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON !== 'function')
    writeObject(out, value as Record<string, unknown>);
  else if (typeof value === 'string') out.quoted(value);
  else out.text(JSON.stringify(value) ?? 'null');
}

function writeArray(out: ByteWriter, values: readonly unknown[]): void {
  out.byte(BRACES['[']);
  for (let i = 0; i < values.length; i++) {
    if (i > 0) out.byte(BRACES[',']);
    const value = values[i];
    writeValue(out, isSkipped(value) ? null : value);
  }
  out.byte(BRACES[']']);
}

function writeObject(out: ByteWriter, object: Record<string, unknown>): void {
  out.byte(BRACES['{']);
  let first = true;
  // for…in walks own keys in Object.keys order without making their array (a plain object inherits none)
  for (const key in object) {
    if (!Object.hasOwn(object, key)) continue;
    const value = object[key];
    if (isSkipped(value)) continue;
    out.raw(keyText(key, first));
    first = false;
    writeValue(out, value);
  }
  out.byte(BRACES['}']);
}

/**
 * A key as an object writes it, `"key":` (`first`) or `,"key":`, kept once made: an answer's keys
 * are the API's field names, written for every entry, and one copy of their bytes replaces a
 * call per character and per brace (a new process's first answer made about 4,000 such calls).
 */
function keyText(key: string, first: boolean): Uint8Array {
  let texts = keyTexts.get(key);
  if (texts === undefined) {
    const next = encoder.encode(`,${JSON.stringify(key)}:`);
    texts = { first: next.subarray(1), next };
    // a key from data rather than the API's fields is written, never kept past the bound
    if (keyTexts.size < KEPT_KEYS) keyTexts.set(key, texts);
  }
  return first ? texts.first : texts.next;
}

const keyTexts = new Map<string, { first: Uint8Array; next: Uint8Array }>();
const KEPT_KEYS = 4096;

/** What JSON.stringify leaves out of an object (and writes as null in an array). */
const isSkipped = (value: unknown): boolean => value === undefined || typeof value === 'function' || typeof value === 'symbol';
