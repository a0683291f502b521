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
import { createResponder } from '../edge/handler.ts';
import { diskReader } from '../generator/preview/disk-reader.ts';
import type { FullList } from '../contract/pagination.ts';
import { distDocs, expectedAliases, expectedEntry } from './support/entry-oracle.ts';

const distDir = inject('distDir');
const previewUrl = inject('previewUrl');

const docs = distDocs(distDir);
const ids = (kind: string) => (JSON.parse(readFileSync(join(distDir, listFile(kind)), 'utf8')) as FullList).results.map((e) => idOfUrl(e.url)!);
const respond = createResponder(diskReader(distDir), { baseUrl: inject('baseUrl') });
const decoder = new TextDecoder();
/** An entry as the request logic serves it: its file, with its species' dex texts spliced in. */
async function entryText(key: number | string): Promise<string> {
  const reply = await respond(new Request(`http://localhost/v2/entry/${key}/`));
  expect(reply.status, `entry ${key}`).toBe(200);
  return decoder.decode(reply.body as Uint8Array);
}

describe('the entry', () => {
  it('of every creature, by id, is its creature, species, forms and chain, field for field and in order', async () => {
    const creatures = ids('creature');
    expect(ids('entry')).toEqual(creatures);
    const wrong: string[] = [];
    for (const id of creatures) {
      const expected = JSON.stringify(expectedEntry(docs, id));
      if ((await entryText(id)) !== expected) wrong.push(String(id));
    }
    expect(wrong.slice(0, 20), `${wrong.length} entries differ`).toEqual([]);
    expect(JSON.parse(await entryText(25))).toEqual(expectedEntry(docs, 25));
  });

  it('keeps no second copy of its species’ dex texts: its file names the species’ file in their place', () => {
    const file = JSON.parse(readFileSync(join(distDir, itemFile('entry', 25)), 'utf8')) as Record<string, unknown>;
    expect(file.flavor_text_entries).toEqual({ $in: itemFile('creature-species', 25) });
    const served = expectedEntry(docs, 25) as Record<string, unknown>;
    expect(Object.keys(file)).toEqual(Object.keys(served));
    for (const key of Object.keys(served)) if (key !== 'flavor_text_entries') expect(file[key], key).toEqual(served[key]);
    expect((served.flavor_text_entries as unknown[]).length).toBeGreaterThan(0);
  });

  it('answers every creature name, species name and form name, and no other', async () => {
    const owners = expectedAliases(docs, ids('creature'), ids('creature-species'), ids('creature-form'));
    const wrong: string[] = [];
    for (const [name, id] of owners) if ((JSON.parse(await entryText(name)) as { id: number }).id !== id) wrong.push(name);
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
