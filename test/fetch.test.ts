/**
 * The fetcher's pieces: the upstream's hash function (checked against TREE.txt), the committed
 * lock, the streaming tar reader, and fetches against a local server that refuse or fail.
 * The whole flow in a fresh clone is test/fresh-clone.test.ts.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { sharedRoot } from '../generator/config.ts';
import { teamCopy } from './support/config.ts';
import { FetchError, fetchDataSet, gitBlobSha1, lockPath, readLock } from '../generator/fetch/index.ts';
import { lockForFolder, parseTree } from '../generator/fetch/lock.ts';
import { createTarReader } from '../generator/fetch/tar.ts';
import { tinyTables, upstreamArchive } from './support/upstream-archive.ts';
import { scratchAndServer } from './support/test-server.ts';

const run = promisify(execFile);
const { scratch, server } = scratchAndServer('creature-fetch-test-');
const sharedCsv = join(teamCopy(), 'csv');
const realLock = readLock(lockPath);
const quiet = { info: () => {} };

const tree = parseTree(readFileSync(join(teamCopy(), 'TREE.txt'), 'utf8'));
/** The tables the first copy's PROVENANCE.md says were rebuilt (their bytes differ from the upstream's); every copy holds them so. */
const rebuilt = (/Four of them \(([^)]+)\)/.exec(readFileSync(join(sharedRoot, 'upstream/PROVENANCE.md'), 'utf8'))?.[1] ?? '').split(/,\s*/).sort();


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
