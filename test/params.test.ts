/**
 * The query parameters the request logic reads (contract/query/params.ts) are exactly the ones that change
 * an answer, per path, so a cache keyed on that list (Netlify-Vary) is keyed on everything an
 * answer reads and on nothing else:
 * - no code in edge/ or netlify/ reads the query except through contract/query/params.ts;
 * - at each path, each parameter `paramsReadAt` lists changes some answer, and no other does;
 * - limit, offset and q count by their last value, as the upstream reads them; list-like
 *   parameters join their repeats like commas;
 * - the Netlify adapter's Netlify-Vary names the path's list, whatever the answer, or is left
 *   out (the whole query string is the key) where a repeat changes the answer.
 * A small invented build stands in for the real one.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../generator/config.ts';
import { BuildFiles } from '../edge/build-files.ts';
import { createHandler, paramsReadAt, type FileReader } from '../edge/handler.ts';
import { fieldColumnFile, filterIndexFile, itemFile, metaFile, routesFile, searchIndexFile, searchPackFile, type Routes } from '../contract/layout.ts';
import { collectionParams, keysWholeQuery, queryParam, queryValues, SEARCH_PARAMS, SINGLE_PARAMS } from '../contract/query/params.ts';
import { encodeFieldColumn } from '../contract/field-column.ts';
import { encodeFilterPack, positionGaps } from '../contract/filter-pack.ts';
import { makeSearchKind, packSearchFiles, type SearchIndexFile } from '../contract/search-index.ts';
import { encodeSearchPack } from '../contract/search-pack.ts';
import { fixtureBytes, listFiles } from './support/query-fixture.ts';
import { createEdgeAdapter, FILE_READ_PREFIX, netlifyVary } from '../netlify/edge-adapter.ts';

const origin = 'https://example.test';
const baseUrl = `${origin}/v2`;
const names = Array.from({ length: 45 }, (_, i) => `thing-${['ab', 'cd', 'ef'][i % 3]}-${i + 1}`);
const COLOURS = ['red', 'blue', 'green'];
const routes: Routes = {
  kinds: ['thing', 'colour'],
  subresources: {},
  idOnly: [],
  site: {},
  queries: { thing: { filters: [{ name: 'colour', about: 'a colour', target: 'colour' }], ranges: [{ name: 'size', about: 'size' }], fields: ['id'] } },
};
const searchFile = (kind: string, resourceNames: readonly string[]): SearchIndexFile => ({
  format: 'search-index/2',
  languages: [],
  kinds: [
    makeSearchKind(
      kind,
      resourceNames.map((name, i) => ({ id: i + 1, name, names: [] })),
      [],
    ),
  ],
});
const thingSearch = searchFile('thing', names);
const colourSearch = searchFile('colour', COLOURS);
const fixture = new Map<string, unknown>([
  [routesFile, routes],
  [metaFile, { upstream_commit: 'f'.repeat(40), base_url: baseUrl }],
  ...listFiles('thing', { count: names.length, results: names.map((name, i) => ({ name, url: `${baseUrl}/thing/${i + 1}/` })) }),
  ...listFiles('colour', { count: 3, results: COLOURS.map((name, i) => ({ name, url: `${baseUrl}/colour/${i + 1}/` })) }),
  [itemFile('thing', 1), { id: 1, name: names[0] }],
  [
    filterIndexFile('thing'),
    encodeFilterPack({
      format: 'filter-index/1',
      kind: 'thing',
      count: names.length,
      ranges: { size: names.map((_, i) => i) },
      values: {
        colour: {
          about: 'a colour',
          target: 'colour',
          values: COLOURS.map((c, k) => [c, k + 1, positionGaps(names.flatMap((_, i) => (i % 3 === k ? [i] : [])))]),
        },
      },
    }),
  ],
  [searchIndexFile('thing'), thingSearch],
  [searchIndexFile('colour'), colourSearch],
  // what GET /v2/search/ reads: both kinds packed, as the build writes them
  [searchPackFile, encodeSearchPack(packSearchFiles([thingSearch, colourSearch]))],
  [
    fieldColumnFile('thing', 'id'),
    new TextEncoder().encode(
      encodeFieldColumn(
        { kind: 'thing', field: 'id' },
        names.map((_, i) => i + 1),
      ),
    ),
  ],
]);
const files: FileReader = { read: async (path) => (fixture.has(path) ? fixtureBytes(fixture.get(path)) : null) };
const handle = createHandler(files, { baseUrl });
const readAt = (pathname: string) => paramsReadAt(new BuildFiles(files, baseUrl), pathname);

/** An answer as status and body text: what a cache would store. */
async function answer(pathAndQuery: string): Promise<string> {
  const response = await handle(new Request(`${origin}${pathAndQuery}`));
  return `${response.status} ${await response.text()}`;
}

/** Per path: a value of each parameter read there that changes its plain answer. */
const PROBES: Record<string, Record<string, string>> = {
  // lang: this build has no /language/, so every language is unknown, a 400
  '/v2/thing/': {
    limit: '5',
    offset: '3',
    q: 'ab',
    id: '2',
    name: 'thing-cd-2',
    lang: 'de',
    fields: 'id',
    sort: '-id',
    facets: 'colour',
    summary: 'size',
    colour: 'red',
    size: '..3',
  },
  '/v2/colour/': { limit: '1', offset: '1', q: 're', id: '2', name: 'blue', lang: 'de' },
  '/v2/search/?q=thing': { q: 'red', kind: 'colour', limit: '2', offset: '1', lang: 'de' },
};

/** Names a client may send: tracking junk, other casings, and every parameter some other path reads. */
const CANDIDATES = [
  'utm_source',
  'fbclid',
  'LIMIT',
  'Limit',
  'OFFSET',
  'Q',
  'page',
  'per_page',
  'sort',
  'order',
  'format',
  'search',
  'lang',
  'x',
  'type',
  'generation',
  'limit',
  'offset',
  'q',
  'id',
  'name',
  'fields',
  'facets',
  'summary',
  'colour',
  'size',
  'kind',
];
const BASES = [
  '/v2/thing/',
  '/v2/thing/?limit=7&offset=2',
  '/v2/thing/?q=cd',
  '/v2/thing/?colour=blue',
  '/v2/colour/',
  '/v2/search/?q=thing',
  '/v2/thing/1',
  '/v2/',
  '/v2/meta/',
  '/v2/nothing/',
];

describe('contract/query/params.ts is the only reader of the query', () => {
  /** Reading the query: a method of URLSearchParams, iterating one, or the raw query string. */
  const READS = [
    /\b\w*[pP]arams\s*\??\.\s*(get|getAll|has|entries|keys|values|forEach|toString|size)\b/,
    /\bURLSearchParams\s*\(/,
    /(\bof\s+|\.\.\.|fromEntries\(\s*)[\w.]*[pP]arams\b/,
    /\.search\b(?!Params|\s*\()/,
    // a query object of a request (`req.query.type`); a variable named query (a search text) is not one
    /\.query\s*\??\.\s*\w+/,
  ];
  const sources = (dir: string): string[] =>
    readdirSync(join(repoRoot, dir), { withFileTypes: true, recursive: true })
      .filter((e) => e.isFile() && e.name.endsWith('.ts'))
      .map((e) => relative(repoRoot, join(e.parentPath, e.name)));

  it('no file in contract/, edge/ or netlify/ but contract/query/params.ts reads a query parameter', () => {
    const files = [...sources('contract'), ...sources('edge'), ...sources('netlify')].filter((f) => f !== 'contract/query/params.ts');
    expect(files).toContain('edge/handler.ts');
    const found = files.flatMap((file) =>
      readFileSync(join(repoRoot, file), 'utf8')
        .split('\n')
        .map((line, i) => ({ where: `${file}:${i + 1}`, line: line.replace(/\/\*.*?\*\/|\/\/.*$|^\s*\/?\*.*$/g, '') }))
        .filter(({ line }) => READS.some((r) => r.test(line)))
        .map(({ where, line }) => `${where}: ${line.trim()}`),
    );
    expect(found).toEqual([]);
  });

  it('the check finds each way of reading the query it names', () => {
    const reads = [
      'const t = url.searchParams.get("type")',
      'params.getAll("x")',
      'for (const [k] of searchParams) {}',
      'Object.fromEntries(url.searchParams)',
      'new URLSearchParams(url.search)',
      'const s = url.search;',
      'const t = request.query.type;',
    ];
    for (const line of reads)
      expect(
        READS.some((r) => r.test(line)),
        line,
      ).toBe(true);
    expect(
      READS.some((r) => r.test('return collection(kind, url.searchParams);')),
      'handing the parameters on is not a read',
    ).toBe(false);
    expect(
      READS.some((r) => r.test('const exact = query.length === name.length;')),
      'a search text named query is not the request query',
    ).toBe(false);
    expect(
      READS.some((r) => r.test('const result = index.search(folded, { purpose });')),
      'a search index searched is not the query',
    ).toBe(false);
  });
});

describe('what each path reads', () => {
  it('a collection: limit, offset, q, id, name, lang, and for a kind with queries fields, its filters and ranges', async () => {
    expect(await readAt('/v2/thing/')).toEqual(['limit', 'offset', 'q', 'id', 'name', 'lang', 'fields', 'sort', 'facets', 'summary', 'colour', 'size']);
    expect(await readAt('/v2/THING')).toEqual(collectionParams(routes.queries['thing']));
    expect(await readAt('/v2/colour/')).toEqual(['limit', 'offset', 'q', 'id', 'name', 'lang']);
    expect(await readAt('/v2/search/')).toEqual([...SEARCH_PARAMS]);
    for (const path of ['/v2/', '/v2/meta/', '/v2/thing/1', '/v2/thing/1/x', '/v2/nothing/', '/elsewhere']) expect(await readAt(path), path).toEqual([]);
  });

  it.each(Object.entries(PROBES).flatMap(([base, probes]) => Object.entries(probes).map(([param, value]) => [base, param, value] as const)))(
    '%s: %s changes an answer',
    async (base, param, value) => {
      const plain = await answer(base);
      expect(plain.startsWith('200 ')).toBe(true);
      const sep = base.includes('?') ? '&' : '?';
      expect(await answer(`${base}${sep}${param}=${encodeURIComponent(value)}`)).not.toBe(plain);
    },
  );

  it('every parameter a path reads has a probe there', async () => {
    for (const base of Object.keys(PROBES)) expect(Object.keys(PROBES[base]!).sort(), base).toEqual((await readAt(new URL(base, origin).pathname)).sort());
  });

  it('no parameter a path does not read changes any of its answers', async () => {
    const changed: string[] = [];
    for (const base of BASES) {
      const plain = await answer(base);
      const read = await readAt(new URL(base, origin).pathname);
      for (const name of CANDIDATES.filter((c) => !read.includes(c))) {
        const sep = base.includes('?') ? '&' : '?';
        for (const value of ['1', 'ab', '', 'red']) {
          const path = `${base}${sep}${name}=${value}`;
          if ((await answer(path)) !== plain) changed.push(path);
        }
      }
    }
    expect(changed).toEqual([]);
  });
});

describe('repeated parameters', () => {
  it('queryParam reads the last value, null when absent; queryValues every value', () => {
    expect(queryParam(new URLSearchParams('limit=5&limit=7'), 'limit')).toBe('7');
    expect(queryParam(new URLSearchParams('limit=5&limit='), 'limit')).toBe('');
    expect(queryParam(new URLSearchParams('offset=1'), 'limit')).toBeNull();
    expect(queryValues(new URLSearchParams('colour=red&x=1&colour=blue,green'), 'colour')).toEqual(['red', 'blue,green']);
    expect(queryValues(new URLSearchParams('x=1'), 'colour')).toEqual([]);
  });

  it.each([
    ['limit', '/v2/thing/?limit=5&limit=7', '/v2/thing/?limit=7'],
    ['limit, split by another parameter', '/v2/thing/?limit=5&offset=2&limit=3', '/v2/thing/?offset=2&limit=3'],
    ['offset', '/v2/thing/?offset=10&offset=4', '/v2/thing/?offset=4'],
    ['q', '/v2/thing/?q=ab&q=cd', '/v2/thing/?q=cd'],
    ['an invalid last limit', '/v2/thing/?limit=5&limit=abc', '/v2/thing/?limit=abc'],
    ['q on search', '/v2/search/?q=blue&q=red', '/v2/search/?q=red'],
  ])('%s: the last one counts', async (_name, repeated, last) => {
    expect(await answer(repeated)).toBe(await answer(last));
    expect(await answer(repeated)).not.toBe(await answer(repeated.replace(/&[a-z]+=[^&]*$/, '')));
  });

  it('a filter: repeats mean all of them, commas any', async () => {
    expect(await answer('/v2/thing/?colour=red,blue&colour=blue')).toBe(await answer('/v2/thing/?colour=blue'));
    expect(await answer('/v2/thing/?colour=red&colour=blue')).not.toBe(await answer('/v2/thing/?colour=red,blue'));
  });

  it.each([
    ['id', '/v2/thing/?id=1&id=4', '/v2/thing/?id=1,4'],
    ['sort', '/v2/thing/?sort=-size&sort=-id', '/v2/thing/?sort=-size,-id'],
    ['name', '/v2/thing/?name=thing-ab-1&name=thing-cd-2', '/v2/thing/?name=thing-ab-1,thing-cd-2'],
    ['fields', '/v2/thing/?fields=id&fields=id&id=1', '/v2/thing/?fields=id&id=1'],
    ['kind', '/v2/search/?q=e&kind=thing&kind=colour', '/v2/search/?q=e&kind=thing,colour'],
  ])('%s: repeats join like commas', async (_name, repeated, joined) => {
    expect(await answer(repeated)).toBe(await answer(joined));
  });
});

describe('links write back what was read (contract/query/parameter-table.ts)', () => {
  const every = '/v2/thing/?size=..30&colour=blue&summary=size&facets=colour&sort=-size&fields=id&name=thing-cd-2&id=2,5,8&q=thing&limit=1';

  it('next carries every parameter given, after offset and limit, in the order the path reads them', async () => {
    const { next } = JSON.parse((await answer(every)).slice(4)) as { next: string };
    const carried = [...new URL(next).searchParams.keys()];
    expect(carried.slice(0, 2)).toEqual(['offset', 'limit']);
    const given = new Set(new URL(`${origin}${every}`).searchParams.keys());
    expect(carried.slice(2)).toEqual((await readAt('/v2/thing/')).filter((name) => given.has(name) && name !== 'limit' && name !== 'offset'));
  });

  it('following next answers the next page of the same request', async () => {
    const first = JSON.parse((await answer(every)).slice(4)) as { count: number; next: string };
    expect(first.count).toBe(3);
    const next = new URL(first.next);
    expect(await answer(`${next.pathname}${next.search}`)).toBe(await answer(`${every}&offset=1`));
  });
});

describe('Netlify-Vary', () => {
  const adapter = createEdgeAdapter(async (request) => {
    const path = decodeURIComponent(new URL(request.url).pathname).slice(FILE_READ_PREFIX.length + 1);
    const bytes = await files.read(path);
    return bytes === null ? new Response('', { status: 404 }) : new Response(bytes as BodyInit);
  });
  const varyOf = async (pathAndQuery: string) => (await adapter(new Request(`${origin}${pathAndQuery}`))).headers.get('netlify-vary');

  it('is made of the parameters read, in order; none where a repeat changes the answer (the whole query string is the key)', () => {
    expect(netlifyVary(['limit', 'offset', 'q'])).toBe('query=limit|offset|q');
    expect(netlifyVary([])).toBe('query=');
    expect(netlifyVary(['limit', 'offset', 'q', 'id'])).toBeNull();
    expect(netlifyVary(['q', 'kind'])).toBeNull();
  });

  it('is the same for every answer at a path: none at collections and the search, query= elsewhere', async () => {
    for (const query of ['', '?limit=5', '?colour=nothing', '?size=5..1', '?utm_source=x', '?fields=nope', `?q=${'a'.repeat(9000)}`]) {
      expect(await varyOf(`/v2/thing/${query}`), query).toBeNull();
    }
    expect(await varyOf('/v2/colour/?colour=red')).toBeNull();
    for (const query of ['?q=red', '', '?kind=nothing&q=x']) expect(await varyOf(`/v2/search/${query}`)).toBeNull();
    for (const path of ['/v2/thing/1', '/v2/thing/1?limit=5', '/v2/', '/v2/nothing/?q=x']) expect(await varyOf(path), path).toBe('query=');
  });

  it('keys on the whole query wherever a parameter read is not single-valued: a repeat changes its answer', async () => {
    const pathsReading = [...new Set([...collectionParams(routes.queries['thing']), ...collectionParams(undefined), 'kind'])];
    for (const name of pathsReading) expect(keysWholeQuery([name]), name).toBe(!SINGLE_PARAMS.includes(name));
    // the repeat really changes the answer: two ids are two entries, not the last one
    const both = await adapter(new Request(`${origin}/v2/thing/?id=1&id=2`));
    const last = await adapter(new Request(`${origin}/v2/thing/?id=2`));
    expect(((await both.json()) as { count: number }).count).toBe(2);
    expect(((await last.json()) as { count: number }).count).toBe(1);
  });
});
