/**
 * Runs the Netlify edge function under Deno, the runtime Netlify runs it in, against a built
 * dist/. Stand-ins play the rest of Netlify's request chain as test/netlify-rules.test.ts
 * checks it with Netlify's own rule matcher: a request goes to the edge functions whose
 * declared paths (URLPattern, as in netlify.toml) match it; if none answers, the static layer
 * serves the file at that exact path, or a 404.
 *
 *   deno run --allow-read netlify/edge-harness.ts INPUT.json   (prints OUTPUT as JSON)
 *
 * INPUT: { dist, origin, declarations: [{ function, path, excludedPath? }], requests: [{ method, path, headers }] }
 * OUTPUT: { results: [{ route, status, headers, body (base64) }] }: route is the function
 * that answered, or null when the static layer did.
 */
import type { Context } from '@netlify/edge-functions';
import api from './edge-functions/api.ts';

/** The little of Deno's API this uses (the project's type check runs without Deno's types). */
declare const Deno: {
  args: string[];
  readFile(path: string): Promise<Uint8Array<ArrayBuffer>>;
  readTextFile(path: string): Promise<string>;
  realPath(path: string): Promise<string>;
};
/** Deno has URLPattern built in; the DOM types this project is checked with do not yet. */
declare class URLPattern {
  constructor(input: { pathname: string });
  test(input: { pathname: string }): boolean;
}

type EdgeFunction = (request: Request, context: Context) => Promise<Response | undefined> | Response | undefined;

interface Declaration {
  function: string;
  path: string | string[];
  excludedPath?: string | string[];
}
interface Input {
  dist: string;
  origin: string;
  declarations: Declaration[];
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

const TYPES: Record<string, string> = { json: 'application/json', html: 'text/html', css: 'text/css', js: 'text/javascript', gz: 'application/gzip', ts: 'text/plain' };

/** Netlify's static layer: the file at the request's path (index.html for a folder), or a 404. */
async function staticLayer(request: Request): Promise<Response> {
  let path: string;
  try {
    path = decodeURIComponent(new URL(request.url).pathname);
  } catch {
    return new Response('Not Found', { status: 404 });
  }
  if (path.endsWith('/')) path += 'index.html';
  try {
    const full = await Deno.realPath(dist + path);
    if (!full.startsWith(`${dist}/`)) throw new Error('outside the publish folder');
    const type = TYPES[full.slice(full.lastIndexOf('.') + 1)] ?? 'application/octet-stream';
    return new Response(request.method === 'HEAD' ? null : await Deno.readFile(full), { headers: { 'content-type': type } });
  } catch {
    return new Response('Not Found', { status: 404, headers: { 'content-type': 'text/plain' } });
  }
}

/** The request chain: matching edge functions in declared order, then the static layer. */
async function chain(request: Request): Promise<{ route: string | null; response: Response }> {
  const url = new URL(request.url);
  if (url.origin !== input.origin) throw new Error(`the edge function fetched ${url.href}, outside the site`);
  for (const route of routes) {
    const input = { pathname: url.pathname };
    if (!route.paths.some((p) => p.test(input)) || route.excluded.some((p) => p.test(input))) continue;
    const context = { next: () => staticLayer(request), params: {} } as unknown as Context;
    const response = await route.fn(request, context);
    if (response) return { route: route.name, response };
  }
  return { route: null, response: await staticLayer(request) };
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
  const { route, response } = await chain(new Request(input.origin + r.path, { method: r.method, headers: r.headers }));
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  results.push({ route, status: response.status, headers, body: toBase64(new Uint8Array(await response.arrayBuffer())) });
}
console.log(JSON.stringify({ results }));
