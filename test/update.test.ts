/**
 * `npm run data:update`'s pieces against a local server answering in GitHub's shapes (the
 * listing, the head commit, the archive), the change report's diff on tiny invented builds, and
 * updates that must stop and leave the lock, the records and dist/ as they were: a new table, a
 * new column, a value the declarations forbid, an archive that does not match the listing. The
 * updates start from the data cut (generator/cut), a project served from its tables.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, inject, it } from 'vitest';
import { lockPath as repoLock } from '../generator/config.ts';
import { diffBuilds, fieldPaths, finishedSide, unfinishedSide } from '../generator/update/diff.ts';
import { readBuildIndex } from '../generator/builder/build-index.ts';
import { rowsMissing, tableChanges } from '../generator/update/table-changes.ts';
import { FetchError } from '../generator/fetch/index.ts';
import { latestCommit, listingFromGitHub } from '../generator/update/listing.ts';
import { formatLock, gitBlobSha1, lockForFolder, readLock } from '../generator/fetch/lock.ts';
import { mediaNotes, runUpdate } from '../generator/update/index.ts';
import { currentTables } from '../generator/update/current-tables.ts';
import { DataError } from '../generator/import/tables.ts';
import { createAjv } from '../schemas/ajv.ts';
import { ChangeReport } from '../schemas/output/changes.ts';
import { tinyTables, upstreamArchive } from './support/upstream-archive.ts';
import { B, edit, json, project, treeAnswer } from './support/update-project.ts';
import { scratchAndServer } from './support/test-server.ts';

const { scratch, server } = scratchAndServer('creature-update-test-');
const quiet = { info: () => {}, warn: () => {} };
const A = 'a'.repeat(40);
/** the pinned tables the updates start from (only read) */
const cut = inject('cutDataDir');

describe("the upstream's listing and head, in GitHub's shapes", () => {
  it('takes the blobs directly under the tables folder, with sizes, and the submodule commits', async () => {
    server.route(
      `/trees/${B}?recursive=1`,
      treeAnswer([
        { path: 'data/v2/csv', type: 'tree', sha: '1'.repeat(40) },
        { path: 'data/v2/csv/colors.csv', type: 'blob', sha: '2'.repeat(40), size: 30 },
        { path: 'data/v2/csv/old/elsewhere.csv', type: 'blob', sha: '3'.repeat(40), size: 5 },
        { path: 'data/v2/csv/README.md', type: 'blob', sha: '4'.repeat(40), size: 5 },
        { path: 'data/v2/sprites', type: 'commit', sha: '5'.repeat(40) },
        { path: 'data/v2/cries', type: 'commit', sha: '6'.repeat(40) },
      ]),
    );
    const listing = await listingFromGitHub(server.url('/trees/{commit}?recursive=1'), B, 'data/v2/csv');
    expect([...listing.tables]).toEqual([['colors.csv', { sha1: '2'.repeat(40), size: 30 }]]);
    expect(listing.submodules).toEqual({ 'data/v2/sprites': '5'.repeat(40), 'data/v2/cries': '6'.repeat(40) });
  });

  it('refuses a truncated listing, one without tables, and an error answer, naming the URL', async () => {
    server.route(`/trees/${A}?recursive=1`, treeAnswer([{ path: 'data/v2/csv/x.csv', type: 'blob', sha: '2'.repeat(40) }], true));
    await expect(listingFromGitHub(server.url('/trees/{commit}?recursive=1'), A, 'data/v2/csv')).rejects.toThrow(/truncated/);
    server.route('/trees/empty', treeAnswer([]));
    await expect(listingFromGitHub(server.url('/trees/empty'), A, 'data/v2/csv')).rejects.toThrow(/lists no tables under data\/v2\/csv\//);
    await expect(listingFromGitHub(server.url('/trees/missing/{commit}'), A, 'data/v2/csv')).rejects.toThrow(
      new RegExp(`trees/missing/${A} answered HTTP 404`),
    );
  });

  it("reads the head commit from the commit answer's sha", async () => {
    server.route('/commits/master', json({ sha: B, commit: { message: 'x' } }));
    expect(await latestCommit(server.url('/commits/master'))).toBe(B);
    server.route('/commits/odd', json({ message: 'Not Found' }));
    await expect(latestCommit(server.url('/commits/odd'))).rejects.toThrow(FetchError);
  });
});

describe('the lock', () => {
  it('keeps one table a line, and the submodule commits once a listing named them', () => {
    const dir = tinyTables(join(scratch, 'lock-tables'));
    const lock = { ...lockForFolder(A, dir), submodules: { 'data/v2/sprites': B } };
    const text = formatLock(lock);
    writeFileSync(join(scratch, 'lock.json'), text);
    expect(readLock(join(scratch, 'lock.json'))).toEqual(lock);
    expect(text.split('\n').filter((l) => l.includes('.csv": {"sha1": '))).toHaveLength(3);
    expect(text).toContain(`"submodules": {\n    "data/v2/sprites": "${B}"\n  },`);
  });
});

describe('the media manifests follow the submodule commits', () => {
  const s = { 'data/v2/sprites': A, 'data/v2/cries': B };
  it('are kept when the submodules did not move, and named with how to refresh them when they did', () => {
    expect(mediaNotes(s, { ...s })).toEqual(['media: the sprite and cry submodules did not move; data/media/ is kept']);
    const moved = mediaNotes(s, { ...s, 'data/v2/cries': A });
    expect(moved).toHaveLength(1);
    expect(moved[0]).toMatch(/data\/v2\/cries moved from bbbbbbbbbbbb to aaaaaaaaaaaa: data\/media\/ may be stale; refresh it/);
    expect(mediaNotes(undefined, s)[0]).toMatch(/now records the submodule commits/);
    expect(mediaNotes(s, null)[0]).toMatch(/does not name the sprite and cry submodule commits/);
  });
});

describe('the change report', () => {
  it("of every data version is committed beside the lock, valid, and chained from the lock's commit back", () => {
    const dir = join(repoLock, '../changes');
    const reports = existsSync(dir) ? readdirSync(dir).map((f) => ({ file: f, report: JSON.parse(readFileSync(join(dir, f), 'utf8')) as ChangeReport })) : [];
    const validate = createAjv().compile(ChangeReport);
    for (const { file, report } of reports) {
      expect(validate(report), `${file}: ${JSON.stringify(validate.errors)}`).toBe(true);
      expect(file).toBe(`${report.from}..${report.to}.json`);
    }
    const pinned = readLock(repoLock).commit;
    if (reports.length) expect(reports.some((r) => r.report.to === pinned)).toBe(true);
  });

  it('names the deepest paths that differ; an array of another length or order, and a link, are one path each', () => {
    const link = (n: number) => ({ name: `g${n}`, url: `x/${n}/` });
    const a = { id: 1, forms: [{ trigger_conditions: [{ trigger: 'x' }] }], names: ['a', 'b'], groups: [link(5), link(4)], to: link(1), gone: 1 };
    const b = { id: 1, forms: [{ trigger_conditions: [{ trigger: 'x', base_form: 'y' }] }], names: ['a'], groups: [link(4), link(5)], to: link(2), came: 2 };
    expect(fieldPaths(a, b)).toEqual(['forms[0].trigger_conditions[0].base_form', 'names', 'groups', 'to', 'gone', 'came']);
    expect(fieldPaths([1, 2], [1, 3])).toEqual(['[1]']);
    expect(fieldPaths([1], [1, 2])).toEqual(['']);
    expect(fieldPaths(a, a)).toEqual([]);
  });

  /** A tiny invented build: a root, a bulk file per kind and subresource files. */
  const build = (name: string, kinds: Record<string, object[]>, subs: Record<string, string> = {}, indexed = true) => {
    const dist = join(scratch, name);
    mkdirSync(join(dist, 'downloads'), { recursive: true });
    mkdirSync(join(dist, 'v2'), { recursive: true });
    writeFileSync(join(dist, 'v2/index.json'), JSON.stringify({ ...Object.fromEntries(Object.keys(kinds).map((k) => [k, `x/${k}/`])), meta: 'x/meta/' }));
    // one gzip member an item, placed in the build's index as a build places its chunks' (none: the diff reads the whole files)
    const index: { kind: string; bulk: { key: string; offset: number; length: number }[] }[] = [];
    for (const [kind, items] of Object.entries(kinds)) {
      const members = items.map((i) => gzipSync(`${JSON.stringify(i)}\n`));
      let offset = 0;
      index.push({
        kind,
        bulk: members.map((m, i) => ({ key: String((items[i] as { id: number }).id), offset: (offset += m.length) - m.length, length: m.length })),
      });
      writeFileSync(join(dist, `downloads/${kind}.ndjson.gz`), Buffer.concat(members));
      mkdirSync(join(dist, 'v2', kind), { recursive: true });
      for (const item of items) writeFileSync(join(dist, 'v2', kind, `${(item as { id: number }).id}.json`), JSON.stringify(item));
    }
    if (indexed) writeFileSync(join(dist, 'build-index.json'), JSON.stringify({ kinds: index }));
    for (const [path, text] of Object.entries(subs)) {
      mkdirSync(join(dist, 'v2/_sub', path, '..'), { recursive: true });
      writeFileSync(join(dist, 'v2/_sub', path), text);
    }
    return dist;
  };

  it('lists items added, removed and changed per kind, subresource paths prefixed, in the kind order of the new build', () => {
    const before = build(
      'before',
      {
        thing: [
          { id: 1, name: 'one', v: 1 },
          { id: 2, name: 'two' },
        ],
        other: [{ id: 5, name: 'same' }],
      },
      { 'thing/encounters/1.json': '[{"a":1}]' },
    );
    const after = build(
      'after',
      {
        other: [{ id: 5, name: 'same' }],
        thing: [
          { id: 1, name: 'one', v: 2 },
          { id: 3, name: 'three' },
        ],
      },
      { 'thing/encounters/1.json': '[{"a":2}]' },
    );
    const expected = {
      summary: { added: 1, removed: 1, changed: 1 },
      kinds: {
        thing: { added: [{ id: 3, name: 'three' }], removed: [{ id: 2, name: 'two' }], changed: [{ id: 1, name: 'one', paths: ['v', 'encounters/[0].a'] }] },
      },
    };
    expect(diffBuilds(finishedSide(before), finishedSide(after))).toEqual(expected);
    expect(diffBuilds(finishedSide(before), finishedSide(before))).toEqual({ summary: { added: 0, removed: 0, changed: 0 }, kinds: {} });
    const unindexed = build(
      'after-unindexed',
      {
        other: [{ id: 5, name: 'same' }],
        thing: [
          { id: 1, name: 'one', v: 2 },
          { id: 3, name: 'three' },
        ],
      },
      { 'thing/encounters/1.json': '[{"a":2}]' },
      false,
    );
    expect(diffBuilds(finishedSide(before), finishedSide(unindexed))).toEqual(expected);
  });

  it("names an item whose subresource alone changed, its document's chunk equal (new encounters only)", () => {
    const items = {
      thing: [
        { id: 1, name: 'one' },
        { id: 2, name: 'two' },
      ],
    };
    const before = build('before-sub', items, { 'thing/encounters/2.json': '[]' });
    const after = build('after-sub', items, { 'thing/encounters/2.json': '[{"a":1}]', 'thing/encounters/1.json': '[]' });
    expect(diffBuilds(finishedSide(before), finishedSide(after))).toEqual({
      summary: { added: 0, removed: 0, changed: 2 },
      kinds: {
        thing: {
          added: [],
          removed: [],
          changed: [
            { id: 1, name: 'one', paths: ['encounters/'] },
            { id: 2, name: 'two', paths: ['encounters/'] },
          ],
        },
      },
    });
  });

  it('compares with a build not finished yet: its kinds and bulk members from the kinds written, not its root document and index', () => {
    const before = build('before-early', { thing: [{ id: 1, name: 'one', v: 1 }], other: [{ id: 5, name: 'same' }] });
    const after = build('after-early', { thing: [{ id: 1, name: 'one', v: 2 }], other: [{ id: 5, name: 'five' }] });
    const written = readBuildIndex(after)!.kinds.map((k) => ({ ...k, count: 1, subresources: [], idOnly: false }));
    // no finish yet: no root document, no build index
    rmSync(join(after, 'v2/index.json'));
    rmSync(join(after, 'build-index.json'));
    expect(Object.keys(diffBuilds(finishedSide(before), finishedSide(after)).kinds)).toEqual(['thing', 'other']);
    // the kinds in the order the finish will give the root document (sorted), each compared by its members
    expect(diffBuilds(finishedSide(before), unfinishedSide(after, written))).toEqual({
      summary: { added: 0, removed: 0, changed: 2 },
      kinds: {
        other: { added: [], removed: [], changed: [{ id: 5, name: 'five', paths: ['name'] }] },
        thing: { added: [], removed: [], changed: [{ id: 1, name: 'one', paths: ['v'] }] },
      },
    });
  });

  it('counts the rows a table gained and lost, as a multiset of lines', () => {
    expect(rowsMissing(['1,a', '2,b', '2,b'], ['2,b', '3,c'])).toBe(2);
    const oldDir = tinyTables(join(scratch, 'tables-old'));
    const newDir = tinyTables(join(scratch, 'tables-new'));
    writeFileSync(join(newDir, 'colors.csv'), 'id,identifier\n2,amber\n1,teal\n3,plum\n');
    writeFileSync(join(newDir, 'more.csv'), 'id\n1\n');
    expect(tableChanges(lockForFolder(A, oldDir), lockForFolder(B, newDir), oldDir, newDir)).toEqual([
      { table: 'colors.csv', change: 'changed', rows_added: 1, rows_removed: 0 },
      { table: 'more.csv', change: 'added', rows_added: 1, rows_removed: 0 },
    ]);
  });
});

describe('where the update reads the tables of the pinned commit', () => {
  const folder = (name: string, change: (csv: string) => void = () => {}) => {
    change(tinyTables(join(scratch, `current-${name}/csv`)));
    return join(scratch, `current-${name}`);
  };
  const recording = () => {
    const warnings: string[] = [];
    return { warnings, log: { info: () => {}, warn: (m: string) => void warnings.push(m) } };
  };
  const cacheDir = join(scratch, 'current-cache');

  it('in the first folder with every table of the lock (DATA_DIR, the one the build recorded, the team copy), passing over the others with a warning naming why', async () => {
    const lacking = folder('lacking', (csv) => rmSync(join(csv, 'shapes.csv')));
    const [recorded, team] = [folder('recorded'), folder('team')];
    const lock = lockForFolder(A, join(recorded, 'csv'));
    const { warnings, log } = recording();
    expect(await currentTables(lock, { given: lacking, recorded, team, cacheDir }, log, {})).toEqual({ dataDir: recorded, dataSource: 'given' });
    expect(warnings).toEqual([
      `--data / DATA_DIR, ${lacking}: 1 table(s) of the lock missing (shapes.csv); not the tables the lock pins at aaaaaaaaaaaa, so not read`,
    ]);
    expect(await currentTables(lock, { given: recorded, recorded, team: null, cacheDir }, quiet, {})).toEqual({ dataDir: recorded, dataSource: 'given' });
    // none of them looked in the cache, let alone downloaded into it
    expect(existsSync(cacheDir)).toBe(false);
  });

  it("passes over a folder that says it is of another commit; takes one whose tables differ in bytes as given, naming them (a team copy's rebuilt tables, edits)", async () => {
    const other = folder('other-commit');
    writeFileSync(join(other, 'PROVENANCE.md'), `the upstream's tables at commit ${B}\n`);
    const team = folder('team-rebuilt', (csv) => writeFileSync(join(csv, 'colors.csv'), 'id,identifier\n2,amber\n1,teal\n'));
    const lock = lockForFolder(A, join(folder('pinned'), 'csv'));
    const { warnings, log } = recording();
    const gone = join(scratch, 'current-gone');
    expect(await currentTables(lock, { given: other, recorded: gone, team, cacheDir }, log, {})).toEqual({ dataDir: team, dataSource: 'shared' });
    expect(warnings).toEqual([
      `--data / DATA_DIR, ${other}: it holds the tables of commit bbbbbbbbbbbb, as its PROVENANCE.md or download stamp says; not the tables the lock pins at aaaaaaaaaaaa, so not read`,
      `the data folder the build in dist/ was made from, ${gone}: no such folder; not the tables the lock pins at aaaaaaaaaaaa, so not read`,
      `${team} (the team copy at the pinned commit): 1 table(s) differ in bytes from the upstream's at aaaaaaaaaaaa and are taken as given, as the served build read them: colors.csv`,
    ]);
  });
});

/** The cut's tables with one change, and a TREE.txt of them (every table of the folder) at commit B. */
function changedCopy(name: string, change: (csv: string) => void): { tree: string; tables: string } {
  const dir = join(scratch, name);
  cpSync(join(cut, 'csv'), join(dir, 'csv'), { recursive: true });
  change(join(dir, 'csv'));
  const names = readdirSync(join(dir, 'csv'))
    .filter((n) => n.endsWith('.csv'))
    .sort();
  const lines = names.map((n) => `${gitBlobSha1(readFileSync(join(dir, 'csv', n)))} ${n}`);
  writeFileSync(join(dir, 'TREE.txt'), `# The upstream's own hash of each table at commit ${B}:\n${lines.join('\n')}\n`);
  return { tree: join(dir, 'TREE.txt'), tables: dir };
}

describe('an update that must stop, leaving the lock, the records and dist/ as they were', () => {
  it('stops at a table nobody declared or set aside, before reading any', async () => {
    const { paths, state } = project(scratch, 'new-table', cut);
    const copy = changedCopy('copy-new-table', (csv) => writeFileSync(join(csv, 'brand_new_things.csv'), 'id\n1\n'));
    const before = state();
    const error = await runUpdate({ tree: copy.tree, tables: copy.tables }, paths, quiet).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataError);
    expect((error as Error).message).toMatch(/table brand_new_things\.csv: is new at commit bbbbbbbbbbbb: declare it in schemas\/tables\.ts/);
    expect(state()).toEqual(before);
  });

  it('stops at a column added to a table the import reads, naming table and column', async () => {
    const { paths, state } = project(scratch, 'new-column', cut);
    const copy = changedCopy('copy-new-column', (csv) =>
      edit(join(csv, 'encounter_slots.csv'), (lines) => lines.map((l, i) => (l === '' ? l : i === 0 ? `${l},weather` : `${l},`))),
    );
    const before = state();
    const error = await runUpdate({ tree: copy.tree, tables: copy.tables }, paths, quiet).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataError);
    expect((error as Error).message).toMatch(/table encounter_slots\.csv, column weather: the column is not declared in schemas\/tables\.ts/);
    expect(state()).toEqual(before);
    expect(existsSync(paths.cacheDir)).toBe(false);
  }, 120_000);

  it('stops at a value the declarations forbid, naming table, row and column', async () => {
    const { paths, state } = project(scratch, 'bad-value', cut);
    const copy = changedCopy('copy-bad-value', (csv) =>
      edit(join(csv, 'encounter_slots.csv'), (lines) => lines.map((l, i) => (i === 2 ? l.replace(/,\d+$/, ',often') : l))),
    );
    const before = state();
    const error = await runUpdate({ tree: copy.tree, tables: copy.tables }, paths, quiet).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataError);
    expect((error as Error).message).toMatch(/table encounter_slots\.csv, row 2 \(line 3\), column rarity: /);
    expect(state()).toEqual(before);
  }, 120_000);

  it('stops at an archive whose tables do not hash as the listing says', async () => {
    const { paths, state } = project(scratch, 'bad-archive', cut);
    const tiny = join(scratch, 'archive-tables');
    mkdirSync(tiny, { recursive: true });
    writeFileSync(join(tiny, 'egg_groups.csv'), 'id,identifier\n1,invented\n');
    server.route(`/trees/${'c'.repeat(40)}`, treeAnswer([{ path: 'data/v2/csv/egg_groups.csv', type: 'blob', sha: '7'.repeat(40), size: 25 }]));
    server.route('/archive.tar.gz', { body: upstreamArchive(tiny, 'pokeapi-c') });
    const before = state();
    const env = { DATA_TREE_URL: server.url('/trees/{commit}'), DATA_URL: server.url('/archive.tar.gz') };
    await expect(runUpdate({ commit: 'c'.repeat(40) }, paths, quiet, env)).rejects.toThrow(/egg_groups\.csv: expected git blob 7{40} \(25 bytes\), found/);
    expect(state()).toEqual(before);
  });
});
