/**
 * The dev loop's writes onto a hard-linked copy of the served build (builder/output.ts
 * CopyOutput): a written path gets a file of its own, taken from the pool of files made ahead
 * (files/file-pool.ts) while it has one, and the served file it was linked to keeps its bytes.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CopyOutput } from '../generator/builder/output.ts';
import { FilePool } from '../generator/files/file-pool.ts';
import { linkTree } from '../generator/files/folders.ts';

let scratch: string;
let served: string;
let copy: string;
beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'creature-copy-output-'));
  served = join(scratch, 'served');
  copy = join(scratch, 'copy');
  mkdirSync(join(served, 'v2/move'), { recursive: true });
  writeFileSync(join(served, 'v2/move/33.json'), '{"name":"tackle"}');
  writeFileSync(join(served, 'v2/move/1.json'), '{"name":"pound"}');
  linkTree(served, copy);
});
afterEach(() => rmSync(scratch, { recursive: true, force: true }));

describe('writes onto a hard-linked copy', () => {
  it('take the files the pool made ahead, and leave the served files as they were', async () => {
    const pool = new FilePool(join(scratch, 'pool'), 1);
    await pool.fill();
    expect(readdirSync(pool.dir)).toHaveLength(1);
    const out = new CopyOutput(copy, pool);
    await out.write('v2/move/33.json', '{"name":"body-tackle"}');
    // the pool had one file: the second write makes its own
    await out.write('v2/move/1.json', '{"name":"smack"}');
    await out.finish();
    expect(readdirSync(pool.dir)).toHaveLength(0);
    for (const [file, was, now] of [
      ['33.json', 'tackle', 'body-tackle'],
      ['1.json', 'pound', 'smack'],
    ] as const) {
      expect(readFileSync(join(copy, 'v2/move', file), 'utf8')).toBe(`{"name":"${now}"}`);
      expect(readFileSync(join(served, 'v2/move', file), 'utf8')).toBe(`{"name":"${was}"}`);
      expect(statSync(join(copy, 'v2/move', file)).nlink).toBe(1);
    }
    // topped up again, as after a swap
    await pool.fill();
    expect(readdirSync(pool.dir)).toHaveLength(1);
    await pool.close();
  });

  it('find a file holding the same bytes, and not one of another size or other bytes of the same size', () => {
    const out = new CopyOutput(copy);
    expect(out.holds('v2/move/33.json', '{"name":"tackle"}')).toBe(true);
    expect(out.holds('v2/move/33.json', '{"name":"tackles"}')).toBe(false);
    expect(out.holds('v2/move/33.json', '{"name":"tickle"}')).toBe(false);
    expect(out.holds('v2/move/2.json', '{"name":"tackle"}')).toBe(false);
  });
});
