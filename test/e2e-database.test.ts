/**
 * The docs page's "Download the database" in Chromium, on the full build's preview: an example
 * query runs in the SQL box by range requests, its rows are node:sqlite's on the same file, and
 * the page read less than a tenth of the file: by its own count and by the browser's.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { databaseFile, metaFile } from '../contract/layout.ts';
import { SQL_EXAMPLES } from '../generator/artifacts/database-page.ts';
import { openPage, screenshotOf, useChromium } from './support/docs-page.ts';

const origin = inject('previewUrl');
const distDir = inject('distDir');
const meta = JSON.parse(readFileSync(join(distDir, metaFile), 'utf8')) as { version: string; upstream_commit: string };
const route = `/${databaseFile(meta.version, meta.upstream_commit)}`;
const oracle = new DatabaseSync(join(distDir, route), { readOnly: true });
const size = readFileSync(join(distDir, route)).byteLength;
afterAll(() => oracle.close());

useChromium();

/** What node:sqlite answers, as the box shows it: a row's cells as text, NULL for null (the examples read no blobs). */
const expectedCells = (sql: string) =>
  (oracle.prepare(sql).all() as Record<string, string | number | null>[]).map((row) => Object.values(row).map((v) => (v === null ? 'NULL' : String(v))));

describe('the database in the docs page', () => {
  it('runs the German name search and a learnset by range requests, rows as node:sqlite reads them, under a tenth of the file read', async () => {
    const { page, elsewhere, errors } = await openPage('light', origin);
    const database: { status: number; bytes: number; range: string | undefined }[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname !== route) return;
      const headers = response.headers();
      database.push({ status: response.status(), bytes: Number(headers['content-length']), range: response.request().headers()['range'] });
    });
    await page.goto(`${origin}/`);
    const box = page.locator('#sql');
    await expect.poll(() => box.getAttribute('data-database')).toBe(route);
    let last = 0;
    for (const label of ['A name in German', 'A learnset']) {
      const example = SQL_EXAMPLES.find((e) => e.label === label)!;
      const rows = expectedCells(example.sql);
      expect(rows.length, label).toBeGreaterThan(0);
      await page.getByRole('button', { name: label }).click();
      await expect.poll(() => page.locator('#sql-status').getAttribute('data-rows'), { timeout: 30_000 }).toBe(String(rows.length));
      expect(await page.locator('#sql-status').getAttribute('data-state')).toBe('done');
      expect(await page.locator('#sql-query').inputValue()).toBe(example.sql);
      const shown = await page
        .locator('#sql-output tbody tr')
        .evaluateAll((trs: Element[]) => trs.map((tr): (string | null)[] => Array.from(tr.querySelectorAll('td'), (td) => td.textContent)));
      expect(shown, label).toEqual(rows);
      // the German name search finds charizard's names
      if (label === 'A name in German') expect(shown.map((row) => row[2])).toContain('Mega-Glurak X');
      last = rows.length;
    }
    // every read was one range, answered 206, and the page says what the browser saw
    expect(database.length).toBeGreaterThan(2);
    expect(database.every((r) => r.status === 206 && /^bytes=\d+-\d+$/.test(r.range ?? ''))).toBe(true);
    const read = database.reduce((sum, r) => sum + r.bytes, 0);
    expect(Number(await page.locator('#sql-status').getAttribute('data-read-bytes'))).toBe(read);
    expect(Number(await page.locator('#sql-status').getAttribute('data-file-bytes'))).toBe(size);
    expect(read).toBeLessThan(size / 10);
    await expect.poll(() => page.locator('#sql-status').textContent()).toMatch(new RegExp(`^${last} rows in [\\d.]+ s\\. This`));
    expect(await page.locator('#sql-status').textContent()).toMatch(/ This query read .* of the file’s [\d.]+ MB \([\d.]+ %\)\. SQLite 3\.\d+\.\d+\.$/);
    await screenshotOf(box, 'database-box.png');
    expect(elsewhere).toEqual([]);
    expect(errors.filter((e) => !/favicon/.test(e))).toEqual([]);
  });

  it('lists every table and view of the file, and says what SQLite refused, staying usable', async () => {
    const { page } = await openPage('light', origin);
    await page.goto(`${origin}/`);
    const inFile = (type: string) =>
      (oracle.prepare(`SELECT name FROM sqlite_master WHERE type = ? AND name NOT LIKE 'sqlite_%' ORDER BY name`).all(type) as { name: string }[]).map(
        (r) => r.name,
      );
    const listed = await page.locator('#database .database-tables > li > code:first-child').allTextContents();
    // the file's own tables, less the search's shadow tables and meta, which the text names
    expect([...listed].sort()).toEqual(inFile('table').filter((t) => !/^search_/.test(t) && t !== 'search' && t !== 'meta'));
    const views = await page.locator('#database-views li > code:first-child').allTextContents();
    expect(views.sort()).toEqual(inFile('view'));
    await page.locator('#sql-query').fill(`UPDATE meta SET value = 'x'`);
    await page.locator('#sql-run').click();
    await expect.poll(() => page.locator('#sql-status').getAttribute('data-state'), { timeout: 30_000 }).toBe('error');
    expect(await page.locator('#sql-status').textContent()).toMatch(/readonly/);
    await page.locator('#sql-query').fill(`SELECT value FROM meta WHERE key = 'upstream_commit'`);
    await page.locator('#sql-run').click();
    await expect.poll(() => page.locator('#sql-status').getAttribute('data-state'), { timeout: 30_000 }).toBe('done');
    expect(await page.locator('#sql-output tbody').textContent()).toBe(meta.upstream_commit);
  });
});
