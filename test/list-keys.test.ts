/**
 * The compact lookups a cold start makes for every list a query touches (edge/build-files.ts
 * `ListKeys`: ids searched by halves in a typed array, names mapped on first use; edge/query/sort.ts
 * `textRanks`), against the plain definitions: a map of ids and of names (the last entry of a
 * key wins), and ranks from the sorted distinct names. Lists are invented: ids out of order,
 * repeated, negative or absent, names repeated or absent.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ListKeys } from '../edge/build-files.ts';
import { textRanks } from '../edge/query/sort.ts';
import type { FullList } from '../edge/pagination.ts';

const entry = fc.record({
  id: fc.option(fc.integer({ min: -3, max: 40 }), { nil: null }),
  name: fc.option(fc.constantFrom('a', 'b', 'c', 'ab', 'ba', 'z', 'mr-mime'), { nil: undefined }),
});

const listOf = (entries: { id: number | null; name: string | undefined }[]): FullList => ({
  count: entries.length,
  results: entries.map(({ id, name }) => ({ ...(name === undefined ? {} : { name }), url: id === null ? 'https://x.test/v2/thing/none/' : `https://x.test/v2/thing/${id}/` })),
});

describe('ListKeys', () => {
  it('finds by id and by name what a map of the list finds (the last entry of a key)', () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 40 }), fc.boolean(), (entries, sorted) => {
        if (sorted) entries.sort((a, b) => (a.id ?? 0) - (b.id ?? 0));
        const keys = new ListKeys(listOf(entries));
        const byId = new Map<number, number>(), byName = new Map<string, number>();
        entries.forEach(({ id, name }, p) => {
          if (id !== null) byId.set(id, p);
          if (name !== undefined) byName.set(name, p);
        });
        for (let id = -5; id <= 42; id++) expect(keys.positionOfId(id), `id ${id}`).toBe(byId.get(id));
        for (const name of ['a', 'b', 'c', 'ab', 'ba', 'z', 'mr-mime', 'none']) expect(keys.positionOfName(name)).toBe(byName.get(name));
        expect(keys.positionOf('7')).toBe(byId.get(7));
        expect(keys.positionOf('ab')).toBe(byName.get('ab'));
      }),
      { numRuns: 2000 },
    );
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
