/**
 * `npm run check:deploy` (scripts/check-deploy.ts, netlify/deploy-checks.ts) against the
 * preview: every check it can run there passes and the CDN-only one is skipped, exit 0; against
 * a proxy to the preview that misbehaves the way the issue feared (an answer that changes with
 * a header, a wrong download type), the check that should see it fails, exit 1; misuse, exit 2.
 * The repeat-key check runs behind an invented CDN in front of the preview, once keying on the
 * whole query string (passes) and once on one value of each parameter (fails, saying so).
 * Netlify's CLI runs it too (test/netlify-cli.test.ts). A real deploy is not reachable here.
 * Over the data cut's build (a mechanism: every kind is in it, the whole data set is not needed).
 */
import { execFile } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { repoRoot } from '../generator/config.ts';
import { checkRepeatKey, runChecks, startRun } from '../netlify/deploy-checks.ts';

const run = promisify(execFile);
const previewUrl = inject('cutPreviewUrl');

async function checkDeploy(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return run(process.execPath, [join(repoRoot, 'scripts/check-deploy.ts'), ...args], { cwd: repoRoot }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );
}

describe('check:deploy against the preview', () => {
  it('runs every check: those it can run pass, the CDN cache is skipped as needing a deploy', async () => {
    const { cdn, results } = await runChecks(previewUrl);
    expect(cdn).toBe(false);
    const verdicts = Object.fromEntries(results.map((r) => [r.name, r.verdict]));
    expect(verdicts).toEqual({
      "the function's reads reach the files": 'passed',
      'a repeated GET is a CDN cache hit; the key is the parameters read': 'skipped',
      'spellings that differ in a repeat never share a cached answer': 'skipped',
      'If-None-Match gives 304': 'passed',
      'compression, and the ETag it carries': 'passed',
      'path normalisation (%2e%2e, //)': 'passed',
      'a spoofed header changes nothing': 'passed',
      "the downloads' Content-Type and Cache-Control": 'passed',
      "the database's byte ranges": 'passed',
      'cold-start latency': 'passed',
    });
    for (const r of results) expect(r.saw.length, r.name).toBeGreaterThan(10);
  });

  it('prints each check with what it saw and exits 0', async () => {
    const { code, stdout } = await checkDeploy(previewUrl);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^PASS {2}If-None-Match gives 304\n {6}ETag "[0-9a-f]+"; again with If-None-Match: 304/m);
    expect(stdout).toMatch(/^SKIP {2}a repeated GET is a CDN cache hit.*\n {6}no CDN answers here/m);
    expect(stdout).toMatch(
      /^SKIP {2}spellings that differ in a repeat.*\n {6}no CDN answers here \(needs a Netlify deploy\); each spelling got its own answer/m,
    );
    expect(stdout).toMatch(/^8 passed, 0 failed, 2 skipped$/m);
  });

  it('exits 2 with a usage line when not given an origin', async () => {
    for (const args of [[], ['not-a-url'], [`${previewUrl}/v2/`]]) {
      const { code, stderr } = await checkDeploy(...args);
      expect(code, args.join(' ')).toBe(2);
      expect(stderr).toMatch(/usage: npm run check:deploy -- https:\/\/<site>/);
    }
  });
});

/** An async request listener for node:http, which ignores the promise: a failure resets the request instead of going unhandled. */
const resetOnFailure = (listener: (req: IncomingMessage, res: ServerResponse) => Promise<void>) => (req: IncomingMessage, res: ServerResponse) => {
  listener(req, res).catch((error: unknown) => res.destroy(error instanceof Error ? error : undefined));
};

describe('check:deploy against a deploy that misbehaves', () => {
  let proxy: Server;
  let origin = '';
  beforeAll(async () => {
    // the preview, except that a request carrying the old marker gets the static layer's 404,
    // and downloads come as octet-stream
    proxy = createServer(
      resetOnFailure(async (req, res) => {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string' && name !== 'host') headers[name] = value;
        const upstream = await fetch(`${previewUrl}${req.url}`, { method: req.method ?? 'GET', headers });
        const body = Buffer.from(await upstream.arrayBuffer());
        const out: Record<string, string> = {};
        upstream.headers.forEach((value, name) => (out[name] = value));
        delete out['content-encoding'];
        delete out['content-length'];
        if (req.headers['x-static-read'] && req.url?.includes('?')) {
          res.writeHead(404, { 'content-type': 'text/html' }).end('"Not Found"');
          return;
        }
        if (req.url?.startsWith('/downloads/')) out['content-type'] = 'application/octet-stream';
        res.writeHead(upstream.status, out).end(body);
      }),
    );
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => proxy.close(() => resolve())));

  it('fails the checks that see it, says what it saw, and exits 1', async () => {
    const { code, stdout } = await checkDeploy(origin);
    expect(code).toBe(1);
    expect(stdout).toMatch(
      /^FAIL {2}a spoofed header changes nothing\n {6}\/v2\/[a-z-]+\/\?limit=5&offset=\d+: 404 text\/html 11 B spoofed, 200 application\/json; charset=utf-8 \d+ B without/m,
    );
    expect(stdout).toMatch(/^FAIL {2}the downloads' Content-Type and Cache-Control\n.*200 application\/octet-stream/m);
    expect(stdout).toMatch(/^PASS {2}the function's reads reach the files$/m);
  });
});

/**
 * An invented CDN in front of the preview: it stores 200s to GET under `key(path and query)` and
 * says `"Netlify Edge"; hit` or `; fwd=miss` in Cache-Status, as Netlify's does.
 */
async function inventedCdn(key: (pathAndQuery: string) => string): Promise<{ origin: string; close(): Promise<void> }> {
  const stored = new Map<string, { status: number; headers: Record<string, string>; body: Buffer }>();
  const server = createServer(
    resetOnFailure(async (req, res) => {
      const k = key(req.url ?? '/');
      const cached = req.method === 'GET' ? stored.get(k) : undefined;
      if (cached) {
        res.writeHead(cached.status, { ...cached.headers, 'cache-status': '"Netlify Edge"; hit' }).end(cached.body);
        return;
      }
      const upstream = await fetch(`${previewUrl}${req.url}`, { method: req.method ?? 'GET', headers: { 'accept-encoding': 'identity' } });
      const body = Buffer.from(await upstream.arrayBuffer());
      const headers: Record<string, string> = {};
      upstream.headers.forEach((value, name) => (headers[name] = value));
      delete headers['content-length'];
      if (req.method === 'GET' && upstream.status === 200) stored.set(k, { status: upstream.status, headers, body });
      res.writeHead(upstream.status, { ...headers, 'cache-status': '"Netlify Edge"; fwd=miss' }).end(body);
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('check:deploy settles how a CDN keys a repeated parameter', () => {
  it('passes behind a CDN keyed on the whole query string, and says so', async () => {
    const cdn = await inventedCdn((url) => url);
    try {
      const { run } = await startRun(cdn.origin);
      expect(run.cdn).toBe(true);
      const r = await checkRepeatKey(run);
      expect(r.verdict, r.saw).toBe('passed');
      expect(r.saw).toContain('Netlify keyed: every value of a repeat, repeats in order, the whole query string');
      expect(r.saw).toMatch(/type=grass&type=fire: "Netlify Edge"; fwd=miss → \d+ entries, each with both types/);
    } finally {
      await cdn.close();
    }
  });

  it('fails behind a CDN that keys one value of a repeated parameter, naming the spelling served a shared answer', async () => {
    // the feared key: each parameter's last value (what a map of parameters holds)
    const cdn = await inventedCdn((url) => {
      const parsed = new URL(url, 'http://x');
      return `${parsed.pathname}?${new URLSearchParams(Object.fromEntries(parsed.searchParams)).toString()}`;
    });
    try {
      const r = await checkRepeatKey((await startRun(cdn.origin)).run);
      expect(r.verdict).toBe('failed');
      expect(r.saw).toMatch(/id=4&id=2: "Netlify Edge"; hit → bulbasaur,ivysaur \(WRONG: not its own answer\)/);
      expect(r.saw).toContain('Netlify keyed: ONE VALUE of a repeat');
      expect(r.saw).toMatch(/type=fire&type=poison: "Netlify Edge"; hit → \d+ entries \(WRONG: an entry lacks a type asked\)/);
    } finally {
      await cdn.close();
    }
  });
});
