/**
 * Every collection counts what the upstream counts: all rows of its main table, except /type/,
 * which lists the 18 battle types the specification names. Counted here straight from the CSV.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { parseCsv } from '../generator/import/csv.ts';
import { allKinds } from '../generator/model/kinds.ts';
import { listFile, metaFile, type Meta } from '../edge/layout.ts';
import type { FullList } from '../edge/pagination.ts';
import { testConfig } from './support/config.ts';

const distDir = inject('distDir');
const csvDir = join(testConfig().dataDir, 'csv');
const rowsOf = (table: string) => parseCsv(readFileSync(join(csvDir, `${table}.csv`), 'utf8')).rows.length;

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
});
