import { join, relative, resolve, isAbsolute } from 'node:path';
import { repoRoot, resolveConfig, type Config } from '../../generator/config.ts';

/**
 * Where the tests build: a git-ignored folder of their own (TEST_BUILD_DIR, default
 * `.test-build/`), never the user's dist/ or data/records/. It persists between runs, so a
 * warm tree reuses its build when the inputs are unchanged, as `npm start` does with dist/.
 */
export const testBuildDir = resolve(process.env['TEST_BUILD_DIR'] ?? join(repoRoot, '.test-build'));

/**
 * The configuration tests run with: the data set as the CLI finds it (the user's DATA_DIR, else
 * the team's copy in ../shared at the pinned commit, else the download cache, filled from
 * DATA_URL or the upstream; only read), and the test folder's dist/ and records/. OUT_DIR and RECORDS_DIR are deliberately not read: they name
 * what the user serves. Vite sets BASE_URL in the test process for its own purposes, so the
 * process environment is not used whole.
 */
export const testConfig = (): Config => {
  const env: NodeJS.ProcessEnv = { OUT_DIR: join(testBuildDir, 'dist'), RECORDS_DIR: join(testBuildDir, 'records') };
  if (process.env['DATA_DIR']) env['DATA_DIR'] = process.env['DATA_DIR'];
  return resolveConfig({}, env);
};

/** The folders a user's `npm start` builds and serves, as the user's environment names them. */
export const userFolders = (): string[] => {
  const env: NodeJS.ProcessEnv = {};
  for (const name of ['OUT_DIR', 'RECORDS_DIR'] as const) if (process.env[name]) env[name] = process.env[name];
  const user = resolveConfig({}, env);
  return [user.outDir, user.recordsDir];
};

/** True when one path is the other or lies inside it. */
export const overlaps = (a: string, b: string): boolean => {
  const inside = (child: string, parent: string) => {
    const rel = relative(parent, child);
    return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
  };
  return inside(a, b) || inside(b, a);
};

/** Where the tests keep the data cut (one folder per input, see generator/cut) and its build. */
export const cutCacheDir = join(testBuildDir, 'cuts');

/** The configuration of the cut's build (made once by the global setup): the cut as DATA_DIR, its own dist/ and records/. */
export const cutConfig = (cutDataDir: string): Config =>
  resolveConfig({}, { DATA_DIR: cutDataDir, OUT_DIR: join(testBuildDir, 'cut/dist'), RECORDS_DIR: join(testBuildDir, 'cut/records') });
