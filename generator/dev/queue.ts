/**
 * How `npm run dev` turns file events into updates: `UpdateQueue` waits until saves settle and
 * runs one update at a time, and `openSteady` opens the planner over a data set that did not
 * change while it was being read. Both are small state machines kept apart from the watcher and
 * the planner so they can be tested alone.
 */

/**
 * Saves come in bursts (an editor writes, renames, touches; a large table is written in chunks
 * microseconds apart): wait this long after the last event. A run that read a file still being
 * written is followed by one more, as any event during a run is.
 */
export const DEBOUNCE_MS = 50;

/**
 * Runs `update` once events stop for `debounceMs`. Runs never overlap: an event during a run
 * schedules one more run after it, however many events came; a run that throws does not stop
 * later ones (`update` reports its own failures; anything it throws past that is printed).
 */
export class UpdateQueue {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running: Promise<void> = Promise.resolve();
  /** an event came since the last run started */
  private pending = false;
  private closed = false;

  private readonly update: () => Promise<void>;
  private readonly debounceMs: number;
  constructor(update: () => Promise<void>, debounceMs = DEBOUNCE_MS) {
    this.update = update;
    this.debounceMs = debounceMs;
  }

  /** A file changed. */
  notify(): void {
    if (this.closed) return;
    this.pending = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.settled(), this.debounceMs);
  }

  private settled(): void {
    this.timer = null;
    this.running = this.running.then(async () => {
      if (!this.pending || this.closed) return;
      this.pending = false;
      // a throw past `update`'s own report is a bug: said, not hidden, and later runs still come
      await this.update().catch((error: unknown) =>
        console.error(`npm run dev: an update failed unexpectedly: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
      );
    });
  }

  /** Resolves when no update is waiting for its debounce or running. */
  async idle(): Promise<void> {
    while (this.timer !== null || this.pending) {
      await new Promise((r) => setTimeout(r, this.debounceMs));
      await this.running;
    }
    await this.running;
  }

  /** Drops what is waiting for its debounce, and waits for a run under way. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.pending = false;
    await this.running;
  }
}

/** Something opened over the data set that can be closed again. */
export interface Closable {
  close(): Promise<void>;
}

/**
 * Opens `open()` over a data set that stayed the same while it ran: `fingerprint` (a hash of the
 * inputs) is taken before and after, and when they differ, what was opened is closed and it is
 * opened again, as the first updates would otherwise start from a planner that read a mix of
 * two versions. `prepare` runs before each attempt (a full build of the data set as it is now).
 */
export async function openSteady<T extends Closable>(steps: {
  prepare: () => Promise<void>;
  fingerprint: () => string;
  open: () => T;
  onChanged: () => void;
}): Promise<T> {
  for (;;) {
    await steps.prepare();
    const before = steps.fingerprint();
    const opened = steps.open();
    if (steps.fingerprint() === before) return opened;
    steps.onChanged();
    await opened.close();
  }
}
