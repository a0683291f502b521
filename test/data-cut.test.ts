/**
 * The data cut (generator/cut): which rows a seed brings in, on invented tables; then the
 * team's cut as the global setup made and built it: every kind of the API has an item, the
 * cases the mechanisms' tests need are in it, and the same tables give the same bytes.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { tables, type TableKey } from '../schemas/tables.ts';
import { CutError, selectRows, type CutTable } from '../generator/cut/select.ts';
import { writeCut } from '../generator/cut/index.ts';
import { defaultSeeds } from '../generator/cut/rules.ts';
import { repoRoot } from '../generator/config.ts';
import { testConfig } from './support/config.ts';

/** Invented tables: each a list of rows, each row the cells it has (a missing cell is empty). */
type Invented = Partial<Record<TableKey, ReadonlyArray<Readonly<Record<string, string | number | undefined>>>>>;

function tablesOf(rows: Invented): (table: TableKey) => CutTable {
  return (table) => {
    const list = rows[table] ?? [];
    return { rowCount: list.length, cell: (row, column) => String(list[row]![column] ?? '') };
  };
}

const invented = {
  generations: [{ id: 1 }, { id: 2 }],
  evolution_chains: [{ id: 7 }, { id: 8 }],
  pokemon_species: [
    { id: 10, identifier: 'sprout', evolution_chain_id: 7, generation_id: 1 },
    { id: 11, identifier: 'bloom', evolution_chain_id: 7, evolves_from_species_id: 10, generation_id: 1 },
    { id: 12, identifier: 'pebble', evolution_chain_id: 8, generation_id: 2 },
  ],
  pokemon: [
    { id: 100, identifier: 'sprout', species_id: 10 },
    { id: 101, identifier: 'bloom', species_id: 11 },
    { id: 102, identifier: 'bloom-giant', species_id: 11 },
    { id: 103, identifier: 'pebble', species_id: 12 },
  ],
  stats: [{ id: 1 }, { id: 2 }],
  pokemon_stats: [
    { creature_id: 100, stat_id: 1 },
    { creature_id: 103, stat_id: 2 },
  ],
  moves: [
    { id: 50, identifier: 'nudge' },
    { id: 51, identifier: 'shove' },
  ],
  pokemon_moves: [
    { creature_id: 100, move_id: 50 },
    { creature_id: 100, move_id: 51 },
    { creature_id: 103, move_id: 50 },
  ],
} satisfies Invented;

describe('which rows a cut keeps', () => {
  const kept = selectRows(tablesOf(invented), { pokemon_species: ['sprout'], moves: ['nudge'] });
  const ids = (table: TableKey) => (kept.get(table) ?? []).map((row) => (invented as Invented)[table]![row]!['id']);

  it("a species brings its whole chain, the chain's species their creatures, and nothing of another chain", () => {
    expect(ids('pokemon_species')).toEqual([10, 11]);
    expect(ids('evolution_chains')).toEqual([7]);
    expect(ids('pokemon')).toEqual([100, 101, 102]);
  });

  it('a creature brings the rows it owns; a small vocabulary is kept whole', () => {
    expect(kept.get('pokemon_stats')).toEqual([0]);
    expect(ids('stats')).toEqual([1, 2]);
    expect(ids('generations')).toEqual([1, 2]);
  });

  it("a learnset row is kept only between a kept creature and a kept move: a creature's moves do not bring every move in", () => {
    expect(ids('moves')).toEqual([50]);
    expect(kept.get('pokemon_moves')).toEqual([0]);
  });

  it('a seed the table does not hold, and a reference to no row, are refused with where they are', () => {
    expect(() => selectRows(tablesOf(invented), { moves: ['nope'] })).toThrow(new CutError('the cut starts from moves "nope", which the table does not hold'));
    const dangling = { ...invented, pokemon: [{ id: 100, identifier: 'sprout', species_id: 99 }] };
    expect(() => selectRows(tablesOf(dangling), { pokemon: ['sprout'] })).toThrow(
      /pokemon\.csv row 1, column species_id: pokemon_species has no row with id 99/,
    );
  });
});

describe("the team's cut", () => {
  const cutData = inject('cutDataDir');
  const dist = inject('cutDistDir');
  const list = (kind: string) =>
    JSON.parse(readFileSync(join(dist, 'v2/_lists', `${kind}.json`), 'utf8')) as { count: number; results: Array<{ name?: string; url: string }> };
  const item = (kind: string, key: string | number) => JSON.parse(readFileSync(join(dist, 'v2', kind, `${key}.json`), 'utf8')) as Record<string, unknown>;
  const scratch = mkdtempSync(join(tmpdir(), 'creature-cut-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('every kind of the API has at least one item, and far fewer than the whole', () => {
    const kinds = readdirSync(join(dist, 'v2/_lists')).map((f) => f.replace(/\.json$/, ''));
    // the upstream's 49 and the entry, this API's own
    expect(kinds).toHaveLength(50);
    for (const kind of kinds) expect(list(kind).count, kind).toBeGreaterThan(0);
    expect(list('creature').count).toBeLessThan(100);
  });

  it('holds what the mechanisms need: every generation, a regional form, a mega, a branched chain whole, past values, encounters, machines', () => {
    const generations = new Set(list('creature-species').results.map((s) => (item('creature-species', s.name!).generation as { name: string }).name));
    expect(generations.size).toBe(9);
    const creatures = list('creature').results.map((c) => c.name!);
    expect(creatures).toEqual(expect.arrayContaining(['bulbasaur', 'pikachu', 'raichu-alola', 'charizard-mega-x', 'venusaur-mega']));
    const eeveelutions = ['vaporeon', 'jolteon', 'flareon', 'espeon', 'umbreon', 'leafeon', 'glaceon', 'sylveon'];
    const chain = item('evolution-chain', (item('creature-species', 'eevee').evolution_chain as { url: string }).url.split('/').at(-2)!) as {
      chain: { evolves_to: Array<{ species: { name: string } }> };
    };
    expect(chain.chain.evolves_to.map((e) => e.species.name).sort()).toEqual([...eeveelutions].sort());
    const clefairy = item('creature', 'clefairy');
    for (const past of ['past_types', 'past_abilities', 'past_stats']) expect(clefairy[past], past).not.toEqual([]);
    expect(item('move', 'tackle').past_values).not.toEqual([]);
    expect(list('machine').count).toBeGreaterThan(0);
    expect(list('location-area').count).toBeGreaterThan(0);
    expect(JSON.parse(readFileSync(join(dist, 'v2/_sub/creature/encounters/25.json'), 'utf8'))).not.toEqual([]);
  });

  it('is the same bytes from the same tables, and says what it kept', () => {
    const again = join(scratch, 'cut');
    const summary = writeCut(testConfig().dataDir, again, defaultSeeds);
    for (const table of Object.keys(tables)) {
      expect(readFileSync(join(again, 'csv', `${table}.csv`)).equals(readFileSync(join(cutData, 'csv', `${table}.csv`))), table).toBe(true);
    }
    expect(summary.rows).toHaveLength(Object.keys(tables).length);
    const report = readFileSync(join(again, 'CUT.md'), 'utf8');
    expect(report).toContain(`| pokemon_moves | ${summary.rows.find((r) => r.table === 'pokemon_moves')!.kept} | `);
    expect(readFileSync(join(again, 'PROVENANCE.md'), 'utf8')).toMatch(/commit [0-9a-f]{40}/);
  });

  it("has media/ in plain text: the source's manifests, or the committed ones (data/media/) for a source with none, as a download is", () => {
    const manifest = (dir: string, file: string) =>
      existsSync(join(dir, file)) ? readFileSync(join(dir, file)) : gunzipSync(readFileSync(join(dir, `${file}.gz`)));
    const source = testConfig().dataDir;
    const sourceMedia = existsSync(join(source, 'media')) ? join(source, 'media') : join(repoRoot, 'data/media');
    const bare = join(scratch, 'tables-alone');
    cpSync(join(cutData, 'csv'), join(bare, 'csv'), { recursive: true });
    writeCut(bare, join(scratch, 'cut-of-tables-alone'), defaultSeeds);
    for (const file of ['sprites.txt', 'cries.txt']) {
      expect(readFileSync(join(cutData, 'media', file)).equals(manifest(sourceMedia, file)), file).toBe(true);
      expect(
        readFileSync(join(scratch, 'cut-of-tables-alone/media', file)).equals(gunzipSync(readFileSync(join(repoRoot, 'data/media', `${file}.gz`)))),
        file,
      ).toBe(true);
    }
  });
});
