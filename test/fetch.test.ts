/**
 * The data set of a fresh clone, as a user meets it: a copy of this repository in a folder with
 * no ../shared beside it, DATA_URL pointed at a local server holding archives in the upstream's
 * layout, and the real commands. Also the pieces underneath: the upstream's hash function
 * (checked against TREE.txt), the committed lock, and the streaming tar reader.
 */
import { execFile } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sharedDataDir } from '../generator/config.ts';
import { FetchError, fetchDataSet, gitBlobSha1, lockPath, readLock, type UpstreamLock } from '../generator/fetch/index.ts';
import { formatLock, lockForFolder, parseTree } from '../generator/fetch/make-lock.ts';
import { createTarReader } from '../generator/fetch/tar.ts';
import { copyOfClone } from './support/clone.ts';
import { fileHashes } from './support/files.ts';
import { startTestServer, upstreamArchive, type TestServer } from './support/upstream-archive.ts';

const run = promisify(execFile);
const scratch = mkdtempSync(join(tmpdir(), 'creature-fetch-test-'));
const sharedCsv = join(sharedDataDir, 'csv');
const realLock = readLock(lockPath);
const quiet = { info: () => {} };

const tree = parseTree(readFileSync(join(sharedDataDir, 'TREE.txt'), 'utf8'));
/** The tables PROVENANCE.md says were rebuilt (their bytes differ from the upstream's). */
const rebuilt = (/Four of them \(([^)]+)\)/.exec(readFileSync(join(sharedDataDir, 'PROVENANCE.md'), 'utf8'))?.[1] ?? '').split(/,\s*/).sort();

/** A tiny invented data set: three tables. */
function tinyTables(dir: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'colors.csv'), 'id,identifier\n1,teal\n2,amber\n');
  writeFileSync(join(dir, 'shapes.csv'), 'id,identifier,corners\n1,square,4\n2,circle,\n');
  // longer than the 100 bytes a plain tar name holds, with the prefix: needs ustar's prefix or pax
  writeFileSync(join(dir, 'an_unusually_long_table_name_to_need_the_long_path_forms.csv'), 'id\n1\n');
  return dir;
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('the upstream hash (git blob SHA-1)', () => {
  it('matches TREE.txt on the 180 byte-equal tables, and differs on exactly the four PROVENANCE.md names', () => {
    expect(tree.hashes.size).toBe(184);
    expect(rebuilt).toHaveLength(4);
    const differing: string[] = [];
    for (const [name, sha1] of tree.hashes) if (gitBlobSha1(readFileSync(join(sharedCsv, name))) !== sha1) differing.push(name);
    expect(differing.sort()).toEqual(rebuilt);
  });

  it('is what git computes', async () => {
    const file = join(scratch, 'blob.csv');
    writeFileSync(file, 'id,name\n1,ä\n');
    const { stdout } = await run('git', ['hash-object', file]);
    expect(gitBlobSha1(readFileSync(file))).toBe(stdout.trim());
  });
});

describe('the committed lock (data/upstream.lock.json)', () => {
  it('pins the commit of PROVENANCE.md and every table of TREE.txt, with sizes where the bytes are known', () => {
    expect(realLock.commit).toBe(tree.commit);
    expect(realLock.archive).toBe('https://codeload.github.com/PokeAPI/pokeapi/tar.gz/{commit}');
    expect(realLock.tablesPath).toBe('data/v2/csv');
    expect(Object.keys(realLock.tables).sort()).toEqual([...tree.hashes.keys()].sort());
    for (const [name, table] of Object.entries(realLock.tables)) {
      expect(table.sha1, name).toBe(tree.hashes.get(name));
      if (rebuilt.includes(name)) expect(table.size, name).toBeUndefined();
      else expect(table.size, name).toBe(statSync(join(sharedCsv, name)).size);
    }
  });
});

describe('the tar reader', () => {
  const entriesOf = (tar: Buffer, chunk: number) => {
    const files = new Map<string, string>();
    const reader = createTarReader((entry) => {
      if (entry.type !== 'file') return null;
      const parts: Buffer[] = [];
      return { write: (b) => void parts.push(Buffer.from(b)), end: () => void files.set(entry.path, Buffer.concat(parts).toString('utf8')) };
    });
    for (let at = 0; at < tar.length; at += chunk) reader.push(tar.subarray(at, at + chunk));
    reader.end();
    return files;
  };

  it('reads git archive output, long names included, in any chunk sizes', () => {
    const tar = gunzipSync(upstreamArchive(tinyTables(join(scratch, 'tar-tiny')), 'pokeapi-0123456789abcdef0123456789abcdef01234567'));
    const whole = entriesOf(tar, tar.length);
    const long = 'pokeapi-0123456789abcdef0123456789abcdef01234567/data/v2/csv/an_unusually_long_table_name_to_need_the_long_path_forms.csv';
    expect(long.length).toBeGreaterThan(100);
    expect(whole.get(long)).toBe('id\n1\n');
    expect(whole.get('pokeapi-0123456789abcdef0123456789abcdef01234567/data/v2/csv/shapes.csv')).toBe('id,identifier,corners\n1,square,4\n2,circle,\n');
    expect(whole.size).toBe(5); // three tables, README.md, data/v2/other/elsewhere.csv
    for (const chunk of [1, 511, 512, 513, 4096]) expect(entriesOf(tar, chunk), `chunks of ${chunk}`).toEqual(whole);
  });

  it('refuses an archive cut short and bytes that are no archive', () => {
    const tar = gunzipSync(upstreamArchive(tinyTables(join(scratch, 'tar-cut')), 'x'));
    expect(() => entriesOf(tar.subarray(0, 1024 + 100), 512)).toThrow(/ends in the middle of a file|ends without its end marker/);
    expect(() => entriesOf(Buffer.alloc(1024, 'x'), 512)).toThrow(/not a tar archive/);
  });
});

describe('fetching against a lock', () => {
  it('refuses, by name and hash, the four tables that differ from the real lock, and leaves no cache', async () => {
    server.route('/shared.tar.gz', { body: upstreamArchive(sharedCsv, `pokeapi-${realLock.commit}`) });
    const cache = join(scratch, 'refused/upstream');
    const error = await fetchDataSet(realLock, server.url('/shared.tar.gz'), cache, quiet).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FetchError);
    const message = (error as FetchError).message;
    expect(message).toMatch(/4 of 184 tables refused/);
    for (const name of rebuilt) {
      const found = gitBlobSha1(readFileSync(join(sharedCsv, name)));
      expect(message).toContain(`${name}: expected git blob ${realLock.tables[name]!.sha1}, found ${found}`);
    }
    expect(existsSync(cache)).toBe(false);
    expect(readdirSync(dirname(cache))).toEqual([]);
  });

  it('stops a download whose server stalls in the middle, after one retry', async () => {
    const tiny = tinyTables(join(scratch, 'stall-tables'));
    const lock = lockForFolder('1'.repeat(40), tiny);
    const body = upstreamArchive(tiny, 'pokeapi-stall');
    server.route('/stall.tar.gz', { body, stallAt: Math.floor(body.length / 2) });
    const cache = join(scratch, 'stall/upstream');
    // what a fetch killed with Ctrl-C leaves behind (no process has this id) is cleared by the next one
    mkdirSync(`${cache}.tmp-4194305-x/csv`, { recursive: true });
    const error = await fetchDataSet(lock, server.url('/stall.tar.gz'), cache, quiet, { timeoutMs: 300 }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/^could not download the data set from http:\/\/127\.0\.0\.1:\d+\/stall\.tar\.gz: no data for 300 ms \(DATA_TIMEOUT_MS\), after \d+ bytes \(2 attempts\)\. Set DATA_URL .* or DATA_DIR /);
    expect(server.hits.get('/stall.tar.gz')).toBe(2);
    expect(existsSync(dirname(cache)) ? readdirSync(dirname(cache)) : []).toEqual([]);
  });

  it('says so when the connection closes before the length the server announced', async () => {
    const tiny = tinyTables(join(scratch, 'cut-tables'));
    const body = upstreamArchive(tiny, 'pokeapi-cut');
    server.route('/cut.tar.gz', { body, cutAt: 300, sized: true });
    const error = await fetchDataSet(lockForFolder('3'.repeat(40), tiny), server.url('/cut.tar.gz'), join(scratch, 'cut/upstream'), quiet, { retries: 0 }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(new RegExp(`/cut\\.tar\\.gz: the archive is cut short: the connection closed after \\d+ bytes of ${body.length} bytes \\(network error: `));
    expect(server.hits.get('/cut.tar.gz')).toBe(1);
  });
});

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

describe('a clone with no ../shared: `npm run build` fetches the data set', () => {
  let clone: string;
  const out = join(scratch, 'clone-dist');
  const records = join(scratch, 'clone-records');
  let cache: string;
  let fixtureLock: UpstreamLock;

  /** `npm run build` in the clone (the command npm runs), with the environment a user would have. */
  const build = async (env: Record<string, string>) => {
    const childEnv: NodeJS.ProcessEnv = { ...process.env, OUT_DIR: out, RECORDS_DIR: records, ...env };
    // vitest sets BASE_URL for itself; a user has none (and no DATA_DIR, or the download would not happen)
    for (const name of ['BASE_URL', 'DATA_DIR', 'PORT', 'DATA_TIMEOUT_MS'] as const) if (!(name in env)) delete childEnv[name];
    return run(join(clone, 'node_modules/.bin/tsx'), ['generator/cli.ts', 'build'], { cwd: clone, env: childEnv, maxBuffer: 1 << 26 }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
    );
  };

  beforeAll(() => {
    clone = copyOfClone(join(scratch, 'elsewhere/creature-api'));
    cache = join(clone, 'data/upstream');
    // the real commit and the hashes of the tables this archive holds (the team's copy)
    fixtureLock = { ...lockForFolder(realLock.commit, sharedCsv), archive: realLock.archive };
    writeFileSync(join(clone, 'data/upstream.lock.json'), formatLock(fixtureLock));
    server.route(`/pokeapi/tar.gz/${realLock.commit}`, { body: upstreamArchive(sharedCsv, `pokeapi-${realLock.commit}`) });
  });

  it('downloads, verifies, and builds the same API as a build of ../shared', { timeout: 600_000 }, async () => {
    const result = await build({ DATA_URL: server.url('/pokeapi/tar.gz/{commit}') });
    expect(result.stderr.split('\n').filter((l) => l.includes('error'))).toEqual([]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`fetch: ${server.url(`/pokeapi/tar.gz/${realLock.commit}`)}`);
    expect(result.stdout).toMatch(/fetch: 184 tables at 0d8fe2bf23d5 verified and stored in .*data\/upstream/);
    expect(readdirSync(join(cache, 'csv')).sort()).toEqual(Object.keys(fixtureLock.tables).sort());
    expect(fileHashes(join(cache, 'csv'))).toEqual(fileHashes(sharedCsv));
    expect(readdirSync(join(clone, 'data')).sort()).toEqual(['README.md', 'media', 'upstream', 'upstream.lock.json']);

    const meta = JSON.parse(readFileSync(join(out, 'v2/meta.json'), 'utf8')) as { upstream_commit: string };
    expect(meta.upstream_commit).toBe(realLock.commit);
    // every answer equals the one built from ../shared (media from the committed manifests); meta differs in its build time
    const here = fileHashes(join(inject('distDir'), 'v2'));
    const there = fileHashes(join(out, 'v2'));
    here.delete('meta.json');
    there.delete('meta.json');
    expect(there.size).toBe(here.size);
    const differ = [...here].filter(([path, hash]) => there.get(path) !== hash).map(([path]) => path);
    expect(differ).toEqual([]);
  });

  it('downloads nothing the second time', { timeout: 300_000 }, async () => {
    const before = server.hits.get(`/pokeapi/tar.gz/${realLock.commit}`);
    const result = await build({ DATA_URL: server.url('/pokeapi/tar.gz/{commit}') });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain('fetch:');
    expect(result.stdout).toContain('build: dist/ is up to date');
    expect(server.hits.get(`/pokeapi/tar.gz/${realLock.commit}`)).toBe(before);
  });

  describe('a failed download: one clear error, the cache and dist/ as they were', () => {
    // a newer pin (another commit, three tables) makes the cache stale, so the build must download
    const ALTERED = Buffer.from('id,identifier\n1,teal\n2,ambr\n');
    let tinyLock: UpstreamLock;
    let body: Buffer;
    beforeAll(() => {
      const tiny = tinyTables(join(scratch, 'pin-tables'));
      tinyLock = { ...lockForFolder('2'.repeat(40), tiny), archive: realLock.archive };
      body = upstreamArchive(tiny, `pokeapi-${tinyLock.commit}`);
      // the archive server's copy of one table was altered; one the lock names is not there at all
      const altered = tinyTables(join(scratch, 'altered-tables'));
      writeFileSync(join(altered, 'colors.csv'), ALTERED);
      tinyLock.tables['sizes.csv'] = { sha1: gitBlobSha1(Buffer.from('id\n')), size: 3 };
      server.route('/corrupted.tar.gz', { body: upstreamArchive(altered, `pokeapi-${tinyLock.commit}`) });
      server.route('/truncated.tar.gz', { body, cutAt: Math.floor(body.length / 2) });
      server.route('/hangs.tar.gz', { hang: true });
      writeFileSync(join(clone, 'data/upstream.lock.json'), formatLock(tinyLock));
    });

    const cases: { name: string; path: string; env: Record<string, string>; hits: number; says: () => string[] }[] = [
      {
        name: 'a corrupted table and a missing one',
        path: '/corrupted.tar.gz',
        env: {},
        hits: 1,
        says: () => [
          `does not match the lock (commit 222222222222): 2 of 4 tables refused`,
          `colors.csv: expected git blob ${tinyLock.tables['colors.csv']!.sha1} (${tinyLock.tables['colors.csv']!.size} bytes), found ${gitBlobSha1(ALTERED)} (${ALTERED.length} bytes)`,
          'sizes.csv: missing from the archive',
        ],
      },
      { name: 'a truncated archive', path: '/truncated.tar.gz', env: {}, hits: 2, says: () => ['the archive is cut short or damaged (gzip: unexpected end of file, after ', '(2 attempts). Set DATA_URL'] },
      { name: 'a 404', path: '/missing.tar.gz', env: {}, hits: 1, says: () => [': HTTP 404 Not Found. Set DATA_URL to a mirror of that archive, or DATA_DIR to a folder holding the tables (csv/).'] },
      { name: 'a server that hangs', path: '/hangs.tar.gz', env: { DATA_TIMEOUT_MS: '400' }, hits: 2, says: () => [': no data for 400 ms (DATA_TIMEOUT_MS) (2 attempts). Set DATA_URL'] },
    ];

    it.each(cases)('$name', { timeout: 120_000 }, async ({ path, env, hits, says }) => {
      const cacheBefore = fileHashes(cache);
      const distBefore = fingerprint(out);
      const result = await build({ DATA_URL: server.url(path), ...env });
      expect(result.code).toBe(1);
      const stderr = result.stderr.trim();
      for (const text of says()) expect(stderr).toContain(text);
      expect(stderr).toContain(server.url(path));
      if (path !== '/corrupted.tar.gz') {
        // a download error is one line, and the last one
        expect(stderr.split('\n').at(-1)).toMatch(/^could not download the data set from http:\/\/127\.0\.0\.1:\d+\/\S+: .*Set DATA_URL/);
      }
      expect(server.hits.get(path)).toBe(hits);
      expect(fileHashes(cache)).toEqual(cacheBefore);
      expect(readdirSync(join(clone, 'data')).sort()).toEqual(['README.md', 'media', 'upstream', 'upstream.lock.json']);
      expect(fingerprint(out)).toEqual(distBefore);
    });
  });
});
