/**
 * The incremental planner gives, file for file, what a full build of the same inputs gives
 * (test/support/incremental.ts: a copy of the data cut, a full build, edits applied one after
 * another, each followed by an incremental update; after each round of edits, a full import and
 * build of the edited data must hold the same files with the same bytes, the query indexes and
 * the kept facts included). This file: rounds 1 and 2, and what every document reads kept
 * between sessions; test/incremental-rounds.test.ts the rounds after, on a session of its own.
 *
 * A full build is the costly part, so one is made per round of edits, not per edit, and the
 * edits of a round reach records no other edit of the round reaches (each test says which): a
 * later update of the round writes none of an earlier one's documents again, so it cannot hide a
 * wrong one. The one exception is a language's name, which reaches nearly every document: it
 * comes first in its round, and only the next edit's few documents are made again. After round 1
 * the planner is closed and opened again, as a second `npm run dev` opens it: from what the first
 * kept of every document's reads (kept-reads.ts), not learned again.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bulkFile } from '../contract/layout.ts';
import { KeptReads } from '../generator/incremental/kept-reads.ts';
import { readBuildStamp } from '../generator/builder/stamp.ts';
import { fileHashes } from './support/files.ts';
import { compareWithFullBuild, editLine, learners, openPlanner, served, servedJson, session, update, useIncrementalSession } from './support/incremental.ts';

useIncrementalSession();

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
    // the creature, its entry and the few documents that read more of it than its name; those
    // that only link to it (the moves it learns, its types, abilities) read its name, which did not
    // change; its species and the entries of its other varieties read whether it is the default
    // variety, which did not change either
    expect(servedJson<{ varieties: unknown[] }>('v2/creature-species/pikachu.json').varieties.length).toBeGreaterThan(1);
    expect(report.made['entry item']).toBe(1);
    expect(report.made['creature-species item']).toBeUndefined();
    expect(report.documents).toBeGreaterThanOrEqual(2);
    expect(report.documents).toBeLessThan(10);
    expect(report.made['creature as-of']).toBe(1);
    expect(servedJson<{ stats: { base_stat: number }[] }>('v2/creature/pikachu.json').stats[0]?.base_stat).toBe(36);
    // a refresh of the downloads that an edit stops leaves dist/ as it was, its downloads still stale
    const servedBefore = fileHashes(served);
    const stopping = new AbortController();
    const refresh = session.planner.refreshDownloads(stopping.signal);
    stopping.abort(new Error('an edit came'));
    await expect(refresh).rejects.toThrow('an edit came');
    expect(readBuildStamp(served)?.downloads).toBe('stale');
    expect(fileHashes(served)).toEqual(servedBefore);
    // round 1: the move's and the language's updates, then this one
    expect(await compareWithFullBuild()).toEqual([]);
  }, 600_000);

  it('an added row, a deleted row, and a change to a media manifest', async () => {
    // a new session from here on, on what the last one kept of what every document reads: the
    // ledger round 1's updates left, read back, must find the documents these edits reach
    await session.planner.close();
    session.planner = openPlanner();
    expect(session.planner.readsKept).toBe(true);

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
});

describe('what every document reads, kept between sessions', () => {
  it('is read back only for the build it describes, and a file that cannot be read is as none', async () => {
    await session.planner.close();
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
    session.planner = openPlanner();
    expect(session.planner.readsKept).toBe(false);
  }, 600_000);
});
