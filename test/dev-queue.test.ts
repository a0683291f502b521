/**
 * The dev loop's two small state machines: saves are debounced and updates never overlap
 * (UpdateQueue); the planner is opened again when the data set changed while it was starting
 * (openSteady). The queue runs on vitest's fake clock, at its real debounce, and each update lasts
 * until the test lets it finish: what is asserted is counts and order, whatever the machine's load.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEBOUNCE_MS, openSteady, UpdateQueue } from '../generator/dev/queue.ts';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** Moves the fake clock on by `ms`, running what falls due and the promises it settles. */
const pass = (ms: number) => vi.advanceTimersByTimeAsync(ms);

/** An update that counts its runs and how many ran at once; each run lasts until `finish()` is called (later runs then return at once). */
function countingUpdate() {
  const seen = { runs: 0, running: 0, mostAtOnce: 0 };
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  const update = async () => {
    seen.runs++;
    seen.running++;
    seen.mostAtOnce = Math.max(seen.mostAtOnce, seen.running);
    await finished;
    seen.running--;
  };
  return { seen, update, finish };
}

/** `queue.idle()`, with the fake clock run on until nothing is due (idle waits on timers itself). */
async function idle(queue: UpdateQueue): Promise<void> {
  const done = queue.idle();
  await vi.runAllTimersAsync();
  await done;
}

describe('UpdateQueue', () => {
  it('runs once for a burst of events, after the last one settles', async () => {
    const { seen, update, finish } = countingUpdate();
    const queue = new UpdateQueue(update);
    // ten events a third of the debounce apart: the burst lasts three debounces
    for (let i = 0; i < 10; i++) {
      if (i > 0) await pass(DEBOUNCE_MS / 3);
      queue.notify();
    }
    await pass(DEBOUNCE_MS - 1);
    expect(seen.runs).toBe(0);
    // the last event's debounce is over
    await pass(1);
    expect(seen.runs).toBe(1);
    finish();
    await idle(queue);
    expect(seen.runs).toBe(1);
  });

  it('runs again once, after the running update, for any number of events during it', async () => {
    const { seen, update, finish } = countingUpdate();
    const queue = new UpdateQueue(update);
    queue.notify();
    await pass(DEBOUNCE_MS);
    expect(seen.running).toBe(1);
    // events both closer than the debounce and farther apart, all during the first run
    for (const pause of [DEBOUNCE_MS / 3, DEBOUNCE_MS * 1.5, DEBOUNCE_MS / 3, DEBOUNCE_MS * 1.5, 0]) {
      queue.notify();
      await pass(pause);
    }
    // long after every debounce, the first run still holds the queue
    await pass(DEBOUNCE_MS * 10);
    expect(seen.runs).toBe(1);
    finish();
    await idle(queue);
    expect(seen.runs).toBe(2);
    expect(seen.mostAtOnce).toBe(1);
  });

  it('keeps going after an update that throws, and says what it threw', async () => {
    const said = vi.spyOn(console, 'error').mockImplementation(() => {});
    let runs = 0;
    const queue = new UpdateQueue(async () => {
      runs++;
      throw new Error('bad edit');
    });
    queue.notify();
    await idle(queue);
    expect(runs).toBe(1);
    queue.notify();
    await idle(queue);
    expect(runs).toBe(2);
    expect(said.mock.calls.map(([line]) => String(line).split('\n')[0])).toEqual(Array(2).fill('npm run dev: an update failed unexpectedly: Error: bad edit'));
    said.mockRestore();
  });

  it('drops a waiting update on close, and waits for a running one', async () => {
    const { seen, update, finish } = countingUpdate();
    const queue = new UpdateQueue(update);
    queue.notify();
    await pass(DEBOUNCE_MS);
    expect(seen.running).toBe(1);
    queue.notify(); // waits for its debounce while the first runs
    let closed = false;
    const closing = queue.close().then(() => (closed = true));
    await pass(DEBOUNCE_MS * 3);
    expect(closed).toBe(false);
    finish();
    await closing;
    expect(seen.running).toBe(0);
    await vi.runAllTimersAsync();
    expect(seen.runs).toBe(1);
    queue.notify(); // after close: ignored, nothing is even scheduled
    expect(vi.getTimerCount()).toBe(0);
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
      'build v0',
      'open v0',
      'changed while starting',
      'close v0',
      'build v1',
      'open v1',
      'changed while starting',
      'close v1',
      'build v2',
      'open v2',
    ]);
  });
});
