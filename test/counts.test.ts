/**
 * Every collection counts what the upstream counts: all rows of its main table, except /type/,
 * which lists the 18 battle types the specification names. Counted here straight from the CSV
 * text with a counter of this file's own, not the import's parser: the count must not agree with
 * the build only because both read the file the same way.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { allKinds } from '../generator/model/kinds.ts';
import { listFile, metaFile, type Meta } from '../contract/layout.ts';
import type { FullList } from '../contract/pagination.ts';
import { testConfig } from './support/config.ts';

const distDir = inject('distDir');
const csvDir = join(testConfig().dataDir, 'csv');
const csvText = (table: string) => readFileSync(join(csvDir, `${table}.csv`), 'utf8');

/**
 * A CSV text's rows after the header: it splits at line ends outside quotes, as a quoted field
 * may span lines (growth_rates' formulas do); a doubled quote inside one flips twice, so it
 * stays inside. The upstream's main tables quote no field that does not start with a quote.
 */
function csvRows(text: string): string[] {
  const rows: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '"') quoted = !quoted;
    else if (text[i] === '\n' && !quoted) {
      rows.push(text.slice(start, i));
      start = i + 1;
    }
  }
  if (start < text.length) rows.push(text.slice(start));
  return rows.slice(1);
}

/** The rows of a main table, each checked to start as a row does: with its integer id (or machine number). */
function rowsOf(table: string): number {
  const text = csvText(table);
  const rows = csvRows(text);
  expect(
    rows.filter((row) => !/^-?\d+,/.test(row)),
    `${table}: rows that do not start with a number`,
  ).toEqual([]);
  // without a quote, a row is a line: the counter must agree with plain line counting
  if (!text.includes('"')) expect(rows.length, table).toBe(text.split('\n').filter((line) => line !== '').length - 1);
  return rows.length;
}

describe('collection counts', () => {
  const meta = JSON.parse(readFileSync(join(distDir, metaFile), 'utf8')) as Meta;

  it.each(allKinds.filter((k) => k.kind !== 'type').map((k) => [k.kind, k.table] as const))('%s counts every row of %s.csv', (kind, table) => {
    const list = JSON.parse(readFileSync(join(distDir, listFile(kind)), 'utf8')) as FullList;
    expect(list.count).toBe(rowsOf(table));
    expect(list.results).toHaveLength(list.count);
    expect(meta.counts[kind]).toBe(list.count);
  });

  it('type counts the 18 battle types, of more rows upstream', () => {
    const list = JSON.parse(readFileSync(join(distDir, listFile('type')), 'utf8')) as FullList;
    expect(list.count).toBe(18);
    expect(rowsOf('types')).toBeGreaterThan(18);
  });

  it('counts a quoted field that spans lines as part of its row', () => {
    // growth_rates is the one main table with quotes: formulas over several lines
    const text = csvText('growth_rates');
    const rows = csvRows(text);
    expect(rows.length).toBeLessThan(text.trimEnd().split('\n').length - 1);
    expect(rows.filter((row) => row.includes('\n')).length).toBeGreaterThan(0);
  });
});
