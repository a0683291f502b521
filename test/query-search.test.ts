/**
 * Ranked search (edge/query/search.ts) over invented indexes: ranking, ties, short queries, edits,
 * and invariants under random input; the packed all-kinds index (contract/search-pack.ts): its
 * round trip, the same answers as the kinds' files, and its refusal of a broken file.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { foldText } from '../contract/query/fold.ts';
import { BoundedEditDistance } from '../edge/query/edit-distance.ts';
import { MatchRank, SearchIndex, maxEditsFor } from '../edge/query/search.ts';
import {
  entrySignatures,
  makeSearchKind,
  PackedText,
  packSearchFiles,
  type NamedResource,
  type PackedSearch,
  type SearchIndexFile,
} from '../contract/search-index.ts';
import { decodeSearchPack, encodeSearchPack } from '../contract/search-pack.ts';
import { withPackHeader } from './support/pack.ts';

const LANGUAGES = ['ja-hrkt', 'fr', 'de', 'en'];

/** An invented resource: its id, own name and [language, name] pairs. */
function row(id: number, own: string, names: [string, string][] = []): NamedResource {
  return { id, name: own, names: names.map(([language, name]) => ({ language, name })) };
}
const indexFile = (kinds: [string, NamedResource[]][], languages = LANGUAGES): SearchIndexFile => ({
  format: 'search-index/2',
  languages,
  kinds: kinds.map(([kind, resources]) => makeSearchKind(kind, resources, languages)),
});

const file = indexFile([
  [
    'creature',
    [
      row(1, 'flarebeast', [
        ['ja-hrkt', 'ホノオジュウ'],
        ['fr', 'Flambête'],
        ['de', 'Flammtier'],
        ['en', 'Flarebeast'],
      ]),
      row(2, 'flarebeast-mega', [
        ['ja-hrkt', 'ホノオジュウ'],
        ['fr', 'Méga-Flambête'],
      ]),
      row(3, 'sparkmouse', [
        ['ja-hrkt', 'ピカネズミ'],
        ['fr', 'Étincelle'],
        ['de', 'Funkmaus'],
      ]),
      row(4, 'mr-mimic', [['en', 'Mr. Mimic']]),
      row(5, 'aquafin', [['fr', 'Aquanageoire']]),
    ],
  ],
  [
    'move',
    [
      row(1, 'flare', [
        ['ja-hrkt', 'ほのお'],
        ['fr', 'Flamme'],
      ]),
      row(2, 'thunder-strike', [['de', 'Donnerschlag']]),
      row(3, 'aqua-jet', [['fr', 'Aqua-Jet']]),
    ],
  ],
]);
const index = SearchIndex.fromFiles(file);
const find = (query: string, options = {}) => {
  const result = index.search(foldText(query), options);
  return result.hits(0, result.count).map((h) => `${h.kind}/${h.name}`);
};

describe('SearchIndex', () => {
  it('ranks exact, then prefix, then substring, then edits', () => {
    expect(find('flare')).toEqual(['move/flare', 'creature/flarebeast', 'creature/flarebeast-mega']);
    const hits = index.search(foldText('flarebeest')).hits(0, 10);
    expect(hits.map((h) => [h.name, h.rank, h.edits])).toEqual([['flarebeast', MatchRank.Fuzzy, 1]]);
    expect(find('beast')).toEqual(['creature/flarebeast', 'creature/flarebeast-mega']);
    expect(index.search('beast').hits(0, 1)[0]!.rank).toBe(MatchRank.Substring);
  });

  it('answers each resource once, with its best name, its language and the name as written', () => {
    const [hit, ...rest] = index.search(foldText('flambete')).hits(0, 10);
    expect(hit).toEqual({ kind: 'creature', id: 1, name: 'flarebeast', matchedName: 'Flambête', language: 'fr', rank: MatchRank.Exact, edits: 0 });
    expect(rest.map((h) => [h.name, h.matchedName, h.rank])).toEqual([['flarebeast-mega', 'Méga-Flambête', MatchRank.Substring]]);
    // flarebeast matches by its own name and its English name equally: the API's own name wins
    const own = index.search('flarebeast').hits(0, 1)[0]!;
    expect([own.matchedName, own.language]).toEqual(['flarebeast', null]);
  });

  it('finds names in any script and width, hiragana as katakana', () => {
    expect(find('ﾎﾉｵｼﾞｭｳ')).toEqual(['creature/flarebeast', 'creature/flarebeast-mega']);
    expect(find('ほのおじゅう')).toEqual(['creature/flarebeast', 'creature/flarebeast-mega']);
    // an exact match in another kind comes before prefixes, whatever the kind order
    expect(find('ホノオ')).toEqual(['move/flare', 'creature/flarebeast', 'creature/flarebeast-mega']);
    expect(find('ＦＵＮＫＭＡＵＳ')).toEqual(['creature/sparkmouse']);
  });

  it('breaks ties by shorter name, then kind order, then id', () => {
    // "aqua" is a prefix of aquafin (creature, 7 letters) and aqua jet (move, 8): shorter first
    expect(find('aqua')).toEqual(['creature/aquafin', 'move/aqua-jet']);
    const twoKinds = indexFile([
      ['b-kind', [row(9, 'same'), row(3, 'same')]],
      ['a-kind', [row(1, 'same')]],
    ]);
    const ties = SearchIndex.fromFiles(twoKinds).search('same');
    expect(ties.hits(0, 3).map((h) => `${h.kind}/${h.id}`)).toEqual(['b-kind/9', 'b-kind/3', 'a-kind/1']);
  });

  it('holds short queries back: one or two letters are prefixes only, fuzzy starts at four', () => {
    // own names first (shorter first), then Funkmaus
    expect(find('f')).toEqual(['move/flare', 'creature/flarebeast', 'creature/flarebeast-mega', 'creature/sparkmouse']);
    expect(find('l')).toEqual([]);
    expect(find('la')).toEqual([]);
    // three letters match inside names too (Donnerschlag)
    expect(find('lag')).toEqual(['move/thunder-strike']);
    expect(find('lar')).toEqual(['move/flare', 'creature/flarebeast', 'creature/flarebeast-mega']);
    expect(find('flr')).toEqual([]);
    expect(find('flre')).toEqual(['move/flare']);
    expect([1, 2, 3, 4, 6, 7, 12].map(maxEditsFor)).toEqual([0, 0, 0, 1, 1, 2, 2]);
  });

  it('forgives up to two edits from seven letters, a transposition counting as one', () => {
    expect(find('sprakmouse')).toEqual(['creature/sparkmouse']);
    expect(find('sparkmuse')).toEqual(['creature/sparkmouse']);
    expect(find('spurkmuse')).toEqual(['creature/sparkmouse']);
    expect(find('spurkmuze')).toEqual([]);
    expect(find('thunder strke')).toEqual(['move/thunder-strike']);
  });

  it('narrows to kinds, and filters a collection by substring of any length without edits', () => {
    expect(find('flare', { kinds: new Set(['creature']) })).toEqual(['creature/flarebeast', 'creature/flarebeast-mega']);
    // own names first, then Étincelle and Donnerschlag, shorter first
    expect(find('l', { purpose: 'filter' })).toEqual([
      'move/flare',
      'creature/flarebeast',
      'creature/flarebeast-mega',
      'creature/sparkmouse',
      'move/thunder-strike',
    ]);
    expect(find('flarebeest', { purpose: 'filter' })).toEqual([]);
    expect(find('mr mimic')).toEqual(['creature/mr-mimic']);
  });

  it('pages the hits and counts them all', () => {
    const result = index.search('fla');
    expect(result.count).toBe(3);
    expect(result.hits(1, 1).map((h) => h.name)).toEqual(['flarebeast']);
    expect(result.hits(5, 10)).toEqual([]);
    expect(index.search('').count).toBe(0);
  });

  it('writes a kind compactly: one entry per distinct folded name, display only where it differs', () => {
    const kind = makeSearchKind(
      'critter',
      [
        row(4, 'mr-mimic', [
          ['en', 'Mr. Mimic'],
          ['fr', 'Mr. Mimic'],
          ['de', 'MR-MIMIC'],
          ['ja-hrkt', 'バリヤド'],
          ['xx', 'Nope'],
        ]),
      ],
      LANGUAGES,
    );
    expect(kind).toEqual({
      kind: 'critter',
      ids: [4],
      names: 'mr-mimic',
      counts: [2],
      languages: [3, 0],
      folded: 'mr mimic\nmr. mimic\nバリヤド',
      display: 'Mr. Mimic\n',
    });
    const hit = SearchIndex.fromFiles(indexFile([['critter', [row(4, 'mr-mimic', [['ja-hrkt', 'バリヤド']])]]]))
      .search('バリヤド')
      .hits(0, 1)[0]!;
    expect([hit.matchedName, hit.language]).toEqual(['バリヤド', 'ja-hrkt']);
    expect(
      SearchIndex.fromFiles(
        indexFile([
          ['empty', []],
          ['critter', [row(1, 'solo')]],
        ]),
      ).search('solo').count,
    ).toBe(1);
  });

  it('refuses an index whose lists disagree', () => {
    const good = makeSearchKind('x', [row(1, 'a', [['fr', 'b']])], LANGUAGES);
    const bad: SearchIndexFile = { format: 'search-index/2', languages: LANGUAGES, kinds: [{ ...good, counts: [2] }] };
    expect(() => SearchIndex.fromFiles(bad)).toThrow(/x: the lists do not agree in length/);
    // folded names are counted from where they start, kind by kind: one too many or too few in
    // one kind is refused even when the other kind makes up the total
    const other = makeSearchKind('y', [row(2, 'c', [['fr', 'd']])], LANGUAGES);
    for (const [x, y] of [
      [`${good.folded}\nextra`, other.folded.slice(0, other.folded.lastIndexOf('\n'))],
      [good.folded.slice(0, good.folded.lastIndexOf('\n')), `${other.folded}\nextra`],
    ]) {
      const file: SearchIndexFile = {
        format: 'search-index/2',
        languages: LANGUAGES,
        kinds: [
          { ...good, folded: x! },
          { ...other, folded: y! },
        ],
      };
      expect(() => SearchIndex.fromFiles(file)).toThrow(/x: the lists do not agree in length/);
    }
    const noDisplay: SearchIndexFile = { format: 'search-index/2', languages: LANGUAGES, kinds: [{ ...good, display: 'b\nc' }] };
    expect(() => SearchIndex.fromFiles(noDisplay)).toThrow(/x: the lists do not agree in length/);
  });

  it('names each hit from its own kind when kinds are loaded together', () => {
    const index = SearchIndex.fromFiles(
      indexFile([
        [
          'first',
          [
            row(1, 'alpha', [
              ['fr', 'Alphé'],
              ['ja-hrkt', 'アルファ'],
            ]),
            row(2, 'beta', [['de', 'Betà']]),
          ],
        ],
        [
          'second',
          [
            row(7, 'gamma', [['fr', 'Gammé']]),
            row(8, 'delta', [
              ['ja-hrkt', 'デルタ'],
              ['de', 'Deltà'],
            ]),
          ],
        ],
      ]),
    );
    const hit = (q: string) => {
      const h = index.search(q).hits(0, 1)[0]!;
      return [h.kind, h.id, h.name, h.matchedName, h.language];
    };
    expect(hit('alphe')).toEqual(['first', 1, 'alpha', 'Alphé', 'fr']);
    expect(hit('beta')).toEqual(['first', 2, 'beta', 'beta', null]);
    expect(hit('gamme')).toEqual(['second', 7, 'gamma', 'Gammé', 'fr']);
    expect(hit('デルタ')).toEqual(['second', 8, 'delta', 'デルタ', 'ja-hrkt']);
    expect(hit('delta')).toEqual(['second', 8, 'delta', 'delta', null]);
    expect(hit('deltaa')).toEqual(['second', 8, 'delta', 'delta', null]);
  });
});

/** Optimal string alignment distance, the plain full-table way, as the oracle. */
function osa(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

describe('BoundedEditDistance', () => {
  const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd'), maxLength: 12 });
  it('equals the full distance when it is within the bound, and says null otherwise', () => {
    const distance = new BoundedEditDistance();
    fc.assert(
      fc.property(word, word, fc.integer({ min: 0, max: 3 }), (a, b, max) => {
        const full = osa(a, b);
        expect(distance.within(a, b, max)).toBe(full <= max ? full : null);
      }),
      { numRuns: 5_000 },
    );
    expect(distance.within('x'.repeat(200), 'x'.repeat(199) + 'y', 2)).toBe(1);
  });
});

describe('search invariants on random indexes', () => {
  const name = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'é', 'ア', '-'), minLength: 1, maxLength: 9 });
  const randomFile = fc
    .array(fc.tuple(name, fc.array(fc.tuple(fc.constantFrom(...LANGUAGES), name), { maxLength: 3 })), { minLength: 1, maxLength: 25 })
    .map((rows) => rows.map(([own, names], id) => row(id + 1, own, names)));

  it('hits are sorted, distinct, truly match at their rank, and every exact, prefix or substring match is found', () => {
    fc.assert(
      fc.property(randomFile, name, (resources, rawQuery) => {
        const query = foldText(rawQuery);
        const result = SearchIndex.fromFiles(indexFile([['k', resources]])).search(query);
        const hits = result.hits(0, result.count);
        expect(new Set(hits.map((h) => h.id)).size).toBe(hits.length);
        for (let i = 1; i < hits.length; i++) {
          const [a, b] = [hits[i - 1]!, hits[i]!];
          expect(a.rank * 3 + a.edits).toBeLessThanOrEqual(b.rank * 3 + b.edits);
        }
        for (const hit of hits) {
          const folded = foldText(hit.matchedName);
          if (hit.rank === MatchRank.Exact) expect(folded).toBe(query);
          if (hit.rank === MatchRank.Prefix) expect(folded.startsWith(query)).toBe(true);
          if (hit.rank === MatchRank.Substring) expect(folded.includes(query)).toBe(true);
          if (hit.rank === MatchRank.Fuzzy) expect(osa(query, folded)).toBe(hit.edits);
        }
        if (query.length === 0) return;
        const found = new Set(hits.map((h) => h.id));
        for (const resource of resources) {
          const names = [resource.name, ...resource.names.map((n) => n.name)].map(foldText);
          const must = names.some((n) => n.startsWith(query) || (query.length >= 3 && n.includes(query)));
          if (must) expect(found.has(resource.id)).toBe(true);
        }
      }),
      { numRuns: 1_000 },
    );
  });
});

describe('the packed index (contract/search-pack.ts)', () => {
  const kindFile = (kind: string, resources: NamedResource[], languages: string[]): SearchIndexFile => ({
    format: 'search-index/2',
    languages,
    kinds: [makeSearchKind(kind, resources, languages)],
  });
  // kinds with their own language lists, in other orders, one kind empty: the packing renumbers them
  const files = [
    kindFile(
      'creature',
      file.kinds[0]!.ids.map((id) => row(id, `c${id}`)),
      ['fr'],
    ),
    kindFile(
      'move',
      [
        row(1, 'flare', [
          ['ja-hrkt', 'ほのお'],
          ['fr', 'Flamme'],
        ]),
        row(2, 'aqua-jet', [
          ['de', 'Aquadüse'],
          ['fr', 'Aqua-Jet'],
        ]),
      ],
      ['de', 'fr', 'ja-hrkt'],
    ),
    kindFile('none', [], ['en']),
    kindFile(
      'item',
      [
        row(5, 'potion', [
          ['fr', 'Potion'],
          ['en', 'Potion'],
          ['de', 'Trank'],
        ]),
      ],
      ['en', 'de', 'fr'],
    ),
  ];
  const columnsOf = (packed: PackedSearch) => ({
    ...packed,
    kinds: packed.kinds.map((kind) => ({ ...kind, names: kind.names.text, display: kind.display.text })),
    signatures: [...(packed.signatures ?? entrySignatures(packed.joined, packed.entryStart))],
  });

  it('decodes to the columns it was made from, signatures computed', () => {
    const packed = packSearchFiles(files);
    const decoded = decodeSearchPack(encodeSearchPack(packed));
    expect(columnsOf(decoded)).toEqual(columnsOf(packed));
    expect([...decoded.signatures!]).toEqual([...entrySignatures(packed.joined, packed.entryStart)]);
    expect(decoded.languages).toEqual(['fr', 'de', 'ja-hrkt', 'en']);
    // Aqua-Jet and both Potions fold like their own names: no entry of their own
    expect(decoded.kinds.map((k) => [k.kind, k.resources, k.translations])).toEqual([
      ['creature', 5, 0],
      ['move', 2, 3],
      ['none', 0, 0],
      ['item', 1, 1],
    ]);
    // an empty index packs too
    expect(columnsOf(decodeSearchPack(encodeSearchPack(packSearchFiles([]))))).toEqual(columnsOf(packSearchFiles([])));
  });

  it('reads bytes that do not start at a multiple of 4 (copied once)', () => {
    const bytes = encodeSearchPack(packSearchFiles(files));
    const shifted = new Uint8Array(bytes.length + 1);
    shifted.set(bytes, 1);
    expect(columnsOf(decodeSearchPack(shifted.subarray(1)))).toEqual(columnsOf(decodeSearchPack(bytes)));
  });

  it('answers as the kinds’ own files packed at load, hit for hit, with and without kind=', () => {
    const fromFiles = SearchIndex.fromFiles(...files);
    const packed = new SearchIndex(decodeSearchPack(encodeSearchPack(packSearchFiles(files))));
    for (const q of ['flare', 'fla', 'c1', 'c', 'potion', 'trank', 'tranc', 'aqua', 'aquajet', 'ほのお', 'flamme', 'flme', 'aquaduse']) {
      for (const kinds of [undefined, new Set(['move']), new Set(['item', 'creature'])]) {
        const [a, b] = [fromFiles.search(foldText(q), { kinds }), packed.search(foldText(q), { kinds })];
        expect(b.hits(0, 100), q).toEqual(a.hits(0, 100));
        expect(b.count).toBe(a.count);
      }
    }
  });

  it('answers as the merged files on random indexes of several kinds', () => {
    const name = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'é', 'ア', '-'), minLength: 1, maxLength: 9 });
    const kind = fc.tuple(
      fc.subarray(LANGUAGES, { minLength: 1 }),
      fc.array(fc.tuple(name, fc.array(fc.tuple(fc.constantFrom(...LANGUAGES), name), { maxLength: 3 })), { maxLength: 8 }),
    );
    fc.assert(
      fc.property(fc.array(kind, { minLength: 1, maxLength: 4 }), name, fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }), (kinds, rawQuery, asked) => {
        const kindFiles = kinds.map(([languages, rows], k) =>
          kindFile(
            `k${k}`,
            rows.map(([own, names], id) => row(id + 1, own, names)),
            languages,
          ),
        );
        const query = foldText(rawQuery);
        const options = { kinds: new Set(kindFiles.map((f) => f.kinds[0]!.kind).filter((_, k) => asked[k])) };
        const fromFiles = SearchIndex.fromFiles(...kindFiles);
        const packed = new SearchIndex(decodeSearchPack(encodeSearchPack(packSearchFiles(kindFiles))));
        for (const opts of [{}, options, { purpose: 'filter' as const }]) {
          const [a, b] = [fromFiles.search(query, opts), packed.search(query, opts)];
          expect(b.hits(0, a.count)).toEqual(a.hits(0, a.count));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('refuses a file of another format, truncated, lengthened or whose header and sections disagree: an Error naming it', () => {
    const bytes = encodeSearchPack(packSearchFiles(files));
    for (let length = 0; length < bytes.length; length += length < 64 ? 1 : 7) {
      expect(() => decodeSearchPack(bytes.slice(0, length)), `${length} bytes`).toThrow(/^search pack: /);
    }
    const longer = new Uint8Array(bytes.length + 4);
    longer.set(bytes);
    expect(() => decodeSearchPack(longer)).toThrow(/search pack: \d+ bytes, the header says \d+/);
    expect(() => decodeSearchPack(new TextEncoder().encode(JSON.stringify(files[0])))).toThrow(/search pack: unknown format/);
    interface Header {
      languages?: string[];
      kinds: { resources: number }[];
      sections: Record<string, { offset: number; type: string }>;
      bytes: number;
    }
    const withHeader = (change: (header: Header) => void): Uint8Array => withPackHeader<Header>(bytes, change);
    expect(() =>
      decodeSearchPack(
        withHeader((h) => {
          h.sections['entryStart']!.offset += 4;
        }),
      ),
    ).toThrow(/search pack: section entryStart lies outside its place/);
    expect(() =>
      decodeSearchPack(
        withHeader((h) => {
          h.sections['joined']!.offset = h.bytes;
        }),
      ),
    ).toThrow(/search pack: section joined lies outside its place/);
    expect(() =>
      decodeSearchPack(
        withHeader((h) => {
          h.sections['entryLanguage']!.type = 'utf8';
        }),
      ),
    ).toThrow(/search pack: section entryLanguage is utf8, not int8/);
    expect(() =>
      decodeSearchPack(
        withHeader((h) => {
          h.kinds[0]!.resources += 1;
        }),
      ),
    ).toThrow(/search pack: section \w+ holds \d+ bytes, not \d+/);
    expect(() =>
      decodeSearchPack(
        withHeader((h) => {
          delete h.languages;
        }),
      ),
    ).toThrow(/search pack: the header lacks/);
    const brokenJson = bytes.slice();
    brokenJson[20] = 0x20;
    expect(() => decodeSearchPack(brokenJson)).toThrow(/search pack: the header is no JSON/);
  });

  it('refuses columns that disagree with their kinds when loaded', () => {
    const packed = packSearchFiles(files);
    expect(() => new SearchIndex({ ...packed, entryStart: packed.entryStart.subarray(1) })).toThrow(/search index: \d+ entries in the kinds/);
    expect(() => new SearchIndex({ ...packed, joined: packed.joined.slice(1) })).toThrow(/search index: the folded names do not match their starts/);
    expect(() => new SearchIndex({ ...packed, entryResource: packed.entryResource.map((r) => r + 1) })).toThrow(
      /search index: the entries do not match the resources/,
    );
    // own names are counted on first use: a kind's names shifted into the next kind's is an Error then, not a wrong name
    const shifted = decodeSearchPack(encodeSearchPack(packed));
    const index = new SearchIndex({
      ...shifted,
      kinds: shifted.kinds.map((k, i) => (i === 0 ? { ...k, names: new PackedText(`${k.names.text}\nextra`) } : k)),
    });
    expect(() => index.search('c1').hits(0, 1)).toThrow(/search index: creature: 6 names for 5/);
  });
});
