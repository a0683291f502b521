/**
 * The query parameters the request logic reads (edge/params.ts) are exactly the ones that change
 * an answer, so a cache keyed on that list (Netlify-Vary) is keyed on everything an answer reads:
 * - no code in edge/ or netlify/ reads the query except through edge/params.ts;
 * - each listed parameter changes some answer, and none of many others changes any;
 * - a repeated parameter is read as its last value, as the upstream reads it;
 * - the Netlify adapter's Netlify-Vary names the list, in its order.
 * A small invented collection stands in for the build.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../generator/config.ts';
import { createHandler, type FileReader } from '../edge/handler.ts';
import { itemFile, listFile, metaFile, routesFile } from '../edge/layout.ts';
import { QUERY_PARAMS, queryParam, type QueryParam } from '../edge/params.ts';
import { NETLIFY_VARY } from '../netlify/edge-adapter.ts';

const encoder = new TextEncoder();
const baseUrl = 'https://example.test/v2';
const names = Array.from({ length: 45 }, (_, i) => `thing-${['ab', 'cd', 'ef'][i % 3]}-${i + 1}`);
const fixture = new Map<string, unknown>([
  [routesFile, { kinds: ['thing'], subresources: {}, idOnly: [], site: {} }],
  [metaFile, { upstream_commit: 'f'.repeat(40), base_url: baseUrl }],
  [listFile('thing'), { count: names.length, results: names.map((name, i) => ({ name, url: `${baseUrl}/thing/${i + 1}/` })) }],
  [itemFile('thing', 1), { id: 1, name: names[0] }],
]);
const files: FileReader = { read: async (path) => (fixture.has(path) ? encoder.encode(JSON.stringify(fixture.get(path))) : null) };
const handle = createHandler(files, { baseUrl });

/** An answer as status and body text: what a cache would store. */
async function answer(pathAndQuery: string): Promise<string> {
  const response = await handle(new Request(`https://example.test${pathAndQuery}`));
  return `${response.status} ${await response.text()}`;
}

/** A value of each listed parameter that changes the first page; a new parameter needs one here (the type says so). */
const PROBES: Record<QueryParam, string> = { limit: '5', offset: '3', q: 'ab' };

/** Names a client may send that no answer reads: tracking junk, other casings, the fields a filter might one day use. */
const UNREAD = ['utm_source', 'fbclid', 'LIMIT', 'Limit', 'OFFSET', 'Q', 'page', 'per_page', 'sort', 'order', 'fields', 'format', 'search', 'name', 'id', 'type', 'generation', 'color', 'habitat', 'shape', 'lang', 'x'];
const BASES = ['/v2/thing/', '/v2/thing/?limit=7&offset=2', '/v2/thing/?q=cd', '/v2/thing/1', '/v2/', '/v2/nothing/'];

describe('edge/params.ts is the only reader of the query', () => {
  /** Reading the query: a method of URLSearchParams, iterating one, or the raw query string. */
  const READS = [
    /\b\w*[pP]arams\s*\??\.\s*(get|getAll|has|entries|keys|values|forEach|toString|size)\b/,
    /\bURLSearchParams\s*\(/,
    /(\bof\s+|\.\.\.|fromEntries\(\s*)[\w.]*[pP]arams\b/,
    /\.search\b(?!Params)/,
    // a query object of a request (`req.query.type`); a variable named query (a search text) is not one
    /\.query\s*\??\.\s*\w+/,
  ];
  const sources = (dir: string): string[] =>
    readdirSync(join(repoRoot, dir), { withFileTypes: true, recursive: true })
      .filter((e) => e.isFile() && e.name.endsWith('.ts'))
      .map((e) => relative(repoRoot, join(e.parentPath, e.name)));

  it('no file in edge/ or netlify/ but edge/params.ts reads a query parameter', () => {
    const files = [...sources('edge'), ...sources('netlify')].filter((f) => f !== 'edge/params.ts');
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
    const reads = ['const t = url.searchParams.get("type")', 'params.getAll("x")', 'for (const [k] of searchParams) {}', 'Object.fromEntries(url.searchParams)', 'new URLSearchParams(url.search)', 'const s = url.search;', 'const t = request.query.type;'];
    for (const line of reads) expect(READS.some((r) => r.test(line)), line).toBe(true);
    expect(READS.some((r) => r.test('return collection(kind, url.searchParams);')), 'handing the parameters on is not a read').toBe(false);
    expect(READS.some((r) => r.test('const exact = query.length === name.length;')), 'a search text named query is not the request query').toBe(false);
  });
});

describe('the listed parameters are what answers read', () => {
  it('lists limit, offset and q', () => {
    expect([...QUERY_PARAMS].sort()).toEqual(['limit', 'offset', 'q']);
  });

  it.each(QUERY_PARAMS.map((p) => [p]))('%s changes an answer', async (param) => {
    const plain = await answer('/v2/thing/');
    expect(plain.startsWith('200 ')).toBe(true);
    expect(await answer(`/v2/thing/?${param}=${encodeURIComponent(PROBES[param])}`)).not.toBe(plain);
  });

  it('no other parameter changes any answer', async () => {
    const changed: string[] = [];
    for (const base of BASES) {
      const plain = await answer(base);
      for (const name of UNREAD) {
        const sep = base.includes('?') ? '&' : '?';
        for (const value of ['1', 'ab', '']) {
          const path = `${base}${sep}${name}=${value}`;
          if ((await answer(path)) !== plain) changed.push(path);
        }
      }
    }
    expect(changed).toEqual([]);
  });
});

describe('a repeated parameter: the last one counts', () => {
  it('queryParam reads the last value, null when absent', () => {
    expect(queryParam(new URLSearchParams('limit=5&limit=7'), 'limit')).toBe('7');
    expect(queryParam(new URLSearchParams('limit=5&limit='), 'limit')).toBe('');
    expect(queryParam(new URLSearchParams('offset=1'), 'limit')).toBeNull();
  });

  it.each([
    ['limit', '/v2/thing/?limit=5&limit=7', '/v2/thing/?limit=7'],
    ['limit, split by another parameter', '/v2/thing/?limit=5&offset=2&limit=3', '/v2/thing/?offset=2&limit=3'],
    ['offset', '/v2/thing/?offset=10&offset=4', '/v2/thing/?offset=4'],
    ['q', '/v2/thing/?q=ab&q=cd', '/v2/thing/?q=cd'],
    ['an invalid last limit', '/v2/thing/?limit=5&limit=abc', '/v2/thing/?limit=abc'],
  ])('%s', async (_name, repeated, last) => {
    expect(await answer(repeated)).toBe(await answer(last));
    expect(await answer(repeated)).not.toBe(await answer(repeated.replace(/&[a-z]+=[^&]*$/, '')));
  });
});

describe('Netlify-Vary', () => {
  it('names exactly the listed parameters', () => {
    expect(NETLIFY_VARY).toBe(`query=${QUERY_PARAMS.join('|')}`);
  });
});
