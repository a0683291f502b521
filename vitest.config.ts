import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 300_000,
    // the machines are 2-core; files that start servers or build fixtures run side by side in forks
    pool: 'forks',
  },
});
