/** contract/borrowed-field.ts: a field an item's file leaves to another document, spliced back in as bytes. */
import { describe, expect, it } from 'vitest';
import { borrowedMarker, borrowingIn, BorrowingError, servedItem, topLevelValue, withBorrowed } from '../contract/borrowed-field.ts';

const encoder = new TextEncoder();
const bytes = (value: unknown) => encoder.encode(JSON.stringify(value));
const text = (value: Uint8Array) => new TextDecoder().decode(value);

describe('a borrowed field', () => {
  const lender = {
    id: 4,
    names: [{ name: 'x "quoted" {"$in":"no"} ]}', language: { name: 'en' } }],
    nested: { texts: 'not this one' },
    texts: [
      { flavor_text: 'Ünïcödé ピカチュウ \\ \n', version: { name: 'red' } },
      { flavor_text: '[{', version: null },
    ],
    n: -1.5e3,
  };
  const item = { id: 1, species: { name: 's', url: 'https://x/v2/creature-species/4/' }, texts: lender.texts, after: [true, null] };

  it('is spliced back to the item, byte for byte, wherever the field stands', () => {
    const file = bytes({ ...item, texts: borrowedMarker('v2/creature-species/4.json') });
    const borrowing = borrowingIn(file)!;
    expect({ field: borrowing.field, path: borrowing.path }).toEqual({ field: 'texts', path: 'v2/creature-species/4.json' });
    expect(text(withBorrowed(file, borrowing, bytes(lender)))).toBe(JSON.stringify(item));
    const read = (path: string) => (path === 'v2/creature-species/4.json' ? bytes(lender) : null);
    expect(text(servedItem(file, read))).toBe(JSON.stringify(item));
    const last = { id: 1, texts: borrowedMarker('v2/creature-species/4.json') };
    expect(text(servedItem(bytes(last), read))).toBe(JSON.stringify({ id: 1, texts: lender.texts }));
  });

  it('reads only top-level fields of the lender, through strings that hold brackets, quotes and escapes', () => {
    const doc = bytes(lender);
    for (const [field, value] of Object.entries(lender)) {
      const [from, to] = topLevelValue(doc, field)!;
      expect(text(doc.subarray(from, to)), field).toBe(JSON.stringify(value));
    }
    expect(topLevelValue(doc, 'texts!')).toBeNull();
    expect(topLevelValue(bytes({ nested: { texts: 1 } }), 'texts')).toBeNull();
    expect(topLevelValue(bytes([1, 2]), 'texts')).toBeNull();
  });

  it('leaves a file that borrows nothing as it is', () => {
    const file = bytes(item);
    expect(borrowingIn(file)).toBeNull();
    expect(servedItem(file, () => null)).toBe(file);
  });

  it('fails, naming what is wrong, when the lender is missing, lacks the field or is cut short, or the marker is not whole', () => {
    const file = bytes({ ...item, texts: borrowedMarker('v2/creature-species/4.json') });
    expect(() => servedItem(file, () => null)).toThrow(new BorrowingError('v2/creature-species/4.json is missing, though an item borrows texts from it'));
    expect(() => servedItem(file, () => bytes({ id: 4 }))).toThrow(BorrowingError);
    const whole = bytes(lender);
    expect(() => servedItem(file, () => whole.subarray(0, whole.indexOf(encoder.encode('ピ')[0]!)))).toThrow(/has no field texts/);
    const cut = file.subarray(0, borrowingIn(file)!.start + 12);
    expect(() => borrowingIn(cut)).toThrow(/not whole/);
  });
});
