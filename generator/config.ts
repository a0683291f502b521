/** Where things are, from options, then environment variables, then defaults. */
import { existsSync } from 'node:fs';
import { resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** this team's copy of the data set, beside the repository */
export const sharedDataDir = resolve(repoRoot, '../shared/upstream');
/** where a clone without one keeps the data set it downloads (git-ignored) */
export const dataCacheDir = resolve(repoRoot, 'data/upstream');

/** given: --data / DATA_DIR, used as it is; shared: ../shared/upstream; download: the cache, filled when needed */
export type DataSource = 'given' | 'shared' | 'download';

export interface Config {
  /** the upstream data set: `csv/` and `media/` */
  dataDir: string;
  dataSource: DataSource;
  baseUrl: string;
  port: number;
  outDir: string;
  recordsDir: string;
}

export interface ConfigOptions {
  data?: string;
  baseUrl?: string;
  port?: string;
  out?: string;
}

export function resolveConfig(options: ConfigOptions = {}, env: NodeJS.ProcessEnv = process.env, exists: (path: string) => boolean = existsSync): Config {
  const port = Number(options.port ?? env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, found ${JSON.stringify(options.port ?? env.PORT)}`);
  // without a base URL, links point at the preview itself, on whatever port it serves
  const baseUrl = (options.baseUrl ?? env.BASE_URL ?? `http://localhost:${port}/v2`).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]+(\/.*)?\/v2$/.test(baseUrl)) {
    throw new Error(`the base URL must be an http(s) URL ending in /v2, found ${JSON.stringify(baseUrl)}`);
  }
  const given = options.data ?? env.DATA_DIR;
  const dataSource: DataSource = given ? 'given' : exists(sharedDataDir) ? 'shared' : 'download';
  return {
    dataDir: given ? resolve(given) : dataSource === 'shared' ? sharedDataDir : dataCacheDir,
    dataSource,
    baseUrl,
    port,
    outDir: resolve(options.out ?? env.OUT_DIR ?? resolve(repoRoot, 'dist')),
    recordsDir: resolve(env.RECORDS_DIR ?? resolve(repoRoot, 'data/records')),
  };
}
