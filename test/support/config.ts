import { resolveConfig, type Config } from '../../generator/config.ts';

/**
 * The configuration tests run with: the defaults, with DATA_DIR, OUT_DIR and RECORDS_DIR taken
 * from the environment when set (so several test runs can use separate folders). Vite sets
 * BASE_URL in the test process for its own purposes, so the process environment is not used whole.
 */
export const testConfig = (): Config => {
  const env: NodeJS.ProcessEnv = {};
  for (const name of ['DATA_DIR', 'OUT_DIR', 'RECORDS_DIR'] as const) if (process.env[name]) env[name] = process.env[name];
  return resolveConfig({}, env);
};
