/**
 * Robustness of the request module (edge/handler.ts), in-process over the built dist/: thousands
 * of generated requests (encoded, double-encoded and overlong dot segments, NUL, backslashes,
 * unicode, very long paths, odd numbers in queries, filters, ranges, batches, fields and search
 * with odd and hostile values, odd methods and If-None-Match headers)
 * must never give a 5xx, always give JSON (or a site route's declared type), never make the
 * handler ask for a file outside dist/, and give the same answer every time.
 * Over the data cut's build (a mechanism: every kind is in it, the whole data set is not needed).
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, join, resolve, sep } from 'node:path';
import fc from 'fast-check';
import { describe, expect, inject, it } from 'vitest';
import { createHandler, type FileReader } from '../edge/handler.ts';
import { listFile, routesFile, type Routes } from '../contract/layout.ts';
import type { FullList } from '../contract/pagination.ts';
import { diskReader } from '../generator/preview/index.ts';

const distDir = inject('cutDistDir');
const base = inject('baseUrl');
const routes = JSON.parse(readFileSync(join(distDir, routesFile), 'utf8')) as Routes;
const origin = 'http://fuzz.invalid';

/** Wraps the disk reader: records every path the handler asks for that does not stay inside dist/. */
function recordingReader(): FileReader & { escapes: string[]; reads: number } {
  const disk = diskReader(distDir);
  const root = resolve(distDir) + sep;
  // files do not change during the test; remembering them keeps thousands of runs fast
  const memo = new Map<string, Promise<Uint8Array | null>>();
  const reader = {
    escapes: [] as string[],
    reads: 0,
    read(path: string) {
      reader.reads++;
      const parts = path.split('/');
      const inside =
        !isAbsolute(path) &&
        !path.includes('\0') &&
        !path.includes('\\') &&
        parts.every((p) => p !== '' && p !== '.' && p !== '..') &&
        resolve(root, path).startsWith(root);
      if (!inside) reader.escapes.push(path);
      let bytes = memo.get(path);
      if (!bytes) memo.set(path, (bytes = disk.read(path)));
      return bytes;
    },
  };
  return reader;
}

// ---- what requests are made of -------------------------------------------------------------

const names = (kind: string, n: number) =>
  (JSON.parse(readFileSync(join(distDir, listFile(kind)), 'utf8')) as FullList).results.slice(0, n).flatMap((r) => {
    const id = /\/(\d+)\/$/.exec(r.url)?.[1];
    return [...(r.name ? [r.name] : []), ...(id ? [id] : [])];
  });
const keys = [...names('creature', 30), ...names('move', 10), ...names('evolution-chain', 5), ...names('type', 20), '0', '007', '-1', '99999999999999999999'];

/** Segments that have broken path handling somewhere before. */
const nasty = [
  '..',
  '.',
  '%2e%2e',
  '%2E%2E',
  '.%2e',
  '%2e.',
  '%252e%252e',
  '%2e%2e%2f',
  '..%2f',
  '..%5c',
  '..\\..',
  '\\',
  '%5c',
  '%2f',
  '%2F',
  '%00',
  '%2500',
  'a%00b',
  '\u0000',
  '%c0%ae%c0%ae',
  '%c0%af',
  '%e0%80%ae',
  '%ff',
  '%fe%ff',
  '%',
  '%%',
  '%zz',
  '%e2%80%ae',
  '~',
  ' ',
  '%20',
  '+',
  ';',
  '%3b',
  '%3f',
  '%23',
  '?',
  '#',
  '@',
  ':',
  'é',
  'É',
  'İ',
  'ſ',
  'K',
  'ｃｒｅａｔｕｒｅ',
  '𝔘',
  '\u202e',
  '😀',
  'etc',
  'passwd',
  '_lists',
  '_pages',
  '_sub',
  '_routes',
  '_routes.json',
  '404.json',
  'index.json',
  'meta.json',
  'meta',
  'v2',
  'downloads',
  'encounters',
  'build-stamp.json',
  '..%252f..%252f',
  'con',
  'nul',
  '__proto__',
  'constructor',
  'hasOwnProperty',
  'a'.repeat(101),
  'b'.repeat(600),
  '-',
  '--',
  '-0',
  '1.0',
  '1e3',
  '0x1f',
];

const segment: fc.Arbitrary<string> = fc
  .tuple(
    fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...routes.kinds) },
      { weight: 3, arbitrary: fc.constantFrom(...keys) },
      { weight: 4, arbitrary: fc.constantFrom(...nasty) },
      { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
      { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
      { weight: 1, arbitrary: fc.stringMatching(/^[a-z0-9-]{1,14}$/) },
    ),
    fc.constantFrom('plain', 'plain', 'encoded', 'double', 'upper'),
  )
  .map(([s, how]) => {
    if (how === 'encoded') return encodeURIComponent(s);
    if (how === 'double') return encodeURIComponent(encodeURIComponent(s));
    if (how === 'upper') return s.toUpperCase();
    return s;
  });

const path: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(
        fc.constantFrom('/v2', '/v2', '/v2', '/V2', '/v2/..', '//v2', '/v2%2f', '/v3', '', '/downloads', '/v2/_sub', '/v2/_pages/creature'),
        fc.array(segment, { minLength: 0, maxLength: 4 }),
        fc.constantFrom('', '/', '/', '//', '/.', '/..', '%2f', '.json'),
      )
      .map(([prefix, segments, end]) => `${prefix}/${segments.join('/')}${end}`),
  },
  {
    // well-formed, so that many requests reach real files and computed pages
    weight: 3,
    arbitrary: fc
      .tuple(fc.constantFrom(...routes.kinds), fc.option(fc.constantFrom(...keys), { nil: undefined }), fc.boolean(), fc.boolean())
      .map(([kind, key, upper, slash]) => {
        const p = `/v2/${kind}/${key === undefined ? '' : `${key}${slash ? '/' : ''}`}`;
        return upper ? p.toUpperCase().replace('/V2/', '/v2/') : p;
      }),
  },
  {
    // a known collection, then something nasty where the item or subresource goes
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom(...routes.kinds), segment, fc.option(segment, { nil: undefined }))
      .map(([kind, key, sub]) => `/v2/${kind}/${key}${sub === undefined ? '' : `/${sub}`}`),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(...Object.keys(routes.site), '/', '/v2/', '/v2/meta/', '/v2/creature/1/encounters', '/v2/creature/BULBASAUR/encounters/'),
  },
  { weight: 1, arbitrary: fc.constantFrom('/v2/search/', '/v2/search', '/v2/SEARCH/', '/v2/search/x') },
);

const number = fc.oneof(
  fc.integer({ min: -200, max: 2000 }).map(String),
  fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }).map(String),
  fc.constantFrom('', ' 5', '5 ', '+5', '-0', '020', '20.0', '2.5', '1e3', '0x10', 'Infinity', 'NaN', '100000', '100001', '%35', '٣', '５'),
);
/** Names and ids the filters, batches and search take, and lists and ranges made of them. */
const token = fc.oneof(
  fc.constantFrom(
    ...keys,
    ...routes.kinds,
    'fire',
    'water',
    'true',
    'false',
    'types',
    'sprites.front_default',
    'stats.base_stat',
    'id',
    '-id',
    'name',
    '-speed',
    'base_stat_total',
    '-power',
    'egg_group',
    'charzard',
    'pikachú',
    'ピカチュウ',
    '__proto__',
  ),
  number,
);
const listValue = fc.array(token, { maxLength: 5 }).map((items) => items.join(','));
const rangeValue = fc
  .tuple(fc.option(number, { nil: '' }), fc.constantFrom('..', '.', '...', '', '..-'), fc.option(number, { nil: '' }))
  .map(([a, dots, b]) => `${a}${dots}${b}`);
const queryValue = fc.oneof(
  number,
  fc.constantFrom(...nasty),
  fc.string({ maxLength: 10 }),
  fc.string({ unit: 'binary', maxLength: 6 }).map(encodeURIComponent),
  listValue,
  rangeValue,
);
/** Every parameter some answer reads: the fixed ones and every kind's declared filters and ranges. */
const readNames = [
  ...new Set([
    'limit',
    'offset',
    'q',
    'id',
    'name',
    'fields',
    'sort',
    'facets',
    'summary',
    'kind',
    ...Object.values(routes.queries ?? {}).flatMap((q) => [...q.filters, ...q.ranges].map((f) => f.name)),
    'type',
    'speed',
    'generation',
  ]),
];
const query: fc.Arbitrary<string> = fc.oneof(
  { weight: 1, arbitrary: fc.constant('') },
  {
    weight: 4,
    arbitrary: fc
      .array(fc.tuple(fc.constantFrom(...readNames, 'LIMIT', 'Offset', 'foo', 'limit[]', '', 'q%00'), queryValue), { maxLength: 4 })
      .map((pairs) => `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`),
  },
  { weight: 1, arbitrary: fc.constantFrom('?', '??', '?&&', '?==', '?limit', '?limit=5&limit=7', '?offset=20&limit=20', '?q=', '?q=%', '?q=%25') },
  {
    // hostile: long lists, huge ranges, invalid UTF-8, every parameter repeated, long q
    weight: 1,
    arbitrary: fc.constantFrom(
      `?type=${','.repeat(1000)}`,
      `?id=${'1,'.repeat(400)}`,
      `?speed=${'9'.repeat(3000)}..`,
      '?speed=-99999999999999999999..99999999999999999999',
      '?q=%FF',
      '?type=%FF%FE',
      '?name=%C0%AE',
      `?${readNames.flatMap((n) => Array.from({ length: 20 }, () => `${n}=1`)).join('&')}`,
      `?q=${'x'.repeat(2000)}`,
      `?q=${'a'.repeat(9000)}`,
      `?fields=${'types,'.repeat(300)}`,
    ),
  },
);

const method = fc.oneof(
  { weight: 12, arbitrary: fc.constant('GET') },
  { weight: 2, arbitrary: fc.constantFrom('HEAD', 'get', 'head') },
  { weight: 3, arbitrary: fc.constantFrom('POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'FOO', 'PROPFIND', 'Get') },
);
const ifNoneMatch = fc.option(
  fc.oneof(
    fc.constantFrom('*', 'W/*', '"', '""', 'W/""', ',', ', ,', '"abc", W/"def"', 'W/', 'not-quoted'),
    fc.stringMatching(/^"[0-9a-f]{24}"$/),
    fc.string({ maxLength: 30 }),
  ),
  { nil: undefined },
);

interface Shot {
  status: number;
  headers: [string, string][];
  body: Uint8Array;
}

const shoot = async (handle: (r: Request) => Promise<Response>, request: Request): Promise<Shot> => {
  const response = await handle(request);
  const headers: [string, string][] = [];
  response.headers.forEach((value, name) => headers.push([name, value]));
  return { status: response.status, headers, body: new Uint8Array(await response.arrayBuffer()) };
};

/** Two answers are the same: status, headers, and body bytes (compared as bytes: some are archives of megabytes). */
const expectSame = (a: Shot, b: Shot, url: string) => {
  expect(a.status, url).toBe(b.status);
  expect(a.headers, url).toEqual(b.headers);
  expect(Buffer.from(a.body.buffer, a.body.byteOffset, a.body.byteLength).equals(b.body), url).toBe(true);
};

const decoder = new TextDecoder('utf-8', { fatal: true });

describe('fuzz: the request module', () => {
  it('never answers 5xx, always answers JSON (or a site route’s type), never reads outside dist/, answers the same each time', async () => {
    const reader = recordingReader();
    const handle = createHandler(reader, { baseUrl: base });
    let fresh = createHandler(reader, { baseUrl: base });
    const statuses = new Map<number, number>();
    let runs = 0;

    await fc.assert(
      fc.asyncProperty(path, query, method, ifNoneMatch, async (p, q, m, inm) => {
        // a second handler, made anew now and then, checks answers do not depend on what came before
        if (++runs % 300 === 0) fresh = createHandler(reader, { baseUrl: base });
        const escapedBefore = reader.escapes.length;
        const url = origin + p + q;
        const make = (extra?: string) => new Request(url, { method: m, headers: extra === undefined ? {} : { 'If-None-Match': extra } });
        const first = await shoot(handle, make(inm));
        const headers = new Map(first.headers);
        statuses.set(first.status, (statuses.get(first.status) ?? 0) + 1);

        expect(first.status, url).toBeLessThan(500);
        expect([200, 304, 400, 404, 405], url).toContain(first.status);
        for (const name of ['access-control-allow-origin', 'x-content-type-options', 'cache-control', 'etag', 'x-data-version', 'content-type']) {
          expect(headers.has(name), `${url}: ${name}`).toBe(true);
        }
        const isHead = m.toUpperCase() === 'HEAD';
        if (first.status === 304 || isHead) expect(first.body.byteLength, url).toBe(0);
        else {
          const site = routes.site[new URL(url).pathname];
          const type = headers.get('content-type');
          if (first.status === 200 && site && type === site.type) {
            // a site route: its declared type, whatever it is (the docs page, an archive)
          } else {
            expect(type, url).toBe('application/json; charset=utf-8');
            const body = JSON.parse(decoder.decode(first.body)) as unknown;
            if (first.status === 404) expect(body).toBe('Not Found');
            // every error body but the plain 404's is one shape: a string error and detail, and a 400 its parameter, value and accepts
            if (first.status >= 400 && first.status !== 404) expect(body).toMatchObject({ error: expect.any(String), detail: expect.any(String) });
            if (first.status === 405) expect(body).toMatchObject({ error: 'method_not_allowed' });
            if (first.status === 400)
              expect(body).toMatchObject({ error: 'bad_parameter', parameter: expect.any(String), value: expect.any(String), accepts: expect.any(String) });
          }
        }
        if (first.status === 405) expect(headers.get('allow')).toBe('GET, HEAD');

        // deterministic: the same request again, and on the other handler, answers the same
        expectSame(await shoot(handle, make(inm)), first, url);
        expectSame(await shoot(fresh, make(inm)), first, url);

        // the answer's own ETag, plain, weak or in a list, revalidates a 200 to an empty 304
        if (first.status === 200) {
          const etag = headers.get('etag')!;
          const revalidated = await shoot(handle, make(`"x", W/${etag}`));
          expect(revalidated.status, url).toBe(304);
          expect(revalidated.body.byteLength).toBe(0);
          expect(new Map(revalidated.headers).get('etag')).toBe(etag);
        }
        expect(reader.escapes.slice(escapedBefore), url).toEqual([]);
      }),
      { numRuns: 5000 },
    );

    // the generators reach real answers, not only 404s: a tenth of the runs answer 200 (on the
    // cut's build 658, 702 and 746 of 5000 in three runs, each with its own seed)
    console.log(`fuzz: ${runs} runs, statuses ${JSON.stringify(Object.fromEntries(statuses))}, ${reader.reads} file reads`);
    expect(statuses.get(200) ?? 0).toBeGreaterThan(500);
    expect(statuses.get(404) ?? 0).toBeGreaterThan(1000);
    expect(statuses.get(405) ?? 0).toBeGreaterThan(100);
    expect(statuses.get(400) ?? 0).toBeGreaterThan(50);
    expect(reader.escapes).toEqual([]);
  }, 60_000);
});
