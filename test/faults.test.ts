/**
 * Faults show and are never cached: a broken build (an index the routing table declares
 * truncated, another deleted, an item's file cut short, a list as of a game's column patch
 * deleted, the species' file an entry's dex texts are spliced from deleted) is a 500 `{"error":"internal","detail":…}` with `Cache-Control: no-store`, and one
 * log line naming the request's path and the error, then the error's stack with its causes,
 * from the preview and from the Netlify edge function's code (in Node, and under Deno through
 * the harness), while a missing item stays a cacheable 404 and an intact one a 200. The body
 * names no file and holds no stack. And the change report refuses an input it cannot read
 * rather than report no change.
 * Over a copy of the data cut's build, broken on purpose; the cut itself is only read.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { parseAllRedirects } from '@netlify/redirect-parser';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { asOfColumnFile, asOfDocumentFile, asOfListsFile, asOfViewFile, type ListViewsFile, type ViewFile } from '../contract/as-of/facts.ts';
import { looksWhole } from '../edge/build-files.ts';
import { decodeFilterPack } from '../contract/filter-pack.ts';
import { filterIndexFile, itemFile, listFile, routesFile, type Routes } from '../contract/layout.ts';
import { repoRoot } from '../generator/config.ts';
import { lockForFolder } from '../generator/fetch/lock.ts';
import { startPreview, type Preview } from '../generator/preview/index.ts';
import { diffBuilds, finishedSide } from '../generator/update/diff.ts';
import { tableChanges } from '../generator/update/table-changes.ts';
import { createEdgeAdapter, FILE_READ_PREFIX } from '../netlify/edge-adapter.ts';
import { readNetlifyConfig, netlifyTomlPath } from './support/files.ts';
import { tinyTables } from './support/upstream-archive.ts';

const cutDist = inject('cutDistDir');
const baseUrl = inject('baseUrl');
const scratch = mkdtempSync(join(tmpdir(), 'faults-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const routes = JSON.parse(readFileSync(join(cutDist, routesFile), 'utf8')) as Routes;
/** A kind with a value filter, whose filter index is truncated; another kind, whose list is deleted. */
const filtered = routes.kinds.find((kind) => (routes.queries[kind]?.filters.length ?? 0) > 0)!;
const filterName = routes.queries[filtered]!.filters[0]!.name;
const unlisted = routes.kinds.find((kind) => kind !== filtered)!;

/** The cut's build, copied (the copy's files are its own, not links), with six faults. */
function brokenCopy(): string {
  const dist = join(scratch, 'broken');
  cpSync(cutDist, dist, { recursive: true });
  const cut = (path: string) => {
    const bytes = readFileSync(join(dist, path));
    writeFileSync(join(dist, path), bytes.subarray(0, bytes.length >> 1));
  };
  cut(filterIndexFile(filtered));
  cut(itemFile('creature', 1));
  rmSync(join(dist, listFile(unlisted)));
  rmSync(join(dist, firstStatsPatch(dist)));
  // a move's as-of document by the name its answer reads it by, the move itself intact
  rmSync(join(dist, asOfDocumentFile('move', 'tackle')));
  // the species' file an entry's dex texts are read from, the entry's own file intact
  rmSync(join(dist, itemFile('creature-species', 1)));
  return dist;
}

/** The patch of today's stats column that the creature list as of the first version group (red-blue) names. */
function firstStatsPatch(dist: string): string {
  const lists = JSON.parse(readFileSync(join(dist, asOfListsFile('creature')), 'utf8')) as ListViewsFile;
  const view = JSON.parse(readFileSync(join(dist, asOfViewFile('creature', lists.groups[0]![2])), 'utf8')) as ViewFile;
  const stats = view.fields.find(([field]) => field === 'stats');
  if (!stats) throw new Error('the creature list as of red-blue names no patch of the stats');
  return asOfColumnFile('creature', stats[1]);
}

/** What each request must get from the broken build, whoever serves it. */
const FAULTS = [
  `/v2/${filtered}/?${filterName}=x`,
  '/v2/creature/1',
  `/v2/${unlisted}/?limit=3`,
  '/v2/as-of/red-blue/creature/?fields=stats',
  '/v2/as-of/red-blue/move/tackle/',
  '/v2/entry/1/',
];
const MISSING = '/v2/creature/999999';
const INTACT = '/v2/creature/2';
const INTERNAL = '{"error":"internal","detail":"The server failed to answer this request. The fault is ours, not the request\'s, and it was logged."}';
/** What a stack's frames look like in V8's text, Node's and Deno's alike. */
const FRAME = /\n {4}at /;

/**
 * What the truncated filter index's decoder says of it, read the way the request logic reads
 * it: the cause the fault's log must show below the BrokenBuild that names the file.
 */
function truncatedIndexReason(): string {
  try {
    decodeFilterPack(new Uint8Array(readFileSync(join(dist, filterIndexFile(filtered)))));
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${filterIndexFile(filtered)} decodes though it was cut in half`);
}

let dist: string;
beforeAll(() => {
  dist = brokenCopy();
});

/** console.error's lines while `run` runs. */
async function logged(run: () => Promise<void>): Promise<string[]> {
  const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
  try {
    await run();
    return spy.mock.calls.map((call) => call.map(String).join(' '));
  } finally {
    spy.mockRestore();
  }
}

describe('a served JSON file cut short', () => {
  const bytes = (text: string) => new TextEncoder().encode(text);
  it('is told by its two ends, which a whole document opens and closes', () => {
    for (const whole of ['{"a":[1,{"b":2}]}', '[1,2]\n', '"Not Found"', '  {}\r\n']) expect(looksWhole(bytes(whole)), whole).toBe(true);
    for (const cut of ['{"a":[1,{"b":2}]', '{"a":[1,{"b":2', '[1,2', '"Not Fo', '"', '', '   ', '{']) expect(looksWhole(bytes(cut)), cut).toBe(false);
  });
});

describe('the preview, over a broken build', () => {
  let preview: Preview;
  beforeAll(async () => {
    preview = await startPreview({ root: dist, baseUrl, port: 0 });
  });
  afterAll(() => preview.close());
  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${preview.url}${path}`, { headers });

  it('answers each fault with a 500 {"error":"internal","detail":…}, stored nowhere, and one log entry: a line naming the path and the error, then its stack', async () => {
    for (const path of FAULTS) {
      let response!: Response;
      const entries = await logged(async () => {
        response = await get(path);
      });
      expect([path, response.status, response.headers.get('cache-control'), await response.text()]).toEqual([path, 500, 'no-store', INTERNAL]);
      expect(entries, path).toHaveLength(1);
      const [line, ...stack] = entries[0]!.split('\n');
      expect(line).toContain(`GET ${new URL(path, 'http://x').pathname}: 500: `);
      expect(stack.join('\n'), path).toMatch(FRAME);
    }
    const entries = await logged(async () => {
      await get(FAULTS[1]!);
    });
    expect(entries[0]!.split('\n')[0]).toContain(itemFile('creature', 1));
  });

  it("logs a fault's cause below it: the decoder's own error under the file it could not read, with both stacks", async () => {
    const entries = await logged(async () => {
      await get(FAULTS[0]!);
    });
    const [line, ...rest] = entries[0]!.split('\n');
    expect(line).toContain(filterIndexFile(filtered));
    const [own, cause] = rest.join('\n').split('\ncaused by: ');
    expect(own).toMatch(new RegExp(`^BrokenBuild: ${filterIndexFile(filtered).replace(/[.]/g, '\\.')}`));
    expect(own).toMatch(FRAME);
    expect(cause).toContain(`Error: ${truncatedIndexReason()}`);
    expect(cause).toMatch(FRAME);
  });

  it('never turns a 500 into a 304, nor sends one in another coding', async () => {
    const again = await logged(async () => {
      const first = await get(FAULTS[1]!);
      const revalidated = await get(FAULTS[1]!, { 'If-None-Match': first.headers.get('etag') ?? '*', 'Accept-Encoding': 'br' });
      expect([revalidated.status, revalidated.headers.get('cache-control'), await revalidated.text()]).toEqual([500, 'no-store', INTERNAL]);
      const head = await fetch(`${preview.url}${FAULTS[1]}`, { method: 'HEAD' });
      expect([head.status, await head.text()]).toEqual([500, '']);
    });
    expect(again).toHaveLength(3);
  });

  it('still answers a missing item with the cacheable 404, and an intact item with its file', async () => {
    const lines = await logged(async () => {
      const missing = await get(MISSING);
      expect([missing.status, missing.headers.get('cache-control'), await missing.json()]).toEqual([404, 'public, max-age=300', 'Not Found']);
      const intact = await get(INTACT, { 'Accept-Encoding': 'identity' });
      expect(intact.status).toBe(200);
      expect(Buffer.from(await intact.arrayBuffer()).equals(readFileSync(join(cutDist, itemFile('creature', 2))))).toBe(true);
    });
    expect(lines).toEqual([]);
  });
});

/** The deploy's files as the edge function fetches them: under its prefix, or a 404. */
const staticFiles =
  (root: string) =>
  async (request: Request): Promise<Response> => {
    const { pathname } = new URL(request.url);
    const path = join(root, decodeURIComponent(pathname.slice(FILE_READ_PREFIX.length)));
    let bytes: Uint8Array<ArrayBuffer>;
    try {
      bytes = new Uint8Array(readFileSync(path));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Response('', { status: 404 });
      throw error;
    }
    return new Response(bytes);
  };

describe("the edge function's code, over the same broken build", () => {
  const origin = 'https://creatures.example';

  it('in Node: a 500 stored neither by the browser nor the CDN, with no Netlify-Vary; a 404 and a 200 as ever', async () => {
    const answer = createEdgeAdapter(staticFiles(dist));
    const lines = await logged(async () => {
      for (const path of FAULTS) {
        const response = await answer(new Request(`${origin}${path}`));
        expect([path, response.status, await response.text()]).toEqual([path, 500, INTERNAL]);
        expect(response.headers.get('cache-control')).toBe('no-store');
        expect(response.headers.get('netlify-cdn-cache-control')).toBe('no-store');
        expect(response.headers.get('netlify-vary')).toBeNull();
      }
    });
    expect(lines.map((line) => line.split(': 500: ')[0])).toEqual(FAULTS.map((path) => `GET ${new URL(path, origin).pathname}`));
    for (const line of lines) expect(line).toMatch(FRAME);
    expect(lines[0]).toContain(`caused by: Error: ${truncatedIndexReason()}`);
    const missing = await answer(new Request(`${origin}${MISSING}`));
    expect([missing.status, missing.headers.get('cache-control'), missing.headers.get('netlify-cdn-cache-control')]).toEqual([
      404,
      'public, max-age=300',
      'no-store',
    ]);
    const intact = await answer(new Request(`${origin}${INTACT}`));
    expect([intact.status, intact.headers.get('netlify-cdn-cache-control')]).toEqual([200, 'public, s-maxage=31536000']);
  });

  it("under Deno, through Netlify's request chain as the harness plays it: the same answers, the log line on stderr", async () => {
    const parsed = await parseAllRedirects({ redirectsFiles: [], netlifyConfigPath: netlifyTomlPath, configRedirects: [], minimal: false });
    const rules = (parsed.redirects as { from: string; to: string; status?: number; force?: boolean; query?: Record<string, string> }[])
      .filter((r) => !r.query || Object.keys(r.query).length === 0)
      .map(({ from, to, status, force }) => ({ from, to, status: status ?? 301, force: force ?? false }));
    const requests = [...FAULTS, MISSING, INTACT].map((path) => ({ method: 'GET', path, headers: {} }));
    const input = join(scratch, 'edge-input.json');
    writeFileSync(input, JSON.stringify({ dist, origin, declarations: readNetlifyConfig().edge_functions ?? [], rules, requests }));
    const { stdout, stderr } = await promisify(execFile)(
      join(repoRoot, 'node_modules/.bin/deno'),
      ['run', '--no-lock', '--allow-read', join(repoRoot, 'test/support/edge-harness.ts'), input],
      {
        cwd: repoRoot,
        env: { ...process.env, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' },
        maxBuffer: 1 << 28,
      },
    );
    const { results } = JSON.parse(stdout) as { results: { route: string | null; status: number; headers: Record<string, string>; body: string }[] };
    const got = results.map((r) => [r.route, r.status, r.headers['cache-control'], r.headers['netlify-cdn-cache-control']]);
    expect(got).toEqual([
      ...FAULTS.map(() => ['api', 500, 'no-store', 'no-store']),
      ['api', 404, 'public, max-age=300', 'no-store'],
      ['api', 200, 'public, max-age=86400, stale-while-revalidate=604800', 'public, s-maxage=31536000'],
    ]);
    expect(results.slice(0, FAULTS.length).map((r) => Buffer.from(r.body, 'base64').toString())).toEqual(FAULTS.map(() => INTERNAL));
    expect(
      stderr
        .split('\n')
        .filter((line) => line.includes(': 500: '))
        .map((line) => line.split(': 500: ')[0]),
    ).toEqual(FAULTS.map((path) => `GET ${new URL(path, origin).pathname}`));
    // Deno's stacks read as V8's: the frames, and the cause of the index that could not be decoded
    expect(stderr).toMatch(FRAME);
    expect(stderr).toContain(`caused by: Error: ${truncatedIndexReason()}`);
  });
});

describe('the change report refuses an input it cannot read', () => {
  /** A tiny invented build: a root document, and a bulk file per kind of one gzip member per item (no build index: read whole). */
  const tinyBuild = (name: string, kinds: Record<string, object[]>) => {
    const root = join(scratch, name);
    mkdirSync(join(root, 'downloads'), { recursive: true });
    mkdirSync(join(root, 'v2'), { recursive: true });
    writeFileSync(join(root, 'v2/index.json'), JSON.stringify(Object.fromEntries(Object.keys(kinds).map((k) => [k, `x/${k}/`]))));
    for (const [kind, items] of Object.entries(kinds)) {
      writeFileSync(join(root, `downloads/${kind}.ndjson.gz`), Buffer.concat(items.map((item) => gzipSync(`${JSON.stringify(item)}\n`))));
    }
    return root;
  };

  it('a truncated bulk file or root document stops it, naming the file; a kind new in this version is all added', () => {
    const before = tinyBuild('report-before', {
      thing: [
        { id: 1, name: 'one' },
        { id: 2, name: 'two' },
      ],
    });
    const after = tinyBuild('report-after', {
      thing: [
        { id: 1, name: 'one' },
        { id: 2, name: 'deux' },
      ],
      fresh: [{ id: 7, name: 'seven' }],
    });
    expect(diffBuilds(finishedSide(before), finishedSide(after)).summary).toEqual({ added: 1, removed: 0, changed: 1 });
    const bulk = join(after, 'downloads/thing.ndjson.gz');
    const bytes = readFileSync(bulk);
    writeFileSync(bulk, bytes.subarray(0, bytes.length - 9));
    expect(() => diffBuilds(finishedSide(before), finishedSide(after))).toThrow(`the change report cannot read ${bulk}`);
    writeFileSync(join(before, 'v2/index.json'), '{"thing":');
    expect(() => finishedSide(before)).toThrow(`the change report cannot read ${join(before, 'v2/index.json')}`);
  });

  it('a table the lock lists that is missing from its folder stops it, naming the table', () => {
    const oldDir = tinyTables(join(scratch, 'report-tables-old'));
    const newDir = tinyTables(join(scratch, 'report-tables-new'));
    writeFileSync(join(newDir, 'colors.csv'), 'id,identifier\n2,amber\n');
    const oldLock = lockForFolder('a'.repeat(40), oldDir);
    const newLock = lockForFolder('b'.repeat(40), newDir);
    expect(tableChanges(oldLock, newLock, oldDir, newDir).map((t) => t.table)).toEqual(['colors.csv']);
    rmSync(join(oldDir, 'colors.csv'));
    expect(() => tableChanges(oldLock, newLock, oldDir, newDir)).toThrow(join(oldDir, 'colors.csv'));
  });
});
