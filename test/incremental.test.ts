/**
 * The incremental planner gives, file for file, what a full build of the same inputs gives.
 * On a copy of the data cut (generator/cut: a handful of species and all they reach, so a full
 * build takes seconds): one full build, then edits applied one after another, each
 * followed by an incremental update of that build; after each round of edits, a full import
 * and build of the edited data into a second folder must hold the same files with the same
 * bytes (the query indexes under v2/_query/, the packed search index among them, and the facts
 * kept beside the build index included).
 *
 * A full build is the costly part of this file, so one is made per round of edits, not per
 * edit, and the edits of a round reach records no other edit of the round reaches (each test
 * says which): a later update of the round writes none of an earlier one's documents again, so
 * it cannot hide a wrong one. The one exception is a language's name, which reaches nearly every
 * document: it comes first in its round, and only the next edit's few documents are made again.
 * After round 1 the planner is closed and opened again, as a second `npm run dev` opens it: from
 * what the first kept of every document's reads (kept-reads.ts), not learned again.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { fileHashes } from './support/files.ts';
import { bulkFile, changeReportFile, changesListFile, filterIndexFile, metaFile, searchIndexFile, searchPackFile } from '../contract/layout.ts';
import { readBuildStamp } from '../generator/builder/stamp.ts';
import { decodeFilterPack, unpackFilterIndex } from '../contract/filter-pack.ts';
import { runBuild } from '../generator/builder/build.ts';
import { runImport } from '../generator/import/import.ts';
import { DataError } from '../generator/import/tables.ts';
import { openIncremental, type IncrementalBuild, type UpdateReport } from '../generator/incremental/index.ts';
import { KeptReads } from '../generator/incremental/kept-reads.ts';

const baseUrl = inject('baseUrl');
/** how many files the global setup's build of the cut holds */
const cutBuildFiles = readdirSync(inject('cutDistDir'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
const scratch = mkdtempSync(join(tmpdir(), 'creature-incremental-'));
const data = join(scratch, 'data');
const served = join(scratch, 'served');
/** a served JSON file, as the shape a test reads of it */
const servedJson = <T>(rel: string): T => JSON.parse(readFileSync(join(served, rel), 'utf8')) as T;
/** the data set's commit (a change report's `to` must be one) */
const HEAD = 'c'.repeat(40);
const about = { upstreamCommit: HEAD, version: 'test', builtAt: '2026-01-01T00:00:00.000Z' };
/** the committed change reports both builds serve */
const reports = join(scratch, 'changes');
const finish = () => ({ inputHash: 'same', about, changesDir: reports });
const reference = join(scratch, 'reference');
/** the served folder's file hashes by inode: each update leaves most of its files as links to the last */
const servedHashes = new Map<string, string>();

/** A full import and build of the data set as it is now (replacing what `outDir` held). */
async function fullBuild(outDir: string): Promise<void> {
  const recordsDir = join(scratch, 'records');
  // the oracle reuses nothing (no previous records to take kinds from): every kind assembled
  runImport({ csvDir: join(data, 'csv'), recordsDir, inputHash: 'same', codeHash: 'oracle', previousDir: join(scratch, 'no-records') });
  // one thread: on the cut a worker's start (its modules, its schemas) costs more than its share
  // of the work, and the bytes are the same however many threads write them
  await runBuild({ recordsDir, mediaDir: join(data, 'media'), outDir, baseUrl, inputHash: 'same', about, changesDir: reports, workers: 1 });
}

/** Replaces one line of a data file (`null` removes it), keeping its line ending; fails if the line is not there. */
function editLine(file: string, line: string, replacement: string | null): void {
  const path = join(data, file);
  const lines = readFileSync(path, 'utf8').split('\n');
  const at = lines.findIndex((l) => l.replace(/\r$/, '') === line);
  if (at < 0) throw new Error(`${file} has no line ${line}`);
  const ending = lines[at]!.endsWith('\r') ? '\r' : '';
  if (replacement === null) lines.splice(at, 1);
  else
    lines[at] = replacement
      .split('\n')
      .map((l) => l + ending)
      .join('\n');
  writeFileSync(path, lines.join('\n'));
}

/** The values of one column of a data file of the copy, one per row. */
function column(file: string, name: string): string[] {
  const [header, ...rows] = readFileSync(join(data, file), 'utf8')
    .split(/\r?\n/)
    .filter((l) => l !== '');
  const at = header!.split(',').indexOf(name);
  if (at < 0) throw new Error(`${file} has no column ${name}`);
  return rows.map((row) => row.split(',')[at]!);
}

/** The creatures of the copy that learn a move (in any version, by any method). */
const learners = (move: string): number => {
  const moves = column('csv/pokemon_moves.csv', 'move_id');
  return new Set(column('csv/pokemon_moves.csv', 'pokemon_id').filter((_, i) => moves[i] === move)).size;
};

/**
 * Where the incrementally updated folder and a full build differ: paths missing, extra or with
 * other bytes, once the planner made again the downloads that the round's updates left stale.
 */
async function compareWithFullBuild(): Promise<string[]> {
  expect(readBuildStamp(served)?.downloads).toBe('stale');
  expect(await planner.refreshDownloads()).not.toBeNull();
  expect(readBuildStamp(served)?.downloads).toBeUndefined();
  expect(await planner.refreshDownloads()).toBeNull();
  await fullBuild(reference);
  const ours = fileHashes(served, servedHashes);
  const theirs = fileHashes(reference);
  const out: string[] = [];
  for (const [path, hash] of theirs) if (ours.get(path) !== hash) out.push(`${path}: ${ours.has(path) ? 'other bytes' : 'missing'}`);
  for (const path of ours.keys()) if (!theirs.has(path)) out.push(`${path}: not in the full build`);
  // a whole build, not a part of one: about as many files as the cut's own build (the edits add and remove a handful)
  expect(theirs.size).toBeGreaterThan(0.95 * cutBuildFiles);
  return out.slice(0, 20);
}

let planner: IncrementalBuild;
/** The planner over the served folder, keeping what every document reads beside it between sessions. */
const openPlanner = (): IncrementalBuild => openIncremental({ dataDir: data, mediaDir: join(data, 'media'), outDir: served, baseUrl, finish, keepReads: true });
beforeAll(async () => {
  mkdirSync(data, { recursive: true });
  for (const part of ['csv', 'media', 'PROVENANCE.md']) cpSync(join(inject('cutDataDir'), part), join(data, part), { recursive: true });
  await fullBuild(served);
  planner = openPlanner();
  expect(planner.readsKept).toBe(false);
}, 600_000);
afterAll(async () => {
  await planner?.close();
  rmSync(scratch, { recursive: true, force: true });
});

const update = async (): Promise<UpdateReport> => {
  const started = performance.now();
  const report = await planner.update();
  console.log(`incremental: ${JSON.stringify(report)} in ${((performance.now() - started) / 1000).toFixed(2)} s`);
  return report;
};

describe('incremental rebuilds equal a full build, file by file', () => {
  it("a move's name, which every creature that learns it links to, and a language's name, which nearly every document does", async () => {
    // the cut's two dozen tackle learners stand in for the whole data set's hundreds
    const linking = learners('33');
    expect(linking).toBeGreaterThan(20);
    editLine('csv/moves.csv', '33,tackle,1,1,40,35,100,0,10,2,1,,5,1,5', '33,body-tackle,1,1,40,35,100,0,10,2,1,,5,1,5');
    const moved = await update();
    expect(moved.records).toEqual({ move: 1 });
    expect(moved.documents).toBeGreaterThan(linking);
    // each document's reads are its own: the creatures' items only link to the move, and are
    // relinked (their bytes spliced, not made again), their encounters read no move and are not
    expect(moved.made['creature item (relinked)']).toBe(linking);
    expect(moved.made['creature item']).toBeUndefined();
    expect(moved.relinked).toBeGreaterThanOrEqual(linking);
    expect(moved.made['creature encounters']).toBeUndefined();
    // nor their as-of facts and documents, which hold their moves by id
    expect(moved.made['creature as-of']).toBeUndefined();
    expect(readFileSync(join(served, 'v2/move/body-tackle.json'), 'utf8')).toBe(readFileSync(join(served, 'v2/move/33.json'), 'utf8'));

    editLine('csv/languages.csv', '5,fr,fr,fr,1,8', '5,fr,fr,french,1,8');
    const language = await update();
    expect(language.records).toEqual({ language: 1 });
    // an item's translated names are searched by their language's name, which its facts read: made again, not relinked
    expect(language.made['creature-species item']).toBeGreaterThan(0);
    expect(language.made['creature-species item (relinked)']).toBeUndefined();
    // round 1 goes on with the next test: one creature's stat, made again after nearly every document was
  }, 600_000);

  it("a creature's base stat", async () => {
    const bulk = () => readFileSync(join(served, bulkFile('creature')));
    const bulkBefore = bulk();
    editLine('csv/pokemon_stats.csv', '25,1,35,0', '25,1,36,0');
    const report = await update();
    expect(report.records).toEqual({ creature: 1 });
    // the answers are served before the downloads are made again: the stamp says they are stale
    expect(report.downloadsStale).toBe(true);
    expect(bulk().equals(bulkBefore)).toBe(true);
    // the creature and the few documents that read more of it than its name; those that only
    // link to it (the moves it learns, its types, abilities) read its name, which did not change;
    // and the entry of every variety of its species, which holds the species' varieties
    const varieties = servedJson<{ varieties: unknown[] }>('v2/creature-species/pikachu.json').varieties.length;
    expect(report.made['entry item']).toBe(varieties);
    expect(report.documents - varieties).toBeGreaterThanOrEqual(1);
    expect(report.documents - varieties).toBeLessThan(10);
    expect(report.made['creature as-of']).toBe(1);
    expect(servedJson<{ stats: { base_stat: number }[] }>('v2/creature/pikachu.json').stats[0]?.base_stat).toBe(36);
    // round 1: the move's and the language's updates, then this one
    expect(await compareWithFullBuild()).toEqual([]);
  }, 600_000);

  it('an added row, a deleted row, and a change to a media manifest', async () => {
    // a new session from here on, on what the last one kept of what every document reads: the
    // ledger round 1's updates left, read back, must find the documents these edits reach
    await planner.close();
    planner = openPlanner();
    expect(planner.readsKept).toBe(true);

    editLine('csv/abilities.csv', '229,grassy-surge,7,1', '229,grassy-surge,7,1\n10061,test-added-ability,5,0');
    editLine('csv/pokemon_abilities.csv', '1,34,1,3', null);
    // a row that stays under the same ability but says another thing: the ability's list of
    // creatures reads the row, not only the creature's name
    editLine('csv/pokemon_abilities.csv', '4,94,1,3', '4,94,0,3');
    const rows = await update();
    expect(Object.keys(rows.records).sort()).toEqual(['ability', 'creature']);

    // one sprite the build uses goes, one path appears
    editLine('media/sprites.txt', 'sprites/pokemon/back/25.png', null);
    editLine('media/sprites.txt', 'sprites/pokemon/25.png', 'sprites/pokemon/25.png\nsprites/pokemon/test-added/25.png');
    const media = await update();
    expect(media.mediaPaths).toBe(2);
    expect(media.documents).toBeGreaterThan(0);
    // round 2 goes on with the next test, whose names are of other abilities, creatures and items than these
  }, 600_000);

  it('names that move to another id: a swap of names, and a duplicated name whose lower-id owner lets go of it', async () => {
    // ability 11 (Vaporeon's) takes ability 10's (Jolteon's) name while ability 10 takes another
    editLine('csv/abilities.csv', '11,water-absorb,3,1', '11,volt-absorb,3,1');
    editLine('csv/abilities.csv', '10,volt-absorb,3,1', '10,test-volt-absorb,3,1');
    // two items are named roseli-berry; the lower id (723) holds the name until it is renamed
    editLine('csv/items.csv', '723,roseli-berry,7,80,10,', '723,test-roseli-berry,7,80,10,');
    const report = await update();
    expect(report.records.ability).toBe(2);
    const same = (a: string, b: string) => statSync(join(served, a)).ino === statSync(join(served, b)).ino;
    expect(same('v2/ability/volt-absorb.json', 'v2/ability/11.json')).toBe(true);
    expect(same('v2/ability/test-volt-absorb.json', 'v2/ability/10.json')).toBe(true);
    expect(existsSync(join(served, 'v2/ability/water-absorb.json'))).toBe(false);
    expect(same('v2/item/roseli-berry.json', 'v2/item/2279.json')).toBe(true);
    expect(same('v2/item/test-roseli-berry.json', 'v2/item/723.json')).toBe(true);
    // round 2: the added and deleted rows, the media manifest, then these names
    expect(await compareWithFullBuild()).toEqual([]);
  }, 600_000);

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

    editLine('csv/pokemon_stats.csv', '25,1,36,0', '25,1,strong,0');
    const error = await planner.update().catch((e: unknown) => e);
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

describe('what every document reads, kept between sessions', () => {
  it('is read back only for the build it describes, and a file that cannot be read is as none', async () => {
    await planner.close();
    const kept = new KeptReads(served);
    expect(existsSync(kept.file)).toBe(true);
    expect(kept.load()).not.toBeNull();

    const stampPath = join(served, 'build-stamp.json');
    const stamp = readFileSync(stampPath);
    try {
      // another build's stamp (other inputs; or downloads not made again, which the next start builds again)
      writeFileSync(stampPath, JSON.stringify({ ...JSON.parse(stamp.toString('utf8')), inputHash: 'other' }));
      expect(new KeptReads(served).load()).toBeNull();
      writeFileSync(stampPath, JSON.stringify({ ...JSON.parse(stamp.toString('utf8')), downloads: 'stale' }));
      expect(new KeptReads(served).load()).toBeNull();
    } finally {
      writeFileSync(stampPath, stamp);
    }
    // cut short, as by a session killed while it wrote
    writeFileSync(kept.file, readFileSync(kept.file).subarray(0, 1000));
    expect(new KeptReads(served).load()).toBeNull();
    planner = openPlanner();
    expect(planner.readsKept).toBe(false);
  }, 600_000);
});
