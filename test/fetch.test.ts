/**
 * The fetcher's pieces: the upstream's hash function (checked against git and the committed
 * lock on the data set the tests read), the committed lock, the streaming tar reader, and fetches
 * against a local server that refuse or fail (of the data cut's tables, generator/cut, and of
 * tiny invented ones).
 * Each way a download fails, over a complete cache of another pin, leaves that cache as it was.
 * The whole flow in a fresh clone (and `npm start` reporting a failed download) is
 * test/fresh-clone.test.ts.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { gunzipSync, gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { testConfig } from './support/config.ts';
import { FetchError, fetchDataSet, fetchedCommit, gitBlobSha1, isFetched, lockPath, readLock, type UpstreamLock } from '../generator/fetch/index.ts';
import { lockForFolder, parseTree } from '../generator/fetch/lock.ts';
import { tarFault, tarFiles } from '../generator/fetch/tar.ts';
import { upstreamCommit } from '../generator/pipeline.ts';
import { fileHashes } from './support/files.ts';
import { tinyTables, upstreamArchive } from './support/upstream-archive.ts';
import { scratchAndServer } from './support/test-server.ts';

const run = promisify(execFile);
const { scratch, server } = scratchAndServer('creature-fetch-test-');
const realLock = readLock(lockPath);
const quiet = { info: () => {} };

/**
 * The data set the tests read, wherever the CLI finds it (../shared, DATA_DIR, or the download
 * the global setup made from DATA_URL or the upstream), only read.
 */
const dataDir = testConfig().dataDir;
const dataCsv = join(dataDir, 'csv');
const dataTables = readdirSync(dataCsv)
  .filter((name) => name.endsWith('.csv'))
  .sort();
let hashed: Map<string, string> | undefined;
/** Each table's git blob SHA-1 by our hasher, made once: the tables are 40 MB. */
const dataHashes = (): Map<string, string> => (hashed ??= new Map(dataTables.map((name) => [name, gitBlobSha1(readFileSync(join(dataCsv, name)))])));
/** The upstream's own listing of the data set's commit, when the data set carries one (a team copy's TREE.txt; a download carries none). */
const tree = existsSync(join(dataDir, 'TREE.txt')) ? parseTree(readFileSync(join(dataDir, 'TREE.txt'), 'utf8')) : null;
/** The lock's tables whose bytes it never saw (no size): those a team copy holds rebuilt, in other bytes than the upstream's. */
const unsized = Object.keys(realLock.tables)
  .filter((name) => realLock.tables[name]!.size === undefined)
  .sort();

/** The data cut's tables (generator/cut, only read): what the fetches that must refuse serve. */
const cutCsv = join(inject('cutDataDir'), 'csv');
/** What a mirror may serve in place of the pinned bytes: a digit changed (the size kept), CRLF line ends, the last line lost, the last line twice. */
const damage: Record<string, (bytes: Buffer) => Buffer> = {
  'pokemon_moves.csv': (b) => {
    const changed = Buffer.from(b);
    const at = changed.indexOf('\n') + 1;
    changed[at] = changed[at] === 0x31 ? 0x32 : 0x31;
    return changed;
  },
  'move_flavor_text.csv': (b) => Buffer.from(b.toString('utf8').replaceAll('\n', '\r\n')),
  'item_flavor_text.csv': (b) => b.subarray(0, lastLine(b)),
  'pokemon_species_flavor_text.csv': (b) => Buffer.concat([b, b.subarray(lastLine(b))]),
};
/** Where the last line of a file that ends with a newline starts. */
const lastLine = (b: Buffer): number => b.lastIndexOf('\n', b.length - 2) + 1;
/**
 * A lock of the cut's tables as they are. Two of the damaged tables have no size in it, as the
 * committed lock has none for the tables whose bytes it never saw: those are refused by hash alone.
 */
const refusedLock = lockForFolder('2'.repeat(40), cutCsv);
for (const name of ['item_flavor_text.csv', 'pokemon_species_flavor_text.csv']) delete refusedLock.tables[name]!.size;

/** The cut's tables with the damage done, in `dir`. */
function damagedCopy(dir: string): string {
  cpSync(cutCsv, dir, { recursive: true });
  for (const [name, change] of Object.entries(damage)) writeFileSync(join(dir, name), change(readFileSync(join(dir, name))));
  return dir;
}

describe('the upstream hash (git blob SHA-1)', () => {
  it("is git's own on every table of the data set", async () => {
    const { stdout } = await run('git', ['hash-object', '--', ...dataTables], { cwd: dataCsv, maxBuffer: 1 << 24 });
    expect(stdout.trim().split('\n')).toEqual([...dataHashes().values()]);
  });

  it("gives the lock's hash for every table whose bytes the lock knows; the unsized ones match all (the upstream's bytes) or differ all (a team copy's rebuilt tables)", () => {
    const differing = dataTables.filter((name) => dataHashes().get(name) !== realLock.tables[name]?.sha1);
    expect([[], unsized]).toContainEqual(differing);
    // a download was verified against the lock table by table: it holds the upstream's bytes
    if (isFetched(realLock, dataDir)) expect(differing).toEqual([]);
  });

  it('is what git computes', async () => {
    const file = join(scratch, 'blob.csv');
    writeFileSync(file, 'id,name\n1,ä\n');
    const { stdout } = await run('git', ['hash-object', file]);
    expect(gitBlobSha1(readFileSync(file))).toBe(stdout.trim());
  });
});

describe('the committed lock (data/upstream.lock.json)', () => {
  it("pins the data set's commit and every table it holds, with sizes where the bytes are known", () => {
    expect(realLock.archive).toBe('https://codeload.github.com/PokeAPI/pokeapi/tar.gz/{commit}');
    expect(realLock.tablesPath).toBe('data/v2/csv');
    expect(realLock.commit).toBe(upstreamCommit(dataDir));
    expect(Object.keys(realLock.tables).sort()).toEqual(dataTables);
    for (const [name, table] of Object.entries(realLock.tables)) {
      if (unsized.includes(name)) continue;
      expect(table.size, name).toBe(statSync(join(dataCsv, name)).size);
    }
  });

  it("holds the upstream's own listing of that commit, where the data set carries it (TREE.txt), or the commit its download recorded", () => {
    if (tree) {
      expect(tree.commit).toBe(realLock.commit);
      expect(Object.fromEntries(Object.entries(realLock.tables).map(([name, t]) => [name, t.sha1]))).toEqual(Object.fromEntries(tree.hashes));
    } else expect(fetchedCommit(dataDir)).toBe(realLock.commit);
  });
});

describe('the tar reader', () => {
  /** The files tarFiles hands on from `tar` fed in chunks of `chunk` bytes, path → text. */
  const filesOf = async (tar: Buffer, chunk: number) => {
    const files = new Map<string, string>();
    const reader = tarFiles((entry) => {
      const parts: Buffer[] = [];
      return { write: (b) => void parts.push(Buffer.from(b)), end: () => void files.set(entry.path, Buffer.concat(parts).toString('utf8')) };
    });
    const chunks: Buffer[] = [];
    for (let at = 0; at < tar.length; at += chunk) chunks.push(tar.subarray(at, at + chunk));
    await pipeline(Readable.from(chunks), reader);
    return files;
  };
  /** What tarFault says of the failure reading `tar`, or 'read' when it was read whole. */
  const faultOf = (tar: Buffer) =>
    filesOf(tar, 512).then(
      () => 'read',
      (e: unknown) => tarFault(e),
    );
  const tinyTar = () => gunzipSync(upstreamArchive(tinyTables(join(scratch, 'tar-cut')), 'x'));

  it('reads git archive output, long names included, in any chunk sizes', async () => {
    const tar = gunzipSync(upstreamArchive(tinyTables(join(scratch, 'tar-tiny')), 'pokeapi-0123456789abcdef0123456789abcdef01234567'));
    const whole = await filesOf(tar, tar.length);
    const long = 'pokeapi-0123456789abcdef0123456789abcdef01234567/data/v2/csv/an_unusually_long_table_name_to_need_the_long_path_forms.csv';
    expect(long.length).toBeGreaterThan(100);
    expect(whole.get(long)).toBe('id\n1\n');
    expect(whole.get('pokeapi-0123456789abcdef0123456789abcdef01234567/data/v2/csv/shapes.csv')).toBe('id,identifier,corners\n1,square,4\n2,circle,\n');
    expect(whole.size).toBe(5); // three tables, README.md, data/v2/other/elsewhere.csv
    for (const chunk of [1, 511, 512, 513, 4096]) expect(await filesOf(tar, chunk), `chunks of ${chunk}`).toEqual(whole);
  });

  it('says what is wrong with an archive cut short, in a file or between two, and with bytes that are no archive', async () => {
    const tar = tinyTar();
    // README.md is the first file: its header ends at 2048, its 24 bytes fill the next block
    expect(await faultOf(tar.subarray(0, 2048 + 10))).toBe('Truncated input (needed 512 more bytes, only 10 available), in x/README.md');
    expect(await faultOf(tar.subarray(0, 2048 + 512))).toBe('the archive ends without its end marker');
    expect(await faultOf(tar.subarray(0, 2048 + 512 + 100))).toBe('the archive ends without its end marker');
    expect(await faultOf(Buffer.alloc(1024, 'x'))).toBe('checksum failure');
    expect(await faultOf(Buffer.alloc(0))).toBe('Unrecognized archive format');
  });

  it('stops at a damaged header', async () => {
    const damaged = Buffer.from(tinyTar());
    damaged[1536 + 5] = damaged[1536 + 5]! ^ 0xff; // in README.md's name
    expect(await faultOf(damaged)).toBe('checksum failure');
  });

  it("stops with a sink's own failure, which is not the archive's", async () => {
    const full = Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
    const reader = tarFiles(() => ({
      write: () => {
        throw full;
      },
      end: () => {},
    }));
    const error = await pipeline(Readable.from([tinyTar()]), reader).catch((e: unknown) => e);
    expect(error).toBe(full);
    expect(tarFault(error)).toBeNull();
  });
});

describe('fetching against a lock', () => {
  it('refuses, by name and hash, the tables that differ from the lock, and leaves no cache', async () => {
    const served = damagedCopy(join(scratch, 'refused-tables'));
    server.route('/refused.tar.gz', { body: upstreamArchive(served, `pokeapi-${refusedLock.commit}`) });
    const cache = join(scratch, 'refused/upstream');
    const error = await fetchDataSet(refusedLock, server.url('/refused.tar.gz'), cache, quiet).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FetchError);
    const message = (error as FetchError).message;
    // every other table of the lock passed
    const tables = Object.keys(refusedLock.tables).length;
    expect(message).toMatch(new RegExp(`: 4 of ${tables} tables refused;`));
    for (const name of Object.keys(damage)) {
      const { sha1, size } = refusedLock.tables[name]!;
      const bytes = readFileSync(join(served, name));
      expect(message).toContain(
        `\n  ${name}: expected git blob ${sha1}${size === undefined ? '' : ` (${size} bytes)`}, found ${gitBlobSha1(bytes)} (${bytes.length} bytes)\n`,
      );
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
    expect((error as Error).message).toMatch(
      /^could not download the data set from http:\/\/127\.0\.0\.1:\d+\/stall\.tar\.gz: no data for 300 ms \(DATA_TIMEOUT_MS\), after \d+ bytes \(2 attempts\)\. Set DATA_URL .* or DATA_DIR /,
    );
    expect(server.hits.get('/stall.tar.gz')).toBe(2);
    expect(existsSync(dirname(cache)) ? readdirSync(dirname(cache)) : []).toEqual([]);
  });

  it('says so when the connection closes before the length the server announced', async () => {
    const tiny = tinyTables(join(scratch, 'cut-tables'));
    const body = upstreamArchive(tiny, 'pokeapi-cut');
    server.route('/cut.tar.gz', { body, cutAt: 300, sized: true });
    const error = await fetchDataSet(lockForFolder('3'.repeat(40), tiny), server.url('/cut.tar.gz'), join(scratch, 'cut/upstream'), quiet, {
      retries: 0,
    }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(
      new RegExp(`/cut\\.tar\\.gz: the archive is cut short: the connection closed after \\d+ bytes of ${body.length} bytes \\(network error: `),
    );
    expect(server.hits.get('/cut.tar.gz')).toBe(1);
  });
});

describe('a failed download over a complete cache: one clear error, the cache as it was', () => {
  const cache = join(scratch, 'kept/upstream');
  const ALTERED = Buffer.from('id,identifier\n1,teal\n2,ambr\n');
  let heldLock: UpstreamLock;
  let newerLock: UpstreamLock;
  // the cache holds a verified copy of one pin; a newer pin (another commit, the same tables changed) must download
  beforeAll(async () => {
    const held = tinyTables(join(scratch, 'held-tables'));
    heldLock = lockForFolder('4'.repeat(40), held);
    server.route('/kept.tar.gz', { body: upstreamArchive(held, `pokeapi-${heldLock.commit}`) });
    await fetchDataSet(heldLock, server.url('/kept.tar.gz'), cache, quiet);
    const newer = tinyTables(join(scratch, 'newer-tables'));
    writeFileSync(join(newer, 'colors.csv'), 'id,identifier\n1,cyan\n2,plum\n');
    newerLock = lockForFolder('5'.repeat(40), newer);
    // the archive server's copy of one table was altered; one the lock names is not there at all
    const altered = tinyTables(join(scratch, 'altered-tables'));
    writeFileSync(join(altered, 'colors.csv'), ALTERED);
    newerLock.tables['sizes.csv'] = { sha1: gitBlobSha1(Buffer.from('id\n')), size: 3 };
    const body = upstreamArchive(newer, `pokeapi-${newerLock.commit}`);
    server.route('/kept-corrupted.tar.gz', { body: upstreamArchive(altered, `pokeapi-${newerLock.commit}`) });
    server.route('/kept-truncated.tar.gz', { body, cutAt: Math.floor(body.length / 2) });
    // whole gzip streams of a tar cut short in its first file (README.md), and of bytes that are no tar
    server.route('/kept-tar-cut.tar.gz', { body: gzipSync(gunzipSync(body).subarray(0, 2048 + 10)) });
    server.route('/kept-no-tar.tar.gz', { body: gzipSync(Buffer.alloc(4096, 'x')) });
    server.route('/kept-hangs.tar.gz', { hang: true });
  });

  const cases: { name: string; path: string; timeoutMs?: number; hits: number; says: () => string[] }[] = [
    {
      name: 'a corrupted table and a missing one',
      path: '/kept-corrupted.tar.gz',
      hits: 1,
      says: () => [
        `does not match the lock (commit 555555555555): 2 of 4 tables refused`,
        `colors.csv: expected git blob ${newerLock.tables['colors.csv']!.sha1} (${newerLock.tables['colors.csv']!.size} bytes), found ${gitBlobSha1(ALTERED)} (${ALTERED.length} bytes)`,
        'sizes.csv: missing from the archive',
        'Point DATA_URL at an archive of the pinned commit, or DATA_DIR at a folder holding the tables (csv/).',
      ],
    },
    {
      name: 'a truncated archive',
      path: '/kept-truncated.tar.gz',
      hits: 2,
      says: () => ['the archive is cut short or damaged (gzip: unexpected end of file, after ', '(2 attempts). Set DATA_URL'],
    },
    {
      name: 'a tar cut short in a whole gzip stream',
      path: '/kept-tar-cut.tar.gz',
      hits: 2,
      says: () => [
        `the archive is cut short or damaged (tar: Truncated input (needed 512 more bytes, only 10 available), in pokeapi-${newerLock.commit}/README.md)`,
        '(2 attempts). Set DATA_URL',
      ],
    },
    {
      name: 'a gzip stream of no tar',
      path: '/kept-no-tar.tar.gz',
      hits: 2,
      says: () => ['the archive is cut short or damaged (tar: checksum failure) (2 attempts). Set DATA_URL'],
    },
    {
      name: 'a 404',
      path: '/kept-missing.tar.gz',
      hits: 1,
      says: () => [': HTTP 404 Not Found. Set DATA_URL to a mirror of that archive, or DATA_DIR to a folder holding the tables (csv/).'],
    },
    {
      name: 'a server that hangs',
      path: '/kept-hangs.tar.gz',
      timeoutMs: 400,
      hits: 2,
      says: () => [': no data for 400 ms (DATA_TIMEOUT_MS) (2 attempts). Set DATA_URL'],
    },
  ];

  it.sequential.each(cases)('$name', async ({ path, timeoutMs, hits, says }) => {
    const cacheBefore = fileHashes(cache);
    const beside = readdirSync(dirname(cache));
    const error = await fetchDataSet(newerLock, server.url(path), cache, quiet, timeoutMs ? { timeoutMs } : {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FetchError);
    const message = (error as FetchError).message;
    for (const text of says()) expect(message).toContain(text);
    expect(message).toContain(server.url(path));
    // a download error is one line
    if (path !== '/kept-corrupted.tar.gz')
      expect(message).toMatch(/^could not download the data set from http:\/\/127\.0\.0\.1:\d+\/\S+: [^\n]*Set DATA_URL[^\n]*$/);
    expect(server.hits.get(path)).toBe(hits);
    expect(fileHashes(cache)).toEqual(cacheBefore);
    expect(isFetched(heldLock, cache)).toBe(true);
    expect(readdirSync(dirname(cache))).toEqual(beside);
  });
});
