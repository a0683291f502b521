/**
 * The checks of a real deploy that no offline tool settles (the README's "Open" list), run over
 * HTTP against any origin: a Netlify deploy, Netlify's CLI, or the preview. Each check says
 * passed, failed or skipped, with what it saw. Checks that only Netlify's CDN can pass (cache
 * hits, compression, static headers) are skipped where no CDN answers, and say so.
 * scripts/check-deploy.ts prints them; test/check-deploy.test.ts runs them offline.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { messageWithCauses } from '../contract/error-text.ts';
// the API's own cache policy for 200s, which _headers gives the static pages too
import { CACHE_OK } from '../contract/cache.ts';

export type Verdict = 'passed' | 'failed' | 'skipped';
export interface CheckResult {
  name: string;
  verdict: Verdict;
  /** what was sent and seen, in a line or two */
  saw: string;
}

export interface Answer {
  status: number;
  /** lowercase names */
  headers: Record<string, string>;
  body: Buffer;
  /** time to the response's headers */
  ms: number;
}

/**
 * Headers a client may send that no answer may depend on: the marker the edge function once
 * stepped aside for, the forwarding and override headers proxies and frameworks honour, cookies,
 * a client's own cache directives. Request headers are no part of the CDN's cache key, so an
 * answer that changed with one of them could be stored and served to everyone.
 */
export const SPOOFED_HEADERS: Record<string, string> = {
  'x-static-read': '1',
  'X-Forwarded-Host': 'evil.example',
  'X-Forwarded-Proto': 'http',
  Forwarded: 'host=evil.example;proto=http',
  'X-Original-URL': '/v2/creature/2',
  'X-Rewrite-URL': '/v2/creature/2',
  'X-HTTP-Method-Override': 'DELETE',
  'X-Nf-Request-Id': 'spoofed',
  'Netlify-Vary': 'query',
  Cookie: 'nf_ab=branch; session=1',
  Accept: 'text/html',
  'Cache-Control': 'no-cache',
};

/**
 * One request with the path sent exactly as written (fetch would resolve `%2e%2e` and `//`
 * first), the body as it comes (not decompressed).
 */
export function send(origin: string, path: string, options: { method?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  const url = new URL(origin);
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port || undefined,
        method: options.method ?? 'GET',
        path,
        headers: { 'accept-encoding': 'identity', ...options.headers },
        timeout: 60_000,
      },
      (res) => {
        const ms = performance.now() - started;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const headers: Record<string, string> = {};
          for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
          resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks), ms });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${path}: no answer in 60 s`)));
    req.on('error', reject);
    req.end();
  });
}

/** The answer's body as JSON; undefined when it is not JSON (a page of the static layer). */
const json = (a: Answer): unknown => {
  try {
    return JSON.parse(a.body.toString('utf8'));
  } catch (error) {
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
};
const isNotFound = (a: Answer) => a.status === 404 && json(a) === 'Not Found';
const brief = (a: Answer) => `${a.status} ${a.headers['content-type'] ?? '(no type)'} ${a.body.byteLength} B`;
const result = (name: string, verdict: Verdict, saw: string): CheckResult => ({ name, verdict, saw });

/** What a run shares: the origin, whether Netlify's CDN answers, and a query value no earlier run used. */
export interface Run {
  origin: string;
  cdn: boolean;
  /** an offset no cache has seen, so a first request is a miss */
  fresh: () => number;
  /** the kind with the longest list, as meta counts it (the deploy may hold the whole data set or a cut of it) */
  longest: { kind: string; count: number };
}

/** A page of the longest list that this run has not asked for, with `limit` entries in it. */
const freshPage = ({ longest, fresh }: Run, limit: number): string =>
  `/v2/${longest.kind}/?limit=${limit}&offset=${fresh() % Math.max(1, longest.count - limit + 1)}`;

export async function startRun(origin: string): Promise<{ run: Run; seen: string }> {
  const first = await send(origin, '/v2/');
  const cacheStatus = first.headers['cache-status'] ?? '';
  // Netlify's CLI sends `Server: Netlify` too; only the CDN says what its cache did
  const cdn = /netlify/i.test(cacheStatus);
  let next = 1000 + (Date.now() % 100_000) * 7;
  const counts = (json(await send(origin, '/v2/meta/')) as { counts?: Record<string, number> } | undefined)?.counts ?? {};
  const [kind, count] = Object.entries(counts).reduce((a, b) => (b[1] > a[1] ? b : a), ['creature', 0]);
  const run: Run = { origin, cdn, fresh: () => (next += 1), longest: { kind, count } };
  return { run, seen: `GET /v2/ → ${brief(first)}; server: ${first.headers['server'] ?? '-'}; cache-status: ${cacheStatus || '-'}` };
}

/** The function answers, and its reads reach the files: an item, meta, and a page only the function can compute. */
export async function checkReads(run: Run): Promise<CheckResult> {
  const name = "the function's reads reach the files";
  const item = await send(run.origin, '/v2/creature/1');
  const meta = await send(run.origin, '/v2/meta/');
  const path = freshPage(run, 3);
  const page = await send(run.origin, path);
  const pageBody = json(page) as { count?: number; results?: unknown[] } | undefined;
  const itemBody = json(item) as { id?: number } | undefined;
  const saw = `item ${brief(item)}; meta ${brief(meta)}; ${path} ${brief(page)} with ${pageBody?.results?.length ?? '?'} results of ${pageBody?.count ?? '?'}`;
  const ok = item.status === 200 && itemBody?.id === 1 && meta.status === 200 && page.status === 200 && pageBody?.results?.length === 3;
  return result(name, ok ? 'passed' : 'failed', saw);
}

/** Whether an answer says Netlify's CDN served it from its cache. */
const isHit = (a: Answer) => /;\s*hit/i.test(a.headers['cache-status'] ?? '');

/** Sends a path until the CDN answers it from its cache (at most four times); the cache statuses seen, whether it hit, and the last answer. */
async function warm(origin: string, path: string): Promise<{ statuses: string[]; hit: boolean; last: Answer }> {
  const statuses: string[] = [];
  let hit = false;
  let last: Answer | undefined;
  for (let i = 0; i < 4 && !hit; i++) {
    last = await send(origin, path);
    statuses.push(last.headers['cache-status'] ?? '-');
    hit = i > 0 && isHit(last);
  }
  return { statuses, hit, last: last! };
}

/**
 * A repeated GET is a CDN hit, and an item's cache key holds no parameter (its Netlify-Vary is
 * the empty `query=`): junk added to it is a hit on the entry warmed without it. Collections are
 * keyed on the whole query string (no Netlify-Vary, contract/query/params.ts `keysWholeQuery`), so junk on
 * a page or a filtered page makes an entry of its own: what the CDN did is reported, not judged.
 */
export async function checkCacheHit({ origin, cdn, fresh }: Run): Promise<CheckResult> {
  const name = 'a repeated GET is a CDN cache hit; the key is the parameters read';
  const path = `/v2/creature/?limit=7&offset=${fresh() % 1300}`;
  const page = await warm(origin, path);
  const junk = await send(origin, `${path}&utm_source=check`);
  const other = await send(origin, path.replace('limit=7', 'limit=8'));
  const otherSize = (json(other) as { results?: unknown[] } | undefined)?.results?.length;
  const filtered = `/v2/creature/?type=fire&limit=3&offset=${fresh() % 100}`;
  const item = `/v2/creature/${1 + (fresh() % 1000)}`;
  const [filteredWarm, itemWarm] = [await warm(origin, filtered), await warm(origin, item)];
  const filteredJunk = await send(origin, `${filtered}&utm_source=check`);
  const itemJunk = await send(origin, `${item}?utm_source=check`);
  const saw =
    `${path}: cache-status ${page.statuses.join(' | ')}; with utm_source: ${junk.headers['cache-status'] ?? '-'}; limit=8: ${otherSize ?? '?'} results, ${other.headers['cache-status'] ?? '-'}; ` +
    `${filtered} (Netlify-Vary ${filteredJunk.headers['netlify-vary'] ?? '-'}) with utm_source: ${filteredJunk.headers['cache-status'] ?? '-'}; ${item} (Netlify-Vary ${itemJunk.headers['netlify-vary'] ?? '-'}) with utm_source: ${itemJunk.headers['cache-status'] ?? '-'}`;
  if (!cdn) return result(name, 'skipped', `no CDN answers here (needs a Netlify deploy); ${saw}`);
  const ok = page.hit && otherSize === 8 && filteredWarm.hit && itemWarm.hit && isHit(itemJunk);
  return result(name, ok ? 'passed' : 'failed', saw);
}

/** The names of a page's entries, or null when it is no page. */
const entryNames = (a: Answer): string[] | null => {
  const body = json(a) as { results?: { name?: string }[] } | undefined;
  return a.status === 200 && Array.isArray(body?.results) ? body.results.map((r) => r.name ?? '?') : null;
};

/**
 * Settles what Netlify does not document: how its cache keys a repeated parameter. One URL with
 * a repeat (`id=1&id=2`) is warmed until it is a hit; then spellings that differ from it only in
 * a repeat must get their own answers: `id=1&id=3` (a key of the first value would serve the
 * warmed answer) and `id=4&id=2` (a key of the last value would). Reported besides: whether the
 * swapped repeat (`id=2&id=1`, the same answer) and the URL with junk hit the warmed entry, which
 * says whether the key sorts repeats and whether it is the whole query string. Then the issue's
 * own case with types (`typeRepeats`).
 */
export async function checkRepeatKey({ origin, cdn, fresh }: Run): Promise<CheckResult> {
  const name = 'spellings that differ in a repeat never share a cached answer';
  // a limit no earlier run used: every URL below starts uncached
  const limit = 10 + (fresh() % 90_000);
  const url = (query: string) => `/v2/creature/?${query}&limit=${limit}`;
  const warmed = await warm(origin, url('id=1&id=2'));
  const expected = entryNames(warmed.last);
  const variants: [label: string, query: string, ids: number[]][] = [
    ['first value kept', 'id=1&id=3', [1, 3]],
    ['last value kept', 'id=4&id=2', [2, 4]],
    ['swapped', 'id=2&id=1', [1, 2]],
    ['junk', 'id=1&id=2&utm_source=check', [1, 2]],
  ];
  const seen = [
    `${url('id=1&id=2')} (Netlify-Vary ${warmed.last.headers['netlify-vary'] ?? 'none'}): ${warmed.statuses.join(' | ')} → ${expected?.join(',') ?? brief(warmed.last)}`,
  ];
  let wrong = expected === null || expected.length !== 2;
  const hits: Record<string, boolean> = {};
  for (const [label, query, ids] of variants) {
    const a = await send(origin, url(query));
    const names = entryNames(a);
    hits[label] = isHit(a);
    const right = names !== null && names.length === ids.length && ids.every((id) => a.body.includes(Buffer.from(`/creature/${id}/`)));
    wrong ||= !right;
    seen.push(`${query}: ${a.headers['cache-status'] ?? '-'} → ${names?.join(',') ?? brief(a)}${right ? '' : ' (WRONG: not its own answer)'}`);
  }
  const types = await typeRepeats(origin, limit);
  wrong ||= types.wrong;
  seen.push(...types.seen);
  const keyed =
    `Netlify keyed: ${hits['first value kept'] || hits['last value kept'] ? 'ONE VALUE of a repeat' : 'every value of a repeat'}, ` +
    `${hits['swapped'] ? 'repeats sorted' : 'repeats in order'}, ${hits['junk'] ? 'only the parameters named' : 'the whole query string'}`;
  const saw = `${seen.join('; ')}${cdn ? `; ${keyed}` : ''}`;
  if (wrong) return result(name, 'failed', saw);
  if (!cdn) return result(name, 'skipped', `no CDN answers here (needs a Netlify deploy); each spelling got its own answer: ${saw}`);
  return result(name, warmed.hit ? 'passed' : 'failed', warmed.hit ? saw : `the warmed URL never hit, so the key could not be seen; ${saw}`);
}

/**
 * The issue's own case: `type=grass&type=poison` (both types) warmed, then `type=grass&type=fire`
 * and `type=fire&type=poison`, each with `fields=types`, so that every entry shows whether it
 * holds both types asked (a shared answer would show grass/poison entries).
 */
async function typeRepeats(origin: string, limit: number): Promise<{ wrong: boolean; seen: string[] }> {
  const url = (a: string, b: string) => `/v2/creature/?type=${a}&type=${b}&fields=types&limit=${limit}`;
  await warm(origin, url('grass', 'poison'));
  let wrong = false;
  const seen: string[] = [];
  for (const [a, b] of [
    ['grass', 'poison'],
    ['grass', 'fire'],
    ['fire', 'poison'],
  ] as const) {
    const answer = await send(origin, url(a, b));
    const results = (json(answer) as { results?: Array<{ types?: Array<{ type: { name: string } }> }> } | undefined)?.results;
    const right = answer.status === 200 && Array.isArray(results) && results.every((r) => [a, b].every((t) => r.types?.some((slot) => slot.type.name === t)));
    wrong ||= !right || (a === 'grass' && b === 'poison' && results?.length === 0);
    seen.push(
      `type=${a}&type=${b}: ${answer.headers['cache-status'] ?? '-'} → ${results?.length ?? '?'} entries${right ? ', each with both types' : ' (WRONG: an entry lacks a type asked)'}`,
    );
  }
  return { wrong, seen };
}

/** If-None-Match with the ETag of an answer gives 304. */
export async function checkRevalidation({ origin }: Run): Promise<CheckResult> {
  const name = 'If-None-Match gives 304';
  const first = await send(origin, '/v2/creature/25');
  const etag = first.headers['etag'] ?? '';
  const again = await send(origin, '/v2/creature/25', { headers: { 'if-none-match': etag } });
  const saw = `ETag ${etag || '-'}; again with If-None-Match: ${again.status}, ETag ${again.headers['etag'] ?? '-'}`;
  return result(name, etag !== '' && again.status === 304 && again.body.byteLength === 0 ? 'passed' : 'failed', saw);
}

/** Compression, and the ETag a compressed answer carries: it must still revalidate. */
export async function checkCompression({ origin, cdn }: Run): Promise<CheckResult> {
  const name = 'compression, and the ETag it carries';
  const plain = await send(origin, '/v2/creature/1');
  const packed = await send(origin, '/v2/creature/1', { headers: { 'accept-encoding': 'br, gzip' } });
  const encoding = packed.headers['content-encoding'];
  const etag = packed.headers['etag'] ?? '';
  let saw = `identity: ${plain.body.byteLength} B, ETag ${plain.headers['etag'] ?? '-'}; br, gzip: ${encoding ?? 'not compressed'} ${packed.body.byteLength} B, ETag ${etag || '-'}, Vary ${packed.headers['vary'] ?? '-'}`;
  if (!encoding) return result(name, cdn ? 'failed' : 'skipped', cdn ? saw : `not compressed here (Netlify's CDN compresses); ${saw}`);
  const again = await send(origin, '/v2/creature/1', { headers: { 'accept-encoding': 'br, gzip', 'if-none-match': etag } });
  saw += `; If-None-Match with it: ${again.status}`;
  return result(name, etag !== '' && again.status === 304 && packed.body.byteLength < plain.body.byteLength ? 'passed' : 'failed', saw);
}

/**
 * Paths with dot segments and doubled slashes, sent as written: each is the JSON 404, or the
 * answer of the path it normalises to; never another page, never a file outside the API.
 */
export async function checkPathNormalisation({ origin }: Run): Promise<CheckResult> {
  const name = 'path normalisation (%2e%2e, //)';
  const cases: [string, string | null][] = [
    ['/v2/creature/%2e%2e', '/v2/'],
    ['/v2/creature/%2e%2e/creature/1', '/v2/creature/1'],
    ['/v2/%2e%2e/%2e%2e/package.json', null],
    ['/v2/creature/..%2f..%2fpackage.json', null],
    ['/v2//creature/1', '/v2/creature/1'],
    ['//v2/creature/1', '/v2/creature/1'],
  ];
  const seen: string[] = [];
  let ok = true;
  for (const [path, normalised] of cases) {
    const a = await send(origin, path);
    const same = normalised !== null && a.status === 200 && a.body.equals((await send(origin, normalised)).body);
    const fine = isNotFound(a) || same;
    ok &&= fine;
    seen.push(`${path} → ${a.status}${same ? ` (= ${normalised})` : isNotFound(a) ? ' "Not Found"' : ` ${brief(a)}`}`);
  }
  return result(name, ok ? 'passed' : 'failed', seen.join('; '));
}

/** Spoofed headers change nothing, and poison nothing: sent first on fresh URLs, then without. */
export async function checkSpoofedHeaders(run: Run): Promise<CheckResult> {
  const { origin, fresh } = run;
  const name = 'a spoofed header changes nothing';
  const paths = [
    '/v2/creature/1',
    freshPage(run, 5),
    `/v2/creature/?offset=${(fresh() % 60) * 20}`,
    `/v2/ability/?q=${fresh()}`,
    `/v2/creature/${900_000 + (fresh() % 1000)}`,
  ];
  const differing: string[] = [];
  for (const path of paths) {
    const spoofed = await send(origin, path, { headers: SPOOFED_HEADERS });
    const plain = await send(origin, path);
    if (spoofed.status !== plain.status || !spoofed.body.equals(plain.body)) differing.push(`${path}: ${brief(spoofed)} spoofed, ${brief(plain)} without`);
  }
  const saw = differing.length ? differing.join('; ') : `${paths.length} URLs (an item, pages, a search, a 404), spoofed first: the same status and bytes`;
  return result(name, differing.length ? 'failed' : 'passed', saw);
}

/** The downloads are static files with their type, the data version, and the API's Cache-Control. */
export async function checkDownloads({ origin, cdn }: Run): Promise<CheckResult> {
  const name = "the downloads' Content-Type and Cache-Control";
  const meta = json(await send(origin, '/v2/meta/')) as
    { upstream_commit?: string; downloads?: { archive: string; collections: Record<string, string> } } | undefined;
  const urls = meta?.downloads ? [meta.downloads.archive, Object.values(meta.downloads.collections)[0]!] : [];
  if (!urls.length) return result(name, 'failed', '/v2/meta/ names no downloads');
  const seen: string[] = [];
  let typesOk = true;
  let cacheOk = true;
  for (const url of urls) {
    const a = await send(origin, new URL(url).pathname, { method: 'HEAD' });
    typesOk &&= a.status === 200 && a.headers['content-type'] === 'application/gzip' && a.headers['x-data-version'] === meta?.upstream_commit;
    cacheOk &&= a.headers['cache-control'] === CACHE_OK;
    seen.push(
      `${new URL(url).pathname}: ${a.status} ${a.headers['content-type'] ?? '-'}, Cache-Control ${a.headers['cache-control'] ?? '-'}, X-Data-Version ${a.headers['x-data-version'] ?? '-'}`,
    );
  }
  const saw = seen.join('; ');
  if (!typesOk) return result(name, 'failed', saw);
  if (!cacheOk && !cdn) return result(name, 'skipped', `Cache-Control is not _headers' here (only Netlify's CDN applies it to static files); ${saw}`);
  return result(name, cacheOk ? 'passed' : 'failed', saw);
}

/**
 * The database answers a byte range (a reader in the browser reads it so): a `206` of the asked
 * bytes, unencoded, its `Content-Range` naming the file's size; again with `If-Range` naming the
 * version the first read saw.
 */
export async function checkDatabaseRanges({ origin }: Run): Promise<CheckResult> {
  const name = "the database's byte ranges";
  const meta = json(await send(origin, '/v2/meta/')) as { downloads?: { database?: string } } | undefined;
  const url = meta?.downloads?.database;
  if (!url) return result(name, 'failed', '/v2/meta/ names no database');
  const path = new URL(url).pathname;
  const first = await send(origin, path, { headers: { Range: 'bytes=0-15' } });
  const validator = first.headers['etag'] ?? first.headers['last-modified'];
  const again = await send(origin, path, { headers: { Range: 'bytes=16-17', ...(validator ? { 'If-Range': validator } : {}) } });
  const header = (a: typeof first) =>
    `${a.status} ${a.headers['content-range'] ?? 'no Content-Range'}${a.headers['content-encoding'] ? `, ${a.headers['content-encoding']}` : ''}`;
  const ok =
    first.status === 206 &&
    first.body.toString('latin1') === 'SQLite format 3\0' &&
    /^bytes 0-15\/\d+$/.test(first.headers['content-range'] ?? '') &&
    first.headers['content-encoding'] === undefined &&
    again.status === 206 &&
    again.body.byteLength === 2;
  return result(
    name,
    ok ? 'passed' : 'failed',
    `${path}: bytes 0-15 → ${header(first)}; bytes 16-17 with If-Range ${validator ?? '(none)'} → ${header(again)}`,
  );
}

/**
 * The first page this run has the function compute (a URL no cache holds), then five more: an
 * answer cut off for its CPU time would fall back to the rules, which answer these with a 404.
 * Cold only if this isolate had no traffic before; time to headers, network included.
 */
export async function checkColdStart(run: Run): Promise<CheckResult> {
  const name = 'cold-start latency';
  const times: number[] = [];
  let ok = true;
  for (let i = 0; i < 6; i++) {
    const a = await send(run.origin, freshPage(run, 11));
    ok &&= a.status === 200 && (json(a) as { results?: unknown[] } | undefined)?.results?.length === 11;
    times.push(a.ms);
  }
  const rest = times.slice(1).sort((a, b) => a - b);
  const saw = `first computed page ${times[0]!.toFixed(0)} ms to headers; the next five: median ${rest[2]!.toFixed(0)} ms, max ${rest[4]!.toFixed(0)} ms`;
  return result(name, ok ? 'passed' : 'failed', saw);
}

/** Every check, in the README's order. */
export const CHECKS = [
  checkReads,
  checkCacheHit,
  checkRepeatKey,
  checkRevalidation,
  checkCompression,
  checkPathNormalisation,
  checkSpoofedHeaders,
  checkDownloads,
  checkDatabaseRanges,
  checkColdStart,
];

/** Runs every check against an origin; a check that throws is a failure saying why. */
export async function runChecks(
  origin: string,
  onResult: (r: CheckResult) => void = () => {},
): Promise<{ cdn: boolean; seen: string; results: CheckResult[] }> {
  const { run, seen } = await startRun(origin);
  const results: CheckResult[] = [];
  for (const check of CHECKS) {
    let r: CheckResult;
    try {
      r = await check(run);
    } catch (e) {
      r = result(check.name, 'failed', messageWithCauses(e));
    }
    results.push(r);
    onResult(r);
  }
  return { cdn: run.cdn, seen, results };
}
