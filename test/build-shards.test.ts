/**
 * A failing build worker's error reaches the user only once every other worker has stopped: one
 * still writing would make removing the unfinished build fail, and that error would hide the one
 * that names the table, row and column. Shards here are promises the test settles, in the order
 * it chooses; no clock is involved.
 */
import { describe, expect, it } from 'vitest';
import { allShards } from '../generator/builder/build.ts';

/** A shard's result, settled when the test says. */
function shard<T>() {
  let finish!: (value: T) => void;
  let fail!: (error: Error) => void;
  const running = new Promise<T>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  return { running, finish, fail };
}

/** Lets every promise callback that can run, run: a macrotask comes only after the microtask queue is empty. */
const settleCallbacks = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('the build waits for every shard', () => {
  it('gives the results in shard order', async () => {
    const [first, second] = [shard<string>(), shard<string>()];
    const all = allShards([first.running, second.running]);
    second.finish('b');
    await settleCallbacks();
    first.finish('a');
    expect(await all).toEqual(['a', 'b']);
  });

  it('throws the first failure only after the slower shards are done', async () => {
    const [failing, slow] = [shard<string>(), shard<string>()];
    const events: string[] = [];
    const all = allShards([failing.running, slow.running]).catch((error: unknown) => {
      events.push('build failed');
      throw error;
    });
    failing.fail(new Error('moves.csv row 12, column power: not an integer'));
    await settleCallbacks();
    expect(events).toEqual([]);
    events.push('slow shard done');
    slow.finish('written');
    await expect(all).rejects.toThrow('moves.csv row 12, column power');
    expect(events).toEqual(['slow shard done', 'build failed']);
  });
});
