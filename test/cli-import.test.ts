/**
 * `npm run import` as its help says: an up-to-date import is skipped, `--force` imports anyway,
 * and a changed table imports again; a data set with many bad rows prints a screenful of them,
 * writes every one beside the output folder, and shows a stack only when asked (`--verbose`,
 * DEBUG=1). Run through the real command line over a copy of the data cut, into a scratch folder.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
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

describe('a failed import', () => {
  const bad = join(scratch, 'bad-data');
  const out = join(scratch, 'out');
  const problemsFile = `${out}.problems.txt`;
  /** The rows made bad: more than a screenful (30), each a level that is no integer. */
  const BAD_ROWS = 40;
  mkdirSync(bad, { recursive: true });
  cpSync(join(inject('cutDataDir'), 'csv'), join(bad, 'csv'), { recursive: true });
  const table = join(bad, 'csv/pokemon_moves.csv');
  const [header, ...rows] = readFileSync(table, 'utf8').split('\n');
  const level = header!.split(',').indexOf('level');
  const broken = rows.map((row, i) =>
    i < BAD_ROWS
      ? row
          .split(',')
          .map((cell, c) => (c === level ? 'high' : cell))
          .join(',')
      : row,
  );
  writeFileSync(table, [header, ...broken].join('\n'));
  /** The problem the import must name for the n-th row made bad (from 1): its row, its line (the header is line 1), its column. */
  const problem = (n: number) => `table pokemon_moves.csv, row ${n} (line ${n + 1}), column level: expected an integer, found "high"`;
  /** A stack's frame, as V8 writes one. */
  const FRAME = /^ {4}at /m;

  /** The import over the bad data, failing: what it printed on stderr. */
  function failedImport(flags: string[], env: NodeJS.ProcessEnv = {}): string {
    const result = spawnSync(process.execPath, ['generator/cli.ts', '--data', bad, '--out', out, 'import', ...flags], {
      cwd: repoRoot,
      env: { ...childEnv(), RECORDS_DIR: join(scratch, 'bad-records'), ...env },
      encoding: 'utf8',
    });
    expect(result.status, result.stdout).toBe(1);
    return result.stderr;
  }

  it('prints a screenful of the problems, and writes every one to a file beside the output folder that it names', () => {
    rmSync(problemsFile, { force: true });
    const said = failedImport([]);
    expect(said).toContain(`The data set has problems; nothing was written.\n${problem(1)}\n`);
    expect(said).toContain(`\n${problem(30)}\n… and ${BAD_ROWS - 30} more; all ${BAD_ROWS} are in ${problemsFile}`);
    expect(said).not.toContain(problem(31));
    expect(readFileSync(problemsFile, 'utf8')).toBe(Array.from({ length: BAD_ROWS }, (_, i) => `${problem(i + 1)}\n`).join(''));
    // beside the output folder, never inside it: a failed run leaves the output as it was
    expect(existsSync(out)).toBe(false);
  }, 120_000);

  it('prints no stack by default, and the stack after the message with --verbose or DEBUG=1', () => {
    const plain = failedImport([], { DEBUG: '' });
    expect(plain).not.toMatch(FRAME);
    for (const said of [failedImport(['--verbose']), failedImport([], { DEBUG: '1' })]) {
      const [message, stack] = said.split('\n\nDataError: ');
      expect(message).toContain(problem(30));
      expect(stack).toContain(problem(1));
      expect(stack).toMatch(FRAME);
      expect(stack).toMatch(/ {4}at loadTables /);
    }
  }, 120_000);
});
