/**
 * Bulk reads hold exactly what the item files hold: each collection's NDJSON (gzip) has one
 * line per item, byte for byte the item's file, in id order; the archive, unpacked by the
 * system's tar, is the dist/v2 tree file for file. meta names them and the preview serves them.
 * Over the data cut's build (a mechanism: every kind is in it, the whole data set is not needed).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { bulkFile, metaFile, type Meta } from '../contract/layout.ts';
import { fileHashes, servedItemText } from './support/files.ts';

const distDir = inject('cutDistDir');
const origin = inject('cutPreviewUrl');
const meta = JSON.parse(readFileSync(join(distDir, metaFile), 'utf8')) as Meta;
const scratch = mkdtempSync(join(tmpdir(), 'creature-downloads-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const idsOf = (kind: string) =>
  readdirSync(join(distDir, 'v2', kind))
    .map((f) => f.slice(0, -'.json'.length))
    .filter((key) => /^-?\d+$/.test(key))
    .map(Number)
    .sort((a, b) => a - b);

describe('bulk downloads', () => {
  it.each(Object.keys(meta.counts).map((k) => [k]))('%s: one NDJSON line per item, each its item as served', (kind) => {
    const lines = gunzipSync(readFileSync(join(distDir, bulkFile(kind))))
      .toString('utf8')
      .split('\n');
    expect(lines.pop()).toBe('');
    const ids = idsOf(kind);
    expect(lines).toHaveLength(ids.length);
    ids.forEach((id, i) => expect(lines[i], `${kind} ${id}`).toBe(servedItemText(distDir, kind, id)));
  });

  it('the archive is the dist/v2 tree, file for file', () => {
    const archive = join(distDir, new URL(meta.downloads.archive).pathname);
    const unpacked = join(scratch, 'unpacked');
    spawnSync('mkdir', ['-p', unpacked]);
    const result = spawnSync('tar', ['-xzf', archive, '-C', unpacked]);
    expect(result.status, result.stderr.toString()).toBe(0);
    const ours = fileHashes(join(distDir, 'v2'));
    // not an empty tree: at least one file an item
    expect(ours.size).toBeGreaterThan(Object.values(meta.counts).reduce((a, b) => a + b, 0));
    expect(fileHashes(join(unpacked, 'v2'))).toEqual(ours);
  }, 120_000);

  it('meta names every download and the preview serves them', async () => {
    expect(Object.keys(meta.downloads.collections).sort()).toEqual(Object.keys(meta.counts).sort());
    for (const url of [meta.downloads.archive, meta.downloads.collections['creature']!, meta.downloads.collections['type']!]) {
      const response = await fetch(origin + new URL(url).pathname);
      expect(response.status, url).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/gzip');
      expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(100);
    }
  });
});
