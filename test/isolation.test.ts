/**
 * Tests never touch what a user serves. The whole-run check (hashes of the user's dist/ and
 * records before and after every test) is in global-setup.ts; this file checks that the guard
 * is armed and that the hash it relies on sees the changes a stray build would make.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, renameSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { overlaps, testBuildDir, testConfig, userFolders } from './support/config.ts';
import { treeHash } from './support/files.ts';

const scratch = mkdtempSync(join(tmpdir(), 'creature-isolation-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the tests build apart from the user', () => {
  it('builds into folders of their own, apart from the user dist/ and records', () => {
    const config = testConfig();
    expect(inject('distDir')).toBe(config.outDir);
    for (const user of userFolders()) {
      expect(overlaps(user, testBuildDir), user).toBe(false);
      expect(overlaps(user, config.outDir), user).toBe(false);
      expect(overlaps(user, config.recordsDir), user).toBe(false);
    }
  });

  it('hashed both user folders before any test ran', () => {
    expect(Object.keys(inject('guardedFolders')).sort()).toEqual(userFolders().sort());
    for (const hash of Object.values(inject('guardedFolders'))) expect(hash).toMatch(/^(absent|[0-9a-f]{64})$/);
  });

  it('the tree hash sees a folder appear, a changed byte, a rewrite with the same bytes and a swap', () => {
    const dir = join(scratch, 'dist');
    const absent = treeHash(dir);
    expect(absent).toBe('absent');
    mkdirSync(join(dir, 'v2'), { recursive: true });
    writeFileSync(join(dir, 'v2/a.json'), '{"a":1}');
    const first = treeHash(dir);
    expect(first).not.toBe(absent);
    expect(treeHash(dir)).toBe(first);

    writeFileSync(join(dir, 'v2/a.json'), '{"a":2}');
    const changed = treeHash(dir);
    expect(changed).not.toBe(first);

    // the same bytes again, written as a new file: what a rebuild with equal output does
    writeFileSync(join(dir, 'v2/b.tmp'), '{"a":2}');
    renameSync(join(dir, 'v2/b.tmp'), join(dir, 'v2/a.json'));
    const rewritten = treeHash(dir);
    expect(rewritten).not.toBe(changed);

    // a whole folder swapped in with equal content
    cpSync(dir, `${dir}.new`, { recursive: true, preserveTimestamps: true });
    rmSync(dir, { recursive: true });
    renameSync(`${dir}.new`, dir);
    expect(treeHash(dir)).not.toBe(rewritten);
  });
});
