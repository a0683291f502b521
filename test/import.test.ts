/**
 * The import's promises: CSV read as the upstream reads it; a bad cell, a dangling reference
 * or a duplicate id stops the import naming table, row and column; a failed import leaves the
 * previous records as they were. The bad data sets are copies of the data cut.
 */
import { copyFileSync, cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { parseCsv } from '../generator/import/csv.ts';
import { runImport } from '../generator/import/import.ts';
import { checkKeys, DataError, readTable } from '../generator/import/tables.ts';
import type { TableKey } from '../schemas/tables.ts';

const scratch = mkdtempSync(join(tmpdir(), 'creature-import-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('CSV', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks', () => {
    const t = parseCsv('a,b,c\n1,"x, ""y""","two\nlines"\r\n2,,z\n');
    expect(t.header).toEqual(['a', 'b', 'c']);
    expect(t.rows.map((r) => r.cells)).toEqual([
      ['1', 'x, "y"', 'two\nlines'],
      ['2', '', 'z'],
    ]);
    expect(t.rows.map((r) => r.line)).toEqual([2, 4]);
  });

  it('keeps a quote inside an unquoted field as text, as the upstream reader does', () => {
    expect(parseCsv('a,b\n1, "hi"\n').rows[0]!.cells).toEqual(['1', ' "hi"']);
  });

  it('names the line of a quoted field that never closes', () => {
    expect(() => parseCsv('a\n"open\n')).toThrow(/line 2/);
  });
});

describe('typed tables', () => {
  const problemsOf = (table: TableKey, text: string) => {
    const problems: Array<{ table: string; row?: number; column?: string; message: string }> = [];
    const rows = readTable(table, text, problems);
    return { rows, problems };
  };

  it('types cells by their declaration, empty cells as null', () => {
    const { rows, problems } = problemsOf('pokemon_colors', 'id,identifier\n1,teal\n');
    expect(problems).toEqual([]);
    expect(rows).toEqual([{ id: 1, identifier: 'teal' }]);
    const species = problemsOf('pokemon_habitats', 'id,identifier\n3,reef\n');
    expect(species.rows[0]).toEqual({ id: 3, identifier: 'reef' });
  });

  it('names table, row and column of a cell of the wrong type', () => {
    const { problems } = problemsOf(
      'pokemon',
      'id,identifier,species_id,height,weight,base_experience,order,is_default\n1,alpha,1,3,40,50,1,1\n2,beta,2,tall,90,100,2,1\n',
    );
    expect(problems).toEqual([expect.objectContaining({ table: 'pokemon.csv', row: 2, column: 'height', message: expect.stringContaining('"tall"') })]);
  });

  it('reads a number with spaces around it as the upstream does, and names a cell that is no number', () => {
    const { rows, problems } = problemsOf('encounter_methods', 'id,identifier,order\n1,walk, 45\n2,surf,4 5\n');
    expect(rows[0]).toEqual({ id: 1, identifier: 'walk', order: 45 });
    expect(problems).toEqual([
      expect.objectContaining({ table: 'encounter_methods.csv', row: 2, column: 'order', message: 'expected an integer, found "4 5"' }),
    ]);
  });

  it('refuses an empty required cell and a boolean that is not 0 or 1', () => {
    const { problems } = problemsOf('pokemon', 'id,identifier,species_id,height,weight,base_experience,order,is_default\n1,,1,3,40,50,1,2\n');
    expect(problems.map((p) => [p.row, p.column])).toEqual([
      [1, 'identifier'],
      [1, 'is_default'],
    ]);
  });

  it('names a column that is missing or undeclared', () => {
    expect(problemsOf('pokemon_colors', 'id,identifier,extra\n1,teal,x\n').problems).toEqual([
      expect.objectContaining({ table: 'pokemon_colors.csv', column: 'extra' }),
    ]);
    expect(problemsOf('pokemon_colors', 'id\n1\n').problems).toEqual([expect.objectContaining({ column: 'identifier' })]);
  });

  it('finds dangling references and duplicate ids across tables', () => {
    const problems: Array<{ table: string; row?: number; column?: string; message: string }> = [];
    const store = new Map<TableKey, Array<Record<string, unknown>>>([
      [
        'pokemon_colors',
        [
          { id: 1, identifier: 'teal' },
          { id: 1, identifier: 'ochre' },
        ],
      ],
      ['languages', [{ id: 9, iso639: 'xx', iso3166: 'xx', identifier: 'xx', official: true, order: 1 }]],
      [
        'pokemon_color_names',
        [
          { creature_color_id: 1, local_language_id: 9, name: 'Teal' },
          { creature_color_id: 7, local_language_id: 9, name: 'Ochre' },
        ],
      ],
    ]);
    checkKeys(store, problems);
    expect(problems).toEqual([
      expect.objectContaining({ table: 'pokemon_colors.csv', row: 2, column: 'id', message: 'duplicate id 1' }),
      expect.objectContaining({ table: 'pokemon_color_names.csv', row: 2, column: 'pokemon_color_id', message: expect.stringContaining('7') }),
    ]);
  });
});

describe('a bad data set', () => {
  const cutCsv = join(inject('cutDataDir'), 'csv');
  const csvDir = join(scratch, 'csv');
  const recordsDir = join(scratch, 'records');
  cpSync(cutCsv, csvDir, { recursive: true });
  mkdirSync(recordsDir, { recursive: true });
  writeFileSync(join(recordsDir, 'manifest.json'), '{"inputHash":"previous","kinds":{}}');

  it('stops the import naming table, row and column, and leaves the previous records', () => {
    const file = join(csvDir, 'moves.csv');
    const lines = readFileSync(file, 'utf8').split('\n');
    const header = lines[0]!.split(',');
    const cells = lines[3]!.split(',');
    cells[header.indexOf('power')] = 'strong';
    lines[3] = cells.join(',');
    writeFileSync(file, lines.join('\n'));

    let error: unknown;
    try {
      runImport({ csvDir, recordsDir, inputHash: 'new', codeHash: 'test' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DataError);
    expect((error as DataError).message).toBe('table moves.csv, row 3 (line 4), column power: expected an integer, found "strong"');
    expect(readdirSync(recordsDir)).toEqual(['manifest.json']);
    expect(readFileSync(join(recordsDir, 'manifest.json'), 'utf8')).toContain('previous');
    expect(readdirSync(scratch).filter((f) => f.includes('.tmp-'))).toEqual([]);
    copyFileSync(join(cutCsv, 'moves.csv'), file);
  });

  it('stops on a reference to a row that does not exist', () => {
    const file = join(csvDir, 'pokemon_types.csv');
    const original = readFileSync(file, 'utf8');
    writeFileSync(file, original.replace(/\n1,12,1\n/, '\n1,99,1\n'));
    expect(() => runImport({ csvDir, recordsDir, inputHash: 'new', codeHash: 'test' })).toThrow(
      'table pokemon_types.csv, row 1, column type_id: 99 is not an id of types.csv',
    );
    writeFileSync(file, original);
    expect(existsSync(join(recordsDir, 'creature.ndjson'))).toBe(false);
  });
});
