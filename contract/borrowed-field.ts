/**
 * A field an item's file leaves to another document of the build, which holds the same value
 * word for word: the entry's dex texts (`flavor_text_entries`) are its species', and half an
 * entry's bytes, so each of the 1,351 entries would otherwise keep a second copy of them.
 *
 * The file holds the other document's path in the field's place, as `{"$in":"v2/creature-species/4.json"}`
 * (no document of the service has a `$` key, so the marker cannot be met elsewhere); the answer is the
 * file with that document's value of the same top-level field spliced there. Pure over bytes: the edge
 * reads the two files one after the other, the build and the docs page from the disk. Files are
 * compact JSON (`JSON.stringify`'s), which is all the scan below reads.
 */

const MARKER_KEY = '$in';
const HEAD = new TextEncoder().encode(`{"${MARKER_KEY}":"`);
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const CLOSERS = new Set([0x7d, 0x5d]);

/** What stands in a file for a borrowed field: the path (under dist/) of the document that holds it. */
export const borrowedMarker = (path: string): { [MARKER_KEY]: string } => ({ [MARKER_KEY]: path });

/** Where a file leaves a field to another document: the marker's bytes `[start, end)`, the field, the document's path. */
export interface Borrowing {
  start: number;
  end: number;
  field: string;
  path: string;
}

/** Thrown when a file or the document it names is not what the build writes: the build is broken. */
export class BorrowingError extends Error {}

const decoder = new TextDecoder();

/** The marker in a file, or null when the file holds every field itself. */
export function borrowingIn(file: Uint8Array): Borrowing | null {
  const start = indexOf(file, HEAD);
  if (start < 0) return null;
  const pathEnd = file.indexOf(QUOTE, start + HEAD.length);
  // the key before the marker: `"field":` right before it, a key with nothing escaped
  const keyEnd = start - 2;
  const keyStart = keyEnd < 0 ? -1 : file.lastIndexOf(QUOTE, keyEnd - 1);
  if (pathEnd < 0 || file[pathEnd + 1] !== 0x7d || file[start - 1] !== COLON || file[keyEnd] !== QUOTE || keyStart < 0) {
    throw new BorrowingError(`a borrowed field's marker at byte ${start} is not whole`);
  }
  return {
    start,
    end: pathEnd + 2,
    field: decoder.decode(file.subarray(keyStart + 1, keyEnd)),
    path: decoder.decode(file.subarray(start + HEAD.length, pathEnd)),
  };
}

/** The file with the field's value taken from `lender`, the document its marker names. */
export function withBorrowed(file: Uint8Array, borrowing: Borrowing, lender: Uint8Array): Uint8Array {
  const value = topLevelValue(lender, borrowing.field);
  if (value === null) throw new BorrowingError(`${borrowing.path} has no field ${borrowing.field} to lend`);
  const [from, to] = value;
  const out = new Uint8Array(file.length - (borrowing.end - borrowing.start) + (to - from));
  out.set(file.subarray(0, borrowing.start), 0);
  out.set(lender.subarray(from, to), borrowing.start);
  out.set(file.subarray(borrowing.end), borrowing.start + (to - from));
  return out;
}

/** The file as served, its borrowed field read through `read` (null: not there); the file itself when it borrows none. */
export function servedItem(file: Uint8Array, read: (path: string) => Uint8Array | null): Uint8Array {
  const borrowing = borrowingIn(file);
  if (borrowing === null) return file;
  const lender = read(borrowing.path);
  if (lender === null) throw new BorrowingError(`${borrowing.path} is missing, though an item borrows ${borrowing.field} from it`);
  return withBorrowed(file, borrowing, lender);
}

/** The bytes `[start, end)` of a top-level field's value in a compact JSON object; null when it has no such field or is cut short. */
export function topLevelValue(doc: Uint8Array, field: string): [number, number] | null {
  if (doc[0] !== 0x7b) return null;
  let at = 1;
  while (at < doc.length && doc[at] === QUOTE) {
    const keyEnd = stringEnd(doc, at);
    if (keyEnd < 0 || doc[keyEnd] !== COLON) return null;
    const valueStart = keyEnd + 1;
    const valueEnd = valueEndAt(doc, valueStart);
    if (valueEnd < 0) return null;
    if (keyEnd - at - 2 === field.length && decoder.decode(doc.subarray(at + 1, keyEnd - 1)) === field) return [valueStart, valueEnd];
    if (doc[valueEnd] !== COMMA) return null;
    at = valueEnd + 1;
  }
  return null;
}

/** The index just past the string that opens at `at`; -1 when it does not close. */
function stringEnd(doc: Uint8Array, at: number): number {
  for (let i = at + 1; i < doc.length; i++) {
    const c = doc[i]!;
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) return i + 1;
  }
  return -1;
}

/** The index just past the value that starts at `at`; -1 when it does not end. */
function valueEndAt(doc: Uint8Array, at: number): number {
  const first = doc[at];
  if (first === QUOTE) return stringEnd(doc, at);
  if (first !== 0x7b && first !== 0x5b) {
    let i = at;
    while (i < doc.length && doc[i] !== COMMA && !CLOSERS.has(doc[i]!)) i++;
    return i < doc.length ? i : -1;
  }
  let depth = 0;
  for (let i = at; i < doc.length; i++) {
    const c = doc[i]!;
    if (c === QUOTE) {
      i = stringEnd(doc, i) - 1;
      if (i < 0) return -1;
    } else if (c === 0x7b || c === 0x5b) depth++;
    else if (CLOSERS.has(c) && --depth === 0) return i + 1;
  }
  return -1;
}

/** The first index of `needle` in `bytes`, or -1. */
function indexOf(bytes: Uint8Array, needle: Uint8Array): number {
  const first = needle[0]!;
  for (let i = bytes.indexOf(first); i >= 0 && i <= bytes.length - needle.length; i = bytes.indexOf(first, i + 1)) {
    let k = 1;
    while (k < needle.length && bytes[i + k] === needle[k]) k++;
    if (k === needle.length) return i;
  }
  return -1;
}
