import { defineConfig } from 'vitest/config';
import HeavyFirst from './test/support/heavy-first.ts';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    // the default report, then the ten slowest files (test/support/slowest-files.ts)
    reporters: ['default', './test/support/slowest-files.ts'],
    testTimeout: 60_000,
    hookTimeout: 300_000,
    // the machines are 2-core; files that start servers or build fixtures run side by side in forks
    pool: 'forks',
    // two at a time: vitest's default on 2 cores is one (cores - 1), and the slow files spend much of
    // their time waiting on a child process, a server or a browser, so the suite ran one file after another
    maxWorkers: 2,
    // a worker runs file after file in one process: modules (the generator, the schemas, the edge)
    // load and warm up once a worker, not once a file (about 0.7 s a file, 50 s of a run);
    // a file that changes what the process shares (a timer, an env variable, console) puts it back
    isolate: false,
    // the heaviest files first, also on a clean clone that vitest has never timed
    sequence: { sequencer: HeavyFirst },
  },
});
