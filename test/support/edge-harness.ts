/**
 * Runs the Netlify edge function under Deno, the runtime Netlify runs it in, against a built
 * dist/. Stand-ins play the rest of Netlify's request chain as test/netlify-rules.test.ts
 * checks it with Netlify's own rule matcher: a request goes to the edge functions whose
 * declared paths (URLPattern, as in netlify.toml) match it; if none answers, the first rule
 * whose path matches (rules without query conditions only; a file at the request's own path
 * wins over a rule that is not forced; a rewrite to a missing file is the site's 404 page),
 * else the file at that exact path, else the 404 page. Every method is served alike there.
 *
 *   deno run --allow-read test/support/edge-harness.ts INPUT.json   (prints OUTPUT as JSON)
 *
 * INPUT: { dist, origin, declarations: [{ function, path, excludedPath? }],
 *          rules: [{ from, to, status, force? }], requests: [{ method, path, headers }] }
 * OUTPUT: { results: [{ route, invocations, status, headers, body (base64) }] }: route is the
 * function that answered, or null when the rules and static files did; invocations counts the
 * edge functions run while answering (the function's own reads included).
 */
import type { Context } from '@netlify/edge-functions';
import api from '../../netlify/edge-functions/api.ts';

/** The little of Deno's API this uses (the project's type check runs without Deno's types). */
declare const Deno: {
  args: string[];
  readFile(path: string): Promise<Uint8Array<ArrayBuffer>>;
  readTextFile(path: string): Promise<string>;
  realPath(path: string): Promise<string>;
  stat(path: string): Promise<{ isFile: boolean }>;
};
/** Deno has URLPattern built in; the DOM types this project is checked with do not yet. */
declare class URLPattern {
  constructor(input: { pathname: string });
  test(input: { pathname: string }): boolean;
  exec(input: { pathname: string }): { pathname: { groups: Record<string, string | undefined> } } | null;
}

type EdgeFunction = (request: Request, context: Context) => Promise<Response | undefined> | Response | undefined;

interface Declaration {
  function: string;
  path: string | string[];
  excludedPath?: string | string[];
}
interface Rule {
  from: string;
  to: string;
  status: number;
  force?: boolean;
}
interface Input {
  dist: string;
  origin: string;
  declarations: Declaration[];
  rules: Rule[];
  requests: { method: string; path: string; headers: Record<string, string> }[];
}

const functions: Record<string, EdgeFunction> = { api };
const input = JSON.parse(await Deno.readTextFile(Deno.args[0]!)) as Input;
const dist = await Deno.realPath(input.dist);

const list = (v: string | string[] | undefined) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
const routes = input.declarations.map((d) => {
  const fn = functions[d.function];
  if (!fn) throw new Error(`netlify.toml declares ${d.function}, which is not in netlify/edge-functions/`);
  return {
    name: d.function,
    fn,
    paths: list(d.path).map((p) => new URLPattern({ pathname: p })),
    excluded: list(d.excludedPath).map((p) => new URLPattern({ pathname: p })),
  };
});

const TYPES: Record<string, string> = {
  json: 'application/json',
  html: 'text/html',
  css: 'text/css',
  js: 'text/javascript',
  gz: 'application/gzip',
  ts: 'text/plain',
};

/** A file of the publish folder at a URL path (index.html for a folder), or null. */
async function fileAt(urlPath: string): Promise<string | null> {
  let path: string;
  try {
    path = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (path.endsWith('/')) path += 'index.html';
  try {
    const full = await Deno.realPath(dist + path);
    return full.startsWith(`${dist}/`) && (await Deno.stat(full)).isFile ? full : null;
  } catch {
    return null;
  }
}

async function serveFile(request: Request, full: string | null, status = 200): Promise<Response> {
  if (full === null) {
    // a publish folder without a 404 page (a test's fixture): Netlify's own bare 404
    const notFound = await fileAt('/404.html');
    return notFound === null ? new Response('Not Found', { status: 404 }) : serveFile(request, notFound, 404);
  }
  const type = TYPES[full.slice(full.lastIndexOf('.') + 1)] ?? 'application/octet-stream';
  return new Response(request.method === 'HEAD' ? null : await Deno.readFile(full), { status, headers: { 'content-type': type } });
}

// Netlify's `from` ignores a trailing slash; `*` is the splat, `:name` one segment.
const rules = input.rules.map((rule) => ({ ...rule, pattern: new URLPattern({ pathname: `${rule.from.replace(/\/$/, '')}{/}?` }) }));

/** Netlify's chain after the edge functions: rules (evaluated once), then static files. */
async function rulesAndFiles(request: Request): Promise<Response> {
  const { pathname } = new URL(request.url);
  const exact = await fileAt(pathname);
  for (const rule of rules) {
    const match = rule.pattern.exec({ pathname });
    if (!match) continue;
    if (exact && !rule.force) break;
    const groups = match.pathname.groups;
    const target = rule.to.replace(/:(\w+)/g, (_, name: string) => (name === 'splat' ? groups['0'] : groups[name]) ?? '');
    return serveFile(request, await fileAt(target), rule.status);
  }
  return serveFile(request, exact);
}

/** Edge functions run so far: what Netlify would bill. */
let invocations = 0;

/** The request chain: matching edge functions in declared order, then the rules and static files. */
async function chain(request: Request): Promise<{ route: string | null; response: Response }> {
  const url = new URL(request.url);
  if (url.origin !== input.origin) throw new Error(`the edge function fetched ${url.href}, outside the site`);
  for (const route of routes) {
    const input = { pathname: url.pathname };
    if (!route.paths.some((p) => p.test(input)) || route.excluded.some((p) => p.test(input))) continue;
    const context = { next: () => rulesAndFiles(request), params: {} } as unknown as Context;
    invocations++;
    const response = await route.fn(request, context);
    if (response) return { route: route.name, response };
  }
  return { route: null, response: await rulesAndFiles(request) };
}

// What the edge function's own fetch reaches: the same chain.
globalThis.fetch = async (resource: RequestInfo | URL, init?: RequestInit) => (await chain(new Request(resource, init))).response;

const toBase64 = (bytes: Uint8Array) => {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
};

const results = [];
for (const r of input.requests) {
  const before = invocations;
  const { route, response } = await chain(new Request(input.origin + r.path, { method: r.method, headers: r.headers }));
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  results.push({ route, invocations: invocations - before, status: response.status, headers, body: toBase64(new Uint8Array(await response.arrayBuffer())) });
}
console.log(JSON.stringify({ results }));
