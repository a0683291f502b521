/**
 * The compact lookups a cold start makes for every list a query touches (edge/build-files.ts
 * `ListKeys` over the packed list, contract/list-pack.ts: ids searched by halves in a typed
 * array, names decoded and mapped on first use, names ranked at build time by edge/query/sort.ts
 * `textRanks`), against the
 * plain definitions: the list's own entries, a map of ids and of names (the last entry of a key
 * wins), and ranks from the sorted distinct names. Lists are invented: ids out of order,
 * repeated or negative, names repeated, absent or not ASCII.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ListKeys } from '../edge/build-files.ts';
import { decodeListPack, encodeListPack, NO_LINK, textRanks } from '../contract/list-pack.ts';
import { withPackHeader } from './support/pack.ts';

const BASE = 'https://x.test/v2';
const entry = fc.record({
  id: fc.integer({ min: -3, max: 40 }),
  name: fc.option(fc.constantFrom('a', 'b', 'c', 'ab', 'ba', 'z', 'mr-mime', 'flabébé', ''), { nil: null }),
});
const keysOf = (entries: { id: number; name: string | null }[], links: Record<string, (number | null)[]> = {}) =>
  new ListKeys(decodeListPack(encodeListPack({ kind: 'thing', entries, links })), BASE);

describe('ListKeys', () => {
  it('gives back each entry as the list has it, and finds by id and by name what a map of the list finds (the last entry of a key)', () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 40 }), fc.boolean(), (entries, sorted) => {
        if (sorted) entries.sort((a, b) => a.id - b.id);
        const keys = keysOf(entries);
        expect(keys.count).toBe(entries.length);
        expect(entries.map((_, p) => keys.entry(p))).toEqual(
          entries.map(({ id, name }) => (name === null ? { url: `${BASE}/thing/${id}/` } : { name, url: `${BASE}/thing/${id}/` })),
        );
        const byId = new Map<number, number>(),
          byName = new Map<string, number>();
        entries.forEach(({ id, name }, p) => {
          byId.set(id, p);
          if (name !== null) byName.set(name, p);
        });
        for (let id = -5; id <= 42; id++) expect(keys.positionOfId(id), `id ${id}`).toBe(byId.get(id));
        for (const name of ['a', 'b', 'c', 'ab', 'ba', 'z', 'mr-mime', 'flabébé', '', 'none']) expect(keys.positionOfName(name)).toBe(byName.get(name));
        expect(keys.positionOf('7')).toBe(byId.get(7));
        expect(keys.positionOf('ab')).toBe(byName.get('ab'));
        // the ranks the build packs for sort=name: the distinct names' order by code points, -1 for none
        const distinct = [...new Set(entries.flatMap(({ name }) => (name === null ? [] : [name])))].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
        expect([...keys.nameRanks()]).toEqual(entries.map(({ name }) => (name === null ? -1 : distinct.indexOf(name))));
      }),
      { numRuns: 2000 },
    );
  });

  it('holds where each entry’s links lead, none for a null link', () => {
    const keys = keysOf(
      [
        { id: 1, name: 'a' },
        { id: 2, name: 'b' },
      ],
      { kin: [7, null] },
    );
    expect([...keys.linkIds('kin')!]).toEqual([7, NO_LINK]);
    expect(keys.linkIds('name')).toBeUndefined();
  });

  it('refuses to pack an id or a link it cannot hold, or a link of another length, naming the kind and entry', () => {
    expect(() => encodeListPack({ kind: 'thing', entries: [{ id: 1.5, name: null }], links: {} })).toThrow(
      "list pack of thing: entry 0's id: 1.5 is no int32 above -2^31",
    );
    expect(() => encodeListPack({ kind: 'thing', entries: [{ id: 1, name: null }], links: { kin: [2 ** 31] } })).toThrow(
      "list pack of thing: entry 0's kin: 2147483648 is no int32",
    );
    expect(() => encodeListPack({ kind: 'thing', entries: [{ id: 1, name: null }], links: { kin: [] } })).toThrow('the link kin has 0 entries, the list 1');
  });

  it('refuses a pack cut short, or whose names do not match their ends: an Error naming it', () => {
    const bytes = encodeListPack({
      kind: 'thing',
      entries: [
        { id: 1, name: 'ab' },
        { id: 2, name: 'c' },
      ],
      links: {},
    });
    for (let length = 0; length < bytes.length; length++) expect(() => decodeListPack(bytes.slice(0, length)), `${length} bytes`).toThrow(/^list pack: /);
    const shifted = decodeListPack(
      withPackHeader<{ nameUnits: number }>(bytes, (h) => {
        h.nameUnits += 1;
      }),
    );
    expect(() => shifted.names()).toThrow(/^list pack: the names are 3 UTF-16 units, the header says 4/);
  });
});

describe('textRanks', () => {
  it('ranks as the sorted distinct texts do, a missing text NaN', () => {
    fc.assert(
      fc.property(fc.array(fc.option(fc.string({ maxLength: 3 }), { nil: undefined }), { maxLength: 50 }), (texts) => {
        const distinct = [...new Set(texts.filter((t): t is string => t !== undefined))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        const expected = texts.map((t) => (t === undefined ? NaN : distinct.indexOf(t)));
        expect([...textRanks(texts)]).toEqual(expected);
      }),
      { numRuns: 2000 },
    );
  });
});
