/** A field column's two layouts (contract/field-column.ts): each entry whole, or shapes and numbers; on invented values. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { encodeFieldColumn, entryTexts, FieldColumn } from '../contract/field-column.ts';
import { jsonBytes } from '../contract/raw-json.ts';
import type { Json } from '../contract/query/fields.ts';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const columnOf = (field: string, values: readonly Json[]) => new FieldColumn(encoder.encode(encodeFieldColumn({ kind: 'critter', field }, values)));
const texts = (column: FieldColumn) => Array.from({ length: column.count }, (_, p) => decoder.decode(jsonBytes(column.raw(p))));

/** A critter's stats: the same links in every entry, only the numbers differ. */
const stats = (speed: number, effort: number) => [
  { base_stat: 40, effort: 0, stat: { name: 'hp', url: 'http://x/v2/stat/1/' } },
  { base_stat: speed, effort, stat: { name: 'speed', url: 'http://x/v2/stat/6/' } },
];

describe('a field column', () => {
  it('writes values that differ in their numbers only as one shape and the numbers, and gives back each entry’s own JSON text', () => {
    const values = [stats(45, 0), stats(3, 1), stats(120, 0), stats(0, 2)];
    const text = encodeFieldColumn({ kind: 'critter', field: 'stats' }, values);
    expect(JSON.parse(text.split('\n')[0]!)).toEqual({ format: 'field-column/3', kind: 'critter', field: 'stats', count: 4, shapes: 1 });
    // the hp entry's numbers and every link's id are the same in each entry: they stay in the shape
    expect(text.split('\n')[1]).toBe(
      '[{"base_stat":40,"effort":0,"stat":{"name":"hp","url":"http://x/v2/stat/1/"}},{"base_stat":\u0001,"effort":\u0001,"stat":{"name":"speed","url":"http://x/v2/stat/6/"}}]',
    );
    expect(text.split('\n').slice(2, 4)).toEqual(['0 45,0', '0 3,1']);
    const column = columnOf('stats', values);
    expect(texts(column)).toEqual(values.map((v) => JSON.stringify(v)));
    expect(column.value(2)).toEqual(stats(120, 0));
    expect(text.length).toBeLessThan(values.map((v) => JSON.stringify(v)).join('\n').length);
    // a sign, a point or an exponent stays in the shape: another shape, the same text back
    const others = [...values, stats(-3, 1), stats(1.5, 0), stats(1e21, 2)];
    expect(texts(columnOf('stats', others))).toEqual(others.map((v) => JSON.stringify(v)));
  });

  it('cuts words as well as digits: a names list is one shape, each entry its name', () => {
    const names = ['Bisasam', 'Bisaknosp', 'Mr. Mime'].map((name) => [{ language: { name: 'de', url: 'http://x/v2/language/6/' }, name }]);
    const text = encodeFieldColumn({ kind: 'critter', field: 'names' }, names);
    expect(text.split('\n').slice(0, 5)).toEqual([
      '{"format":"field-column/3","kind":"critter","field":"names","count":3,"shapes":1}',
      '[{"language":{"name":"de","url":"http://x/v2/language/6/"},"name":"\u0001"}]',
      '0 Bisasam',
      '0 Bisaknosp',
      '0 Mr. Mime',
    ]);
    expect(texts(columnOf('names', names))).toEqual(names.map((v) => JSON.stringify(v)));
  });

  it('writes values whole where no cut is smaller', () => {
    const column = columnOf('sprite', ['a', 'bb', null]);
    expect(column.header.shapes).toBeUndefined();
    expect(texts(column)).toEqual(['"a"', '"bb"', 'null']);
  });

  it('gives back any JSON values exactly, whichever layout is written (strings holding a 0x01, numbers in strings, nulls, empty ones)', () => {
    const value: fc.Arbitrary<Json> = fc.letrec((tie) => ({
      json: fc.oneof(
        { depthSize: 'small' },
        fc.constantFrom<Json>(null, true, false, '', '\u0001', '1,2', 'a b', 0, -0, 7),
        fc.integer({ min: -1e6, max: 1e6 }),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.string(),
        fc.array(tie('json'), { maxLength: 4 }),
        fc.dictionary(fc.constantFrom('a', 'b', 'slot', '__proto__', 'url'), tie('json'), { maxKeys: 3 }),
      ),
    })).json as fc.Arbitrary<Json>;
    fc.assert(
      fc.property(fc.array(value, { maxLength: 12 }), (values) => {
        const column = columnOf('any', values);
        expect(texts(column)).toEqual(values.map((v) => JSON.stringify(v)));
        expect(entryTexts(encoder.encode(encodeFieldColumn({ kind: 'critter', field: 'any' }, values)))).toEqual(values.map((v) => JSON.stringify(v)));
      }),
      { numRuns: 300 },
    );
  });

  it('refuses an entry whose numbers do not fit its shape, or that names no shape: an Error naming the entry', () => {
    const good = encodeFieldColumn({ kind: 'critter', field: 'stats' }, [stats(45, 0), stats(50, 1)]);
    const lines = good.split('\n');
    const broken = (entry: string) => new FieldColumn(encoder.encode([...lines.slice(0, 2), lines[2], entry, ''].join('\n')));
    expect(texts(broken('0 50,1'))[1]).toBe(JSON.stringify(stats(50, 1)));
    expect(() => broken('0 50').raw(1)).toThrow(/entry 1 holds 1 runs for 2 holes/);
    expect(() => broken('0 50,1,7').raw(1)).toThrow(/entry 1 holds more runs than its shape's 2 holes/);
    expect(() => broken('0').raw(1)).toThrow(/entry 1 holds 0 runs for 2 holes/);
    expect(() => broken('3 50,1').raw(1)).toThrow(/entry 1 names no shape/);
    expect(() => broken('x').raw(1)).toThrow(/entry 1 names no shape/);
    expect(() => new FieldColumn(encoder.encode(lines.slice(0, 3).join('\n') + '\n'))).toThrow(/cut short/);
  });
});
