/** Filtering over indexes (edge/query/filter.ts): any-of within a filter, all-of across filters, ranges and batches, against a brute-force oracle. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FilterIndex, positionGaps, type FilterIndexFile } from '../edge/query/filter.ts';
import { parseValues } from '../edge/query/params.ts';

/** Invented items, in list order: an element set, a yes/no flag and a speed (null: none). */
interface Item { elements: string[]; rare: boolean; speed: number | null }
const ELEMENTS: [string, number][] = [['ember', 7], ['tide', 8], ['gust', 9]];

function indexOf(items: Item[]): FilterIndexFile {
  const members = (test: (item: Item) => boolean) => positionGaps(items.flatMap((item, p) => (test(item) ? [p] : [])));
  return {
    format: 'filter-index/1',
    kind: 'critter',
    count: items.length,
    values: {
      element: { about: 'an element', values: ELEMENTS.map(([name, id]) => [name, id, members((i) => i.elements.includes(name))]) },
      is_rare: { about: 'true or false', values: [['false', 0, members((i) => !i.rare)], ['true', 1, members((i) => i.rare)]] },
    },
    ranges: { speed: items.map((i) => i.speed) },
  };
}

const items: Item[] = [
  { elements: ['ember'], rare: false, speed: 45 },
  { elements: ['ember', 'gust'], rare: true, speed: 100 },
  { elements: ['tide'], rare: false, speed: null },
  { elements: ['tide', 'gust'], rare: true, speed: 80 },
  { elements: [], rare: false, speed: 120 },
];
const index = new FilterIndex(indexOf(items));
const key = (filter: string, token: string) => index.vocabulary(filter)!.lookup(token)!;

describe('FilterIndex', () => {
  it('unions values within a filter and intersects filters, in list order', () => {
    expect(index.select({ values: [{ filter: 'element', keys: [key('element', 'ember')] }] })).toEqual([0, 1]);
    expect(index.select({ values: [{ filter: 'element', keys: [key('element', 'ember'), key('element', 'tide')] }] })).toEqual([0, 1, 2, 3]);
    expect(index.select({ values: [
      { filter: 'element', keys: [key('element', 'gust')] },
      { filter: 'is_rare', keys: [key('is_rare', 'true')] },
    ] })).toEqual([1, 3]);
    expect(index.select({})).toEqual([0, 1, 2, 3, 4]);
  });

  it('applies ranges, an item without the value matching none', () => {
    expect(index.select({ ranges: [{ filter: 'speed', range: { min: 80, max: null } }] })).toEqual([1, 3, 4]);
    expect(index.select({ ranges: [{ filter: 'speed', range: { min: null, max: 80 } }] })).toEqual([0, 3]);
    expect(index.select({ ranges: [{ filter: 'speed', range: { min: null, max: null } }] })).toEqual([0, 1, 3, 4]);
    expect(index.select({
      values: [{ filter: 'element', keys: [key('element', 'gust')] }],
      ranges: [{ filter: 'speed', range: { min: 90, max: 100 } }],
    })).toEqual([1]);
  });

  it('narrows to a batch of positions', () => {
    expect(index.select({ positions: [4, 0, 2, 99] })).toEqual([0, 2, 4]);
    expect(index.select({ positions: [4, 0], values: [{ filter: 'element', keys: [key('element', 'ember')] }] })).toEqual([0]);
  });

  it('gives params.ts a vocabulary of names and ids, and yes/no as true/false or 1/0', () => {
    const element = index.vocabulary('element')!;
    const parsed = parseValues('element', ['EMBER,8'], element);
    expect(parsed).toEqual({ ok: true, value: [0, 1] });
    expect(index.vocabulary('is_rare')!.lookup('1')).toBe(index.vocabulary('is_rare')!.lookup('true'));
    expect(element.accepts).toBe('element: an element name or id, or several separated by commas: ember, tide, gust');
    expect(index.vocabulary('speed')).toBeUndefined();
    expect(index.vocabulary('__proto__')).toBeUndefined();
    expect(index.valueFilterNames).toEqual(['element', 'is_rare']);
    expect(index.rangeFilterNames).toEqual(['speed']);
  });

  it('lists at most twenty values in what a filter accepts', () => {
    const many: FilterIndexFile = { format: 'filter-index/1', kind: 'k', count: 1, ranges: {},
      values: { colour: { about: 'a colour', values: Array.from({ length: 25 }, (_, i) => [`c${i}`, null, []]) } } };
    expect(new FilterIndex(many).vocabulary('colour')!.accepts).toMatch(/^colour: a colour, or several separated by commas: c0, c1, .*c19, … \(25 values\)$/);
  });

  it('writes and reads position gaps', () => {
    expect(positionGaps([3, 4, 6, 40])).toEqual([3, 0, 1, 33]);
    expect(positionGaps([])).toEqual([]);
  });

  it('equals the brute-force answer on random items and queries', () => {
    const item = fc.record({
      elements: fc.subarray(ELEMENTS.map(([name]) => name)),
      rare: fc.boolean(),
      speed: fc.option(fc.integer({ min: -5, max: 200 }), { nil: null }),
    });
    const query = fc.record({
      elements: fc.option(fc.subarray(ELEMENTS.map(([name]) => name), { minLength: 1 }), { nil: undefined }),
      rare: fc.option(fc.subarray([false, true], { minLength: 1 }), { nil: undefined }),
      min: fc.option(fc.integer({ min: -10, max: 210 }), { nil: null }),
      max: fc.option(fc.integer({ min: -10, max: 210 }), { nil: null }),
      ranged: fc.boolean(),
      positions: fc.option(fc.array(fc.nat(120)), { nil: undefined }),
    });
    fc.assert(fc.property(fc.array(item, { maxLength: 100 }), query, (list, q) => {
      const loaded = new FilterIndex(indexOf(list));
      const values = [];
      if (q.elements) values.push({ filter: 'element', keys: q.elements.map((e) => loaded.vocabulary('element')!.lookup(e)!) });
      if (q.rare) values.push({ filter: 'is_rare', keys: q.rare.map((r) => loaded.vocabulary('is_rare')!.lookup(String(r))!) });
      const ranges = q.ranged ? [{ filter: 'speed', range: { min: q.min, max: q.max } }] : [];
      const got = loaded.select({ values, ranges, ...(q.positions ? { positions: q.positions } : {}) });
      const expected = list.flatMap((it, p) => {
        if (q.elements && !q.elements.some((e) => it.elements.includes(e))) return [];
        if (q.rare && !q.rare.includes(it.rare)) return [];
        if (q.ranged && (it.speed === null || (q.min !== null && it.speed < q.min) || (q.max !== null && it.speed > q.max))) return [];
        if (q.positions && !q.positions.includes(p)) return [];
        return [p];
      });
      expect(got).toEqual(expected);
    }), { numRuns: 1_000 });
  });
});
