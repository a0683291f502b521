/**
 * A fresh clone, as a user meets it: a copy of this repository in a folder with no ../shared
 * beside it, DATA_URL pointed at a local server holding an archive in the upstream's layout of
 * the data cut's tables (generator/cut; the pinned commit, with a lock made for those tables), and
 * the real commands (test/support/fresh-clone.ts makes it):
 *   1. `npm start` downloads, verifies and builds (in a child process, this same CLI's `build`)
 *      the same API as the global setup's build of the cut, then serves it from a process that
 *      loaded none of the build's modules;
 *   2. a second `npm run build` downloads nothing, and `npm run fetch-data` finds the cache complete (with
 *      --force it downloads again);
 *   3. in a copy of the built clone whose pin changed, `npm start` reports a failed download as
 *      `npm run build` does (its child is that command) and serves nothing; dist/ is as it was.
 *      Each way a download fails (a corrupted table, a truncated archive, a 404, a server that
 *      hangs) leaving a complete cache as it was is test/fetch.test.ts, in-process.
 *
 * Netlify's CLI serving such a clone is test/netlify-cli.test.ts.
 */
import { spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { formatLock, lockForFolder } from '../generator/fetch/lock.ts';
import { fileHashes } from './support/files.ts';
import { FreshClone, archivePath, baseUrl, cutCsv, cutLock, realLock, run, userEnv } from './support/fresh-clone.ts';
import { bodyFile, httpCases, loadCaseContext } from './support/http-cases.ts';
import { tinyTables } from './support/upstream-archive.ts';

const cutDist = inject('cutDistDir');
/** as many tables as the cut has (all the import reads; the upstream's 184 include some it does not) */
const tableCount = Object.keys(cutLock.tables).length;
/** data/ of a clone once the data set is fetched: what is committed (the change reports, media manifests, lock) and the two folders the build fills. */
const dataFolderAfterFetch = ['README.md', 'changes', 'media', 'records', 'upstream', 'upstream.lock.json'];

const fresh = new FreshClone();
const { clone, dist, cache, scratch } = fresh;
beforeAll(() => fresh.setUp());
afterAll(() => fresh.tearDown());

/** Every file's path, size, inode and modification time: anything rewritten shows. */
function fingerprint(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const full = join(d, e.name);
      if (e.isDirectory()) walk(full);
      else {
        const s = lstatSync(full);
        out.push(`${relative(dir, full)} ${s.size} ${s.ino} ${s.mtimeMs}`);
      }
    }
  };
  walk(dir);
  return out.sort();
}

describe('a clone with no ../shared', () => {
  it(
    "`npm start` downloads, verifies, and builds the same API as the global setup's build of the cut, in a child process, then serves it",
    { timeout: 120_000 },
    async () => {
      const traceDir = join(scratch, 'start-trace');
      const started = await npmStart(clone, { DATA_URL: fresh.dataUrl() }, traceDir);
      let result: { stdout: string; stderr: string };
      try {
        const url = await started.serving();
        // the serving process answers from the new build
        expect(Buffer.from(await (await fetch(`${url}/v2/creature/1`)).arrayBuffer())).toEqual(readFileSync(join(cutDist, 'v2/creature/1.json')));
        result = { stdout: started.stdout(), stderr: started.stderr() };
        expectBuiltInChild(result.stdout, traced(traceDir));
      } finally {
        started.stop();
        await started.exited;
      }
      expect(result.stderr.split('\n').filter((l) => l.includes('error'))).toEqual([]);
      expect(result.stdout).toContain(`fetch: ${fresh.server.url(archivePath)}`);
      expect(result.stdout).toMatch(new RegExp(`fetch: ${tableCount} tables at ${realLock.commit.slice(0, 12)} verified and stored in .*data/upstream`));
      expect(fileHashes(join(cache, 'csv'))).toEqual(fileHashes(cutCsv));
      expect(readdirSync(join(clone, 'data')).sort()).toEqual(dataFolderAfterFetch);

      const meta = JSON.parse(readFileSync(join(dist, 'v2/meta.json'), 'utf8')) as { upstream_commit: string };
      expect(meta.upstream_commit).toBe(realLock.commit);
      // every answer equals the one the global setup built from the cut (media from the committed manifests here, the cut's own there); meta differs in its build time
      const here = fileHashes(join(cutDist, 'v2'));
      const there = fileHashes(join(dist, 'v2'));
      here.delete('meta.json');
      there.delete('meta.json');
      expect(there.size).toBe(here.size);
      expect([...here].filter(([path, hash]) => there.get(path) !== hash).map(([path]) => path)).toEqual([]);
    },
  );

  it('downloads nothing the second time', { timeout: 120_000 }, async () => {
    const before = fresh.server.hits.get(archivePath);
    const result = await fresh.build({ DATA_URL: fresh.dataUrl() });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain('fetch:');
    expect(result.stdout).toContain('build: dist/ is up to date');
    expect(fresh.server.hits.get(archivePath)).toBe(before);
  });

  it('`npm run fetch-data` says the cache is complete; with --force it downloads again and swaps the cache whole', { timeout: 120_000 }, async () => {
    const fetchData = (...args: string[]) =>
      run(process.execPath, ['generator/cli.ts', 'fetch-data', ...args], { cwd: clone, env: userEnv({ DATA_URL: fresh.dataUrl() }) });
    const before = fresh.server.hits.get(archivePath)!;
    expect((await fetchData()).stdout).toMatch(
      new RegExp(`already holds the ${tableCount} verified tables at ${realLock.commit.slice(0, 12)} \\(--force downloads them again\\)`),
    );
    expect(fresh.server.hits.get(archivePath)).toBe(before);
    expect((await fetchData('--force')).stdout).toMatch(new RegExp(`fetch: ${tableCount} tables at ${realLock.commit.slice(0, 12)} verified and stored in`));
    expect(fresh.server.hits.get(archivePath)).toBe(before + 1);
    expect(fileHashes(join(cache, 'csv'))).toEqual(fileHashes(cutCsv));
    expect(readdirSync(join(clone, 'data')).sort()).toEqual(dataFolderAfterFetch);
  });
});

describe('the shared request table on the cut', () => {
  it('names only what the cut holds: every file a row expects is in its build', () => {
    const ctx = loadCaseContext(cutDist, baseUrl);
    const rows = httpCases(ctx).filter((c) => bodyFile(c.body) !== null);
    // creature 1 by id and by name, pikachu's encounters, type shadow, move pound, roseli-berry (723), the site pages...
    expect(rows.length).toBeGreaterThan(20);
    expect(rows.filter((c) => !existsSync(join(cutDist, bodyFile(c.body)!))).map((c) => c.name)).toEqual([]);
  });
});

// in a copy of the built clone, whose newer pin makes its cache stale, so the build must download
describe('a failed download: one clear error, dist/ as it was', () => {
  let root = '';
  beforeAll(async () => {
    root = await fresh.copyOfBuilt('failing');
    const tiny = tinyTables(join(scratch, 'pin-tables'));
    writeFileSync(join(root, 'data/upstream.lock.json'), formatLock({ ...lockForFolder('2'.repeat(40), tiny), archive: realLock.archive }));
  });

  it('`npm start` reports a failed download as `npm run build` does, and serves nothing', { timeout: 120_000 }, async () => {
    const [cache, dist] = [join(root, 'data/upstream'), join(root, 'dist')];
    const cacheBefore = fileHashes(cache);
    const distBefore = fingerprint(dist);
    const started = await npmStart(root, { DATA_URL: fresh.server.url('/missing-for-start.tar.gz') });
    const code = await started.exited;
    expect(code).toBe(1);
    expect(started.stdout()).toMatch(/serve: building in a child process \(pid \d+\)/);
    expect(started.stdout()).not.toContain('serving ');
    // a download error is one line, and the last one
    expect(started.stderr().trim().split('\n').at(-1)).toMatch(
      /^could not download the data set from http:\/\/127\.0\.0\.1:\d+\/missing-for-start\.tar\.gz: HTTP 404 Not Found\. Set DATA_URL/,
    );
    expect(fresh.server.hits.get('/missing-for-start.tar.gz')).toBe(1);
    expect(fileHashes(cache)).toEqual(cacheBefore);
    expect(readdirSync(join(root, 'data')).sort()).toEqual(dataFolderAfterFetch);
    expect(fingerprint(dist)).toEqual(distBefore);
  });
});

/** The module lists of each process `npm start` ran (test/support/module-trace.mjs), by pid. */
const traceHook = fileURLToPath(new URL('./support/module-trace.mjs', import.meta.url));
const traced = (dir: string): Map<number, string[]> =>
  new Map(readdirSync(dir).map((f) => [Number.parseInt(f, 10), readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean)]));

interface Started {
  /** resolves to the origin it serves at, once it says so */
  serving(): Promise<string>;
  stdout(): string;
  stderr(): string;
  /** the exit code once it exits */
  exited: Promise<number | null>;
  stop(): void;
}

/** `npm start` in `root` (the command its package.json script runs), tracing the modules each process loads into `traceDir`. */
async function npmStart(root: string, env: Record<string, string>, traceDir = join(scratch, 'trace-unused')): Promise<Started> {
  mkdirSync(traceDir, { recursive: true });
  const script = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start.split(' ');
  expect(script.slice(0, 1)).toEqual(['node']);
  const entry = script.findIndex((a) => a.endsWith('.ts'));
  const args = [...script.slice(1, entry), '--import', traceHook, ...script.slice(entry)];
  const child = spawn(process.execPath, args, { cwd: root, env: userEnv({ PORT: '0', MODULE_TRACE_DIR: traceDir, ...env }) });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const serving = async () => {
    for (;;) {
      const said = /serving .* at (http\S+)\/v2\//.exec(stdout);
      if (said) return said[1]!;
      if (child.exitCode !== null) throw new Error(`npm start exited (${child.exitCode}) without serving:\n${stdout}\n${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  return { serving, stdout: () => stdout, stderr: () => stderr, exited, stop: () => child.kill('SIGTERM') };
}

/** Modules of the build that a process which only serves has no use for (the preview reads the build stamp: builder/stamp.ts). */
const buildModules = (urls: string[]): string[] =>
  urls.filter((u) => /\/generator\/(builder\/(?!stamp\.ts)|import\/|incremental\/|resources\/|artifacts\/|indexes\/)/.test(u));

/**
 * What `npm start`'s log and module lists show when it built: the build ran in the child process
 * the log names (its list has the build's modules: the trace sees them), and the one process
 * that then serves (the other one that ran the CLI) loaded none of them.
 */
function expectBuiltInChild(stdout: string, lists: Map<number, string[]>): void {
  const buildPid = Number(/serve: building in a child process \(pid (\d+)\)/.exec(stdout)?.[1]);
  expect(lists.get(buildPid)?.some((u) => u.endsWith('/generator/builder/build.ts'))).toBe(true);
  const serving = [...lists].filter(([pid, urls]) => pid !== buildPid && urls.some((u) => u.endsWith('/generator/cli.ts')));
  expect(serving).toHaveLength(1);
  expect(serving[0]![1].some((u) => u.endsWith('/generator/preview/index.ts'))).toBe(true);
  expect(buildModules(serving[0]![1])).toEqual([]);
}
