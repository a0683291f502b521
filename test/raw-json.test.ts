/** contract/raw-json.ts: JSON written to bytes, raw parts spliced in, equals JSON.stringify then UTF-8 encoding. */
import { describe, expect, it } from 'vitest';
import { jsonBytes, RawJson } from '../contract/raw-json.ts';

const encoder = new TextEncoder();
const stringified = (value: unknown) => encoder.encode(JSON.stringify(value));

describe('jsonBytes', () => {
  it('writes the bytes JSON.stringify and TextEncoder give, for every kind of JSON part', () => {
    const values: unknown[] = [
      null,
      true,
      false,
      0,
      -0,
      1.5,
      1e21,
      -1e-7,
      Number.NaN,
      Infinity,
      '',
      'plain',
      'quote " and \\ and \n\t\u0001',
      'Nidoran♀ ピカチュウ 皮卡丘 😀',
      'lone \ud800 surrogate',
      [],
      {},
      [1, 'a', null, [[]], {}],
      { b: 1, a: { c: [true] } },
      // integer-like keys come first, as Object.keys orders them; undefined and functions as JSON.stringify treats them
      { z: 1, 10: 'ten', 2: 'two', skip: undefined, f: () => 1, arr: [undefined, () => 1] },
      { __proto_key: 1, ['__proto__']: 2 },
      new Date(0),
      { nested: { date: new Date(1) } },
      Array.from({ length: 3000 }, (_, i) => ({ name: `n${i}♂`, url: `https://example.test/${i}/` })),
    ];
    for (const value of values) expect(jsonBytes(value), JSON.stringify(value)?.slice(0, 60)).toEqual(stringified(value));
    expect(jsonBytes(undefined)).toEqual(encoder.encode('null'));
  });

  it('copies a raw part as it is, wherever it sits', () => {
    const raw = (value: unknown) => new RawJson(stringified(value));
    const parsed = { types: [{ slot: 1, type: { name: 'grass' } }], names: [{ name: 'Bisasam', language: { name: 'de' } }] };
    const spliced = { count: 2, results: [{ name: 'a', types: raw(parsed.types), species: { names: raw(parsed.names) } }, raw(parsed)] };
    const plain = { count: 2, results: [{ name: 'a', types: parsed.types, species: { names: parsed.names } }, parsed] };
    expect(jsonBytes(spliced)).toEqual(stringified(plain));
  });
});
