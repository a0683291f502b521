/**
 * The coverage map's rules (generator/indexes/coverage.ts), on invented documents: what counts as
 * lacking, each kind's generation, the languages counted, and which gaps the build prints.
 */
import { describe, expect, it } from 'vitest';
import { coverageFacts, coverageMap, gapLine, isEmpty, largestGaps, type CoverageFacts, type Doc } from '../generator/indexes/coverage.ts';

const gen = (n: number) => ({ name: `generation-${n}`, url: `http://x/v2/generation/${n}/` });
const text = (...langs: string[]) => langs.map((l) => ({ name: 'x', language: { name: l, url: 'http://x/v2/language/1/' } }));
const facts = (kind: string, docs: Doc[]): CoverageFacts[] => docs.map((d) => coverageFacts(kind, d)!);

describe('the coverage map', () => {
  it('counts null, [], "", {} and a missing field as lacking; 0 and false are values', () => {
    for (const v of [null, [], '', {}, undefined]) expect(isEmpty(v), JSON.stringify(v)).toBe(true);
    for (const v of [0, false, 'a', [0], { a: null }]) expect(isEmpty(v), JSON.stringify(v)).toBe(false);
    expect(coverageFacts('language', { id: 1 })).toBeNull();
  });

  it('places each kind by its rule: its own generation, a creature by its species, an item by its earliest game index', () => {
    const map = coverageMap(
      new Map([
        ['creature-species', facts('creature-species', [{ id: 1, name: 'seedling', generation: gen(3), names: text('en') }])],
        [
          'creature',
          facts('creature', [
            { id: 1, name: 'seedling', species: { name: 'seedling' } },
            { id: 2, name: 'lost', species: { name: 'nobody' } },
          ]),
        ],
        [
          'item',
          facts('item', [
            { id: 1, name: 'stone', game_indices: [{ generation: gen(5) }, { generation: gen(2) }] },
            { id: 2, name: 'new', game_indices: [] },
          ]),
        ],
      ]),
    );
    const generations = Object.fromEntries(map.kinds.map((k) => [k.kind, k.generations.map((g) => [g.generation, g.count])]));
    expect(generations).toEqual({
      creature: [
        ['generation-3', 1],
        [null, 1],
      ],
      'creature-species': [['generation-3', 1]],
      item: [
        ['generation-2', 1],
        [null, 1],
      ],
    });
    expect(map.kinds.map((k) => k.kind)).toEqual(['creature', 'creature-species', 'item']);
  });

  it('counts names and flavor texts per language: English, then the five with the most entries', () => {
    const docs: Doc[] = [
      { id: 1, name: 'a', generation: gen(1), names: text('en', 'fr', 'de', 'ja', 'ko', 'es', 'it'), flavor_text_entries: text('fr', 'de') },
      { id: 2, name: 'b', generation: gen(1), names: text('fr', 'de', 'ja', 'ko', 'es'), flavor_text_entries: [] },
    ];
    const map = coverageMap(new Map([['move', facts('move', docs)]]));
    expect(map.languages).toEqual(['en', 'de', 'fr', 'es', 'ja', 'ko']);
    const row = map.kinds[0]!.generations[0]!;
    expect(row.fields['names[en]']).toEqual({ gaps: 1, share: 0.5 });
    expect(row.fields['names[fr]']).toEqual({ gaps: 0, share: 0 });
    expect(row.fields.flavor_text_entries).toEqual({ gaps: 1, share: 0.5 });
    expect(row.fields['flavor_text_entries[en]']).toEqual({ gaps: 2, share: 1 });
    expect(map.kinds[0]!.fields).not.toContain('id');
  });

  it('prints the gaps a generation has beyond the kind’s other generations, a language’s gap once when it is its field’s', () => {
    const move = (id: number, g: number, extra: Doc): Doc => ({ id, name: `m${id}`, generation: gen(g), past_values: [], names: text('en'), ...extra });
    const docs = [
      move(1, 1, { flavor_text_entries: text('en'), power: 40 }),
      move(2, 1, { flavor_text_entries: text('en'), power: 40 }),
      move(3, 2, { flavor_text_entries: [], power: null }),
      move(4, 2, { flavor_text_entries: [], power: 10 }),
    ];
    const map = coverageMap(new Map([['move', facts('move', docs)]]));
    const gaps = largestGaps(map, 5);
    // past_values is empty everywhere: the data's shape, no gap; flavor_text_entries[en] is flavor_text_entries' gap
    expect(gaps.map((g) => `${g.generation} ${g.field} ${g.gaps}`)).toEqual(['generation-2 flavor_text_entries 2', 'generation-2 power 1']);
    expect(gapLine(gaps[0]!)).toBe('coverage: move generation-2 lacks flavor_text_entries in 2 of 2 items (100.0%)');
  });
});
