/**
 * The packed files' container as tests tamper with it (contract/pack.ts): the JSON header's
 * length at byte 16, the header from byte 20.
 */
import { expect } from 'vitest';

const HEADER_LENGTH_AT = 16;
const HEADER_AT = 20;

/** A packed file's header, parsed. */
export function packHeader<H>(bytes: Uint8Array): H {
  const length = new DataView(bytes.buffer, bytes.byteOffset).getUint32(HEADER_LENGTH_AT, true);
  return JSON.parse(new TextDecoder().decode(bytes.subarray(HEADER_AT, HEADER_AT + length))) as H;
}

/** The file with its header changed (kept at the same length, so only the change is wrong). */
export function withPackHeader<H>(bytes: Uint8Array, change: (header: H) => void): Uint8Array {
  const length = new DataView(bytes.buffer, bytes.byteOffset).getUint32(HEADER_LENGTH_AT, true);
  const header = packHeader<H>(bytes);
  change(header);
  const text = new TextEncoder().encode(JSON.stringify(header).padEnd(length, ' '));
  expect(text.length).toBe(length);
  const out = bytes.slice();
  out.set(text, HEADER_AT);
  return out;
}
