/**
 * THE table of request → expected response that every way of serving the API is held to: the
 * preview over real HTTP (test/http-preview.test.ts), the Netlify edge function under Deno
 * (test/edge-deno.test.ts), Netlify's own rule matcher over dist/ (test/netlify-rules.test.ts)
 * and Netlify's CLI (test/netlify-cli.test.ts); the first, second and last also send every row
 * again with headers no answer may depend on (withSpoofedHeaders).
 *
 * Expected bodies are stated independently of the request module: a file of the build, a JSON
 * value, or a page worked out here from a collection's full list by the paging rules (the
 * offset and limit in a row are the ones those rules give for its query, written by hand). The
 * answers as of a game are the oracle's (support/as-of-oracle.ts, from today's documents), so
 * every way of serving is held to them as the request module is in-process (test/as-of.test.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import {
  changesListFile,
  coverageFile,
  itemFile,
  listFile,
  metaFile,
  rootFile,
  routesFile,
  subresourceFile,
  type Meta,
  type Routes,
} from '../../contract/layout.ts';
import type { FullList, ListEntry } from '../../contract/pagination.ts';
import { servedItem } from '../../contract/borrowed-field.ts';
import { SPOOFED_HEADERS } from '../../netlify/deploy-checks.ts';
import { creatureAsOf, TODAY, typesAsOf, World, type Doc, type Era } from './as-of-oracle.ts';

export { SPOOFED_HEADERS };

export type { FullList, ListEntry };

/** What the build holds, for stating expectations. */
export interface CaseContext {
  distDir: string;
  baseUrl: string;
  meta: Meta;
  routes: Routes;
  file(path: string): Buffer;
  list(kind: string): FullList;
}

export function loadCaseContext(distDir: string, baseUrl: string): CaseContext {
  const file = (path: string) => readFileSync(join(distDir, path));
  const json = <T>(path: string) => JSON.parse(file(path).toString('utf8')) as T;
  const lists = new Map<string, FullList>();
  return {
    distDir,
    baseUrl,
    meta: json<Meta>(metaFile),
    routes: json<Routes>(routesFile),
    file,
    list(kind) {
      let list = lists.get(kind);
      if (!list) lists.set(kind, (list = json<FullList>(listFile(kind))));
      return list;
    },
  };
}

export interface PageSpec {
  kind: string;
  /** the offset and limit the request must be read as */
  offset: number;
  limit: number;
  q?: string;
}

export type BodyExpectation =
  /** the bytes of this file under dist/ */
  | { file: string }
  /** an item's file under dist/ as served: with a field it borrows spliced in from the file it names (contract/borrowed-field.ts) */
  | { item: string }
  /** the body parses as JSON equal to this */
  | { json: unknown }
  /** a page of a collection, worked out from its full list */
  | { page: PageSpec }
  /** no body (HEAD, 304) */
  | { empty: true };

export interface HttpCase {
  name: string;
  method?: string;
  /** path and query, sent as written */
  path: string;
  headers?: Record<string, string>;
  /** sent twice: the second time with If-None-Match set to the first answer's ETag */
  revalidate?: boolean;
  status: number;
  /** the Content-Type; JSON when not given */
  type?: string;
  body: BodyExpectation;
  /** further headers that must have exactly these values */
  exactHeaders?: Record<string, string>;
}

export const JSON_TYPE = 'application/json; charset=utf-8';
const NOT_FOUND: BodyExpectation = { json: 'Not Found' };
/** A 405's body: the one error shape (README, "Errors"). */
const METHOD_NOT_ALLOWED: BodyExpectation = {
  json: { error: 'method_not_allowed', detail: 'This API is read-only: it answers GET and HEAD, as the Allow header says.' },
};
/** A 400's body: the one error shape, with the fields a 400 has always carried. */
const badParameter = (parameter: string, value: string, accepts: string): BodyExpectation => ({
  json: {
    error: 'bad_parameter',
    detail: `The value of the query parameter ${parameter} was not understood; accepts says what it takes.`,
    parameter,
    value,
    accepts,
  },
});

const item = (kind: string, key: string | number): BodyExpectation => ({ item: itemFile(kind, key) });
const page = (kind: string, offset: number, limit: number, q?: string): BodyExpectation => ({
  page: { kind, offset, limit, ...(q === undefined ? {} : { q }) },
});
const ok = (name: string, path: string, body: BodyExpectation, extra: Partial<HttpCase> = {}): HttpCase => ({ name, path, status: 200, body, ...extra });
const missing = (name: string, path: string, extra: Partial<HttpCase> = {}): HttpCase => ({ name, path, status: 404, body: NOT_FOUND, ...extra });

/**
 * The table. Site pages (docs, downloads) come from the build's routing table; the pages near a
 * list's end from its count, so the table states the same on the whole data set and on the cut.
 * The computed pages and the limits read the ability list: long enough in either (373 and 38) to
 * tell a limit of 20 from one of 100000 and to hold a page at offset 9.
 */
export function httpCases(ctx: Pick<CaseContext, 'distDir' | 'baseUrl' | 'routes' | 'list'>): HttpCase[] {
  const lastPage = Math.floor((ctx.list('creature').count - 1) / 20) * 20;
  const creature1 = item('creature', 1);
  const encounters25 = { file: subresourceFile('creature', 25, 'encounters') };
  const cases: HttpCase[] = [
    // root and meta
    ok('root', '/v2/', { file: rootFile }),
    ok('root without the slash', '/v2', { file: rootFile }),
    ok('meta', '/v2/meta/', { file: metaFile }),
    ok('meta in capitals without the slash', '/v2/META', { file: metaFile }),
    ok('coverage map', '/v2/meta/coverage/', { file: coverageFile }),
    ok('change reports', '/v2/changes/', { file: changesListFile }),
    ok('change reports without the slash', '/v2/changes', { file: changesListFile }),
    missing('change report of a commit with none', `/v2/changes/${'0'.repeat(40)}`),
    missing('change report by a prefix no version has', '/v2/changes/0000000/'),
    missing('below the coverage map', '/v2/meta/coverage/creature'),

    // items: id or name, any case, with or without the trailing slash, the same bytes
    ok('item by id', '/v2/creature/1', creature1),
    ok('item by id with slash', '/v2/creature/1/', creature1),
    ok('item by name', '/v2/creature/bulbasaur', creature1),
    ok('item by capitalised name with slash', '/v2/creature/Bulbasaur/', creature1),
    ok('item and kind in capitals', '/v2/CREATURE/BULBASAUR', creature1),
    ok('item by id with leading zeros', '/v2/creature/001', creature1),
    ok('item by percent-encoded name', '/v2/creature/%62ulbasaur', creature1),
    ok('item ignores a query', '/v2/creature/1?limit=5&offset=3', creature1),
    ok('type beyond the 18 by id', '/v2/type/10002/', item('type', 10002)),
    ok('type beyond the 18 by name', '/v2/type/shadow', item('type', 'shadow')),
    ok('id-only kind by id', '/v2/evolution-chain/1/', item('evolution-chain', 1)),
    ok('a name given twice upstream addresses the lower id', '/v2/item/roseli-berry', item('item', 723)),
    ok('move by name', '/v2/move/pound/', item('move', 'pound')),
    ok('an entry by id', '/v2/entry/25/', item('entry', 25)),
    ok("an entry by a form's name, in capitals", '/v2/entry/Pichu-Spiky-Eared', item('entry', 172)),

    // subresources
    ok('encounters by id', '/v2/creature/25/encounters', encounters25),
    ok('encounters by name with slash', '/v2/creature/pikachu/encounters/', encounters25),
    ok('encounters in capitals', '/v2/Creature/PIKACHU/Encounters', encounters25),

    // collections: default-size pages, computed pages, the limits
    ok('first page', '/v2/creature/', page('creature', 0, 20)),
    ok('first page without the slash', '/v2/creature', page('creature', 0, 20)),
    ok('default-size page by offset', '/v2/creature/?offset=40', page('creature', 40, 20)),
    ok('default-size page, unknown parameter ignored', '/v2/creature/?limit=20&offset=40&utm_source=x', page('creature', 40, 20)),
    ok('default-size page, kind in capitals', '/v2/Creature/?offset=40&limit=20', page('creature', 40, 20)),
    ok('last default-size page', `/v2/creature/?offset=${lastPage}`, page('creature', lastPage, 20)),
    ok('computed page', '/v2/ability/?offset=7&limit=5', page('ability', 7, 5)),
    ok('limit 0 reads as 20', '/v2/ability/?limit=0', page('ability', 0, 20)),
    ok('negative limit reads as 20', '/v2/ability/?limit=-5', page('ability', 0, 20)),
    ok('non-numeric limit and offset read as 20 and 0', '/v2/ability/?limit=abc&offset=x', page('ability', 0, 20)),
    ok('fractional limit reads as 20', '/v2/ability/?limit=2.5', page('ability', 0, 20)),
    ok('limit above the maximum reads as 100000', '/v2/ability/?limit=100001', page('ability', 0, 100000)),
    ok('negative offset reads as 0', '/v2/ability/?offset=-3&limit=10', page('ability', 0, 10)),
    ok('every entry in one page', '/v2/creature/?limit=100000', page('creature', 0, 100000)),
    ok('offset past the end', '/v2/creature-color/?offset=50&limit=20', page('creature-color', 50, 20)),
    ok('the 18 battle types', '/v2/type/', page('type', 0, 20)),

    // search
    ok('search', '/v2/creature/?q=saur', page('creature', 0, 20, 'saur')),
    ok('search in capitals, paginated', '/v2/creature/?q=SAUR&limit=2&offset=1', page('creature', 1, 2, 'SAUR')),
    ok('search with no match', '/v2/ability/?q=zzzz', page('ability', 0, 20, 'zzzz')),
    ok('empty search matches every name', '/v2/berry/?q=', page('berry', 0, 20, '')),
    // `q` also matches translated names (four zygarde forms are "Zygarde 50%" and the like in some
    // language), which this table's own-name rule does not model: abilities have no % in any name
    ok('search for a percent sign', '/v2/ability/?q=%25', page('ability', 0, 20, '%')),

    // filters and the search; without the edge function, a 404, never an unfiltered page
    ok('filters that match nothing', '/v2/move/?type=fire&damage_class=status&power=200..', { json: { count: 0, next: null, previous: null, results: [] } }),
    ok('a search that finds nothing', '/v2/search/?q=zzzzzzzzzz', { json: { count: 0, next: null, previous: null, results: [] } }),

    // a repeated parameter: the last one counts, as the upstream reads it
    ok('repeated limit', '/v2/ability/?limit=5&limit=7', page('ability', 0, 7)),
    ok('repeated offset around the limit', '/v2/ability/?offset=3&limit=4&offset=9', page('ability', 9, 4)),
    ok('repeated default limit after another', '/v2/creature/?limit=5&offset=40&limit=20', page('creature', 40, 20)),
    ok('repeated search', '/v2/creature/?q=zzzz&q=saur', page('creature', 0, 20, 'saur')),

    // errors: JSON "Not Found", nothing outside the API
    missing('unknown id', '/v2/creature/999999'),
    missing('unknown name', '/v2/creature/not-a-creature/'),
    missing('negative id', '/v2/creature/-1'),
    missing('unknown collection', '/v2/no-such-resource/'),
    missing('unknown subresource', '/v2/creature/1/moves'),
    missing('extra segment', '/v2/creature/1/encounters/extra'),
    missing('id-only kind by name', '/v2/evolution-chain/bulbasaur/'),
    missing('internal list', '/v2/_lists/creature'),
    missing('internal list file', '/v2/_lists/creature.json'),
    missing('internal page', '/v2/_pages/creature/0'),
    missing('internal subresource', '/v2/_sub/creature/encounters/25'),
    missing('internal routing table', '/v2/_routes.json'),
    missing('item file name', '/v2/creature/1.json'),
    missing('encoded slashes and dots', '/v2/creature/..%2F..%2Fpackage.json'),
    missing('encoded dot segments', '/v2/%2e%2e/%2e%2e/package.json'),
    missing('NUL byte', '/v2/creature/1%00'),
    missing('overlong path', `/v2/creature/${'a'.repeat(600)}`),
    missing('a file of the repository', '/package.json'),
    missing('the Netlify configuration', '/netlify.toml'),
    missing('another version', '/v3/creature/1'),
    missing('the docs page by file name', '/index.html'),

    // a parameter the answer cannot take: a 400 naming it, in the one error shape
    {
      name: 'a batch id that is no number',
      path: '/v2/ability/?id=1,two',
      status: 400,
      body: badParameter('id', 'two', 'comma-separated ids: whole numbers of at most 9 digits, e.g. 1,4,7'),
    },
    {
      name: 'a search without q',
      path: '/v2/search/',
      status: 400,
      body: badParameter('q', '', 'a name or the start of one, in any language, e.g. pikachu, ピカチュウ or charzard'),
    },

    // as of a game: what was not there, said in the 404; the build's as-of files are no answers
    {
      name: 'as of a game that is none',
      path: '/v2/as-of/nope/creature/1/',
      status: 404,
      body: { json: { error: 'not_found', detail: 'no version group, version or generation is named "nope"' } },
    },
    {
      name: 'as of a game, a kind it does not answer',
      path: '/v2/as-of/red-blue/berry/1',
      status: 404,
      body: { json: { error: 'not_found', detail: '"berry" is not answered as of a game: creature, move, type, ability, entry are' } },
    },
    {
      name: 'as of a game, an ability before abilities',
      path: '/v2/as-of/red-blue/ability/overgrow/',
      status: 404,
      body: { json: { error: 'not_found', detail: 'ability "overgrow" did not exist as of red-blue' } },
    },
    missing('as of a game, an unknown creature', '/v2/as-of/red-blue/creature/not-a-creature/'),
    missing('an as-of document of the build', '/v2/_as-of/creature/1.json'),
    missing('the as-of facts of the build', '/v2/_as-of/creature.json'),
    ...asOfCases(ctx),

    // methods
    { name: 'POST', method: 'POST', path: '/v2/creature/1', status: 405, body: METHOD_NOT_ALLOWED, exactHeaders: { allow: 'GET, HEAD' } },
    { name: 'DELETE', method: 'DELETE', path: '/v2/', status: 405, body: METHOD_NOT_ALLOWED, exactHeaders: { allow: 'GET, HEAD' } },
    { name: 'PUT on an unknown path', method: 'PUT', path: '/nope', status: 405, body: METHOD_NOT_ALLOWED, exactHeaders: { allow: 'GET, HEAD' } },
    { name: 'HEAD of an item', method: 'HEAD', path: '/v2/creature/1', status: 200, body: { empty: true } },
    { name: 'HEAD of a missing item', method: 'HEAD', path: '/v2/creature/999999', status: 404, body: { empty: true } },

    // conditional requests
    { name: 'revalidating an item', path: '/v2/creature/1', revalidate: true, status: 304, body: { empty: true } },
    { name: 'revalidating a computed page', path: '/v2/ability/?offset=7&limit=5', revalidate: true, status: 304, body: { empty: true } },
    { name: 'revalidating a 404', path: '/v2/creature/999999', revalidate: true, status: 404, body: NOT_FOUND },
    { name: 'If-None-Match *', path: '/v2/creature/1', headers: { 'If-None-Match': '*' }, status: 304, body: { empty: true } },
    { name: 'If-None-Match of another version', path: '/v2/creature/1', headers: { 'If-None-Match': '"0000"' }, status: 200, body: creature1 },
  ];
  for (const [route, { file, type }] of Object.entries(ctx.routes.site ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
    cases.push(ok(`site route ${route}`, route, { file }, { type }));
  }
  const names = new Set<string>();
  for (const c of cases) {
    if (names.has(c.name)) throw new Error(`two cases are named ${c.name}`);
    names.add(c.name);
  }
  return cases;
}

/**
 * Answers as of a game, each the oracle's: a creature whose types changed, generation I's stats
 * and moves, a version standing for its group, a move, a type, an ability, the matchups today
 * and then, and a list filtered by a type of then with the fields of then.
 */
function asOfCases(ctx: Pick<CaseContext, 'distDir' | 'baseUrl' | 'list'>): HttpCase[] {
  const world = new World(ctx.distDir, ctx.baseUrl);
  const era = (segment: string): Era => world.resolve(segment) ?? oracleFails(`no era ${segment}`);
  const creature = (name: string) => world.creatures.find((c) => c.link.name === name) ?? oracleFails(`no creature ${name}`);
  const creatureThen = (name: string, segment: string): Doc =>
    creatureAsOf(world.doc('creature', creature(name).id), creature(name).bornOrder, era(segment)) ?? oracleFails(`${name} as of ${segment}`);
  const then = (answer: Doc | null): Doc => answer ?? oracleFails('an item that did not exist');
  const normalThen = ctx.list('creature').results.flatMap(({ name, url }) => {
    const c = world.creatures.find((x) => x.link.url === url)!;
    const types = typesAsOf(c, era('generation-v'));
    return c.bornOrder <= era('generation-v').order && types.some((t) => t.type.name === 'normal') ? [{ name, url, types }] : [];
  });
  return [
    ok('as of a generation, a creature whose types changed', '/v2/as-of/generation-v/creature/clefairy/', { json: creatureThen('clefairy', 'generation-v') }),
    ok("as of a version group, by id: generation I's stats and the group's moves", '/v2/as-of/red-blue/creature/1', {
      json: creatureThen('bulbasaur', 'red-blue'),
    }),
    ok('as of a version, its group', '/v2/as-of/firered/creature/bulbasaur/', { json: creatureThen('bulbasaur', 'firered') }),
    ok('a move as of a game', '/v2/as-of/red-blue/move/tackle/', { json: then(world.moveAsOf(world.doc('move', 'tackle'), era('red-blue'))) }),
    ok('a type as of a game', '/v2/as-of/generation-v/type/normal/', { json: then(world.typeAsOf(world.doc('type', 'normal'), era('generation-v'))) }),
    ok('an ability as of a game', '/v2/as-of/emerald/ability/overgrow', { json: then(world.abilityAsOf(world.doc('ability', 'overgrow'), era('emerald'))) }),
    ok('matchups today', '/v2/creature/clefairy/matchups/', { json: world.matchups(creature('clefairy'), TODAY) }),
    ok('matchups as of a generation', '/v2/as-of/generation-v/creature/clefairy/matchups', { json: world.matchups(creature('clefairy'), era('generation-v')) }),
    ok('a list as of a game, by a type of then, with the fields of then', '/v2/as-of/generation-v/creature/?type=normal&fields=types&limit=100000', {
      json: { count: normalThen.length, next: null, previous: null, results: normalThen },
    }),
  ];
}

const oracleFails = (what: string): never => {
  throw new Error(`the as-of oracle has no answer: ${what}`);
};

/**
 * Every row again with the spoofed headers added: each must get the same answer as without
 * them (its own If-None-Match, where it has one, is kept).
 */
export function withSpoofedHeaders(cases: HttpCase[]): HttpCase[] {
  return cases.map((c) => ({ ...c, name: `${c.name} (spoofed headers)`, headers: { ...SPOOFED_HEADERS, ...c.headers } }));
}

/** A page by the paging rules, from a collection's full list. */
export function expectedPage(ctx: Pick<CaseContext, 'baseUrl' | 'list'>, spec: PageSpec) {
  const list = ctx.list(spec.kind);
  const needle = spec.q?.toLowerCase();
  const entries = needle === undefined ? list.results : list.results.filter((r) => r.name !== undefined && r.name.toLowerCase().includes(needle));
  const count = needle === undefined ? list.count : entries.length;
  const url = `${ctx.baseUrl}/${spec.kind}/`;
  const suffix = spec.q === undefined ? '' : `&q=${encodeURIComponent(spec.q)}`;
  const { offset, limit } = spec;
  return {
    count,
    next: offset + limit < count ? `${url}?offset=${offset + limit}&limit=${limit}${suffix}` : null,
    previous: offset > 0 ? `${url}?offset=${Math.max(0, offset - limit)}&limit=${limit}${suffix}` : null,
    results: entries.slice(offset, offset + limit),
  };
}

/** One request as sent. Header names are lowercase in what comes back. */
export interface Sent {
  method: string;
  path: string;
  headers: Record<string, string>;
}
export interface Got {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
}
export interface Outcome {
  got: Got;
  /** for a revalidating case: the first answer, whose ETag was sent back */
  first?: Got;
}

export const firstRequest = (c: HttpCase): Sent => ({ method: c.method ?? 'GET', path: c.path, headers: { ...c.headers } });

/**
 * Runs every case through `send` (a batch of requests → their answers, in order): first each
 * case's request, then the second request of the revalidating ones.
 */
export async function runCases(cases: HttpCase[], send: (requests: Sent[]) => Promise<Got[]>): Promise<Map<string, Outcome>> {
  const firsts = await send(cases.map(firstRequest));
  const outcomes = new Map<string, Outcome>();
  const again: { c: HttpCase; first: Got }[] = [];
  cases.forEach((c, i) => {
    const got = firsts[i]!;
    if (c.revalidate) again.push({ c, first: got });
    else outcomes.set(c.name, { got });
  });
  const seconds = await send(again.map(({ c, first }) => ({ ...firstRequest(c), headers: { ...c.headers, 'If-None-Match': first.headers['etag'] ?? '' } })));
  again.forEach(({ c, first }, i) => outcomes.set(c.name, { got: seconds[i]!, first }));
  return outcomes;
}

const maxAge = (cacheControl: string | undefined) => {
  const m = /(?:^|,)\s*max-age=(\d+)/.exec(cacheControl ?? '');
  return m ? Number(m[1]) : null;
};
const show = (value: unknown) => {
  const s = JSON.stringify(value) ?? 'undefined';
  return s.length > 200 ? `${s.slice(0, 197)}...` : s;
};

/** The file under dist/ a case's body is read from, when it is one's. */
export const bodyFile = (body: BodyExpectation): string | null => ('file' in body ? body.file : 'item' in body ? body.item : null);

/** The body a case expects, as bytes (file) or as a JSON value; null for no body. */
export function expectedBody(ctx: CaseContext, body: BodyExpectation): { bytes: Buffer } | { value: unknown } | null {
  if ('file' in body) return { bytes: ctx.file(body.file) };
  if ('item' in body) return { bytes: Buffer.from(servedItem(ctx.file(body.item), (path) => ctx.file(path))) };
  if ('json' in body) return { value: body.json };
  if ('page' in body) return { value: expectedPage(ctx, body.page) };
  return null;
}

/** Where an answer departs from its case: an empty list when it meets it. */
export function checkOutcome(ctx: CaseContext, c: HttpCase, { got, first }: Outcome): string[] {
  const problems: string[] = [];
  const h = got.headers;
  if (got.status !== c.status) problems.push(`status: expected ${c.status}, found ${got.status}`);

  // headers every answer carries, errors included
  const type = c.type ?? JSON_TYPE;
  if (got.status !== 304 && h['content-type'] !== type) problems.push(`content-type: expected ${type}, found ${h['content-type']}`);
  if (h['access-control-allow-origin'] !== '*') problems.push(`access-control-allow-origin: found ${h['access-control-allow-origin']}`);
  if (h['x-content-type-options'] !== 'nosniff') problems.push(`x-content-type-options: found ${h['x-content-type-options']}`);
  if (h['x-data-version'] !== ctx.meta.upstream_commit) problems.push(`x-data-version: expected ${ctx.meta.upstream_commit}, found ${h['x-data-version']}`);
  if (!/^(W\/)?"[^"]+"$/.test(h['etag'] ?? '')) problems.push(`etag: found ${h['etag']}`);
  const age = maxAge(h['cache-control']);
  if (c.status === 200 || c.status === 304) {
    if (age === null || age < 3600) problems.push(`cache-control: expected a max-age of an hour or more, found ${h['cache-control']}`);
  } else if (age === null || age < 1 || age > 3600) problems.push(`cache-control: expected a short max-age, found ${h['cache-control']}`);
  for (const [name, value] of Object.entries(c.exactHeaders ?? {})) {
    if (h[name.toLowerCase()] !== value) problems.push(`${name}: expected ${value}, found ${h[name.toLowerCase()]}`);
  }
  if (first && h['etag'] !== first.headers['etag']) problems.push(`etag: the 304 names ${h['etag']}, the first answer ${first.headers['etag']}`);

  // the body
  const expected = expectedBody(ctx, c.body);
  const text = Buffer.from(got.body).toString('utf8');
  const shape = errorShapeProblem(got.status, text);
  if (shape) problems.push(shape);
  if (expected === null) {
    if (got.body.byteLength !== 0) problems.push(`body: expected none, found ${got.body.byteLength} bytes`);
  } else if ('bytes' in expected) {
    if (!expected.bytes.equals(Buffer.from(got.body)))
      problems.push(
        `body: expected the ${expected.bytes.byteLength} bytes of ${bodyFile(c.body)}, found ${got.body.byteLength} bytes: ${show(text.slice(0, 120))}`,
      );
  } else {
    let actual: unknown;
    try {
      actual = JSON.parse(text);
    } catch {
      problems.push(`body: not JSON: ${show(text.slice(0, 120))}`);
      return problems;
    }
    if (!isDeepStrictEqual(actual, expected.value)) problems.push(`body: expected ${show(expected.value)}, found ${show(actual)}`);
  }
  return problems;
}

/**
 * Every error body but the plain 404's `"Not Found"` is one shape: a JSON object whose `error`
 * and `detail` are strings (README, "Errors"). A body that is no JSON is the body check's to say.
 */
export function errorShapeProblem(status: number, text: string): string | null {
  if (status < 400 || text === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    if (error instanceof SyntaxError) return null;
    throw error;
  }
  if (status === 404 && value === 'Not Found') return null;
  const { error, detail } = (typeof value === 'object' && value !== null ? value : {}) as { error?: unknown; detail?: unknown };
  return typeof error === 'string' && typeof detail === 'string' ? null : `body: a ${status} without a string error and detail: ${show(value)}`;
}

/** Node's fetch answer as a Got. */
export async function gotFrom(response: Response): Promise<Got> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  return { status: response.status, headers, body: new Uint8Array(await response.arrayBuffer()) };
}
