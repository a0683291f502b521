/**
 * Names in one language, `names` as a field, a field one step through a link, and
 * strict field paths, on the test build, against an oracle computed here from the built item
 * documents (not from the indexes or declarations that made the answers):
 * - `q` with `lang=` on creature-species keeps exactly the species with a name in that language
 *   containing the query (folded), whatever their other names;
 * - `/v2/search/` with `lang=` answers only names in that language, and every species the oracle
 *   finds by substring;
 * - `fields=names` with `lang=` is each item's `names` with only that language's entries;
 * - `fields=species.names,…` on creature is the species document's, nested under `species`;
 * - a path below a field that the items cannot have, and an unknown language, are 400s.
 * One case of each goes over HTTP to the running preview too.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { createResponder } from '../edge/handler.ts';
import { idOfUrl, itemFile, listFile } from '../contract/layout.ts';
import { foldText } from '../contract/query/fold.ts';
import { diskReader } from '../generator/preview/disk-reader.ts';

const previewUrl = inject('previewUrl');
const distDir = inject('distDir');
const baseUrl = inject('baseUrl');
const respond = createResponder(diskReader(distDir), { baseUrl });
const decoder = new TextDecoder();

type Doc = Record<string, unknown>;
type Names = Array<{ name: string; language: { name: string; url: string } }>;

const read = (path: string): unknown => JSON.parse(readFileSync(join(distDir, path), 'utf8'));
const listed = (kind: string) => (read(listFile(kind)) as { results: Array<{ name?: string; url: string }> }).results;
const itemsOf = (kind: string): Doc[] => listed(kind).map((entry) => read(itemFile(kind, idOfUrl(entry.url)!)) as Doc);

async function get(path: string): Promise<{ status: number; body: Doc }> {
  const reply = await respond({ method: 'GET', url: `${new URL(baseUrl).origin}/v2/${path}`, headers: new Headers() });
  return { status: reply.status, body: JSON.parse(decoder.decode(reply.body ?? new Uint8Array())) as Doc };
}
async function results(path: string): Promise<Doc[]> {
  const { status, body } = await get(path);
  expect(status, path).toBe(200);
  return body.results as Doc[];
}

const species = itemsOf('creature-species');
const inLanguage = (names: unknown, lang: string) => (names as Names).filter((n) => n.language.name === lang);

describe('q and lang', () => {
  it('keeps the species with a name in that language containing q, and only those', async () => {
    const cases: [string, string][] = [
      ['Ento', 'de'],
      ['pika', 'fr'],
      ['ピカ', 'ja-hrkt'],
      ['char', 'en'],
      ['saur', 'ko'],
      ['bulbasaur', 'ja-hrkt'],
    ];
    let matched = 0;
    for (const [q, lang] of cases) {
      const oracle = species.filter((s) => inLanguage(s.names, lang).some((n) => foldText(n.name).includes(foldText(q)))).map((s) => s.name);
      const got = (await results(`creature-species/?q=${encodeURIComponent(q)}&lang=${lang}&limit=100000`)).map((r) => r.name);
      expect(got, `${q} in ${lang}`).toEqual(oracle);
      matched += oracle.length;
    }
    // Ento in German (the upstream's GraphQL example) finds species; the own name is in no language
    expect((await results('creature-species/?q=Ento&lang=de&limit=100000')).length).toBeGreaterThan(0);
    expect(await results('creature-species/?q=bulbasaur&lang=ja-hrkt')).toEqual([]);
    expect(matched).toBeGreaterThan(5);
  });

  it('an unknown language is a 400 naming lang and listing the languages', async () => {
    const { status, body } = await get('creature-species/?q=a&lang=klingon');
    expect(status).toBe(400);
    expect(body).toMatchObject({ error: 'bad_parameter', parameter: 'lang', value: 'klingon' });
    expect(body.accepts).toContain('ja-hrkt');
    expect((await get('search/?q=pika&lang=xx')).status).toBe(400);
  });
});

describe('/v2/search/ and lang', () => {
  it('answers only names in that language, each a name of the resource found, and every substring match', async () => {
    for (const [q, lang] of [
      ['Ento', 'de'],
      ['ピカチュウ', 'ja-hrkt'],
      ['Bulbi', 'fr'],
    ] as const) {
      const hits = (await results(`search/?q=${encodeURIComponent(q)}&lang=${lang}&kind=creature-species&limit=100000`)) as Array<{
        name: string;
        kind: string;
        matched_name: string;
        language: string;
      }>;
      const byName = new Map(species.map((s) => [s.name as string, s]));
      for (const hit of hits) {
        expect(hit.language, `${q}: ${hit.name}`).toBe(lang);
        expect(
          inLanguage(byName.get(hit.name)!.names, lang).map((n) => n.name),
          `${q}: ${hit.name}`,
        ).toContain(hit.matched_name);
      }
      const oracle = species.filter((s) => inLanguage(s.names, lang).some((n) => foldText(n.name).includes(foldText(q)))).map((s) => s.name);
      expect(oracle.length, q).toBeGreaterThan(0);
      expect(hits.map((h) => h.name)).toEqual(expect.arrayContaining(oracle));
    }
  });
});

describe('names as a field, and one step through a link', () => {
  it("fields=names is each item's names; with lang only that language's", async () => {
    for (const kind of ['ability', 'item', 'creature-species']) {
      const items = itemsOf(kind);
      const all = await results(`${kind}/?fields=names&limit=100000`);
      expect(
        all.map((r) => r.names),
        kind,
      ).toEqual(items.map((i) => i.names));
      const french = await results(`${kind}/?fields=names&lang=fr&limit=100000`);
      expect(
        french.map((r) => r.names),
        kind,
      ).toEqual(items.map((i) => inLanguage(i.names, 'fr')));
    }
  });

  it("species.names, species.generation, species.is_legendary on creature are the species document's", async () => {
    const creatures = itemsOf('creature');
    const byId = new Map(species.map((s) => [s.id as number, s]));
    const got = await results('creature/?fields=species.names,species.generation,species.is_legendary,id&lang=en&limit=100000');
    expect(got.length).toBe(creatures.length);
    got.forEach((entry, i) => {
      const s = byId.get(idOfUrl((creatures[i]!.species as { url: string }).url)!)!;
      expect(entry, String(creatures[i]!.name)).toEqual({
        name: creatures[i]!.name,
        url: `${baseUrl}/creature/${String(creatures[i]!.id)}/`,
        id: creatures[i]!.id,
        species: { is_legendary: s.is_legendary, generation: s.generation, names: inLanguage(s.names, 'en') },
      });
    });
    // with the link's own value too: its name and url, then the linked parts
    const [first] = await results('creature/?fields=species,species.is_legendary&name=mewtwo');
    expect(first!.species).toEqual({ name: 'mewtwo', url: `${baseUrl}/creature-species/150/`, is_legendary: true });
  });

  it('a path below a field that the items cannot have is a 400 naming it, here and over HTTP', async () => {
    for (const path of ['types.nope', 'species.nope', 'sprites.front_default.x', 'species.names.nope.x']) {
      const { status, body } = await get(`creature/?fields=${path}`);
      expect(status, path).toBe(400);
      expect(body, path).toMatchObject({ parameter: 'fields', value: path });
    }
    const response = await fetch(`${previewUrl}/v2/creature/?fields=species.nope`);
    expect(response.status).toBe(400);
    const over = await fetch(`${previewUrl}/v2/creature/?fields=species.names&lang=de&name=bulbasaur`);
    expect(((await over.json()) as { results: Doc[] }).results[0]!.species).toEqual({ names: inLanguage(species[0]!.names, 'de') });
  });
});
