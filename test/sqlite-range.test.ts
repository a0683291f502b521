/**
 * The SQL box's reader (site/sqlite-range.js) under SQLite's WebAssembly build in Node, over the
 * full build's database read through a counting range reader: every answer is what node:sqlite
 * reads from the same file, a lookup reads a few pages of it, a scan reads ahead in a few
 * requests, the file is read-only, and a reader's own error is what the query throws.
 */
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import init, { type Database } from '@sqlite.org/sqlite-wasm';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { databaseFile, metaFile } from '../contract/layout.ts';
import { SQL_EXAMPLES } from '../generator/artifacts/database-page.ts';
import { openRangeDatabase } from '../site/sqlite-range.js';

const distDir = inject('distDir');
const meta = JSON.parse(readFileSync(join(distDir, metaFile), 'utf8')) as { version: string; upstream_commit: string };
const path = join(distDir, databaseFile(meta.version, meta.upstream_commit));
const fd = openSync(path, 'r');
const size = fstatSync(fd).size;
const oracle = new DatabaseSync(path, { readOnly: true });
const sqlite3 = await init();
// the refused writes below are expected; SQLite's build would also warn of each on stderr
sqlite3.config.warn = () => {};
afterAll(() => {
  oracle.close();
  closeSync(fd);
});

/** `length` bytes of the file from `start`. */
function readAt(start: number, length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  readSync(fd, bytes, 0, length, start);
  return bytes;
}

/** A reader of the file that records each range asked. */
function fileReader() {
  const asked: [number, number][] = [];
  const read = (start: number, length: number) => {
    asked.push([start, length]);
    return readAt(start, length);
  };
  return { asked, read };
}

const rowsOf = (db: Database, sql: string) => db.exec({ sql, rowMode: 'object', returnValue: 'resultRows' }) as Record<string, unknown>[];

describe('the range reader', () => {
  it('answers each example of the docs page as node:sqlite does, reading a few pages of the file', () => {
    const reader = fileReader();
    const { db, stats } = openRangeDatabase(sqlite3, { size, read: reader.read });
    try {
      for (const example of SQL_EXAMPLES) {
        const before = stats.bytes;
        const rows = rowsOf(db, example.sql);
        expect(rows, example.label).toEqual((oracle.prepare(example.sql).all() as Record<string, unknown>[]).map((row) => ({ ...row })));
        expect(rows.length, example.label).toBeGreaterThan(0);
        // a lookup by key or by a few trigrams: well under 1 % of the file each
        expect(stats.bytes - before, example.label).toBeLessThan(size / 100);
      }
      expect(stats.requests).toBe(reader.asked.length);
      expect(stats.bytes).toBe(reader.asked.reduce((sum, [, length]) => sum + length, 0));
      expect(stats.bytes).toBeLessThan(size / 10);
    } finally {
      db.close();
    }
  });

  it('reads a scan ahead, doubling each fetch that continues the last, and never reads a range twice while it is kept', () => {
    const reader = fileReader();
    const { db, stats } = openRangeDatabase(sqlite3, { size, read: reader.read });
    try {
      const [{ n }] = rowsOf(db, 'SELECT count(*) AS n FROM creature_moves') as [{ n: number }];
      expect(n).toBe((oracle.prepare('SELECT count(*) AS n FROM creature_moves').get() as { n: number }).n);
      const pages = Math.ceil(stats.bytes / 4096);
      expect(stats.requests).toBeLessThan(pages / 10);
      expect(Math.max(...reader.asked.map(([, length]) => length))).toBe(64 * 4096);
      const starts = reader.asked.map(([start]) => start);
      expect(new Set(starts).size).toBe(starts.length);
    } finally {
      db.close();
    }
  });

  it('is read-only: a write is refused, and the file is never written', () => {
    const { db } = openRangeDatabase(sqlite3, { size, read: fileReader().read });
    try {
      expect(() => db.exec(`UPDATE meta SET value = 'x' WHERE key = 'version'`)).toThrow(/readonly/);
      expect(() => db.exec('CREATE TABLE t (x)')).toThrow(/readonly/);
    } finally {
      db.close();
    }
  });

  it('throws the reader’s own error, not only SQLite’s "disk I/O error"', () => {
    let reads = 0;
    const failing = new Error('the database changed on the server while it was read; reload the page');
    const { db, takeError } = openRangeDatabase(sqlite3, {
      size,
      read: (start, length) => {
        if (++reads > 3) throw failing;
        return readAt(start, length);
      },
    });
    try {
      let thrown: unknown;
      try {
        rowsOf(db, 'SELECT count(*) FROM creature_moves');
      } catch (error) {
        thrown = error;
      }
      expect(String(thrown)).toMatch(/I\/O error/);
      expect(takeError()).toBe(failing);
      expect(takeError()).toBeUndefined();
    } finally {
      db.close();
    }
  });
});
