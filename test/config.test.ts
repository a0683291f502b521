/** Configuration: options over environment over defaults, and clear refusals. */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dataCacheDir, pinnedCommit, repoRoot, resolveConfig, sharedCopyFor, sharedDataDir, sharedRoot, treeCommit } from '../generator/config.ts';

describe('configuration', () => {
  it('defaults to port 8080 and links to the preview itself', () => {
    const c = resolveConfig({}, {});
    expect(c.port).toBe(8080);
    expect(c.baseUrl).toBe('http://localhost:8080/v2');
    expect(c.dataDir).toBe(sharedDataDir() ?? dataCacheDir);
  });

  it('follows PORT in the default base URL, and BASE_URL wins over it', () => {
    expect(resolveConfig({}, { PORT: '3000' }).baseUrl).toBe('http://localhost:3000/v2');
    expect(resolveConfig({}, { PORT: '3000', BASE_URL: 'https://api.example.org/v2/' }).baseUrl).toBe('https://api.example.org/v2');
    expect(resolveConfig({ baseUrl: 'https://a.example/v2' }, { BASE_URL: 'https://b.example/v2' }).baseUrl).toBe('https://a.example/v2');
  });

  it('refuses a base URL that does not end in /v2 and a port that is not one', () => {
    expect(() => resolveConfig({}, { BASE_URL: 'https://api.example.org/' })).toThrow(/ending in \/v2/);
    expect(() => resolveConfig({}, { PORT: 'eighty' })).toThrow(/PORT must be a port number/);
  });

  it('reads the data set from --data / DATA_DIR, else the team copy at the pinned commit, else the download cache', () => {
    const found = () => '/team/copy';
    const none = () => null;
    expect(resolveConfig({ data: 'x' }, { DATA_DIR: 'y' }, found)).toMatchObject({ dataDir: resolve('x'), dataSource: 'given' });
    expect(resolveConfig({}, { DATA_DIR: '/data/tables' }, found)).toMatchObject({ dataDir: '/data/tables', dataSource: 'given' });
    expect(resolveConfig({}, {}, found)).toMatchObject({ dataDir: '/team/copy', dataSource: 'shared' });
    expect(resolveConfig({}, {}, none)).toMatchObject({ dataDir: dataCacheDir, dataSource: 'download' });
    expect(dataCacheDir).toBe(`${repoRoot}/data/upstream`);
  });
});

describe('the team copy, found by commit', () => {
  const a = 'a'.repeat(40);
  const b = 'b'.repeat(40);
  const tree = (commit: string) => `# The upstream's own hash of each table at commit ${commit}:\n# git blob SHA-1 ...\n${'1'.repeat(40)} x.csv\n`;
  const root = mkdtempSync(join(tmpdir(), 'creature-shared-'));
  const copy = (name: string, text: string | null) => {
    mkdirSync(join(root, name, 'csv'), { recursive: true });
    if (text !== null) writeFileSync(join(root, name, 'TREE.txt'), text);
  };
  copy('upstream', tree(a));
  copy('upstream-next', tree(b));
  copy('zz-older', tree(b));
  copy('no-tree', null);
  writeFileSync(join(root, 'README.md'), `commit ${a}\n`);

  it('reads the commit from the first comment line of TREE.txt only', () => {
    expect(treeCommit(tree(a))).toBe(a);
    expect(treeCommit(`# hashes\n# commit ${a}\n`)).toBeNull();
    expect(treeCommit('')).toBeNull();
  });

  it('takes the folder whose TREE.txt names the commit: upstream/ and upstream-next/ before others, none when none matches', () => {
    expect(sharedCopyFor(a, root)).toBe(join(root, 'upstream'));
    expect(sharedCopyFor(b, root)).toBe(join(root, 'upstream-next'));
    expect(sharedCopyFor('c'.repeat(40), root)).toBeNull();
    expect(sharedCopyFor(a, join(root, 'missing'))).toBeNull();
    rmSync(root, { recursive: true, force: true });
  });

  it("is, in this checkout, the copy in ../shared at the lock's commit (or none)", () => {
    const commit = pinnedCommit();
    expect(commit).toMatch(/^[0-9a-f]{40}$/);
    expect(sharedDataDir()).toBe(sharedCopyFor(commit!, sharedRoot));
  });
});
