/**
 * The input hash that decides whether `npm start` builds again: a memo of file hashes (what
 * `npm run dev` keeps between saves) gives the same hash as reading everything, sees an edit
 * that keeps the size, and does not read a file it has seen unchanged.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileMemo, hashFiles } from '../generator/files/file-memo.ts';
import { BUILD_CODE } from '../generator/pipeline.ts';
import { roomArrows } from './support/rooms.ts';

const scratch = mkdtempSync(join(tmpdir(), 'creature-input-hash-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('hashFiles with a memo', () => {
  mkdirSync(join(scratch, 'csv/deeper'), { recursive: true });
  writeFileSync(join(scratch, 'csv/a.csv'), 'id,name\n1,invented\n');
  writeFileSync(join(scratch, 'csv/deeper/b.csv'), 'id\n7\n');
  const paths = [join(scratch, 'csv'), join(scratch, 'absent')];
  const memo = new FileMemo();

  it('gives the hash that reading every file gives, and again when nothing changed', () => {
    const read = hashFiles(paths);
    expect(hashFiles(paths, memo)).toBe(read);
    expect(memo.size).toBe(2);
    expect(hashFiles(paths, memo)).toBe(read);
  });

  it('sees an edit that keeps the size', () => {
    const before = hashFiles(paths, memo);
    writeFileSync(join(scratch, 'csv/a.csv'), 'id,name\n2,invented\n');
    const after = hashFiles(paths, memo);
    expect(after).not.toBe(before);
    expect(after).toBe(hashFiles(paths));
  });

  it('takes the hash of a file it saw unchanged from the memo, without reading it', () => {
    const path = join(scratch, 'csv/deeper/b.csv');
    hashFiles(paths, memo);
    expect(memo.look(path).bytes).toBeNull();
    writeFileSync(join(scratch, 'csv/deeper/b.csv'), 'id\n8\n');
    expect(memo.look(path).bytes?.toString()).toBe('id\n8\n');
    expect(memo.look(path).bytes).toBeNull();
  });
});

describe('the build input hash', () => {
  it("hashes every top folder the build's code imports: an edit there makes npm start build again", () => {
    // the preview serves a build and writes nothing into it: the request logic it hosts is not an input
    const building = ([from]: [string, unknown]) => from.startsWith('generator') && from !== 'generator/preview';
    const imported = [...roomArrows()].filter(building).flatMap(([, out]) => [...out.keys()]);
    const folders = new Set(['generator', ...imported.map((room) => room.split('/')[0]!)]);
    expect([...folders].filter((folder) => !BUILD_CODE.includes(folder))).toEqual([]);
  });
});
