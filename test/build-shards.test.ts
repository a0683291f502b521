/**
 * A failing build worker's error reaches the user only once every other worker has stopped: one
 * still writing would make removing the unfinished build fail, and that error would hide the one
 * that names the table, row and column.
 */
import { describe, expect, it } from 'vitest';
import { allShards } from '../generator/emit/build.ts';

const after = <T>(ms: number, make: () => T): Promise<T> => new Promise((resolve, reject) => setTimeout(() => {
  try { resolve(make()); } catch (error) { reject(error); }
}, ms));

describe('the build waits for every shard', () => {
  it('gives the results in shard order', async () => {
    expect(await allShards([after(20, () => 'a'), after(1, () => 'b')])).toEqual(['a', 'b']);
  });

  it('throws the first failure only after the slower shards are done', async () => {
    let slowDone = false;
    const failing = after(1, () => { throw new Error('moves.csv row 12, column power: not an integer'); });
    const slow = after(60, () => { slowDone = true; return 'written'; });
    await expect(allShards([failing, slow])).rejects.toThrow('moves.csv row 12, column power');
    expect(slowDone).toBe(true);
  });
});
