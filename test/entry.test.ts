/**
 * The entry against an oracle that reads the upstream's own documents of the full build (the
 * creature, its species, its forms, its evolution chain; test/support/entry-oracle.ts): every
 * creature's entry by id, every name and alias, and the list. Its filters, ranges and sorts are
 * checked with the other kinds' in test/query-oracle.test.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { idOfUrl, itemFile, listFile } from '../contract/layout.ts';
import type { FullList } from '../contract/pagination.ts';
import { expectedAliases, expectedEntry, type Doc, type DocSource } from './support/entry-oracle.ts';

const distDir = inject('distDir');
const previewUrl = inject('previewUrl');

class DistDocs implements DocSource {
  private readonly cache = new Map<string, Doc>();
  get(kind: string, id: number | string): Doc {
    const key = `${kind}/${id}`;
    let doc = this.cache.get(key);
    if (!doc) this.cache.set(key, (doc = JSON.parse(readFileSync(join(distDir, itemFile(kind, id)), 'utf8')) as Doc));
    return doc;
  }
}
const docs = new DistDocs();
const ids = (kind: string) => (JSON.parse(readFileSync(join(distDir, listFile(kind)), 'utf8')) as FullList).results.map((e) => idOfUrl(e.url)!);
const entryFile = (key: number | string) => readFileSync(join(distDir, itemFile('entry', key)), 'utf8');

describe('the entry', () => {
  it('of every creature, by id, is its creature, species, forms and chain, field for field and in order', () => {
    const creatures = ids('creature');
    expect(ids('entry')).toEqual(creatures);
    const wrong: string[] = [];
    for (const id of creatures) {
      const expected = JSON.stringify(expectedEntry(docs, id));
      if (entryFile(id) !== expected) wrong.push(String(id));
    }
    expect(wrong.slice(0, 20), `${wrong.length} entries differ`).toEqual([]);
    expect(JSON.parse(entryFile(25))).toEqual(expectedEntry(docs, 25));
  });

  it('answers every creature name, species name and form name, and no other', () => {
    const owners = expectedAliases(docs, ids('creature'), ids('creature-species'), ids('creature-form'));
    const wrong = [...owners].filter(([name, id]) => (JSON.parse(entryFile(name)) as { id: number }).id !== id).map(([name]) => name);
    expect(wrong).toEqual([]);
    const files = readdirSync(join(distDir, 'v2/entry')).map((f) => f.replace(/\.json$/, ''));
    const named = files.filter((f) => !/^\d+$/.test(f)).sort();
    expect(named).toEqual([...owners.keys()].sort());
    expect(owners.get('giratina')).toBe(487);
    expect(owners.get('unown-b')).toBe(201);
  });

  it('over HTTP: any case, with or without the slash; an unknown name is the 404 every item has', async () => {
    for (const path of ['entry/GIRATINA/', 'entry/giratina', 'entry/Unown-B', 'entry/487/']) {
      const response = await fetch(`${previewUrl}/v2/${path}`);
      expect(response.status, path).toBe(200);
      const body = (await response.json()) as { name: string };
      expect(body.name, path).toBe(path.toLowerCase().includes('unown') ? 'unown' : 'giratina-altered');
    }
    const missing = await fetch(`${previewUrl}/v2/entry/not-a-creature/`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toBe('Not Found');
  });

  it('is listed in meta and has a bulk file, but not in the root, which lists the upstream’s kinds, nor in the search', async () => {
    const meta = (await (await fetch(`${previewUrl}/v2/meta/`)).json()) as {
      counts: Record<string, number>;
      downloads: { collections: Record<string, string> };
    };
    expect(meta.counts.entry).toBe(ids('creature').length);
    expect(meta.downloads.collections.entry).toMatch(/\/downloads\/entry\.ndjson\.gz$/);
    const root = (await (await fetch(`${previewUrl}/v2/`)).json()) as Record<string, string>;
    expect(Object.keys(root)).not.toContain('entry');
    const search = (await (await fetch(`${previewUrl}/v2/search/?q=pikachu&limit=100`)).json()) as { results: Array<{ kind: string }> };
    expect(search.results.length).toBeGreaterThan(0);
    expect(search.results.filter((r) => r.kind === 'entry')).toEqual([]);
    const list = (await (await fetch(`${previewUrl}/v2/entry/?evolution_trigger=trade&limit=1000`)).json()) as { results: Array<{ name: string }> };
    const byTrade = ids('entry').filter((id) =>
      (expectedEntry(docs, id).evolution as { from: { evolution_details: Array<{ trigger: { name: string } }> } | null }).from?.evolution_details.some(
        (d) => d.trigger.name === 'trade',
      ),
    );
    expect(list.results.map((r) => r.name)).toEqual(byTrade.map((id) => docs.get('creature', id).name));
    expect(list.results.map((r) => r.name)).toContain('gengar');
  });
});
