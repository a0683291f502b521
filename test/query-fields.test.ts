/** Field projection (contract/query/fields.ts): shapes, merging, order and absent paths, on invented documents. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compileFields, pick, project } from '../contract/query/fields.ts';

const critter = {
  id: 7,
  name: 'ember-fox',
  types: [{ slot: 1, type: { name: 'ember', url: 'http://x/v2/type/7/' } }],
  sprites: {
    back_default: 'b.png',
    front_default: 'f.png',
    front_shiny: null,
    other: { 'official-artwork': { front_default: 'art.png', front_shiny: 'art-s.png' }, home: { front_default: 'h.png' } },
  },
  stats: [
    { base_stat: 45, effort: 0, stat: { name: 'hp' } },
    { base_stat: 60, effort: 1, stat: { name: 'speed' } },
  ],
  held_items: [],
  form: null,
};

describe('pick', () => {
  it('gives exactly the value and shape at each path, merged, in the document key order', () => {
    const picked = pick(critter, ['types', 'sprites.other.official-artwork.front_default', 'sprites.front_default']);
    expect(picked).toEqual({
      types: critter.types,
      sprites: { front_default: 'f.png', other: { 'official-artwork': { front_default: 'art.png' } } },
    });
    expect(JSON.stringify(picked)).toBe(
      '{"types":[{"slot":1,"type":{"name":"ember","url":"http://x/v2/type/7/"}}],"sprites":{"front_default":"f.png","other":{"official-artwork":{"front_default":"art.png"}}}}',
    );
    expect(Object.keys(pick(critter, ['stats', 'id']))).toEqual(['id', 'stats']);
  });

  it('takes the whole value when a path and a longer one below it are both asked', () => {
    expect(pick(critter, ['sprites.other', 'sprites.other.home.front_default'])).toEqual({ sprites: { other: critter.sprites.other } });
    expect(pick(critter, ['sprites.other.home.front_default', 'sprites.other'])).toEqual({ sprites: { other: critter.sprites.other } });
  });

  it('keeps nulls and empty arrays that exist, leaves out paths that do not', () => {
    expect(pick(critter, ['sprites.front_shiny', 'held_items', 'form'])).toEqual({ sprites: { front_shiny: null }, held_items: [], form: null });
    expect(pick(critter, ['weight', 'sprites.front_female', 'form.name', 'id.x'])).toEqual({});
  });

  it('applies the rest of a path to each element of an array, keeping positions', () => {
    expect(pick(critter, ['stats.base_stat', 'stats.stat.name'])).toEqual({
      stats: [
        { base_stat: 45, stat: { name: 'hp' } },
        { base_stat: 60, stat: { name: 'speed' } },
      ],
    });
    expect(pick({ list: [{ a: 1 }, 5, { b: 2 }] }, ['list.a'])).toEqual({ list: [{ a: 1 }, null, {}] });
    expect(pick({ list: [{ b: 1 }, 5] }, ['list.a'])).toEqual({});
  });

  it('keeps a key named __proto__ as a key', () => {
    const document = JSON.parse('{"__proto__": {"x": 1}, "y": 2}') as unknown;
    const picked = project(document, compileFields(['__proto__']));
    expect(Object.getPrototypeOf(picked)).toBe(Object.prototype);
    expect(JSON.stringify(picked)).toBe('{"__proto__":{"x":1}}');
  });

  it('answers {} for what is not an object', () => {
    expect(pick(null, ['id'])).toEqual({});
    expect(pick([1, 2], ['length'])).toEqual({});
  });

  it('gives for any set of top-level keys the document restricted to them, in its order', () => {
    const json = fc.jsonValue();
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.string({ minLength: 1, maxLength: 5 }).filter((k) => !k.includes('.')),
          json,
        ),
        fc.array(fc.string({ minLength: 1, maxLength: 5 })),
        (document, paths) => {
          const wanted = paths.filter((p) => !p.includes('.'));
          const expected = Object.keys(document).filter((k) => wanted.includes(k));
          const picked = pick(document, wanted);
          expect(Object.keys(picked)).toEqual(expected);
          for (const k of expected) expect(picked[k]).toEqual(document[k]);
        },
      ),
      { numRuns: 1_000 },
    );
  });
});
