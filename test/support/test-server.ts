/**
 * A scratch folder and a local server (upstream-archive.ts) for one test file, set up and torn
 * down with the file. Apart from upstream-archive.ts because the bench imports that one, and
 * this one needs the test runner.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startTestServer, type TestServer } from './upstream-archive.ts';

/**
 * A scratch folder and a local server for one test file: the server starts before the file's
 * tests, and both go after them. The server given answers once started.
 */
export function scratchAndServer(prefix: string): { scratch: string; server: TestServer } {
  const scratch = mkdtempSync(join(tmpdir(), prefix));
  let started: TestServer | undefined;
  beforeAll(async () => {
    started = await startTestServer();
  });
  afterAll(async () => {
    await started?.close();
    rmSync(scratch, { recursive: true, force: true });
  });
  const live = (): TestServer => {
    if (!started) throw new Error('the test server starts before the tests');
    return started;
  };
  return {
    scratch,
    server: {
      url: (path) => live().url(path),
      route: (path, route) => live().route(path, route),
      get hits() {
        return live().hits;
      },
      close: () => live().close(),
    },
  };
}
