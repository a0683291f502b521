/**
 * `npm run data:update` however the data set was given, with the real commands in a clone with
 * no ../shared beside it (test/support/clone.ts) and no download cache, whose dist/ was built
 * from a copy of the data cut given with DATA_DIR; a local server answers the upstream's listing
 * and archives (DATA_TREE_URL, DATA_URL). The clone moves to the cut with one invented edit, and
 * each successful update must write the change report an update writes with the pinned tables at
 * hand (runUpdate on the cut, as test/update-swap.test.ts runs it):
 *   - DATA_DIR unset since the build: the pinned tables are read where the build's stamp says
 *     they were, nothing of the pinned commit is downloaded;
 *   - DATA_DIR still set: they are read there, and the update says to unset it;
 *   - that folder gone and no DATA_DIR: they are downloaded into the cache, as `npm start` does;
 *     with the archive out of reach as well, one error names the file and what to run, and the
 *     lock, the records, dist/ and the cache are as they were.
 */
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { lockPath as repoLock } from '../generator/config.ts';
import { readBuildStamp } from '../generator/builder/stamp.ts';
import { linkTree } from '../generator/files/folders.ts';
import { formatLock, gitBlobSha1, lockForFolder, readLock } from '../generator/fetch/lock.ts';
import { reportFile, runUpdate } from '../generator/update/index.ts';
import type { ChangeReport } from '../schemas/output/changes.ts';
import { copyOfClone } from './support/clone.ts';
import { fileHashes, treeHash } from './support/files.ts';
import { run, userEnv, type BuildResult } from './support/fresh-clone.ts';
import { upstreamArchive } from './support/upstream-archive.ts';
import { B, edit, project, treeAnswer } from './support/update-project.ts';
import { scratchAndServer } from './support/test-server.ts';

const { scratch, server } = scratchAndServer('creature-update-clone-test-');
const quiet = { info: () => {}, warn: () => {} };
const cut = inject('cutDataDir');
const pinned = readLock(repoLock).commit;
const clone = join(scratch, 'elsewhere/creature-api');
/** the data folder the clone's build is made from (a copy of the cut, so that it can go away) */
const given = join(scratch, 'my-data');
/** the cut's tables with bulbasaur's hp one higher: commit B */
const next = join(scratch, 'next-csv');
const archiveAt = (commit: string) => `/pokeapi/tar.gz/${commit}`;
/** the report an update writes with the pinned tables at hand */
let expected: ChangeReport;

/** The CLI in `root` (the command an npm script runs), as a user's shell runs it. */
const cli = (root: string, args: string[], env: Record<string, string>): Promise<BuildResult> =>
  run(process.execPath, ['generator/cli.ts', ...args], { cwd: root, env: userEnv(env), maxBuffer: 1 << 26 }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (e: BuildResult) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );

/** The upstream as the server answers it: the listing of B, and DATA_URL's archives ({commit} replaced). */
const upstream = { DATA_TREE_URL: '', DATA_URL: '' };
const update = (root: string, env: Record<string, string> = {}) => cli(root, ['data-update', '--commit', B], { ...upstream, ...env });

/** A copy of the built clone (its build's hard links kept), for an update of its own. */
async function copyOfBuilt(name: string): Promise<string> {
  const root = join(scratch, `${name}/creature-api`);
  await run('mkdir', ['-p', root]);
  await run('cp', ['-a', ...readdirSync(clone).map((entry) => join(clone, entry)), root]);
  return root;
}

/** The report the update wrote beside the lock. */
/** What an update that fails must leave as it was: the lock, the records, dist/, the cache, and what the data folder and the project hold. */
const projectState = (root: string) => ({
  lock: readFileSync(join(root, 'data/upstream.lock.json'), 'utf8'),
  records: treeHash(join(root, 'data/records')),
  dist: treeHash(join(root, 'dist')),
  cache: treeHash(join(root, 'data/upstream')),
  data: readdirSync(join(root, 'data')).sort(),
  top: readdirSync(root).sort(),
});

const writtenReport = (root: string): ChangeReport =>
  JSON.parse(readFileSync(join(root, 'data/changes', reportFile({ from: pinned, to: B })), 'utf8')) as ChangeReport;

/** The update's reference: runUpdate on a project served from the cut and its build, the pinned tables at hand. */
async function referenceReport(): Promise<ChangeReport> {
  const { paths } = project(scratch, 'reference', cut);
  rmSync(paths.config.outDir, { recursive: true, force: true });
  linkTree(inject('cutDistDir'), paths.config.outDir);
  cpSync(join(repoLock, '../changes'), paths.config.changesDir, { recursive: true });
  const report = await runUpdate({ commit: B }, paths, quiet, { DATA_TREE_URL: upstream.DATA_TREE_URL, DATA_URL: upstream.DATA_URL });
  if (!report) throw new Error('the reference update did nothing');
  return report;
}

beforeAll(async () => {
  cpSync(cut, given, { recursive: true });
  cpSync(join(cut, 'csv'), next, { recursive: true });
  edit(join(next, 'pokemon_stats.csv'), (lines) => lines.map((l, i) => (i === 1 ? l.replace(/^1,1,(\d+)/, (_m, hp: string) => `1,1,${Number(hp) + 1}`) : l)));
  const entries = readdirSync(next).map((name) => {
    const bytes = readFileSync(join(next, name));
    return { path: `data/v2/csv/${name}`, type: 'blob', sha: gitBlobSha1(bytes), size: bytes.length };
  });
  server.route(`/trees/${B}`, treeAnswer(entries));
  server.route(archiveAt(B), { body: upstreamArchive(next, `pokeapi-${B}`) });
  upstream.DATA_TREE_URL = server.url('/trees/{commit}');
  upstream.DATA_URL = server.url('/pokeapi/tar.gz/{commit}');
  copyOfClone(clone);
  // the pinned commit, with the cut's tables: only the edited table moves
  writeFileSync(join(clone, 'data/upstream.lock.json'), formatLock({ ...readLock(repoLock), tables: lockForFolder(pinned, join(cut, 'csv')).tables }));
  const built = await cli(clone, ['build'], { DATA_DIR: given });
  if (built.code !== 0) throw new Error(`the clone's build failed:\n${built.stdout}\n${built.stderr}`);
  expected = await referenceReport();
}, 300_000);

describe('a clone built from DATA_DIR, with no ../shared and no download cache', () => {
  it('records the data folder in the build stamp, which no served file carries: every answer is that of the cut built from elsewhere', () => {
    expect(readBuildStamp(join(clone, 'dist'))?.dataDir).toBe(given);
    expect(existsSync(join(clone, 'data/upstream'))).toBe(false);
    // every answer the global setup's build of the cut (given with DATA_DIR too) serves, byte for byte but meta's build time
    const ours = fileHashes(join(clone, 'dist/v2'));
    const theirs = fileHashes(join(inject('cutDistDir'), 'v2'));
    for (const served of [ours, theirs]) served.delete('meta.json');
    expect([...theirs].filter(([path, hash]) => ours.get(path) !== hash).map(([path]) => path)).toEqual([]);
    expect(ours.size).toBe(theirs.size);
  });

  it(
    'cannot read the pinned tables when their folder is gone and the archive is out of reach: names the file and what to run, and changes nothing',
    { timeout: 120_000 },
    async () => {
      const root = await copyOfBuilt('nowhere');
      const away = `${given}-away`;
      const before = projectState(root);
      const hitsOfB = server.hits.get(archiveAt(B));
      renameSync(given, away);
      let result: BuildResult;
      try {
        result = await update(root, { DATA_URL: server.url('/nowhere/{commit}') });
      } finally {
        renameSync(away, given);
      }
      expect(result.code).toBe(1);
      // the first table of the lock: the cache has none
      const first = readdirSync(join(cut, 'csv'))
        .filter((name) => name.endsWith('.csv'))
        .sort()[0]!;
      const short = pinned.slice(0, 12);
      // the whole of what the command printed on stderr
      expect(result.stderr.trim()).toBe(
        `data:update cannot read ${join(root, 'data/upstream/csv', first)}: the change report counts the rows of the changed tables against the tables of the pinned commit ${short}, ` +
          `no folder on this machine holds them (no --data / DATA_DIR given; the data folder the build in dist/ was made from, ${given}: no such folder; no team copy at that commit; ${join(root, 'data/upstream')}: no verified download of them), ` +
          `and downloading them failed: could not download the data set from ${server.url(`/nowhere/${pinned}`)}: HTTP 404 Not Found.\n` +
          `Run \`npm run fetch-data\` first (with DATA_URL set to a mirror of the archive if it cannot be reached), or set DATA_DIR to a folder holding the tables at ${short} (csv/); then run the update again.`,
      );
      // stopped before it would download the tables of B
      expect(server.hits.get(archiveAt(B))).toBe(hitsOfB);
      const after = projectState(root);
      expect(after).toEqual(before);
    },
  );

  it(
    'with the folder the build recorded gone and no DATA_DIR, downloads the pinned tables into the cache, as npm start does',
    { timeout: 120_000 },
    async () => {
      const root = await copyOfBuilt('download');
      server.route(archiveAt(pinned), { body: upstreamArchive(join(cut, 'csv'), `pokeapi-${pinned}`) });
      const away = `${given}-away`;
      renameSync(given, away);
      let result: BuildResult;
      try {
        result = await update(root);
      } finally {
        renameSync(away, given);
      }
      expect(result.code, result.stderr).toBe(0);
      expect(server.hits.get(archiveAt(pinned))).toBe(1);
      expect(result.stderr).toContain(
        `warning: the data folder the build in dist/ was made from, ${given}: no such folder; not the tables the lock pins at ${pinned.slice(0, 12)}, so not read`,
      );
      expect(result.stdout).toContain(
        `data: the tables at ${pinned.slice(0, 12)}, the change report's old side, from ${join(root, 'data/upstream')} (the download cache)`,
      );
      expectMoved(root);
    },
  );

  it('with DATA_DIR still set, reads the pinned tables there, and says to unset it', { timeout: 120_000 }, async () => {
    const root = await copyOfBuilt('still-set');
    const hits = server.hits.get(archiveAt(pinned));
    const result = await update(root, { DATA_DIR: given });
    expect(result.code, result.stderr).toBe(0);
    expect(server.hits.get(archiveAt(pinned))).toBe(hits);
    expect(result.stdout).toContain(`data: the tables at ${pinned.slice(0, 12)}, the change report's old side, from ${given} (--data / DATA_DIR)`);
    expect(result.stdout).toContain(
      `note: --data / DATA_DIR names ${given}, the tables the pin moved from, and builds read it first: unset it for them to read ${join(root, 'data/upstream')} (the tables at ${B.slice(0, 12)}), or point it at a copy of those`,
    );
    expectMoved(root);
  });

  // last: it moves the clone the copies above were made from
  it(
    'with DATA_DIR unset since the build, reads the pinned tables where the build recorded them, downloading nothing of that commit',
    { timeout: 120_000 },
    async () => {
      const hits = server.hits.get(archiveAt(pinned));
      const result = await update(clone);
      expect(result.code, result.stderr).toBe(0);
      expect(server.hits.get(archiveAt(pinned))).toBe(hits);
      expect(result.stdout).toContain(
        `data: the tables at ${pinned.slice(0, 12)}, the change report's old side, from ${given} (the data folder the build in dist/ was made from)`,
      );
      expect(result.stderr).not.toContain('so not read');
      expectMoved(clone);
    },
  );
});

/** A clone the update moved to B: the report an update with the tables at hand writes, the new lock, B's tables in the cache, and a build that reads them there. */
function expectMoved(root: string): void {
  expect(writtenReport(root)).toEqual(expected);
  expect(expected.tables).toEqual([{ table: 'pokemon_stats.csv', change: 'changed', rows_added: 1, rows_removed: 1 }]);
  expect(readLock(join(root, 'data/upstream.lock.json')).commit).toBe(B);
  expect(fileHashes(join(root, 'data/upstream/csv'))).toEqual(fileHashes(next));
  // made from the cache, which the configuration finds: no folder to record
  expect(readBuildStamp(join(root, 'dist'))).not.toHaveProperty('dataDir');
}
