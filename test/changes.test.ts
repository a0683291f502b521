/**
 * The served change reports, from invented reports in a scratch folder: the build
 * checks them, serves the chain that leads to its commit newest first, links the latest from
 * meta, answers a report by its full commit or an unambiguous prefix, and a JSON 404 otherwise.
 * The build here is the writer's finish alone, with no kinds: what the reports need; the one
 * whole build (a bad report stops it) builds one kind from the data cut's records (generator/cut).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createHandler } from '../edge/handler.ts';
import { changesListFile, metaFile, type Meta } from '../contract/layout.ts';
import { BuildError } from '../generator/build-error.ts';
import { runBuild } from '../generator/builder/build.ts';
import { changesSection } from '../generator/artifacts/changes-page.ts';
import { folderReader } from '../generator/artifacts/artifact.ts';
import { changeChain, readChangeReports, type ChangeList } from '../generator/builder/change-reports.ts';
import { BuildWriter } from '../generator/builder/writer.ts';
import { diskReader } from '../generator/preview/disk-reader.ts';
import { cutConfig } from './support/config.ts';
import type { ChangeReport } from '../schemas/output/changes.ts';

const base = 'http://localhost:8080/v2';
// invented commits: a → b → c is the chain to c; x → y leads elsewhere
const [A, B, C, X, Y] = ['a', 'b', 'c', 'e', 'f'].map((h) => h.repeat(40)) as [string, string, string, string, string];
// two versions whose commits share their first 7 digits, for the ambiguous prefix
const D = `ccccccc${'1'.repeat(33)}`;

const report = (from: string, to: string, changed: number): ChangeReport => ({
  from,
  to,
  tables: [{ table: 'invented.csv', change: 'changed', rows_added: 1, rows_removed: 0 }],
  summary: { added: 0, removed: 0, changed },
  kinds: {
    'test-kind': {
      added: [],
      removed: [],
      changed: Array.from({ length: changed }, (_, i) => ({ id: i + 1, name: `thing-${i + 1}`, paths: ['names[0].name'] })),
    },
  },
});

/** The writer's finish into `dir`, with no kinds (a real build's kinds make downloads/ first). */
async function finishInto(dir: string, options: { upstreamCommit: string; changesDir?: string }): Promise<void> {
  mkdirSync(join(dir, 'downloads'), { recursive: true });
  const about = { upstreamCommit: options.upstreamCommit, version: '0.0.0-test', builtAt: '2026-01-01T00:00:00.000Z' };
  await BuildWriter.fresh(dir).finish({ baseUrl: base, inputHash: 'test', about, changesDir: options.changesDir, only: new Set() }, []);
}

const writeReports = (dir: string, reports: readonly ChangeReport[]) => {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const r of reports) writeFileSync(join(dir, `${r.from}..${r.to}.json`), JSON.stringify(r, null, 2));
};

let scratch: string;
let out: string;
let handle: (request: Request) => Promise<Response>;
const get = (path: string) => handle(new Request(`http://localhost:8080${path}`));

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'changes-test-'));
  const reports = join(scratch, 'changes');
  writeReports(reports, [report(A, B, 1), report(B, C, 2), report(X, Y, 3), report(Y, D, 4)]);
  out = join(scratch, 'dist');
  await finishInto(out, { upstreamCommit: C, changesDir: reports });
  handle = createHandler(diskReader(out), { baseUrl: base });
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the change reports, as built', () => {
  it('GET /v2/changes/ lists the chain to the build’s commit, newest first, with each summary', async () => {
    const response = await get('/v2/changes/');
    expect(response.status).toBe(200);
    const list = (await response.json()) as ChangeList;
    expect(list).toEqual({
      count: 2,
      results: [
        { from: B, to: C, url: `${base}/changes/${C}/`, summary: { added: 0, removed: 0, changed: 2 } },
        { from: A, to: B, url: `${base}/changes/${B}/`, summary: { added: 0, removed: 0, changed: 1 } },
      ],
    });
    expect(await (await get('/v2/changes')).json()).toEqual(list);
  });

  it('meta links the list and the latest report', () => {
    const meta = JSON.parse(readFileSync(join(out, metaFile), 'utf8')) as Meta;
    expect(meta.changes).toEqual({ list: `${base}/changes/`, latest: `${base}/changes/${C}/` });
  });

  it('GET /v2/changes/{commit} is the full report, by the whole commit or a prefix of 7 or more', async () => {
    const full = await get(`/v2/changes/${C}`);
    expect(full.status).toBe(200);
    expect(await full.json()).toEqual(report(B, C, 2));
    expect(await (await get(`/v2/changes/${B.slice(0, 7)}/`)).json()).toEqual(report(A, B, 1));
    expect(await (await get(`/v2/changes/${C.toUpperCase()}`)).json()).toEqual(report(B, C, 2));
  });

  it('answers a JSON 404 for a commit it has no listed report of, a short or ambiguous prefix, and a deeper path', async () => {
    // Y's report exists in the folder but is not on the chain to the build's commit
    for (const path of [
      `/v2/changes/${'0'.repeat(40)}`,
      `/v2/changes/${Y}`,
      `/v2/changes/${D}`,
      '/v2/changes/cccccc',
      '/v2/changes/not-a-commit',
      `/v2/changes/${C}/more`,
    ]) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-type'), path).toMatch(/^application\/json/);
      expect(await response.json(), path).toBe('Not Found');
    }
  });

  it('a build with no reports lists none, and meta has no latest', async () => {
    const empty = join(scratch, 'empty');
    await finishInto(empty, { upstreamCommit: C });
    expect(JSON.parse(readFileSync(join(empty, changesListFile), 'utf8'))).toEqual({ count: 0, results: [] });
    expect((JSON.parse(readFileSync(join(empty, metaFile), 'utf8')) as Meta).changes.latest).toBeNull();
  });
});

describe('reading the committed reports', () => {
  it('follows from back to the oldest, and stops at a loop', () => {
    expect(changeChain([report(A, B, 1), report(B, C, 2)], C).map((r) => r.to)).toEqual([C, B]);
    expect(changeChain([report(A, B, 1), report(B, A, 2)], A).map((r) => r.to)).toEqual([A, B]);
    expect(changeChain([report(A, B, 1)], C)).toEqual([]);
  });

  it('a bad report stops the build naming its file and what is wrong', () => {
    const dir = join(scratch, 'bad');
    const cases: Array<[string, string | object, RegExp]> = [
      [`${A}..${B}.json`, '{not json', /not JSON/],
      ['latest.json', report(A, B, 1), /named \{from\}\.\.\{to\}\.json/],
      [`${A}..${C}.json`, report(A, B, 1), /are not its name's/],
      // a value where only names and paths belong
      [
        `${A}..${B}.json`,
        { ...report(A, B, 1), kinds: { k: { added: [], removed: [], changed: [{ id: 1, name: 'x', paths: ['a'], value: 3 }] } } },
        /additional properties/,
      ],
      [`${A}..${B}.json`, { ...report(A, B, 1), summary: { added: -1, removed: 0, changed: 0 } }, /summary\/added/],
    ];
    for (const [name, body, message] of cases) {
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir);
      writeFileSync(join(dir, name), typeof body === 'string' ? body : JSON.stringify(body));
      let error: unknown = null;
      try {
        readChangeReports(dir);
      } catch (e) {
        error = e;
      }
      expect(error, name).toBeInstanceOf(BuildError);
      expect((error as Error).message, name).toContain(join(dir, name));
      expect((error as Error).message, name).toMatch(message);
    }
  });

  it('a bad report stops a build, which leaves the previous output as it was', async () => {
    // the global setup's cut records and media, only read: the build writes into `previous` alone
    const cut = inject('cutDataDir');
    const dir = join(scratch, 'bad-build-reports');
    writeReports(dir, [{ ...report(A, B, 1), summary: { added: 0, removed: 0, changed: -1 } }]);
    const previous = join(scratch, 'previous');
    mkdirSync(previous, { recursive: true });
    writeFileSync(join(previous, 'marker'), 'previous build');
    const about = { upstreamCommit: B, version: 'test', builtAt: '2026-01-01T00:00:00.000Z' };
    let error: unknown = null;
    try {
      await runBuild({
        recordsDir: cutConfig(cut).recordsDir,
        mediaDir: join(cut, 'media'),
        outDir: previous,
        baseUrl: base,
        inputHash: 'x',
        about,
        changesDir: dir,
        only: new Set(['creature-color']),
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(BuildError);
    expect((error as BuildError).problems.join('\n')).toContain(`${A}..${B}.json: /summary/changed`);
    expect(readdirSync(previous)).toEqual(['marker']);
  });
});

describe('the docs page’s lines on the latest version', () => {
  it('say what the latest report changed, and link it and the list', () => {
    const html = changesSection(folderReader(out));
    expect(html).toContain(`<code>${B.slice(0, 7)}</code> → <code>${C.slice(0, 7)}</code>`);
    expect(html).toContain('changed 1 table; items: 0 added, 0 removed, 2 changed.');
    expect(html).toContain('<li><code>test-kind</code>: 2 changed</li>');
    expect(html).toContain(`href="/v2/changes/${C}"`);
    expect(html).toContain('href="/v2/changes/"');
    expect(html).toContain('(2 reports)');
  });

  it('say there is none when the version has no report', async () => {
    const none = join(scratch, 'page-without-report');
    await finishInto(none, { upstreamCommit: A });
    expect(changesSection(folderReader(none))).toContain('No change report was made for this data version yet.');
  });
});
