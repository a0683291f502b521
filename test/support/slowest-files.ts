/**
 * A reporter that ends the run with its ten slowest test files: the suite's time is a budget
 * (no file over 60 s), and this is where a file that outgrows it shows first. A file's time is
 * what it cost its worker: preparing, importing the file, its hooks and its tests.
 */
import type { Reporter, TestModule } from 'vitest/node';

const SHOWN = 10;
/** The budget of one file, in seconds. */
const BUDGET_S = 60;

export const fileSeconds = (module: TestModule): number => {
  const d = module.diagnostic();
  return (d.prepareDuration + d.environmentSetupDuration + d.collectDuration + d.setupDuration + d.duration) / 1000;
};

export default class SlowestFiles implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const timed = modules.map((m) => ({ file: m.relativeModuleId, seconds: fileSeconds(m) })).sort((a, b) => b.seconds - a.seconds);
    if (!timed.length) return;
    const lines = timed
      .slice(0, SHOWN)
      .map(({ file, seconds }) => `  ${seconds.toFixed(1).padStart(6)} s  ${file}${seconds > BUDGET_S ? `  (over the ${BUDGET_S} s budget)` : ''}`);
    const total = timed.reduce((sum, t) => sum + t.seconds, 0);
    console.log(
      `\nThe ${Math.min(SHOWN, timed.length)} slowest of ${timed.length} test files (${total.toFixed(0)} s of file time in all, run two at a time):\n${lines.join('\n')}\n`,
    );
  }
}
