/**
 * The incremental planner's later rounds (rounds 1 and 2 are test/incremental.test.ts): each
 * round's updates, then the served folder against a full import and build of the edited data,
 * file for file (test/support/incremental.ts), on a session of this file's own: a stat's name and
 * a move's type with a species' name; a save that changes nothing and a bad edit; records that
 * go; names made from another table; a change report committed beside the lock.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileHashes } from './support/files.ts';
import { changeReportFile, changesListFile, filterIndexFile, metaFile, searchIndexFile, searchPackFile } from '../contract/layout.ts';
import { decodeFilterPack, unpackFilterIndex } from '../contract/filter-pack.ts';
import { DataError } from '../generator/import/tables.ts';
import {
  HEAD,
  baseUrl,
  column,
  compareWithFullBuild,
  data,
  editLine,
  reports,
  served,
  servedJson,
  session,
  update,
  useIncrementalSession,
} from './support/incremental.ts';

useIncrementalSession();

describe('incremental rebuilds equal a full build, file by file', () => {
  it("a stat's name, which the creatures' ranges are read by: their items are made again, what only links to the stat is relinked", async () => {
    editLine('csv/stats.csv', '6,,speed,0,4', '6,,test-speed,0,4');
    const report = await update();
    expect(report.records).toEqual({ stat: 1 });
    expect(report.made['creature item']).toBeGreaterThan(20);
    expect(report.made['creature item (relinked)']).toBeUndefined();
    expect(report.relinked).toBeGreaterThan(0);
    expect(servedJson<{ stats: { stat: { name: string } }[] }>('v2/creature/25.json').stats.map((s) => s.stat.name)).toContain('test-speed');
    // round 3 goes on with the next test: a move's type and a species' name reach a few of these creatures again
  }, 600_000);

  it("query indexes: a move's type (a filter value) and a species' translated name (searched on the species and its creatures)", async () => {
    const typeIndex = () => unpackFilterIndex(decodeFilterPack(readFileSync(join(served, filterIndexFile('move')))));
    const holdsPound = (type: string) => {
      const row = typeIndex().values['type']!.values.find(([name]) => name === type);
      let position = -1;
      return (row?.[2] ?? []).map((gap) => (position += gap + 1)).includes(0);
    };
    const searched = (kind: string) => readFileSync(join(served, searchIndexFile(kind)), 'utf8');
    expect(holdsPound('normal')).toBe(true);
    // pound (move 1, first in the list) becomes a fighting move; Pikachu's English name changes
    editLine('csv/moves.csv', '1,pound,1,1,40,35,100,0,10,2,1,,5,1,5', '1,pound,1,2,40,35,100,0,10,2,1,,5,1,5');
    editLine('csv/pokemon_species_names.csv', '25,9,Pikachu,Mouse Pokémon', '25,9,Pikachoo,Mouse Pokémon');
    const report = await update();
    expect(report.records).toEqual({ move: 1, 'creature-species': 1 });
    // the creatures of the species search its names: their items (and facts) are made again
    expect(report.made['creature item']).toBeGreaterThanOrEqual(1);
    expect([holdsPound('normal'), holdsPound('fighting')]).toEqual([false, true]);
    expect(searched('creature-species')).toContain('pikachoo');
    expect(searched('creature')).toContain('pikachoo');
    // the packed index of every kind is written again from the kinds' files: the served build's and the new ones
    expect(readFileSync(join(served, searchPackFile)).includes('pikachoo')).toBe(true);
    // round 3: the stat's name, then this test's edits
    expect(await compareWithFullBuild()).toEqual([]);
  }, 600_000);

  it('a save that changes nothing does nothing; a bad edit names table, row and column and leaves the build as it was', async () => {
    const before = fileHashes(served);
    const stats = join(data, 'csv/pokemon_stats.csv');
    writeFileSync(stats, readFileSync(stats));
    expect((await update()).unchanged).toBe(true);

    // pikachu's hp as the cut has it (this file's session does not run round 1's edit)
    editLine('csv/pokemon_stats.csv', '25,1,35,0', '25,1,strong,0');
    const error = await session.planner.update().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataError);
    expect((error as Error).message).toMatch(/table pokemon_stats\.csv, row \d+ \(line \d+\), column base_stat: expected an integer, found "strong"/);
    expect(fileHashes(served)).toEqual(before);

    // fixed again, the planner goes on from the last good state
    editLine('csv/pokemon_stats.csv', '25,1,strong,0', '25,1,37,0');
    expect((await update()).records).toEqual({ creature: 1 });
    expect(servedJson<{ stats: { base_stat: number }[] }>('v2/creature/25.json').stats[0]?.base_stat).toBe(37);
    // round 4 goes on: this creature, then ailments and their moves (thunderbolt, which it learns,
    // reads only its name), an item and locations it has nothing to do with
  }, 600_000);

  it('records that go: a list shrinks below a page boundary, and its last default page goes with its files', async () => {
    // two of the 22 move ailments (the cut keeps them all) go, and their moves (thunderbolt's
    // paralysis, hypnosis's sleep) say "none" instead: 20 remain, so the page at offset 20 goes
    const ailments = column('csv/move_meta_ailments.csv', 'id').length;
    expect(ailments).toBe(22);
    editLine('csv/move_meta.csv', '85,4,1,,,,,0,0,0,10,0,0', '85,4,0,,,,,0,0,0,10,0,0');
    editLine('csv/move_meta.csv', '95,1,2,,,2,4,0,0,0,0,0,0', '95,1,0,,,2,4,0,0,0,0,0,0');
    for (const line of ['1,5,Paralysie', '1,7,Parálisis', '1,9,Paralysis', '1,14,Parálisis', '2,5,Sommeil', '2,7,Dormir', '2,9,Sleep', '2,14,Dormir'])
      editLine('csv/move_meta_ailment_names.csv', line, null);
    editLine('csv/move_meta_ailments.csv', '1,paralysis', null);
    editLine('csv/move_meta_ailments.csv', '2,sleep', null);
    expect(existsSync(join(served, 'v2/_pages/move-ailment/20.json'))).toBe(true);
    const report = await update();
    expect(report.records).toEqual({ 'move-ailment': 2, move: 2 });
    for (const gone of [
      'v2/_pages/move-ailment/20.json',
      'v2/move-ailment/1.json',
      'v2/move-ailment/paralysis.json',
      'v2/move-ailment/2.json',
      'v2/move-ailment/sleep.json',
    ]) {
      expect(existsSync(join(served, gone)), gone).toBe(false);
    }
    expect(servedJson<{ count: number }>('v2/_lists/move-ailment.json').count).toBe(ailments - 2);
    // round 4 goes on with the next test, whose item and locations no creature above holds or lives at
  }, 600_000);

  it('names made from another table: a berry through its item, location areas through their location', async () => {
    // a berry is named by the first word of its item's identifier; an area by its location's, then its own
    editLine('csv/items.csv', '126,cheri-berry,3,80,10,3', '126,testcheri-berry,3,80,10,3');
    editLine('csv/locations.csv', '10,4,mt-coronet', '10,4,test-coronet');
    const report = await update();
    expect(report.records.berry).toBe(1);
    // every area of the location (the cut keeps all 13 of Mt. Coronet's)
    expect(report.records['location-area']).toBe(column('csv/location_areas.csv', 'location_id').filter((id) => id === '10').length);
    expect(servedJson<{ id: number }>('v2/berry/testcheri.json').id).toBe(1);
    expect(existsSync(join(served, 'v2/berry/cheri.json'))).toBe(false);
    expect(existsSync(join(served, 'v2/location-area/test-coronet-2f.json'))).toBe(true);
    expect(existsSync(join(served, 'v2/location-area/mt-coronet-2f.json'))).toBe(false);
    // round 4: the fixed stat, the ailments that went and these names
    expect(await compareWithFullBuild()).toEqual([]);
  }, 600_000);

  it("a change report committed beside the lock (a teammate's, pulled): the list, the report and meta serve it, nothing else is made again", async () => {
    const from = 'a'.repeat(40);
    const report = {
      from,
      to: HEAD,
      tables: [{ table: 'colors.csv', change: 'changed', rows_added: 1, rows_removed: 1 }],
      kinds: {},
      summary: { added: 0, removed: 0, changed: 0 },
    };
    mkdirSync(reports, { recursive: true });
    writeFileSync(join(reports, `${from}..${HEAD}.json`), JSON.stringify(report, null, 2));
    // a round of its own (round 5): only the once-made files are made again
    const made = await update();
    expect(made).toMatchObject({ reports: true, unchanged: false, documents: 0 });
    expect(JSON.parse(readFileSync(join(served, changesListFile), 'utf8'))).toMatchObject({ count: 1, results: [{ from, to: HEAD }] });
    expect(JSON.parse(readFileSync(join(served, changeReportFile(HEAD)), 'utf8'))).toEqual(report);
    expect(servedJson<{ changes: { latest: string } }>(metaFile).changes.latest).toBe(`${baseUrl}/changes/${HEAD}/`);
    expect(await compareWithFullBuild()).toEqual([]);
    expect((await update()).unchanged).toBe(true);
  }, 600_000);
});
