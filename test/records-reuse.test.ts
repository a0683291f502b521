/**
 * The import takes the records of kinds whose tables did not change from the records it
 * replaces (hard links), and writes the same bytes as a full import: over a copy of the data cut
 * (generator/cut: every table the import reads, with the rows a few seeds reach) with moves.csv
 * edited (pound's and tackle's power), against a full import of the edited tables (one without
 * previous records). Nothing is reused from records made by other code or with a manifest of the
 * old shape. Only the tables the kinds made and the changed tables' key checks need are read (all
 * of them when a kind asks for another); a bad cell or a dangling reference in a changed table
 * still stops the import naming table, row and column.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { runImport, type ImportOptions } from '../generator/import/import.ts';
import { readManifest, type RecordsManifest } from '../generator/import/records.ts';
import { changedTables, reusableKinds, tablesToRead } from '../generator/import/reuse.ts';
import { DataError, keyCheckTables, loadTables, TableNotLoaded } from '../generator/import/tables.ts';
import { ownedTables, type KindSpec } from '../generator/model/define.ts';
import { allKinds } from '../generator/model/kinds.ts';

const scratch = mkdtempSync(join(tmpdir(), 'creature-records-reuse-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const csvDir = join(scratch, 'csv');
const pinned = join(scratch, 'pinned');
const nowhere = join(scratch, 'no-records');
const CODE = 'code-1';
const importInto = (recordsDir: string, previousDir: string, more: Partial<ImportOptions> = {}) =>
  runImport({ csvDir, recordsDir, inputHash: 'h', codeHash: CODE, previousDir, ...more });

/** Each file of a records folder, by name, as a digest of its bytes (those of the whole data set are 124 MB: never compared as values). */
const filesOf = (dir: string) =>
  Object.fromEntries(
    readdirSync(dir)
      .sort()
      .map((f) => [
        f,
        createHash('sha1')
          .update(readFileSync(join(dir, f)))
          .digest('hex'),
      ]),
  );
const sameFiles = (a: string, b: string) => expect(filesOf(a)).toEqual(filesOf(b));
/** The kinds whose file in `dir` is the very file (a hard link) of `previous`. */
const linkedKinds = (dir: string, previous: string) =>
  allKinds.map((k) => k.kind).filter((kind) => statSync(join(dir, `${kind}.ndjson`)).ino === statSync(join(previous, `${kind}.ndjson`)).ino);

/** Rewrites data row `row` of a table's CSV. */
function editRow(table: string, row: number, change: (line: string) => string): void {
  const file = join(csvDir, `${table}.csv`);
  const lines = readFileSync(file, 'utf8').split('\n');
  lines[row] = change(lines[row]!);
  writeFileSync(file, lines.join('\n'));
}
const morePower = (line: string) => line.replace(/^(\d+,[^,]+,\d+,\d+),(\d+)/, (_m, head: string, power: string) => `${head},${Number(power) + 5}`);

describe('reusing the records of kinds whose tables did not change', () => {
  cpSync(join(inject('cutDataDir'), 'csv'), csvDir, { recursive: true });
  const edited = join(scratch, 'edited-full');
  const reused = join(scratch, 'edited-reused');

  it('notes, per kind, its tables: those it owns and those its name reads', () => {
    expect(importInto(pinned, nowhere).reused).toBe(0);
    const made = readManifest(pinned)!.madeFrom!;
    expect(made.codeHash).toBe(CODE);
    expect(Object.keys(made.tables)).toContain('moves');
    for (const spec of allKinds) expect(made.reads[spec.kind]).toEqual(expect.arrayContaining([...ownedTables(spec as unknown as KindSpec)]));
    const readByName = allKinds.filter((spec) => made.reads[spec.kind]!.some((t) => !ownedTables(spec).has(t as never)));
    expect(readByName.length).toBeGreaterThan(0);
  }, 120_000);

  it('writes the bytes of a full import, taking exactly the kinds that read no changed table', () => {
    editRow('moves', 1, morePower);
    editRow('moves', 2, morePower);
    const warned: string[][] = [[], []];
    expect(importInto(edited, nowhere, { warn: (m) => warned[0]!.push(m) }).reused).toBe(0);
    const result = importInto(reused, pinned, { warn: (m) => warned[1]!.push(m) });
    sameFiles(reused, edited);
    // a reused kind's warnings (a name kept by the lowest id) are said again, from the manifest
    expect(warned[0]!.length).toBeGreaterThan(0);
    expect(warned[1]!.sort()).toEqual(warned[0]!.sort());
    const reads = readManifest(reused)!.madeFrom!.reads;
    const untouched = allKinds.map((k) => k.kind).filter((kind) => !reads[kind]!.includes('moves'));
    expect(linkedKinds(reused, pinned)).toEqual(untouched);
    expect(result.reused).toBe(untouched.length);
    expect(untouched).toContain('berry');
    expect(untouched).not.toContain('move');
    expect(filesOf(reused)['move.ndjson']).not.toBe(filesOf(pinned)['move.ndjson']);
  }, 120_000);

  it('reuses nothing from records of other code or with a manifest of the old shape, and still writes the same bytes', () => {
    const other = join(scratch, 'other-code');
    expect(importInto(other, pinned, { codeHash: 'code-2' }).reused).toBe(0);
    const records = (dir: string) => Object.entries(filesOf(dir)).filter(([f]) => f.endsWith('.ndjson'));
    expect(records(other)).toEqual(records(edited));
    const old = join(scratch, 'old-shape');
    cpSync(pinned, old, { recursive: true });
    const { madeFrom: _gone, ...oldShape } = readManifest(old)!;
    writeFileSync(join(old, 'manifest.json'), JSON.stringify(oldShape));
    expect(importInto(old, old).reused).toBe(0);
    sameFiles(old, edited);
  }, 120_000);

  it("reads only the tables the kinds it makes read and the changed tables' key checks need", () => {
    const previous = readManifest(pinned)!;
    const current = { codeHash: CODE, tables: readManifest(edited)!.madeFrom!.tables };
    const toMake = allKinds.map((k) => k.kind).filter((kind) => previous.madeFrom!.reads[kind]!.includes('moves'));
    const toRead = tablesToRead(previous, current, toMake)!;
    expect([...toRead.changed]).toEqual(['moves']);
    expect(toRead.only).toEqual(new Set([...keyCheckTables(toRead.changed), ...toMake.flatMap((kind) => previous.madeFrom!.reads[kind]!)]));
    expect(toRead.only).toContain('move_damage_classes');
    expect(toRead.only).not.toContain('pokemon_species_flavor_text');
    let steps = 0;
    importInto(join(scratch, 'steps'), pinned, { progress: (_done, total) => (steps = total) });
    expect(steps).toBe(toRead.only.size + toMake.length);
    expect(tablesToRead(null, current, toMake)).toBeNull();
  }, 120_000);

  it('reads every table when a kind asks for one it did not read last time, and still writes the same bytes', () => {
    const guessed = join(scratch, 'guessed');
    cpSync(pinned, guessed, { recursive: true });
    const manifest = readManifest(guessed)!;
    manifest.madeFrom!.reads['move'] = ['moves'];
    writeFileSync(join(guessed, 'manifest.json'), JSON.stringify(manifest));
    const out = join(scratch, 'guessed-out');
    let steps = 0;
    const result = importInto(out, guessed, { progress: (_done, total) => (steps = total) });
    expect(steps).toBe(Object.keys(manifest.madeFrom!.tables).length + allKinds.length - result.reused);
    expect(result.reused).toBeGreaterThan(0);
    sameFiles(out, edited);
  }, 120_000);

  it('stops on a dangling reference in a changed table, naming it', () => {
    const file = join(csvDir, 'pokemon_types.csv');
    const original = readFileSync(file, 'utf8');
    writeFileSync(file, original.replace(/\n1,12,1\n/, '\n1,99,1\n'));
    expect(() => importInto(join(scratch, 'dangling'), pinned)).toThrow('table pokemon_types.csv, row 1, column type_id: 99 is not an id of types.csv');
    writeFileSync(file, original);
    expect(existsSync(join(scratch, 'dangling'))).toBe(false);
  }, 120_000);

  it('stops on a bad cell of a changed table, naming it, and leaves the previous records as they were', () => {
    const previous = join(scratch, 'previous');
    cpSync(pinned, previous, { recursive: true });
    const before = filesOf(previous);
    editRow('moves', 3, (line) => line.replace(/^(\d+,[^,]+,\d+,\d+),(\d+)/, '$1,strong'));
    let error: unknown;
    try {
      importInto(previous, previous);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DataError);
    expect((error as DataError).message).toBe('table moves.csv, row 3 (line 4), column power: expected an integer, found "strong"');
    expect(filesOf(previous)).toEqual(before);
    expect(readdirSync(scratch).filter((f) => f.includes('.tmp-'))).toEqual([]);
    expect(existsSync(join(previous, 'manifest.json'))).toBe(true);
  }, 120_000);
});

describe('the reuse decision', () => {
  const manifest = (codeHash: string): RecordsManifest => ({
    inputHash: 'h',
    kinds: { a: 1, b: 2 },
    madeFrom: { codeHash, tables: { t1: 'x', t2: 'y' }, reads: { a: ['t1'], b: ['t1', 't2'] }, warnings: {} },
  });
  const now = { codeHash: 'c', tables: { t1: 'x', t2: 'changed' } };

  it('takes the kinds whose every table read is unchanged', () => {
    expect(reusableKinds(manifest('c'), now, ['a', 'b'])).toEqual(['a']);
    expect([...changedTables(manifest('c').madeFrom!, now)]).toEqual(['t2']);
    expect(reusableKinds(manifest('c'), { codeHash: 'c', tables: { t1: 'x', t2: 'y' } }, ['a', 'b', 'new-kind'])).toEqual(['a', 'b']);
  });

  it('a store of some tables refuses to pass another off as empty', () => {
    const store = loadTables(csvDir, { only: new Set(['pokemon_colors']) });
    expect(store.rows('pokemon_colors').length).toBeGreaterThan(0);
    expect(() => store.rows('types')).toThrow(TableNotLoaded);
    expect(() => store.byId('types')).toThrow(TableNotLoaded);
  });

  it('takes nothing from other code, no manifest, an old or broken one, or a table that cannot be read now', () => {
    expect(reusableKinds(manifest('other code'), now, ['a', 'b'])).toEqual([]);
    expect(reusableKinds(null, now, ['a', 'b'])).toEqual([]);
    expect(reusableKinds({ inputHash: 'h', kinds: { a: 1 } }, now, ['a'])).toEqual([]);
    const broken = { ...manifest('c'), madeFrom: { ...manifest('c').madeFrom!, reads: { a: 't1' } } } as unknown as RecordsManifest;
    expect(reusableKinds(broken, now, ['a'])).toEqual([]);
    expect(reusableKinds(manifest('c'), { codeHash: 'c', tables: { t2: 'y' } }, ['a', 'b'])).toEqual([]);
  });
});
