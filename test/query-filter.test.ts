/** Filtering over indexes (edge/query/filter.ts): any-of within a filter, all-of across filters, ranges and batches, against a brute-force oracle. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeFilterPack, encodeFilterPack, type FilterIndexFile, positionGaps, unpackFilterIndex } from '../contract/filter-pack.ts';
import { FilterIndex } from '../edge/query/filter.ts';
import { parseValues } from '../contract/query/parse.ts';
import { packHeader, withPackHeader } from './support/pack.ts';

/** Invented items, in list order: an element set, a yes/no flag and a speed (null: none). */
interface Item {
  elements: string[];
  rare: boolean;
  speed: number | null;
}
const ELEMENTS: [string, number][] = [
  ['ember', 7],
  ['tide', 8],
  ['gust', 9],
];

function indexOf(items: Item[]): FilterIndexFile {
  const members = (test: (item: Item) => boolean) => positionGaps(items.flatMap((item, p) => (test(item) ? [p] : [])));
  return {
    format: 'filter-index/1',
    kind: 'critter',
    count: items.length,
    values: {
      element: { about: 'an element', values: ELEMENTS.map(([name, id]) => [name, id, members((i) => i.elements.includes(name))]) },
      is_rare: {
        about: 'true or false',
        values: [
          ['false', 0, members((i) => !i.rare)],
          ['true', 1, members((i) => i.rare)],
        ],
      },
    },
    ranges: { speed: items.map((i) => i.speed) },
  };
}

/** The index as the request side loads it: packed as the build writes it, then decoded. */
const load = (file: FilterIndexFile) => new FilterIndex(decodeFilterPack(encodeFilterPack(file)));

const items: Item[] = [
  { elements: ['ember'], rare: false, speed: 45 },
  { elements: ['ember', 'gust'], rare: true, speed: 100 },
  { elements: ['tide'], rare: false, speed: null },
  { elements: ['tide', 'gust'], rare: true, speed: 80 },
  { elements: [], rare: false, speed: 120 },
];
const index = load(indexOf(items));
const key = (filter: string, token: string) => index.vocabulary(filter)!.lookup(token)!;

describe('FilterIndex', () => {
  it('unions values within a filter and intersects filters, in list order', () => {
    expect(index.select({ values: [{ filter: 'element', keys: [key('element', 'ember')] }] })).toEqual([0, 1]);
    expect(index.select({ values: [{ filter: 'element', keys: [key('element', 'ember'), key('element', 'tide')] }] })).toEqual([0, 1, 2, 3]);
    expect(
      index.select({
        values: [
          { filter: 'element', keys: [key('element', 'gust')] },
          { filter: 'is_rare', keys: [key('is_rare', 'true')] },
        ],
      }),
    ).toEqual([1, 3]);
    expect(index.select({})).toEqual([0, 1, 2, 3, 4]);
  });

  it('applies ranges, an item without the value matching none', () => {
    expect(index.select({ ranges: [{ filter: 'speed', range: { min: 80, max: null } }] })).toEqual([1, 3, 4]);
    expect(index.select({ ranges: [{ filter: 'speed', range: { min: null, max: 80 } }] })).toEqual([0, 3]);
    expect(index.select({ ranges: [{ filter: 'speed', range: { min: null, max: null } }] })).toEqual([0, 1, 3, 4]);
    expect(
      index.select({
        values: [{ filter: 'element', keys: [key('element', 'gust')] }],
        ranges: [{ filter: 'speed', range: { min: 90, max: 100 } }],
      }),
    ).toEqual([1]);
  });

  it('looks a token up in the packed names and ids: a whole name only, an id as it prints, negative ids too', () => {
    const file = indexOf(items);
    // names inside other names, a name that is a number, an id below zero
    file.values['element'] = {
      about: 'an element',
      values: [
        ['tide', 3, [0]],
        ['riptide', 12, [1]],
        ['tide-pool', -1, [2]],
        ['7', null, [3]],
      ],
    };
    const element = load(file).vocabulary('element')!;
    expect(['tide', 'riptide', 'tide-pool', 'ide', 'rip', 'tide-', '', '12', '-1', '3', '03', '7', '1'].map((t) => element.lookup(t))).toEqual([
      0,
      1,
      2,
      undefined,
      undefined,
      undefined,
      undefined,
      1,
      2,
      0,
      undefined,
      3,
      undefined,
    ]);
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
    const many: FilterIndexFile = {
      format: 'filter-index/1',
      kind: 'k',
      count: 1,
      ranges: {},
      values: { colour: { about: 'a colour', values: Array.from({ length: 25 }, (_, i) => [`c${i}`, null, []]) } },
    };
    expect(load(many).vocabulary('colour')!.accepts).toMatch(/^colour: a colour, or several separated by commas: c0, c1, .*c19, … \(25 values\)$/);
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
      elements: fc.option(
        fc.subarray(
          ELEMENTS.map(([name]) => name),
          { minLength: 1 },
        ),
        { nil: undefined },
      ),
      rare: fc.option(fc.subarray([false, true], { minLength: 1 }), { nil: undefined }),
      min: fc.option(fc.integer({ min: -10, max: 210 }), { nil: null }),
      max: fc.option(fc.integer({ min: -10, max: 210 }), { nil: null }),
      ranged: fc.boolean(),
      positions: fc.option(fc.array(fc.nat(120)), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(item, { maxLength: 100 }), query, (list, q) => {
        const loaded = load(indexOf(list));
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
      }),
      { numRuns: 1_000 },
    );
  });
});

describe('the packed filter index (contract/filter-pack.ts)', () => {
  const item = fc.record({
    elements: fc.subarray(ELEMENTS.map(([name]) => name)),
    rare: fc.boolean(),
    speed: fc.option(fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 }), { nil: null }),
  });

  it('decodes to what was encoded, whatever the items, names and ids', () => {
    const name = fc.string({ unit: 'grapheme', maxLength: 6 });
    const id = fc.option(fc.integer({ min: -0x7fffffff, max: 0x7fffffff }), { nil: null });
    fc.assert(
      fc.property(fc.array(item, { maxLength: 60 }), fc.uniqueArray(fc.tuple(name, id), { maxLength: 6, selector: ([n]) => n }), (list, extra) => {
        const file = indexOf(list);
        file.values['extra'] = { about: 'ünïcode ✓', target: 'thing', values: extra.map(([n, i], k) => [n, i, list.length > k ? [k] : []]) };
        expect(unpackFilterIndex(decodeFilterPack(encodeFilterPack(file)))).toEqual(file);
      }),
      { numRuns: 300 },
    );
  });

  it('holds ranges as int32 when every number fits, else float64 (read in place); NaN for none either way', () => {
    const bytes = encodeFilterPack(indexOf(items));
    const speed = load(indexOf(items)).rangeColumn('speed');
    expect(Array.from(speed)).toEqual([45, 100, NaN, 80, 120]);
    expect(packHeader<{ sections: { ranges: { type: string } } }>(bytes).sections.ranges.type).toBe('int32');
    const wide = indexOf(items);
    wide.ranges['speed'] = [45, 2 ** 31, null, -(2 ** 31), 0.5];
    const wideBytes = encodeFilterPack(wide);
    expect(packHeader<{ sections: { ranges: { type: string } } }>(wideBytes).sections.ranges.type).toBe('float64');
    expect(Array.from(decodeFilterPack(wideBytes).ranges.get('speed')!)).toEqual([45, 2 ** 31, NaN, -(2 ** 31), 0.5]);
    expect(decodeFilterPack(wideBytes).ranges.get('speed')!.buffer).toBe(wideBytes.buffer);
    expect(decodeFilterPack(bytes).ranges.get('nothing')).toBeUndefined();
  });

  it('reads a file that does not start at a multiple of 8 in its buffer (copied once)', () => {
    const bytes = encodeFilterPack(indexOf(items));
    for (const shift of [1, 4]) {
      const shifted = new Uint8Array(bytes.length + shift);
      shifted.set(bytes, shift);
      expect(unpackFilterIndex(decodeFilterPack(shifted.subarray(shift)))).toEqual(indexOf(items));
    }
  });

  it('writes each value’s members as varint gaps or as a bitset of the list, whichever is shorter, and reads either back', () => {
    const count = 70_000;
    const every = (step: number) => Array.from({ length: Math.ceil(count / step) }, (_, k) => (k === 0 ? 0 : step - 1));
    const file: FilterIndexFile = {
      format: 'filter-index/1',
      kind: 'k',
      count,
      ranges: {},
      values: {
        v: {
          about: 'a v',
          values: [
            ['far', 1, [count - 1]],
            ['dense', 2, every(3)],
            ['none', 3, []],
            ['two', 4, [127, 16_383]],
          ],
        },
      },
    };
    const bytes = encodeFilterPack(file);
    const index = new FilterIndex(decodeFilterPack(bytes));
    const select = (key: number) => index.select({ values: [{ filter: 'v', keys: [key] }] });
    expect(select(0)).toEqual([count - 1]);
    expect(select(1)).toEqual(Array.from({ length: Math.ceil(count / 3) }, (_, k) => 3 * k));
    expect(select(2)).toEqual([]);
    expect(select(3)).toEqual([127, 127 + 16_384]);
    expect(unpackFilterIndex(decodeFilterPack(bytes))).toEqual(file);
    // the far one is 3 varint bytes, the dense one a bitset of count/8 bytes, the last two 0 and 1 + 2
    const header = packHeader<{ sections: { members: { length: number } } }>(bytes);
    expect(header.sections.members.length).toBe(3 + count / 8 + 0 + 3);
  });

  it('refuses to write a gap or an id it cannot hold, naming the kind, filter and value', () => {
    const withRow = (row: FilterIndexFile['values'][string]['values'][number]): FilterIndexFile => ({
      format: 'filter-index/1',
      kind: 'k',
      count: 3,
      ranges: {},
      values: { v: { about: 'a v', values: [row] } },
    });
    expect(() => encodeFilterPack(withRow(['x', 1, [3]]))).toThrow('filter index of k: v=x: a gap outside 0..2');
    expect(() => encodeFilterPack(withRow(['x', -(2 ** 31), [0]]))).toThrow('filter index of k: v=x: the id -2147483648 is no int32 above -2^31');
    expect(() => encodeFilterPack(withRow(['x', 2 ** 31, [0]]))).toThrow(/the id 2147483648 is no int32/);
    expect(() => encodeFilterPack(withRow(['x', 1.5, [0]]))).toThrow(/the id 1.5 is no int32/);
    expect(unpackFilterIndex(decodeFilterPack(encodeFilterPack(withRow(['unknown', -1, [0]])))).values['v']!.values).toEqual([['unknown', -1, [0]]]);
  });

  it('refuses a file of another format, truncated, lengthened or whose header and sections disagree: an Error naming it', () => {
    const bytes = encodeFilterPack(indexOf(items));
    for (let length = 0; length < bytes.length; length++) {
      expect(() => decodeFilterPack(bytes.slice(0, length)), `${length} bytes`).toThrow(/^filter pack: /);
    }
    const longer = new Uint8Array(bytes.length + 8);
    longer.set(bytes);
    expect(() => decodeFilterPack(longer)).toThrow(/^filter pack: \d+ bytes, the header says \d+/);
    expect(() => decodeFilterPack(new TextEncoder().encode(JSON.stringify(indexOf(items))))).toThrow(/^filter pack: unknown format/);
    interface Header {
      count: number;
      kind?: string;
      values: { values: number; nameBytes: number }[];
      sections: Record<string, { offset: number; type: string }>;
    }
    const withHeader = (change: (header: Header) => void): Uint8Array => withPackHeader<Header>(bytes, change);
    expect(() =>
      decodeFilterPack(
        withHeader((h) => {
          h.sections['members']!.offset += 4;
        }),
      ),
    ).toThrow(/^filter pack: section members lies outside its place/);
    expect(() =>
      decodeFilterPack(
        withHeader((h) => {
          h.sections['ids']!.type = 'int8';
        }),
      ),
    ).toThrow(/^filter pack: section ids is int8, not int32/);
    expect(() =>
      decodeFilterPack(
        withHeader((h) => {
          h.sections['memberForms']!.type = 'utf8';
        }),
      ),
    ).toThrow(/^filter pack: section memberForms is utf8, not int8/);
    expect(() =>
      decodeFilterPack(
        withHeader((h) => {
          h.sections['ranges']!.type = 'utf8';
        }),
      ),
    ).toThrow(/^filter pack: section ranges is utf8, not int32 or float64/);
    expect(() =>
      decodeFilterPack(
        withHeader((h) => {
          h.count += 1;
        }),
      ),
    ).toThrow(/^filter pack: section ranges holds \d+ bytes, not \d+/);
    expect(() =>
      decodeFilterPack(
        withHeader((h) => {
          h.values[0]!.values += 1;
        }),
      ),
    ).toThrow(/^filter pack: section \w+ holds \d+ bytes, not \d+/);
    expect(() =>
      decodeFilterPack(
        withHeader((h) => {
          delete h.kind;
        }),
      ),
    ).toThrow(/^filter pack: the header lacks/);
    // names whose ends do not match their text are an Error when a name is first looked up, not a wrong name
    const shifted = decodeFilterPack(
      withHeader((h) => {
        h.values[0]!.nameBytes -= 4;
        h.values[1]!.nameBytes += 4;
      }),
    );
    expect(() => new FilterIndex(shifted).vocabulary('element')!.lookup('fire')).toThrow(/^filter pack: the names of element do not match their ends/);
  });
});
