/**
 * The dev loop's two small state machines: saves are debounced and updates never overlap
 * (UpdateQueue); the planner is opened again when the data set changed while it was starting
 * (openSteady). Real timers with a short debounce: what is asserted is counts and order.
 */
import { describe, expect, it } from 'vitest';
import { openSteady, UpdateQueue } from '../generator/dev-queue.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const DEBOUNCE = 30;

/** An update that counts its runs and how many ran at once, taking `ms` each. */
function countingUpdate(ms: number) {
  const seen = { runs: 0, running: 0, mostAtOnce: 0 };
  const update = async () => {
    seen.runs++;
    seen.running++;
    seen.mostAtOnce = Math.max(seen.mostAtOnce, seen.running);
    await sleep(ms);
    seen.running--;
  };
  return { seen, update };
}

describe('UpdateQueue', () => {
  it('runs once for a burst of events, after the last one settles', async () => {
    const { seen, update } = countingUpdate(1);
    const queue = new UpdateQueue(update, DEBOUNCE);
    for (let i = 0; i < 10; i++) {
      queue.notify();
      await sleep(DEBOUNCE / 3);
    }
    // still inside the debounce of the last event
    expect(seen.runs).toBe(0);
    await queue.idle();
    expect(seen.runs).toBe(1);
  });

  it('runs again once, after the running update, for any number of events during it', async () => {
    const { seen, update } = countingUpdate(DEBOUNCE * 12);
    const queue = new UpdateQueue(update, DEBOUNCE);
    queue.notify();
    await sleep(DEBOUNCE * 2);
    expect(seen.running).toBe(1);
    // events both closer than the debounce and farther apart, all during the first run
    for (const pause of [DEBOUNCE / 3, DEBOUNCE * 1.5, DEBOUNCE / 3, DEBOUNCE * 1.5, 0]) {
      queue.notify();
      await sleep(pause);
    }
    expect(seen.runs).toBe(1);
    await queue.idle();
    expect(seen.runs).toBe(2);
    expect(seen.mostAtOnce).toBe(1);
  });

  it('keeps going after an update that throws', async () => {
    let runs = 0;
    const queue = new UpdateQueue(async () => {
      runs++;
      throw new Error('bad edit');
    }, DEBOUNCE);
    queue.notify();
    await queue.idle();
    queue.notify();
    await queue.idle();
    expect(runs).toBe(2);
  });

  it('drops a waiting update on close, and waits for a running one', async () => {
    const { seen, update } = countingUpdate(DEBOUNCE * 3);
    const queue = new UpdateQueue(update, DEBOUNCE);
    queue.notify();
    await sleep(DEBOUNCE * 2);
    queue.notify(); // waits for its debounce while the first runs
    await queue.close();
    expect(seen.running).toBe(0);
    await sleep(DEBOUNCE * 3);
    expect(seen.runs).toBe(1);
    queue.notify(); // after close: ignored
    await sleep(DEBOUNCE * 2);
    expect(seen.runs).toBe(1);
  });
});

describe('openSteady', () => {
  /** A data set whose hash changes while the planner opens, `changes` times. */
  function startingOver(changes: number) {
    let version = 0;
    const events: string[] = [];
    const steps = {
      prepare: async () => void events.push(`build v${version}`),
      fingerprint: () => `v${version}`,
      open: () => {
        const opened = version;
        events.push(`open v${opened}`);
        if (changes > 0) {
          changes--;
          version++; // a save lands while the planner reads the data set
        }
        return { opened, close: async () => void events.push(`close v${opened}`) };
      },
      onChanged: () => void events.push('changed while starting'),
    };
    return { steps, events };
  }

  it('opens once when nothing changed', async () => {
    const { steps, events } = startingOver(0);
    const planner = await openSteady(steps);
    expect(planner.opened).toBe(0);
    expect(events).toEqual(['build v0', 'open v0']);
  });

  it('builds and opens again, closing the stale planner, while the data set changes', async () => {
    const { steps, events } = startingOver(2);
    const planner = await openSteady(steps);
    expect(planner.opened).toBe(2);
    expect(events).toEqual([
      'build v0', 'open v0', 'changed while starting', 'close v0',
      'build v1', 'open v1', 'changed while starting', 'close v1',
      'build v2', 'open v2',
    ]);
  });
});
