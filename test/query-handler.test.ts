/**
 * Collections with filters, batches, `q` and `fields`, and `GET /v2/search/`, through the request
 * module (edge/handler.ts) over a tiny invented build: a kind of 5 critters with a filter index,
 * a search index and field columns, the kind its filter names, and a kind addressed by id only.
 * Every answer is checked against what the fixture says by hand.
 */
import { describe, expect, it, vi } from 'vitest';
import { createHandler } from '../edge/handler.ts';
import { filterIndexFile, listPackFile, pageFile, searchIndexFile, searchPackFile } from '../contract/layout.ts';
import { baseUrl, CRITTERS, entry, FIXTURE, fixtureReader } from './support/query-fixture.ts';

const handle = createHandler(fixtureReader(), { baseUrl });
/** A fault's body: the one error shape, saying the fault is ours and naming nothing of the server. */
const INTERNAL = '{"error":"internal","detail":"The server failed to answer this request. The fault is ours, not the request\'s, and it was logged."}';

interface Got {
  status: number;
  body: unknown;
}
async function get(pathAndQuery: string): Promise<Got> {
  const response = await handle(new Request(`https://example.test${pathAndQuery}`));
  return { status: response.status, body: JSON.parse(await response.text()) as unknown };
}
interface PageBody {
  count: number;
  next: string | null;
  previous: string | null;
  results: { name?: string; url: string; [field: string]: unknown }[];
}
async function page(pathAndQuery: string): Promise<PageBody> {
  const got = await get(pathAndQuery);
  expect(got.status, pathAndQuery).toBe(200);
  return got.body as PageBody;
}
const names = async (pathAndQuery: string) => (await page(pathAndQuery)).results.map((r) => r.name);
async function bad(pathAndQuery: string): Promise<{ error: string; parameter: string; value: string; accepts: string }> {
  const got = await get(pathAndQuery);
  expect(got.status, pathAndQuery).toBe(400);
  return got.body as { error: string; parameter: string; value: string; accepts: string };
}

describe('collection filters', () => {
  it('a value filter: any of its comma-separated values, by name or id, in any case; given twice, all of its repeats', async () => {
    expect(await names('/v2/critter/?element=ember')).toEqual(['flarebeast', 'sparkfox']);
    expect(await names('/v2/critter/?element=ember,tide')).toEqual(['flarebeast', 'tidecat', 'sparkfox']);
    expect(await names('/v2/critter/?element=ember&element=tide')).toEqual(['sparkfox']);
    expect(await names('/v2/critter/?element=ember,leaf&element=tide')).toEqual(['sparkfox']);
    expect(await names('/v2/critter/?element=ember,leaf&element=leaf,tide')).toEqual(['leafmouse', 'sparkfox', 'stonebear']);
    expect(await names('/v2/critter/?element=ember&element=volt')).toEqual([]);
    expect(await names('/v2/critter/?element=ember&element=')).toEqual(['flarebeast', 'sparkfox']);
    expect((await page('/v2/critter/?element=Ember,leaf&element=leaf,tide&limit=1')).next).toBe(
      `${baseUrl}/critter/?offset=1&limit=1&element=ember,leaf&element=leaf,tide`,
    );
    expect(await names('/v2/critter/?element=1,%20TIDE,,')).toEqual(['flarebeast', 'tidecat', 'sparkfox']);
    expect(await names('/v2/critter/?element=003')).toEqual(['leafmouse', 'stonebear']);
  });

  it('several filters: all of them; a yes/no filter takes true/false and 1/0', async () => {
    expect(await names('/v2/critter/?element=ember&is_rare=true')).toEqual(['sparkfox']);
    expect(await names('/v2/critter/?element=ember&is_rare=0')).toEqual(['flarebeast']);
    expect(await names('/v2/critter/?is_rare=false,true')).toEqual(CRITTERS.map((c) => c.name));
  });

  it('ranges: at least, at most, between, exactly; an entry without the value matches none', async () => {
    expect(await names('/v2/critter/?speed=80..')).toEqual(['tidecat', 'stonebear']);
    expect(await names('/v2/critter/?speed=..50')).toEqual(['flarebeast', 'leafmouse']);
    expect(await names('/v2/critter/?speed=20..80')).toEqual(['flarebeast', 'leafmouse', 'stonebear']);
    expect(await names('/v2/critter/?speed=100')).toEqual(['tidecat']);
    expect(await names('/v2/critter/?speed=-99999999999999999999..99999999999999999999')).toEqual(['flarebeast', 'tidecat', 'leafmouse', 'stonebear']);
    expect(await names('/v2/critter/?element=leaf&speed=50..')).toEqual(['stonebear']);
  });

  it('a range given twice: their intersection, none when they share no number', async () => {
    expect(await names('/v2/critter/?speed=30..&speed=..90')).toEqual(['flarebeast', 'stonebear']);
    const apart = await page('/v2/critter/?speed=90..&speed=..30&limit=1');
    expect(apart.count).toBe(0);
    expect((await page('/v2/critter/?speed=10..&speed=..90&limit=1')).next).toBe(`${baseUrl}/critter/?offset=1&limit=1&speed=10..90`);
  });

  it('a value of the target kind that no entry holds matches nothing: 200, count 0', async () => {
    expect(await page('/v2/critter/?element=volt')).toEqual({ count: 0, next: null, previous: null, results: [] });
    expect(await names('/v2/critter/?element=volt,tide')).toEqual(['tidecat', 'sparkfox']);
    expect((await page('/v2/critter/?element=4')).count).toBe(0);
  });

  it("reads the target kind's list only for a value the index does not hold", async () => {
    const reads: string[] = [];
    const inner = fixtureReader();
    const counting = createHandler({ read: (path) => (reads.push(path), inner.read(path)) }, { baseUrl });
    await counting(new Request('https://example.test/v2/critter/?element=ember,2'));
    expect(reads).not.toContain(listPackFile('element'));
    await counting(new Request('https://example.test/v2/critter/?element=volt'));
    expect(reads).toContain(listPackFile('element'));
  });

  it('a value that names nothing, a malformed range: 400 naming parameter, value and what it accepts', async () => {
    const body = await bad('/v2/critter/?element=ember,firee');
    expect(body).toMatchObject({ error: 'bad_parameter', parameter: 'element', value: 'firee' });
    expect(body.accepts).toContain('ember');
    expect(await bad('/v2/critter/?is_rare=maybe')).toMatchObject({ parameter: 'is_rare', value: 'maybe' });
    expect(await bad('/v2/critter/?element=9')).toMatchObject({ parameter: 'element', value: '9' });
    for (const range of ['5..3', 'fast', '..', '1.5..', '+5', '1..2..3']) {
      expect(await bad(`/v2/critter/?speed=${encodeURIComponent(range)}`)).toMatchObject({ parameter: 'speed', value: range });
    }
    expect(await bad('/v2/critter/?speed=1..&speed=5..3')).toMatchObject({ parameter: 'speed', value: '5..3' });
  });

  it('an empty filter is as if absent; unknown parameters are ignored', async () => {
    const plain = await get('/v2/critter/');
    expect(await get('/v2/critter/?element=&speed=&is_rare=,,')).toEqual(plain);
    expect(await get('/v2/critter/?colour=red&utm_source=x&Element=nothing')).toEqual(plain);
  });

  it('a filter index missing, or one that cannot be decoded, is a broken build: a 500 for what needs it, stored nowhere', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const packed = FIXTURE.get(filterIndexFile('critter')) as Uint8Array;
    for (const broken of [null, packed.subarray(0, packed.length - 1), new TextEncoder().encode('{}')]) {
      const files = new Map(FIXTURE);
      if (broken === null) files.delete(filterIndexFile('critter'));
      else files.set(filterIndexFile('critter'), broken);
      const handle = createHandler(fixtureReader(files), { baseUrl });
      for (const query of ['?element=ember', '?sort=-speed', '?summary=speed', '?facets=element']) {
        const response = await handle(new Request(`https://example.test/v2/critter/${query}`));
        expect([query, response.status, response.headers.get('cache-control'), await response.text()]).toEqual([query, 500, 'no-store', INTERNAL]);
      }
      expect((await handle(new Request('https://example.test/v2/critter/?limit=2'))).status).toBe(200);
    }
    expect(logged.mock.calls.every(([line]) => String(line).includes(filterIndexFile('critter')))).toBe(true);
    logged.mockRestore();
  });

  it('keeps the plain pages: no parameter, the precomputed page byte for byte', async () => {
    const response = await handle(new Request('https://example.test/v2/critter/'));
    expect(await response.text()).toBe(JSON.stringify(FIXTURE.get(pageFile('critter', 0))));
  });

  it('count is the filtered total; next and previous carry every parameter read, normalised, in canonical order', async () => {
    const first = await page('/v2/critter/?speed=20..&element=Ember,TIDE,leaf,ember&limit=2&junk=1');
    expect(first.count).toBe(4);
    expect(first.results.map((r) => r.name)).toEqual(['flarebeast', 'tidecat']);
    expect(first.previous).toBeNull();
    expect(first.next).toBe(`${baseUrl}/critter/?offset=2&limit=2&element=ember,tide,leaf&speed=20..`);
    const second = await page(new URL(first.next!).pathname + new URL(first.next!).search);
    expect(second.results.map((r) => r.name)).toEqual(['leafmouse', 'stonebear']);
    expect(second.next).toBeNull();
    expect(second.previous).toBe(`${baseUrl}/critter/?offset=0&limit=2&element=ember,tide,leaf&speed=20..`);
    const all = await page('/v2/critter/?fields=id&q=a&name=tidecat,sparkfox&id=1&is_rare=0&limit=1');
    expect(all.next).toBe(`${baseUrl}/critter/?offset=1&limit=1&q=a&id=1&name=tidecat,sparkfox&fields=id&is_rare=0`);
  });
});

describe('id= and name= batches', () => {
  it('give the entries named, in list order; id and name together are one batch', async () => {
    expect(await names('/v2/critter/?id=5,1,4')).toEqual(['flarebeast', 'sparkfox', 'stonebear']);
    expect(await names('/v2/critter/?name=stonebear,TIDECAT')).toEqual(['tidecat', 'stonebear']);
    expect(await names('/v2/critter/?id=1&name=tidecat,flarebeast')).toEqual(['flarebeast', 'tidecat']);
    expect(await names('/v2/critter/?id=1,2,3&element=ember')).toEqual(['flarebeast']);
  });

  it('work on every collection, kinds without queries and id-only kinds too', async () => {
    expect(await names('/v2/element/?name=volt,ember')).toEqual(['ember', 'volt']);
    expect((await page('/v2/chain/?id=2')).results).toEqual([entry('chain', 2)]);
  });

  it('an id or name that is no entry is a 400', async () => {
    expect(await bad('/v2/critter/?id=1,99')).toMatchObject({ parameter: 'id', value: '99' });
    expect(await bad('/v2/critter/?name=nobody')).toMatchObject({ parameter: 'name', value: 'nobody' });
    expect(await bad('/v2/critter/?id=one')).toMatchObject({ parameter: 'id', value: 'one' });
  });
});

describe('q on a collection', () => {
  it('matches own and translated names, folded (case, accents, kana width), in list order', async () => {
    expect(await names('/v2/critter/?q=MARENCHAT')).toEqual(['tidecat']);
    expect(await names('/v2/critter/?q=flambete')).toEqual(['flarebeast']);
    expect(await names(`/v2/critter/?q=${encodeURIComponent('ﾎﾉｵ')}`)).toEqual(['flarebeast']);
    expect(await names('/v2/critter/?q=fu')).toEqual(['sparkfox']);
    expect(await names('/v2/critter/?q=e')).toEqual(['flarebeast', 'tidecat', 'leafmouse', 'sparkfox', 'stonebear']);
    expect(await names('/v2/critter/?q=ar&element=ember')).toEqual(['flarebeast', 'sparkfox']);
  });

  it('a q that folds to nothing keeps the plain substring match on own names', async () => {
    expect((await page('/v2/critter/?q=')).count).toBe(5);
    expect((await page('/v2/chain/?q=')).count).toBe(0);
  });

  it('a kind without a search index matches own names by substring', async () => {
    const files = new Map(FIXTURE);
    files.delete(searchIndexFile('element'));
    const plain = createHandler(fixtureReader(files), { baseUrl });
    const body = (await (await plain(new Request('https://example.test/v2/element/?q=e'))).json()) as PageBody;
    expect(body.results.map((r) => r.name)).toEqual(['ember', 'tide', 'leaf']);
  });
});

describe('fields on list entries', () => {
  it("adds each asked field with the item's value and shape, after name and url", async () => {
    const { results } = await page('/v2/critter/?fields=sprites.front_default,id&id=1,2');
    expect(results).toEqual([
      { name: 'flarebeast', url: `${baseUrl}/critter/1/`, id: 1, sprites: { front_default: 'f.png' } },
      { name: 'tidecat', url: `${baseUrl}/critter/2/`, id: 2, sprites: { front_default: null } },
    ]);
    expect(JSON.stringify(results[0])).toBe(`{"name":"flarebeast","url":"${baseUrl}/critter/1/","id":1,"sprites":{"front_default":"f.png"}}`);
  });

  it('projects paths below a declared field', async () => {
    const { results } = await page('/v2/critter/?fields=stats.base_stat,element&name=sparkfox');
    expect(results).toEqual([
      { ...entry('critter', 4, 'sparkfox'), element: [{ name: 'ember' }, { name: 'tide' }], stats: [{ base_stat: null }, { base_stat: 40 }] },
    ]);
  });

  it('an unknown field is a 400 naming what is allowed; a kind without queries ignores fields', async () => {
    const body = await bad('/v2/critter/?fields=id,weight');
    expect(body).toMatchObject({ parameter: 'fields', value: 'weight' });
    expect(body.accepts).toContain('sprites.front_default');
    expect(await get('/v2/element/?fields=id')).toEqual(await get('/v2/element/'));
  });

  it('a path below a declared field that the items cannot have is a 400 naming it, not a bare entry', async () => {
    for (const path of ['element.nope', 'sprites.front_default.x', 'stats.base_stat.x', 'id.x']) {
      expect(await bad(`/v2/critter/?fields=id,${path}`), path).toMatchObject({ parameter: 'fields', value: path });
    }
    expect((await page('/v2/critter/?fields=element.name&id=1')).results).toEqual([{ ...entry('critter', 1, 'flarebeast'), element: [{ name: 'ember' }] }]);
  });
});

describe('lang', () => {
  it('q matches only names in that language, never the own name; an unknown language is a 400', async () => {
    expect(await names('/v2/critter/?q=f&lang=fr')).toEqual(['flarebeast']);
    expect(await names('/v2/critter/?q=f&lang=de')).toEqual(['sparkfox']);
    expect(await names('/v2/critter/?q=flarebeast&lang=fr')).toEqual([]);
    expect(await names('/v2/critter/?q=f&lang=en')).toEqual([]);
    expect(await names('/v2/critter/?q=f&lang=FR&lang=de')).toEqual(['sparkfox']);
    expect((await page('/v2/critter/?q=a&lang=fr&limit=1')).next).toBe(`${baseUrl}/critter/?offset=1&limit=1&q=a&lang=fr`);
    const body = await bad('/v2/critter/?q=f&lang=xx');
    expect(body).toMatchObject({ parameter: 'lang', value: 'xx' });
    expect(body.accepts).toContain('ja-hrkt');
  });

  it('/v2/search/ answers only names in that language', async () => {
    const { results } = await page('/v2/search/?q=mar&lang=fr');
    expect(results.map((r) => [r.name, r.kind, r['matched_name'], r['language']])).toEqual([
      ['tide', 'element', 'Marée', 'fr'],
      ['tidecat', 'critter', 'Marénchat', 'fr'],
    ]);
    expect((await page('/v2/search/?q=tide&lang=fr')).count).toBe(0);
    expect((await bad('/v2/search/?q=tide&lang=zz')).parameter).toBe('lang');
  });

  it("fields=names keeps only that language's entries", async () => {
    const { results } = await page('/v2/critter/?fields=names&id=1&lang=ja-hrkt');
    expect(results).toEqual([{ ...entry('critter', 1, 'flarebeast'), names: [{ name: 'ホノオジュウ', language: entry('language', 4, 'ja-hrkt') }] }]);
    expect((await page('/v2/critter/?fields=names.name&id=1')).results[0]!['names']).toEqual([{ name: 'Flambête' }, { name: 'ホノオジュウ' }]);
  });

  it('fields=names with lang is the names in that language, whole or below, also in a language no entry has (no column of its own)', async () => {
    const languageEntry = (lang: string) => entry('language', ['fr', 'de', 'ja-hrkt'].indexOf(lang) + 2, lang);
    for (const lang of ['fr', 'de', 'ja-hrkt', 'en']) {
      const inLanguage = CRITTERS.map((c) => c.names.filter((n) => n.language === lang));
      const whole = (await page(`/v2/critter/?fields=names,id&lang=${lang}`)).results;
      expect(whole, lang).toEqual(
        CRITTERS.map((c, i) => ({
          ...entry('critter', c.id, c.name),
          id: c.id,
          names: inLanguage[i]!.map((n) => ({ name: n.name, language: languageEntry(lang) })),
        })),
      );
      const below = (await page(`/v2/critter/?fields=names.language.name&lang=${lang}`)).results.map((r) => r['names']);
      // an array where no element has the path is absent (contract/query/fields.ts)
      expect(below, lang).toEqual(inLanguage.map((names) => (names.length === 0 ? undefined : names.map(() => ({ language: { name: lang } })))));
    }
  });

  it('reads a names column in one language, or that there is none, once per build; the whole column only when there is none', async () => {
    const reads: string[] = [];
    const reader = fixtureReader();
    const counted = createHandler({ read: async (path) => (reads.push(path), reader.read(path)) }, { baseUrl });
    for (let round = 0; round < 3; round++) {
      for (const lang of ['en', 'de']) expect((await counted(new Request(`https://example.test/v2/critter/?fields=names&lang=${lang}`))).status).toBe(200);
    }
    const columnReads = reads.filter((path) => path.includes('/_query/fields/')).map((path) => path.split('/').pop());
    expect(columnReads.sort()).toEqual(['names.jsonl', 'names~de.jsonl', 'names~en.jsonl']);
  });
});

describe('GET /v2/search/', () => {
  interface SearchBody {
    count: number;
    next: string | null;
    previous: string | null;
    results: { name: string; url: string; kind: string; matched_name: string; language: string | null }[];
  }
  const search = async (query: string) => {
    const got = await get(`/v2/search/${query}`);
    expect(got.status, query).toBe(200);
    return got.body as SearchBody;
  };

  it('answers entries best first, with the matched name and its language', async () => {
    const body = await search('?q=flambete');
    expect(body.results[0]).toEqual({ name: 'flarebeast', url: `${baseUrl}/critter/1/`, kind: 'critter', matched_name: 'Flambête', language: 'fr' });
    expect((await search('?q=tide')).results.map((r) => `${r.kind}/${r.name}/${r.language}`)).toEqual(['element/tide/null', 'critter/tidecat/null']);
  });

  it('forgives typos', async () => {
    expect((await search('?q=tidecta')).results.map((r) => r.name)).toEqual(['tidecat']);
    expect((await search('?q=stonbear')).results[0]!.name).toBe('stonebear');
  });

  it('kind= narrows it; limit and offset page it, the links carrying q and kind', async () => {
    expect((await search('?q=tide&kind=element')).results.map((r) => r.name)).toEqual(['tide']);
    expect((await search('?q=tide&kind=chain')).count).toBe(0);
    const first = await search('?q=ti&kind=CRITTER,element&limit=1');
    expect(first.count).toBe(2);
    expect(first.next).toBe(`${baseUrl}/search/?offset=1&limit=1&q=ti&kind=critter,element`);
    expect(first.previous).toBeNull();
    expect((await search('?q=ti&limit=1')).results).toEqual(first.results);
    const second = await search('?offset=1&limit=1&q=ti&kind=critter,element');
    expect(second.results.map((r) => r.name)).toEqual(['tidecat']);
    expect(second.previous).toBe(`${baseUrl}/search/?offset=0&limit=1&q=ti&kind=critter,element`);
  });

  it('q missing or empty, an unknown kind: 400', async () => {
    for (const query of ['', '?q=', '?q=%20-', '?kind=critter']) expect((await bad(`/v2/search/${query}`)).parameter).toBe('q');
    expect(await bad('/v2/search/?q=a&kind=critter,nothing')).toMatchObject({ parameter: 'kind', value: 'nothing' });
  });

  it('is no kind: its own path only', async () => {
    expect((await get('/v2/search/1')).status).toBe(404);
  });

  it('reads one index file, the packed one, once, whatever kind= asks', async () => {
    const reads: string[] = [];
    const reader = fixtureReader();
    const handle = createHandler(
      {
        read: (path) => {
          reads.push(path);
          return reader.read(path);
        },
      },
      { baseUrl },
    );
    for (const query of ['?q=tide', '?q=tide&kind=element', '?q=stonbear&kind=critter', '?q=ti&kind=critter,element']) {
      expect((await handle(new Request(`https://example.test/v2/search/${query}`))).status).toBe(200);
    }
    expect(reads.filter((path) => path.includes('_query/'))).toEqual([searchPackFile]);
  });

  it('a packed file missing, or one that cannot be decoded, is a broken build: a 500 stored nowhere', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const packed = FIXTURE.get(searchPackFile) as Uint8Array;
    for (const broken of [null, packed.subarray(0, packed.length - 1), new TextEncoder().encode('{}')]) {
      const files = new Map(FIXTURE);
      if (broken === null) files.delete(searchPackFile);
      else files.set(searchPackFile, broken);
      const response = await createHandler(fixtureReader(files), { baseUrl })(new Request('https://example.test/v2/search/?q=tide'));
      expect([response.status, response.headers.get('cache-control')]).toEqual([500, 'no-store']);
    }
    expect(logged.mock.calls.map(([line]) => String(line).startsWith(`GET /v2/search/: 500: ${searchPackFile}: `))).toEqual([true, true, true]);
    logged.mockRestore();
  });
});

describe("hostile input: a 400 or a 200, never a 5xx (the parsers' caps bound the work; its time is the bench's)", () => {
  const repeatedAll = ['limit', 'offset', 'q', 'id', 'name', 'fields', 'element', 'is_rare', 'speed', 'kind', 'sort', 'facets', 'summary']
    .flatMap((p) => Array.from({ length: 40 }, () => `${p}=1`))
    .join('&');
  const hostile = [
    `element=${','.repeat(1000)}`,
    `element=${'ember,'.repeat(1000)}`,
    `id=${','.repeat(1000)}1`,
    `name=${'a,'.repeat(500)}`,
    `fields=${'id,'.repeat(500)}`,
    `speed=${'9'.repeat(5000)}..`,
    'speed=-99999999999999999999999..',
    `speed=${'1'.repeat(60)}..${'2'.repeat(60)}`,
    'element=%FF',
    'q=%FF',
    'name=%FF%FE',
    'id=%C0%AE',
    'fields=%FF',
    'speed=%FF..',
    repeatedAll,
    `q=${'x'.repeat(2000)}`,
    `q=${'ﷺ'.repeat(2000)}`,
    `q=${'a'.repeat(9000)}`,
    'element=__proto__',
    'fields=__proto__',
    'fields=constructor.prototype',
    'is_rare=hasOwnProperty',
    'sort=__proto__',
    'sort=-',
    'sort=--speed',
    `sort=${'speed,'.repeat(500)}`,
    'facets=__proto__',
    'facets=constructor',
    'summary=toString',
    `facets=${'element,'.repeat(300)}`,
    `summary=${'speed,'.repeat(300)}`,
    Array.from({ length: 11 }, () => 'element=ember').join('&'),
    Array.from({ length: 11 }, (_, i) => `speed=${i}..`).join('&'),
  ];

  it.each(['/v2/critter/', '/v2/search/', '/v2/element/', '/v2/chain/'])('%s', async (path) => {
    for (const query of hostile) {
      const response = await handle(new Request(`https://example.test${path}?${query}`));
      expect([200, 400], `${path}?${query.slice(0, 60)}`).toContain(response.status);
      const body = JSON.parse(await response.text()) as { error?: string; value?: string };
      if (response.status === 400) expect(body.error).toBe('bad_parameter');
      if (body.value !== undefined) expect(body.value.length).toBeLessThanOrEqual(101);
    }
  });
});

describe('sort, facets and summary', () => {
  it('sorts by a range, id or name, either way: entries without a value last, ties in list order', async () => {
    expect(await names('/v2/critter/?sort=speed')).toEqual(['leafmouse', 'flarebeast', 'stonebear', 'tidecat', 'sparkfox']);
    expect(await names('/v2/critter/?sort=-speed')).toEqual(['tidecat', 'stonebear', 'flarebeast', 'leafmouse', 'sparkfox']);
    expect(await names('/v2/critter/?sort=-id')).toEqual(['stonebear', 'sparkfox', 'leafmouse', 'tidecat', 'flarebeast']);
    expect(await names('/v2/critter/?sort=name')).toEqual(['flarebeast', 'leafmouse', 'sparkfox', 'stonebear', 'tidecat']);
    expect(await names('/v2/critter/?sort=-name&element=leaf')).toEqual(['stonebear', 'leafmouse']);
    expect(await names('/v2/critter/?sort=-speed&limit=2&offset=1')).toEqual(['stonebear', 'flarebeast']);
    expect(await names('/v2/chain/?sort=-id')).toEqual([undefined, undefined]);
  });

  it('refuses an unknown key, a key twice, more than five keys, and name on a kind addressed by id only', async () => {
    const unknown = await bad('/v2/critter/?sort=height');
    expect(unknown).toMatchObject({ parameter: 'sort', value: 'height' });
    expect(unknown.accepts).toMatch(/id, name, speed$/);
    expect((await bad('/v2/critter/?sort=speed,-speed')).value).toBe('-speed');
    expect((await bad('/v2/critter/?sort=id,id,id,id,id,id')).parameter).toBe('sort');
    expect((await bad('/v2/critter/?sort=is_rare')).parameter).toBe('sort');
  });

  it('counts each value of a filter over the whole filtered set, in the target’s list order, values held by none left out', async () => {
    const got = (await get('/v2/critter/?facets=element,is_rare&limit=1')).body as PageBody & { facets: Record<string, unknown> };
    expect(got.results).toHaveLength(1);
    expect(got.facets).toEqual({
      element: [
        { name: 'ember', url: `${baseUrl}/element/1/`, count: 2 },
        { name: 'tide', url: `${baseUrl}/element/2/`, count: 2 },
        { name: 'leaf', url: `${baseUrl}/element/3/`, count: 2 },
      ],
      is_rare: [
        { name: 'false', url: null, count: 4 },
        { name: 'true', url: null, count: 1 },
      ],
    });
    const narrowed = (await get('/v2/critter/?element=tide&facets=element')).body as { facets: unknown };
    expect(narrowed.facets).toEqual({
      element: [
        { name: 'ember', url: `${baseUrl}/element/1/`, count: 1 },
        { name: 'tide', url: `${baseUrl}/element/2/`, count: 2 },
      ],
    });
    expect(await bad('/v2/critter/?facets=speed')).toMatchObject({ parameter: 'facets', value: 'speed' });
    expect((await bad('/v2/critter/?facets=nope')).accepts).toMatch(/element, is_rare$/);
  });

  it('summarises a range over the filtered set, entries without a value not counted', async () => {
    const all = (await get('/v2/critter/?summary=speed&limit=1')).body as { summary: unknown };
    expect(all.summary).toEqual({ speed: { count: 4, min: 20, max: 100, sum: 250, avg: 62.5 } });
    const none = (await get('/v2/critter/?summary=speed&is_rare=true')).body as { summary: unknown };
    expect(none.summary).toEqual({ speed: { count: 0, min: null, max: null, sum: 0, avg: null } });
    expect(await bad('/v2/critter/?summary=element')).toMatchObject({ parameter: 'summary', value: 'element' });
  });

  it('carries sort, facets and summary in next and previous', async () => {
    expect((await page('/v2/critter/?summary=speed&facets=element&sort=-speed,name&limit=2')).next).toBe(
      `${baseUrl}/critter/?offset=2&limit=2&sort=-speed,name&facets=element&summary=speed`,
    );
  });
});
