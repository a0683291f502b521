import { resolveConfig, type Config } from '../../generator/config.ts';

/**
 * The configuration tests run with: the defaults, the data set from DATA_DIR if set. Vite sets
 * BASE_URL in the test process for its own purposes, so the process environment is not used whole.
 */
export const testConfig = (): Config => resolveConfig({}, process.env.DATA_DIR ? { DATA_DIR: process.env.DATA_DIR } : {});
