/**
 * Progress of long steps: on a terminal, one line redrawn in place (a bar, counts, elapsed
 * time); elsewhere (CI, pipes) a plain line at each quarter, so logs stay short and readable.
 */
// Hand-written: off a terminal, progress prints nothing and cli-progress nothing, or with noTTYOutput a whole bar every 2 s.
export interface Progress {
  update(done: number, total: number): void;
  /** ends the bar's line (or prints the last plain line) */
  done(summary: string): void;
}

const BAR_WIDTH = 24;
const REDRAW_MS = 100;

export function createProgress(label: string, stream: NodeJS.WriteStream = process.stderr, now: () => number = () => performance.now()): Progress {
  const started = now();
  const elapsed = () => `${((now() - started) / 1000).toFixed(1)} s`;
  const tty = stream.isTTY === true;
  let lastDraw = -Infinity;
  let lastQuarter = -1;
  return {
    update(done, total) {
      if (total <= 0) return;
      const fraction = Math.min(1, done / total);
      if (tty) {
        if (now() - lastDraw < REDRAW_MS && done < total) return;
        lastDraw = now();
        const filled = Math.round(fraction * BAR_WIDTH);
        stream.write(`\r${label} [${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${done}/${total} ${elapsed()}  `);
      } else {
        const quarter = Math.floor(fraction * 4);
        if (quarter > lastQuarter && quarter < 4) {
          lastQuarter = quarter;
          stream.write(`${label}: ${done}/${total} (${Math.round(fraction * 100)}%) after ${elapsed()}\n`);
        }
      }
    },
    done(summary) {
      stream.write(tty ? `\r\x1b[K${summary}\n` : `${summary}\n`);
    },
  };
}

/** Seconds per step of a command, in order (an update of the dev loop, `npm run data:update`). */
export class StepClock {
  readonly steps: Record<string, number> = {};
  private lap = performance.now();
  /** Ends a step; returns its seconds. */
  step(name: string): number {
    const now = performance.now();
    const seconds = Number(((now - this.lap) / 1000).toFixed(3));
    this.steps[name] = seconds;
    this.lap = now;
    return seconds;
  }
  /** `name 1.2 s, …` */
  line(): string {
    return Object.entries(this.steps)
      .map(([name, s]) => `${name} ${s.toFixed(1)} s`)
      .join(', ');
  }
}
