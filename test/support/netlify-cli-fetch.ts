/**
 * The pinned netlify-cli (not a dependency: about 420 MB) in npx's cache. On a new machine its
 * fetch takes a minute or more, which would be test/netlify-cli.test.ts's own time, against its
 * budget: the global setup starts it instead, in the background beside its builds, and writes
 * what came of it to a marker file (a JSON `Fetched`, renamed into place whole) that the test file
 * waits for. A fetch that failed is a failure of that test file, naming why; never a skip.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';

/**
 * Exact: the version the request table's exceptions were written against. 26.2.0 declares Node
 * >=20.12.2, so it runs on the floor (22.18) as on every newer Node.
 */
export const NETLIFY_CLI = 'netlify-cli@26.2.0';

/** What came of the setup's fetch: the `netlify` binary, or why there is none. */
export type Fetched = { bin: string; from: 'cache' | 'npx'; seconds: number } | { error: string; seconds: number };

export interface CliFetch {
  /** the marker file the outcome is written to */
  readonly marker: string;
  /** settles once the marker is written (never rejects) */
  readonly done: Promise<void>;
}

/** The npx command that fetches the CLI into npx's cache, and prints where its `netlify` is. */
const NPX_ARGS = ['-y', '-p', NETLIFY_CLI, 'sh', '-c', 'command -v netlify'];

/** Starts the fetch (or finds the CLI already in npx's cache) and writes the outcome to `marker`. */
export function startCliFetch(marker: string): CliFetch {
  mkdirSync(dirname(marker), { recursive: true });
  const started = performance.now();
  const seconds = () => Math.round((performance.now() - started) / 100) / 10;
  const write = (fetched: Fetched) => {
    writeFileSync(`${marker}.tmp`, JSON.stringify(fetched));
    renameSync(`${marker}.tmp`, marker);
  };
  const cached = cachedCli();
  if (cached) {
    write({ bin: cached, from: 'cache', seconds: seconds() });
    return { marker, done: Promise.resolve() };
  }
  const done = new Promise<void>((resolve) => {
    const child = spawn('npx', NPX_ARGS, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => void (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => void (stderr += b.toString()));
    child.on('error', (e) => {
      write({ error: `npx ${NPX_ARGS.join(' ')} did not start: ${e.message}`, seconds: seconds() });
      resolve();
    });
    child.on('close', (code, signal) => {
      const bin = stdout.trim().split('\n').at(-1) ?? '';
      if (code === 0 && bin && existsSync(bin)) write({ bin, from: 'npx', seconds: seconds() });
      else
        write({
          error: `npx ${NPX_ARGS.join(' ')} ended with ${signal ?? `exit code ${code}`}, finding no netlify binary:\n${(stderr || stdout).slice(-3000)}`,
          seconds: seconds(),
        });
      resolve();
    });
  });
  return { marker, done };
}

/**
 * The `netlify` binary the setup's fetch left in `marker`, once it is there; throws naming why
 * when the fetch failed, or when it has not finished in `waitMs`.
 */
export async function fetchedCli(marker: string, waitMs: number): Promise<{ bin: string; note: string }> {
  const started = performance.now();
  while (!existsSync(marker)) {
    if (performance.now() - started > waitMs) {
      throw new Error(
        `${NETLIFY_CLI}: the global setup's fetch (npx ${NPX_ARGS.join(' ')}) has not finished after ${Math.round(waitMs / 1000)} s (no ${marker})`,
      );
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const fetched = JSON.parse(readFileSync(marker, 'utf8')) as Fetched;
  if ('error' in fetched) throw new Error(`${NETLIFY_CLI} could not be fetched by the global setup: ${fetched.error}`);
  const waited = (performance.now() - started) / 1000;
  return {
    bin: fetched.bin,
    note: `${fetched.from === 'cache' ? "found in npx's cache" : `fetched by the setup in ${fetched.seconds.toFixed(1)} s`}, waited for ${waited.toFixed(1)} s here`,
  };
}

/**
 * The `netlify` binary of an earlier `npx -p NETLIFY_CLI` (npx keeps one folder a spec under
 * <npm cache>/_npx, its package.json naming the spec), so npx's own start, 9-13 s measured on a
 * loaded machine, is not paid; null when there is none and npx must fetch it.
 */
function cachedCli(): string | null {
  const npx = join(process.env['npm_config_cache'] ?? join(homedir(), '.npm'), '_npx');
  const json = <T>(path: string): T | null => {
    try {
      return JSON.parse(readFileSync(path, 'utf8')) as T;
    } catch {
      return null;
    }
  };
  for (const dir of existsSync(npx) ? readdirSync(npx) : []) {
    const spec = json<{ _npx?: { packages?: string[] } }>(join(npx, dir, 'package.json'))?._npx?.packages;
    const installed = json<{ version?: string }>(join(npx, dir, 'node_modules/netlify-cli/package.json'))?.version;
    const bin = join(npx, dir, 'node_modules/.bin/netlify');
    if (isDeepStrictEqual(spec, [NETLIFY_CLI]) && `netlify-cli@${installed}` === NETLIFY_CLI && existsSync(bin)) return bin;
  }
  return null;
}
