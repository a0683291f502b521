/** Configuration: options over environment over defaults, and clear refusals. */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dataCacheDir, repoRoot, resolveConfig, sharedDataDir } from '../generator/config.ts';

describe('configuration', () => {
  it('defaults to port 8080 and links to the preview itself', () => {
    const c = resolveConfig({}, {});
    expect(c.port).toBe(8080);
    expect(c.baseUrl).toBe('http://localhost:8080/v2');
    expect(c.dataDir).toMatch(/shared\/upstream$/);
  });

  it('follows PORT in the default base URL, and BASE_URL wins over it', () => {
    expect(resolveConfig({}, { PORT: '3000' }).baseUrl).toBe('http://localhost:3000/v2');
    expect(resolveConfig({}, { PORT: '3000', BASE_URL: 'https://api.example.org/v2/' }).baseUrl).toBe('https://api.example.org/v2');
    expect(resolveConfig({ baseUrl: 'https://a.example/v2' }, { BASE_URL: 'https://b.example/v2' }).baseUrl).toBe('https://a.example/v2');
  });

  it('refuses a base URL that does not end in /v2 and a port that is not one', () => {
    expect(() => resolveConfig({}, { BASE_URL: 'https://api.example.org/' })).toThrow(/ending in \/v2/);
    expect(() => resolveConfig({}, { PORT: 'eighty' })).toThrow(/PORT must be a port number/);
  });

  it('reads the data set from --data / DATA_DIR, else ../shared/upstream, else the download cache', () => {
    const everywhere = () => true;
    const nowhere = () => false;
    expect(resolveConfig({ data: 'x' }, { DATA_DIR: 'y' }, everywhere)).toMatchObject({ dataDir: resolve('x'), dataSource: 'given' });
    expect(resolveConfig({}, { DATA_DIR: '/data/tables' }, everywhere)).toMatchObject({ dataDir: '/data/tables', dataSource: 'given' });
    expect(resolveConfig({}, {}, everywhere)).toMatchObject({ dataDir: sharedDataDir, dataSource: 'shared' });
    expect(resolveConfig({}, {}, nowhere)).toMatchObject({ dataDir: dataCacheDir, dataSource: 'download' });
    expect(dataCacheDir).toBe(`${repoRoot}/data/upstream`);
  });
});
