/**
 * `npm run import` as its help says: an up-to-date import is skipped, `--force` imports anyway,
 * and a changed table imports again. Run through the real command line over a copy of the data
 * cut, into a scratch folder.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { repoRoot } from '../generator/config.ts';

const scratch = mkdtempSync(join(tmpdir(), 'creature-cli-import-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const data = join(scratch, 'data');
const records = join(scratch, 'records');
const manifest = join(records, 'manifest.json');

/** `npm run import` (the CLI's `import` command), with the given flags, over the scratch data set. */
function runImport(...flags: string[]): string {
  const result = spawnSync(process.execPath, ['generator/cli.ts', '--data', data, 'import', ...flags], {
    cwd: repoRoot,
    env: childEnv(),
    encoding: 'utf8',
  });
  expect(result.status, result.stderr).toBe(0);
  return result.stdout + result.stderr;
}

/** The test process's environment without what Vite sets for itself (BASE_URL) or what names the user's folders. */
const childEnv = (): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, RECORDS_DIR: records, CI: 'true' };
  delete env['BASE_URL'];
  delete env['OUT_DIR'];
  return env;
};

const manifestMtime = () => statSync(manifest).mtimeMs;

describe('npm run import', () => {
  mkdirSync(data, { recursive: true });
  cpSync(join(inject('cutDataDir'), 'csv'), join(data, 'csv'), { recursive: true });

  it('imports into an empty records folder', () => {
    expect(runImport()).toMatch(/^import: \d+ records of \d+ kinds in/m);
  }, 120_000);

  it('skips when the records are up to date, and leaves them as they are', () => {
    const before = manifestMtime();
    const said = runImport();
    expect(said).toContain('import: records are up to date');
    expect(said).not.toMatch(/records of \d+ kinds/);
    expect(manifestMtime()).toBe(before);
  }, 120_000);

  it('imports anyway with --force', () => {
    const before = manifestMtime();
    const said = runImport('--force');
    expect(said).toMatch(/^import: \d+ records of \d+ kinds in/m);
    expect(said).not.toContain('up to date');
    expect(manifestMtime()).toBeGreaterThan(before);
  }, 120_000);

  it('imports again when a table changed', () => {
    const colors = join(data, 'csv/pokemon_colors.csv');
    writeFileSync(colors, readFileSync(colors, 'utf8').replace('black', 'blackish'));
    const inputHash = () => (JSON.parse(readFileSync(manifest, 'utf8')) as { inputHash: string }).inputHash;
    const hashBefore = inputHash();
    expect(runImport()).toMatch(/^import: \d+ records of \d+ kinds in/m);
    expect(inputHash()).not.toBe(hashBefore);
  }, 120_000);
});
