/**
 * An update that succeeds (an import and build of the moved data set, then a full build to
 * compare with: the costliest of the update's tests, in a file of its own so that CI's second
 * Node pass can leave it out): the dist/ swapped in serves its own change report, is byte for byte
 * what a full build of the new state writes, and leaves `npm run build` nothing to do. The
 * project is served from the data cut (generator/cut) and its build, and moves to the cut with
 * one value edited.
 */
import { cpSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { lockPath as repoLock, type Config } from '../generator/config.ts';
import { changeReportFile, changesListFile, metaFile, type Meta } from '../contract/layout.ts';
import type { ChangeList } from '../generator/builder/change-reports.ts';
import { readBuildStamp } from '../generator/builder/stamp.ts';
import { linkTree } from '../generator/files/folders.ts';
import { buildStep, inputHashes } from '../generator/pipeline.ts';
import { gitBlobSha1, readLock } from '../generator/fetch/lock.ts';
import { runUpdate } from '../generator/update/index.ts';
import { fileHashes } from './support/files.ts';
import { upstreamArchive } from './support/upstream-archive.ts';
import { B, edit, project, treeAnswer } from './support/update-project.ts';
import { scratchAndServer } from './support/test-server.ts';

const { scratch, server } = scratchAndServer('creature-update-swap-test-');
const quiet = { info: () => {}, warn: () => {} };

/** Where two builds differ: paths missing, extra or with other bytes (the first few). */
function differences(ours: string, theirs: string): string[] {
  const [a, b] = [fileHashes(ours), fileHashes(theirs)];
  const out: string[] = [];
  for (const [path, hash] of b) if (a.get(path) !== hash) out.push(`${path}: ${a.has(path) ? 'other bytes' : 'missing'}`);
  for (const path of a.keys()) if (!b.has(path)) out.push(`${path}: not in the full build`);
  return out.slice(0, 20);
}

describe('an update that succeeds', () => {
  const epoch = process.env.SOURCE_DATE_EPOCH;
  afterAll(() => {
    if (epoch === undefined) delete process.env.SOURCE_DATE_EPOCH;
    else process.env.SOURCE_DATE_EPOCH = epoch;
  });

  it('swaps in a dist/ that serves its own report, as a full build of the new state writes it, with nothing left for npm run build', async () => {
    // built_at the same in the update and the full build after it
    process.env.SOURCE_DATE_EPOCH = '1700000000';
    // the pinned tables as the cut has them (its lock hashes them as they are, so that only the edited one moves)
    const cut = inject('cutDataDir');
    const { paths } = project(scratch, 'success', cut);
    const root = join(paths.lockPath, '..');
    const pinned = readLock(repoLock).commit;
    // served: links to the global setup's build of the cut (the update reads it and swaps it out, never writes in it); the reports committed so far
    rmSync(paths.config.outDir, { recursive: true, force: true });
    linkTree(inject('cutDistDir'), paths.config.outDir);
    cpSync(join(repoLock, '../changes'), paths.config.changesDir, { recursive: true });
    const next = join(scratch, 'success-next');
    cpSync(join(cut, 'csv'), next, { recursive: true });
    // an invented edit: bulbasaur's hp one higher
    edit(join(next, 'pokemon_stats.csv'), (lines) => lines.map((l, i) => (i === 1 ? l.replace(/^1,1,(\d+)/, (_m, hp: string) => `1,1,${Number(hp) + 1}`) : l)));
    const entries = readdirSync(next).map((name) => {
      const bytes = readFileSync(join(next, name));
      return { path: `data/v2/csv/${name}`, type: 'blob', sha: gitBlobSha1(bytes), size: bytes.length };
    });
    server.route(`/success/trees/${B}`, treeAnswer(entries));
    server.route('/success/archive.tar.gz', { body: upstreamArchive(next, `pokeapi-${B}`) });
    const env = { DATA_TREE_URL: server.url('/success/trees/{commit}'), DATA_URL: server.url('/success/archive.tar.gz') };

    const report = await runUpdate({ commit: B }, paths, quiet, env);
    expect(report?.tables).toEqual([{ table: 'pokemon_stats.csv', change: 'changed', rows_added: 1, rows_removed: 1 }]);
    expect(report?.kinds['creature']?.changed[0]).toMatchObject({ id: 1, name: 'bulbasaur', paths: ['stats[0].base_stat'] });
    const dist = paths.config.outDir;
    const read = (rel: string) => JSON.parse(readFileSync(join(dist, rel), 'utf8')) as Record<string, unknown>;
    // the downloads named after the data version moved; the old ones are not kept
    const servedMeta = JSON.parse(readFileSync(join(inject('cutDistDir'), metaFile), 'utf8')) as Meta;
    const path = (url: string) => new URL(url).pathname;
    const newMeta = read(metaFile) as unknown as Meta;
    expect(report?.downloads).toEqual([
      { type: 'database', from: path(servedMeta.downloads.database!), to: path(newMeta.downloads.database!) },
      { type: 'database-gzip', from: path(servedMeta.downloads.database_gzip!), to: path(newMeta.downloads.database_gzip!) },
      { type: 'archive', from: path(servedMeta.downloads.archive), to: path(newMeta.downloads.archive) },
    ]);
    for (const moved of report!.downloads!) {
      expect(moved.to).toContain(B.slice(0, 7));
      expect(existsSync(join(dist, moved.to)), moved.to).toBe(true);
      expect(existsSync(join(dist, moved.from!)), moved.from!).toBe(false);
    }
    // and the docs page's lines on the latest version say so
    const page = readFileSync(join(dist, 'index.html'), 'utf8');
    expect(page).toContain(
      `Downloads named after the data version moved (the old names are no longer served): <code>${report!.downloads![0]!.from!}</code> → <code>${report!.downloads![0]!.to}</code>;`,
    );
    expect((read(changesListFile) as unknown as ChangeList).results[0]).toMatchObject({ from: pinned, to: B });
    expect(read(changeReportFile(B))).toEqual(report);
    expect((read(metaFile)['changes'] as { latest: string }).latest).toMatch(new RegExp(`/changes/${B}/$`));

    // as the project is now: pinned to B, its tables the download cache
    const after: Config = { ...paths.config, dataDir: paths.cacheDir };
    const hash = inputHashes(after).build;
    expect(readBuildStamp(dist)?.inputHash).toBe(hash);
    const full = join(root, 'full');
    await buildStep({ ...after, outDir: full }, hash, quiet, true);
    expect(differences(dist, full)).toEqual([]);
  }, 600_000);
});
