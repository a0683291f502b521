/** Where things are, from options, then environment variables, then defaults. */
import { resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export interface Config {
  /** the upstream data set: `csv/` and `media/` */
  dataDir: string;
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

export function resolveConfig(options: ConfigOptions = {}, env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(options.port ?? env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, found ${JSON.stringify(options.port ?? env.PORT)}`);
  // without a base URL, links point at the preview itself, on whatever port it serves
  const baseUrl = (options.baseUrl ?? env.BASE_URL ?? `http://localhost:${port}/v2`).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]+(\/.*)?\/v2$/.test(baseUrl)) {
    throw new Error(`the base URL must be an http(s) URL ending in /v2, found ${JSON.stringify(baseUrl)}`);
  }
  return {
    dataDir: resolve(options.data ?? env.DATA_DIR ?? resolve(repoRoot, '../shared/upstream')),
    baseUrl,
    port,
    outDir: resolve(options.out ?? env.OUT_DIR ?? resolve(repoRoot, 'dist')),
    recordsDir: resolve(env.RECORDS_DIR ?? resolve(repoRoot, 'data/records')),
  };
}
