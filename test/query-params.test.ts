/** Parameter parsing (contract/query/parse.ts): lists, ranges, batches and fields; hostile input always a value or a 400 body, in bounded time. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  QUERY_LIMITS,
  parseFields,
  parseIds,
  parseNameList,
  parseNames,
  parseRange,
  parseSort,
  parseValueGroups,
  parseValues,
  checkQueryLength,
  type Parsed,
  type Vocabulary,
} from '../contract/query/parse.ts';
import { badParameterBody } from '../contract/error-body.ts';

/** An invented vocabulary: three elements by name and id. */
const elements: Vocabulary = {
  lookup: (token) => (({ ember: 0, tide: 1, gust: 2, '7': 0, '8': 1, '9': 2 }) as Record<string, number>)[token],
  accepts: 'element: an element name or id: ember, tide, gust',
};
const value = <T>(parsed: Parsed<T>): T => {
  if (!parsed.ok) throw new Error(`expected a value, got ${JSON.stringify(parsed.error)}`);
  return parsed.value;
};
const error = <T>(parsed: Parsed<T>) => {
  if (parsed.ok) throw new Error(`expected an error, got ${JSON.stringify(parsed.value)}`);
  return parsed.error;
};

/** The query as the request logic will read it: the length cap, then the parameters (contract/query/params.ts's part). */
const readQuery = (search: string): Parsed<URLSearchParams> => {
  const checked = checkQueryLength(search);
  return checked.ok ? { ok: true, value: new URLSearchParams(checked.value) } : checked;
};

describe('parseValueGroups', () => {
  it('keeps each repeat a group of its own, skipping empty repeats; a bad value anywhere is a 400 naming it', () => {
    expect(value(parseValueGroups('element', ['ember,tide', 'gust'], elements))).toEqual([[0, 1], [2]]);
    expect(value(parseValueGroups('element', ['', ' , ', 'tide'], elements))).toEqual([[1]]);
    expect(value(parseValueGroups('element', ['', ','], elements))).toBeNull();
    expect(error(parseValueGroups('element', ['ember', 'fire'], elements)).value).toBe('fire');
  });

  it('caps the repeats and the items of all repeats together', () => {
    expect(
      error(
        parseValueGroups(
          'element',
          Array.from({ length: QUERY_LIMITS.repeats + 1 }, () => 'ember'),
          elements,
        ),
      ).accepts,
    ).toMatch(/at most 10 times/);
    expect(
      value(
        parseValueGroups(
          'element',
          Array.from({ length: QUERY_LIMITS.repeats }, () => 'ember'),
          elements,
        ),
      ),
    ).toHaveLength(QUERY_LIMITS.repeats);
    expect(error(parseValueGroups('element', ['ember,'.repeat(60), 'tide,'.repeat(60)], elements)).accepts).toBe(
      `at most ${QUERY_LIMITS.listItems} comma-separated values`,
    );
  });
});

describe('parseSort and parseNameList', () => {
  const keys = ['id', 'name', 'speed', 'special-attack'];
  it('reads keys with an optional leading minus, in order, repeats joined as commas', () => {
    expect(value(parseSort('sort', ['-Speed, id', 'special-attack'], keys))).toEqual([
      { key: 'speed', descending: true },
      { key: 'id', descending: false },
      { key: 'special-attack', descending: false },
    ]);
    expect(value(parseSort('sort', ['-special-attack'], keys))).toEqual([{ key: 'special-attack', descending: true }]);
    expect(value(parseSort('sort', [' , '], keys))).toBeNull();
  });

  it('refuses an unknown key, a key twice, a bare or doubled minus, and more than five keys, naming the keys it takes', () => {
    for (const bad of ['height', 'speed,-speed', '-', '--speed', '+speed']) {
      const e = error(parseSort('sort', [bad], keys));
      expect(e.parameter).toBe('sort');
      expect(e.accepts).toMatch(/id, name, speed, special-attack$/);
    }
    expect(error(parseSort('sort', ['id,name,speed,special-attack,-id,-name'], keys)).accepts).toBe(`at most ${QUERY_LIMITS.sortKeys} comma-separated values`);
  });

  it('takes names of the allowed list only, once each', () => {
    expect(value(parseNameList('facets', ['type,Type', 'color'], ['type', 'color'], 'value filters', 5))).toEqual(['type', 'color']);
    expect(error(parseNameList('facets', ['speed'], ['type'], 'value filters', 5)).accepts).toBe('comma-separated value filters, at most 5 of: type');
    expect(error(parseNameList('summary', ['speed'], [], 'ranges', 10)).accepts).toBe('nothing: this collection has no ranges');
  });
});

describe('parseValues', () => {
  it('resolves names and ids, in any case, once each, in the order given', () => {
    expect(value(parseValues('element', ['tide,Ember'], elements))).toEqual([1, 0]);
    expect(value(parseValues('element', ['9, gust ,8'], elements))).toEqual([2, 1]);
    expect(value(parseValues('element', ['ember', 'tide'], elements))).toEqual([0, 1]);
  });

  it('treats a missing or empty parameter as absent and skips empty items', () => {
    expect(value(parseValues('element', [], elements))).toBeNull();
    expect(value(parseValues('element', [''], elements))).toBeNull();
    expect(value(parseValues('element', [',,,'], elements))).toBeNull();
    expect(value(parseValues('element', ['ember,,tide,'], elements))).toEqual([0, 1]);
  });

  it('names the item that names nothing, and what the parameter accepts', () => {
    const body = badParameterBody(error(parseValues('element', ['ember,embr'], elements)));
    expect(body).toEqual({
      error: 'bad_parameter',
      detail: 'The value of the query parameter element was not understood; accepts says what it takes.',
      parameter: 'element',
      value: 'embr',
      accepts: 'element: an element name or id: ember, tide, gust',
    });
    // the one error shape first, then the fields a 400 has always carried
    expect(Object.keys(body)).toEqual(['error', 'detail', 'parameter', 'value', 'accepts']);
    expect(error(parseValues('element', ['\uFFFD'], elements)).value).toBe('\uFFFD');
  });

  it('caps the number of items and the length of the value', () => {
    const many = Array.from({ length: QUERY_LIMITS.listItems + 1 }, () => 'ember').join(',');
    expect(error(parseValues('element', [many], elements)).accepts).toBe(`at most ${QUERY_LIMITS.listItems} comma-separated values`);
    const long = 'e'.repeat(QUERY_LIMITS.valueLength + 1);
    const tooLong = error(parseValues('element', [long], elements));
    expect(tooLong.value).toBe('e'.repeat(QUERY_LIMITS.echoLength) + '…');
    expect(tooLong.accepts).toBe(`at most ${QUERY_LIMITS.valueLength} characters`);
    // repeats count together
    const repeats = Array.from({ length: QUERY_LIMITS.listItems + 1 }, () => 'tide');
    expect(parseValues('element', repeats, elements).ok).toBe(false);
  });
});

describe('parseRange', () => {
  const range = (text: string) => value(parseRange('speed', [text]));
  it('reads open and closed ranges and single values, negatives included', () => {
    expect(range('100..')).toEqual({ min: 100, max: null });
    expect(range('..50')).toEqual({ min: null, max: 50 });
    expect(range('80..100')).toEqual({ min: 80, max: 100 });
    expect(range(' 90 ')).toEqual({ min: 90, max: 90 });
    expect(range('-7..-1')).toEqual({ min: -7, max: -1 });
    expect(range('5..5')).toEqual({ min: 5, max: 5 });
    expect(value(parseRange('speed', []))).toBeNull();
    expect(value(parseRange('speed', ['']))).toBeNull();
  });

  it('holds a huge bound at the largest safe integer', () => {
    expect(range('1..99999999999999999999')).toEqual({ min: 1, max: Number.MAX_SAFE_INTEGER });
    expect(range('..-99999999999999999999')).toEqual({ min: null, max: -Number.MAX_SAFE_INTEGER });
  });

  it('refuses what is not an integer range', () => {
    for (const bad of ['..', '5..3', '1.5..3', '+5', 'fast', '1...3', '1..2..3', '1,2', '0x10..', '1 .. 3', '１００..']) {
      const e = error(parseRange('speed', [bad]));
      expect(e.parameter).toBe('speed');
      expect(e.value).toBe(bad);
      expect(e.accepts).toMatch(/^an integer range: 100\.\. \(at least\)/);
    }
  });

  it('takes a repeated range as the intersection of its repeats, at most ten of them', () => {
    expect(value(parseRange('speed', ['100..', '100..']))).toEqual({ min: 100, max: null });
    expect(value(parseRange('speed', ['100..', '..110', '90..200']))).toEqual({ min: 100, max: 110 });
    expect(value(parseRange('speed', ['100..', '..50']))).toEqual({ min: 100, max: 50 });
    expect(error(parseRange('speed', ['100..', '5..3'])).value).toBe('5..3');
    expect(
      error(
        parseRange(
          'speed',
          Array.from({ length: 11 }, (_, i) => `${i}..`),
        ),
      ).accepts,
    ).toMatch(/at most 10 times/);
  });
});

describe('parseIds and parseNames', () => {
  it('reads batches of ids and names', () => {
    expect(value(parseIds('id', ['1,4,7', '4']))).toEqual([1, 4, 7]);
    expect(value(parseNames('name', ['Ember-Fox,tide-cat']))).toEqual(['ember-fox', 'tide-cat']);
  });
  it('refuses what is not an id or a name', () => {
    expect(error(parseIds('id', ['1,-4'])).value).toBe('-4');
    expect(error(parseIds('id', ['1234567890'])).value).toBe('1234567890');
    expect(error(parseNames('name', ['ember fox'])).value).toBe('ember fox');
    expect(error(parseNames('name', ['-ember'])).value).toBe('-ember');
  });
});

describe('parseFields', () => {
  const allowed = ['id', 'types', 'stats', 'sprites.front_default', 'sprites.other.official-artwork.front_default'];
  const below = ['stats.base_stat', 'stats.stat', 'stats.stat.name', 'types.type', 'types.type.name'];
  it('takes allowed paths and the paths below them the items have', () => {
    expect(value(parseFields('fields', ['types,sprites.front_default'], allowed, below))).toEqual(['types', 'sprites.front_default']);
    expect(value(parseFields('fields', ['stats.base_stat', 'types', 'types'], allowed, below))).toEqual(['stats.base_stat', 'types']);
    expect(value(parseFields('fields', ['types.type.name'], allowed, below))).toEqual(['types.type.name']);
    expect(value(parseFields('fields', [''], allowed, below))).toBeNull();
  });
  it('names a path below an allowed field that the items do not have', () => {
    for (const path of ['types.nope', 'sprites.front_default.x', 'stats.stat.name.x', 'id.x']) {
      const e = error(parseFields('fields', [`id,${path}`], allowed, below));
      expect(e.value, path).toBe(path);
      expect(e.accepts).toContain('stats.base_stat');
    }
    expect(parseFields('fields', ['stats.base_stat'], allowed).ok).toBe(false);
  });
  it('names an unknown field and lists the allowed ones', () => {
    const e = error(parseFields('fields', ['types,sprites'], allowed));
    expect(e).toEqual({ parameter: 'fields', value: 'sprites', accepts: `comma-separated fields, each one of: ${allowed.join(', ')}` });
    expect(error(parseFields('fields', ['sprites'], allowed, below)).accepts).toBe(
      `comma-separated fields, each one of: ${allowed.join(', ')} or a path below one that its items have, e.g. stats.base_stat`,
    );
    expect(parseFields('fields', ['typesx'], allowed).ok).toBe(false);
    expect(parseFields('fields', ['types.'], allowed).ok).toBe(false);
    expect(parseFields('fields', ['__proto__'], allowed).ok).toBe(false);
  });
  it('caps the number of paths', () => {
    const many = Array.from({ length: QUERY_LIMITS.fieldPaths + 1 }, () => 'id').join(',');
    expect(error(parseFields('fields', [many], allowed)).accepts).toBe(`at most ${QUERY_LIMITS.fieldPaths} comma-separated values`);
  });
});

describe('readQuery', () => {
  it('decodes invalid UTF-8 to U+FFFD instead of throwing, and refuses an overlong query', () => {
    expect(value(readQuery('?element=%FF%FE&x=1')).get('element')).toBe('\uFFFD\uFFFD');
    expect(value(readQuery('?a=%')).get('a')).toBe('%');
    expect(error(readQuery('?a=' + 'b'.repeat(QUERY_LIMITS.queryLength))).parameter).toBe('*');
  });
});

describe('totality under hostile input', () => {
  const hostile = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 300 }),
    fc.string({ unit: fc.constantFrom(',', '.', '-', '1', '9', 'e', ' ', '%FF', '\uFFFD'), maxLength: 3000 }),
    fc.constant(','.repeat(1000)),
    fc.constant('1..' + '9'.repeat(5000)),
  );
  const parameter = fc.array(hostile, { minLength: 0, maxLength: 5 });

  it('every parser gives a value or an error with the parameter named and a short echo, never a throw', () => {
    const allowed = ['id', 'types'];
    fc.assert(
      fc.property(parameter, (values) => {
        for (const parsed of [
          parseValues('element', values, elements),
          parseRange('speed', values),
          parseIds('id', values),
          parseNames('name', values),
          parseFields('fields', values, allowed),
        ] as Parsed<unknown>[]) {
          if (parsed.ok) continue;
          expect(parsed.error.parameter).not.toBe('');
          expect(Array.from(parsed.error.value).length).toBeLessThanOrEqual(QUERY_LIMITS.echoLength + 1);
          const body = JSON.parse(JSON.stringify(badParameterBody(parsed.error))) as Record<string, unknown>;
          expect(body.error).toBe('bad_parameter');
          expect(typeof body.detail).toBe('string');
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it('a query of every parameter repeated, or a thousand commas, is answered either way', () => {
    const repeats = (n: number) => value(readQuery('?' + Array.from({ length: n }, (_, i) => `element=${i % 3 === 0 ? 'ember' : 'tide'}`).join('&')));
    expect(value(parseValues('element', repeats(60).getAll('element'), elements))).toEqual([0, 1]);
    expect(error(parseValues('element', repeats(400).getAll('element'), elements)).accepts).toBe(`at most ${QUERY_LIMITS.valueLength} characters`);
    const commas = value(readQuery('?element=' + ','.repeat(1000)));
    expect(value(parseValues('element', commas.getAll('element'), elements))).toBeNull();
    const ranges = value(readQuery('?speed=1..99999999999999999999&speed=1..99999999999999999999'));
    expect(value(parseRange('speed', ranges.getAll('speed')))).toEqual({ min: 1, max: Number.MAX_SAFE_INTEGER });
  });
});
