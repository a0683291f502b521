/**
 * netlify.toml, read and matched by Netlify's own packages (@netlify/redirect-parser builds the
 * rules, netlify-redirector is the wasm matcher `netlify dev` uses), over the built dist/, for
 * every row of the shared table:
 *
 * 1. With the edge function (how the site runs): the function answers every row under /v2,
 *    reading build files from the same site under its own prefix (FILE_READ_PREFIX), where it
 *    is not declared. Each read goes down Netlify's chain (rules, then static files): it must
 *    get exactly the file it asks for, or a non-200 when there is none. The request module
 *    behind that chain must then meet the row. Default-size pages and items must be file
 *    reads, never a list computation. Rows outside /v2 (the docs page, its assets, the
 *    downloads, anything else) are the rules' and static files': the row's answer, with the
 *    headers the build's _headers gives each static page.
 * 2. Without edge functions (they do not run under split testing): the rules alone give the
 *    row's answer or a 404, never a different page; where a build file is asked for by its own
 *    path it is served as is (listed below).
 * Over the data cut's build (a mechanism: every kind is in it, the whole data set is not needed).
 */
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve, sep } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { parseAllRedirects } from '@netlify/redirect-parser';
import { describe, expect, inject, it } from 'vitest';
import { createHandler } from '../edge/handler.ts';
import { DOWNLOADS_DIR, listFile, pageFile } from '../contract/layout.ts';
import { FILE_READ_PREFIX } from '../netlify/edge-adapter.ts';
import { netlifyTomlPath, readNetlifyConfig } from './support/files.ts';
import {
  bodyFile,
  checkOutcome,
  expectedBody,
  firstRequest,
  gotFrom,
  httpCases,
  loadCaseContext,
  runCases,
  type Got,
  type HttpCase,
  type Sent,
} from './support/http-cases.ts';

const distDir = realpathSync(inject('cutDistDir'));
const ctx = loadCaseContext(distDir, inject('baseUrl'));
const cases = httpCases(ctx);
const tomlPath = netlifyTomlPath;

interface Match {
  from: string;
  to: string;
  status: number;
  force: boolean;
}
interface Matcher {
  match(request: {
    scheme: string;
    host: string;
    path: string;
    query: string;
    headers: Record<string, string>;
    cookieValues: Record<string, string>;
    getHeader(name: string): string;
    getCookie(name: string): string;
  }): Match | null;
}
const redirector = createRequire(import.meta.url)('netlify-redirector') as {
  parseJSON(rules: string, options: { jwtSecret: string; jwtRoleClaim: string }): Promise<Matcher>;
};
const config = readNetlifyConfig();

// Read once, before any case is collected: the edge-function cases run their requests then.
// `_redirects` in the publish folder would come first; the build writes none, but read it if it does.
const redirectsFile = join(distDir, '_redirects');
const parsed = await parseAllRedirects({
  redirectsFiles: existsSync(redirectsFile) ? [redirectsFile] : [],
  netlifyConfigPath: tomlPath,
  configRedirects: [],
  minimal: false,
});
if (parsed.errors.length) throw parsed.errors[0];
const rules = parsed.redirects as { from: string; status?: number; force?: boolean }[];
// what @netlify/redirects hands the matcher: `from` as origin, `query` as params
const forMatcher = (parsed.redirects as Record<string, unknown>[]).map(({ from, query, ...rest }) => ({ ...rest, origin: from, params: query }));
const matcher = await redirector.parseJSON(JSON.stringify(forMatcher), { jwtSecret: 'unused', jwtRoleClaim: 'unused' });

const match = (pathAndQuery: string): Match | null => {
  const url = new URL(pathAndQuery, 'https://creatures.example');
  // the raw path as sent (the URL parser would already have removed dot segments)
  const path = pathAndQuery.split('?')[0]!;
  return matcher.match({
    scheme: 'https',
    host: url.host,
    path,
    query: url.search.slice(1),
    headers: {},
    cookieValues: {},
    getHeader: () => '',
    getCookie: () => '',
  });
};

/** The file Netlify's static layer has at a URL path (index.html for a folder), if any. */
function fileAt(urlPath: string): string | null {
  let path: string;
  try {
    path = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (path.includes('\0')) return null;
  if (path.endsWith('/')) path += 'index.html';
  const full = resolve(distDir, `.${path}`);
  if (!full.startsWith(distDir + sep)) return null;
  try {
    return statSync(full).isFile() ? full.slice(distDir.length + 1) : null;
  } catch {
    return null;
  }
}

interface StaticAnswer {
  status: number;
  /** the dist/ file served, relative */
  file: string | null;
  /** the rule that applied */
  rule: string | null;
}

/**
 * Netlify's chain after the edge functions: a file at the exact path wins over every rule that is
 * not forced; otherwise the first matching rule, evaluated once: a 200 rewrite to a missing file
 * is the site's 404 page, not the next rule.
 */
function staticChain(pathAndQuery: string): StaticAnswer {
  const m = match(pathAndQuery);
  const exact = fileAt(pathAndQuery.split('?')[0]!);
  if (exact && !m?.force) return { status: 200, file: exact, rule: null };
  if (!m) return { status: 404, file: null, rule: null };
  const target = fileAt(new URL(m.to, 'https://creatures.example').pathname);
  if (m.status === 200) return target ? { status: 200, file: target, rule: m.from } : { status: 404, file: null, rule: m.from };
  if (m.status === 404) return { status: 404, file: target, rule: m.from };
  throw new Error(`${pathAndQuery}: rule ${m.from} answers ${m.status}; the edge function's reads must never be redirected`);
}

/** The build's `_headers` (Netlify's format: a path, then its headers indented), as path → headers. */
function readHeadersFile(): Map<string, Record<string, string>> {
  const rulesByPath = new Map<string, Record<string, string>>();
  let current: Record<string, string> | null = null;
  for (const line of readFileSync(join(distDir, '_headers'), 'utf8').split('\n')) {
    if (!line.trim()) continue;
    if (!/^\s/.test(line)) rulesByPath.set(line.trim(), (current = {}));
    else if (current) {
      const colon = line.indexOf(':');
      current[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
    }
  }
  return rulesByPath;
}

/** Rows outside the function's paths, as URLs read them (`/v2/%2e%2e/%2e%2e/package.json` is `/package.json`). */
const outsideApi = (c: HttpCase) => !/^\/v2(\/|$)/.test(new URL(c.path, 'https://creatures.example').pathname);

describe('netlify.toml', () => {
  it('publishes dist/, redirects nothing, and forces only the rule that keeps the docs page at one address', () => {
    expect(config.build?.publish).toBe('dist');
    expect(rules.length).toBeGreaterThan(0);
    expect(rules.filter((r) => r.force).map((r) => r.from)).toEqual(['/index.html']);
    expect(rules.filter((r) => r.status !== undefined && r.status >= 300 && r.status < 400)).toEqual([]);
  });

  it('every build file the edge function can read is served under its prefix; a missing one is not a 200', () => {
    const examples = [
      'v2/index.json',
      'v2/meta.json',
      'v2/_routes.json',
      'v2/404.json',
      listFile('creature'),
      pageFile('creature', 0),
      'v2/creature/1.json',
      'v2/creature/bulbasaur.json',
      'v2/_sub/creature/encounters/25.json',
      'v2/openapi.json',
      'index.html',
    ];
    for (const file of examples) expect(staticChain(`${FILE_READ_PREFIX}/${file}`), file).toMatchObject({ status: 200, file });
    const missing = [
      'v2/creature/999999.json',
      pageFile('creature', 1360),
      pageFile('nope', 0),
      listFile('nope'),
      'v2/_sub/creature/moves/1.json',
      'v2/nope.json',
    ];
    for (const file of missing) expect(staticChain(`${FILE_READ_PREFIX}/${file}`).status, file).not.toBe(200);
  });

  it('the function is declared under /v2, and on the downloads for byte ranges; every static page is a file at its own path with its headers', () => {
    const paths = (config.edge_functions ?? []).flatMap((d) => ([] as string[]).concat(d.path));
    expect(paths.every((p) => p === '/v2' || p.startsWith('/v2/') || p === `/${DOWNLOADS_DIR}/*`)).toBe(true);
    const headers = readHeadersFile();
    const staticPages = Object.entries(ctx.routes.site).filter(([route]) => !route.startsWith('/v2/'));
    expect(staticPages.map(([route]) => route)).toEqual(expect.arrayContaining(['/', '/docs.css', '/docs.js']));
    for (const [route, { file, type }] of staticPages) {
      expect(staticChain(route), route).toMatchObject({ status: 200, file });
      const rule = headers.get(route);
      expect(rule, route).toEqual({
        'Content-Type': type,
        'X-Data-Version': ctx.meta.upstream_commit,
        'Cache-Control': 'public, max-age=86400, stale-while-revalidate=604800',
        'Access-Control-Expose-Headers': 'ETag, X-Data-Version',
      });
    }
    // the rules for every static answer, and none of the static pages' own headers twice
    const everywhere = (config.headers ?? []).find((h) => h.for === '/*');
    expect(everywhere?.values).toEqual({ 'Access-Control-Allow-Origin': '*', 'X-Content-Type-Options': 'nosniff' });
    expect((config.headers ?? []).filter((h) => h.for !== '/*')).toEqual([]);
  });

  it("every other row outside /v2 gets the row's answer from the rules: the page, or the JSON 404", () => {
    const rows = cases.filter((c) => outsideApi(c) && (c.method ?? 'GET') === 'GET' && !c.revalidate && !c.headers);
    expect(rows.length).toBeGreaterThan(5);
    for (const c of rows) {
      const answer = staticChain(new URL(c.path, 'https://creatures.example').pathname);
      expect(answer.status, c.path).toBe(c.status);
      const expected = expectedBody(ctx, c.body);
      const body = answer.file ? readFileSync(join(distDir, answer.file)) : readFileSync(join(distDir, '404.html'));
      if (expected && 'bytes' in expected) expect(body.equals(expected.bytes), c.path).toBe(true);
      else expect(JSON.parse(body.toString('utf8')), c.path).toEqual(expected && 'value' in expected ? expected.value : undefined);
    }
  });
});

describe('with the edge function: its reads through the rules meet every row', async () => {
  // The request module reading files the way the edge function does on Netlify: each read is a
  // request down the chain (rules, static files).
  const reads = new Map<string, { path: string; answer: StaticAnswer }[]>();
  let current: { path: string; answer: StaticAnswer }[] = [];
  const handle = createHandler(
    {
      async read(path) {
        const answer = staticChain(`${FILE_READ_PREFIX}/${path}`);
        current.push({ path, answer });
        return answer.status === 200 && answer.file ? readFileSync(join(distDir, answer.file)) : null;
      },
    },
    { baseUrl: ctx.baseUrl },
  );
  const edgeCases = cases.filter((c) => !outsideApi(c));
  const send = async (requests: Sent[]): Promise<Got[]> => {
    const out: Got[] = [];
    for (const r of requests) {
      current = [];
      out.push(await gotFrom(await handle(new Request(`https://creatures.example${r.path}`, { method: r.method, headers: r.headers }))));
      if (r.headers['If-None-Match'] === undefined) reads.set(`${r.method} ${r.path}`, current);
    }
    return out;
  };
  const outcomes = await runCases(edgeCases, send);

  it.each(edgeCases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const where = `${c.method ?? 'GET'} ${c.path}`;
    expect(checkOutcome(ctx, c, outcomes.get(c.name)!), where).toEqual([]);
    const made = reads.get(`${firstRequest(c).method} ${c.path}`) ?? [];
    for (const { path, answer } of made) {
      if (existsSync(join(distDir, path))) expect(answer, `${where} reads ${path}`).toMatchObject({ status: 200, file: path });
      else expect(answer.status, `${where} reads ${path}, which is not in dist/`).not.toBe(200);
    }
    // static stays static: items and default-size pages are one file read, no list is computed
    const body = c.body;
    const paths = made.map((r) => r.path);
    if (bodyFile(body) !== null)
      expect(
        paths.filter((p) => p.includes('/_lists/')),
        where,
      ).toEqual([]);
    if (
      'page' in body &&
      body.page.q === undefined &&
      body.page.limit === 20 &&
      body.page.offset % 20 === 0 &&
      body.page.offset < ctx.list(body.page.kind).count
    ) {
      expect(paths, where).toContain(pageFile(body.page.kind, body.page.offset));
      expect(paths, where).not.toContain(listFile(body.page.kind));
    }
  });
});

describe('without edge functions: the rules alone give the right answer or a 404', () => {
  // A build file asked for by its own path: served as the file it is (the edge function says 404).
  const SERVED_AS_FILES = ['internal list file', 'internal routing table', 'item file name', 'an as-of document of the build', 'the as-of facts of the build'];
  const plain = cases.filter((c) => (c.method ?? 'GET') === 'GET' && !c.headers && !c.revalidate);

  it.each(plain.map((c) => [c.name, c] as const))('%s', (name, c: HttpCase) => {
    const answer = staticChain(c.path);
    if (answer.status !== 200) return; // a 404 (the site's 404 page when a rewrite's file is missing)
    const expected = expectedBody(ctx, c.body);
    const bytes = readFileSync(join(distDir, answer.file!));
    if (SERVED_AS_FILES.includes(name)) {
      expect(c.status).toBe(404);
      expect(answer.rule, 'no rule, the file at the path').toBeNull();
      return;
    }
    expect(c.status, `${c.path} is ${answer.file} without the edge function`).toBe(200);
    if (expected && 'bytes' in expected) expect(bytes.equals(expected.bytes), `${c.path} → ${answer.file}`).toBe(true);
    else
      expect(
        isDeepStrictEqual(JSON.parse(bytes.toString('utf8')), expected && 'value' in expected ? expected.value : undefined),
        `${c.path} → ${answer.file}`,
      ).toBe(true);
  });

  it('the rows a build file answers by its own path are exactly the listed ones', () => {
    const served = plain.filter((c) => c.status !== 200 && staticChain(c.path).status === 200).map((c) => c.name);
    expect(served.sort()).toEqual([...SERVED_AS_FILES].sort());
  });

  it('the rules alone still answer items, subresources, the root, meta and default-size pages', () => {
    const same = plain.filter((c) => c.status === 200 && staticChain(c.path).status === 200).map((c) => c.name);
    for (const name of [
      'root',
      'meta',
      'item by id',
      'item by name',
      'encounters by id',
      'first page',
      'default-size page by offset',
      'last default-size page',
    ]) {
      expect(same).toContain(name);
    }
  });
});
