/**
 * The database against the JSON answers of the same build, read with plain SQL and never through
 * the code that made it (generator/database/): every item of the kinds people query most, a
 * sample of every other kind, field for field (scalars, links, names and texts in every
 * language, lists in their order, learnsets row for row), the search, the views and `meta`; then
 * that the file opens in Python's SQLite, and that a database that fails its checks stops the
 * build naming the table, the row and the column, leaving no file behind.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { bulkFile, databaseFile, itemFile, metaFile, type DownloadsIndex, type Meta } from '../contract/layout.ts';
import { assembleDatabase, assembleDatabaseAside, DatabaseError, databaseMeta, DatabasePart, databaseTables } from '../generator/database/index.ts';

type Doc = Record<string, unknown>;
type Link = { name?: string; url: string };
type Row = Record<string, unknown>;

const distDir = inject('distDir');
const meta = JSON.parse(readFileSync(join(distDir, metaFile), 'utf8')) as {
  upstream_commit: string;
  version: string;
  built_at: string;
  counts: Record<string, number>;
};
const file = join(distDir, databaseFile(meta.version, meta.upstream_commit));
const db = new DatabaseSync(file, { readOnly: true });
afterAll(() => db.close());

const idOf = (url: string): number => Number(/\/(-?\d+)\/$/.exec(url)![1]);
const isLink = (value: unknown): value is Link =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  typeof (value as Link).url === 'string' &&
  Object.keys(value).every((k) => k === 'name' || k === 'url');
const table = (kind: string) => kind.replaceAll('-', '_');
/** Every item of a kind as served (its bulk file: the items its list leaves out too, as a type `unknown`). */
const answers = (kind: string): Doc[] =>
  gunzipSync(readFileSync(join(distDir, bulkFile(kind))))
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Doc);
const doc = (kind: string, id: number) => JSON.parse(readFileSync(join(distDir, itemFile(kind, id)), 'utf8')) as Doc;
const sqlValue = (value: unknown) => (typeof value === 'boolean' ? Number(value) : value);
/** A child table's rows of one item, in the answer's order, without their keys. */
const rowsOf = (name: string, kind: string, id: number): Row[] =>
  (db.prepare(`SELECT * FROM "${name}" WHERE "${table(kind)}_id" = ? ORDER BY "position"`).all(id) as Row[]).map((row) => {
    const { position: _, [`${table(kind)}_id`]: __, ...rest } = row;
    return rest;
  });

/**
 * Differences between an item's answer and its rows, by the database's rules as the docs page
 * states them: a scalar is a column of its name, a link `<field>_id`, and a list of names, texts or
 * links a child table in the answer's order.
 */
function differences(kind: string, answer: Doc): string[] {
  const wrong: string[] = [];
  const id = answer.id as number;
  const own = db.prepare(`SELECT * FROM "${table(kind)}" WHERE "id" = ?`).get(id) as Row | undefined;
  if (!own) return [`${kind} ${id}: no row`];
  for (const [field, value] of Object.entries(answer)) {
    const at = `${kind} ${id} ${field}`;
    if (value === null || typeof value !== 'object') {
      // null: a scalar's column, or a link's; an object or a list that is null has no rows
      const column: string = field in own ? field : `${field}_id`;
      if (column in own && own[column] !== sqlValue(value)) wrong.push(`${at}: ${String(own[column])} against ${JSON.stringify(value)}`);
      if (!(column in own) && value !== null) wrong.push(`${at}: no column`);
    } else if (isLink(value)) {
      if (own[`${field}_id`] !== idOf(value.url)) wrong.push(`${at}: ${String(own[`${field}_id`])} against ${value.url}`);
    } else if (Array.isArray(value) && value.every(isLink)) {
      // a list of links: one column, the linked item's id
      const got = rowsOf(`${table(kind)}_${field}`, kind, id).map((row) => Object.values(row)[0]);
      if (JSON.stringify(got) !== JSON.stringify(value.map((l) => idOf(l.url)))) wrong.push(`${at}: ${JSON.stringify(got)}`);
    } else if (Array.isArray(value) && value.every((e) => typeof e === 'object' && e !== null && 'language' in e)) {
      // names and texts in every language: the text and the language, in order
      const texts = (value as Doc[]).map((e) => {
        const [text] = Object.entries(e).filter(([k]) => k !== 'language' && k !== 'version' && k !== 'version_group');
        return [text![0], text![1], idOf((e.language as Link).url)];
      });
      const got = rowsOf(`${table(kind)}_${field}`, kind, id).map((row) => {
        const name = texts[0]?.[0] as string;
        return [name, row[name], row[kind === 'language' && field === 'names' ? 'names_language_id' : 'language_id']];
      });
      if (JSON.stringify(got) !== JSON.stringify(texts)) wrong.push(`${at}: ${JSON.stringify(got).slice(0, 200)}`);
    }
  }
  return wrong;
}

describe('the database', () => {
  it('is named by the data and the project version, and passes SQLite’s integrity and foreign key checks', () => {
    expect(existsSync(file)).toBe(true);
    expect(readdirSync(join(distDir, 'downloads')).filter((name) => name.endsWith('.part'))).toEqual([]);
    expect(db.prepare('PRAGMA integrity_check').all()).toEqual([{ integrity_check: 'ok' }]);
    expect(db.prepare('PRAGMA foreign_key_check').all()).toEqual([]);
    const metaRows = Object.fromEntries(
      (db.prepare('SELECT key, value FROM meta').all() as Array<{ key: string; value: string }>).map((r) => [r.key, r.value]),
    );
    expect(metaRows).toMatchObject({ upstream_commit: meta.upstream_commit, version: meta.version, built_at: meta.built_at, schema_version: '1' });
    expect(metaRows.sqlite_version).toMatch(/^3\.\d+\.\d+$/);
  });

  it('holds every creature, species, move, type, ability and item as its answer, field for field', () => {
    const wrong: string[] = [];
    for (const kind of ['creature', 'creature-species', 'move', 'type', 'ability', 'item']) {
      const all = answers(kind);
      expect((db.prepare(`SELECT count(*) AS n FROM "${table(kind)}"`).get() as { n: number }).n, kind).toBe(all.length);
      for (const answer of all) wrong.push(...differences(kind, answer));
    }
    expect(wrong.slice(0, 20), `${wrong.length} differences`).toEqual([]);
    // the comparison sees a difference where there is one
    const species = doc('creature-species', 6);
    expect(differences('creature-species', { ...species, capture_rate: 1 })).toHaveLength(1);
    expect(differences('creature-species', { ...species, names: (species.names as Doc[]).toReversed() })).toHaveLength(1);
    expect(differences('creature-species', { ...species, egg_groups: [] })).toHaveLength(1);
    expect(differences('creature-species', { ...species, evolution_chain: { url: 'http://x/v2/evolution-chain/3/' } })).toHaveLength(1);
  });

  it('holds a sample of every other kind as its answer', () => {
    const wrong: string[] = [];
    const kinds = Object.keys(meta.counts).filter((kind) => !['creature', 'creature-species', 'move', 'type', 'ability', 'item', 'entry'].includes(kind));
    expect(kinds.length).toBeGreaterThan(40);
    for (const kind of kinds) {
      const all = answers(kind);
      expect((db.prepare(`SELECT count(*) AS n FROM "${table(kind)}"`).get() as { n: number }).n, kind).toBe(all.length);
      for (const answer of all.filter((_, i) => i % 7 === 0)) wrong.push(...differences(kind, answer));
    }
    expect(wrong.slice(0, 20), `${wrong.length} differences`).toEqual([]);
  });

  it('holds each creature’s types, stats, abilities and every learn of every move, row for row', () => {
    const wrong: string[] = [];
    for (const c of answers('creature')) {
      const id = c.id as number;
      const expected = {
        types: (c.types as Array<{ slot: number; type: Link }>).map((t) => ({ slot: t.slot, type_id: idOf(t.type.url) })),
        stats: (c.stats as Array<{ base_stat: number; effort: number; stat: Link }>).map((s) => ({
          base_stat: s.base_stat,
          effort: s.effort,
          stat_id: idOf(s.stat.url),
        })),
        abilities: (c.abilities as Array<{ ability: Link | null; is_hidden: boolean; slot: number }>).map((a) => ({
          ability_id: a.ability && idOf(a.ability.url),
          is_hidden: Number(a.is_hidden),
          slot: a.slot,
        })),
        moves: (c.moves as Array<{ move: Link; version_group_details: Doc[] }>).flatMap((m) =>
          m.version_group_details.map((d) => ({
            move_id: idOf(m.move.url),
            level_learned_at: d.level_learned_at,
            move_learn_method_id: idOf((d.move_learn_method as Link).url),
            order: d.order,
            version_group_id: idOf((d.version_group as Link).url),
          })),
        ),
      };
      for (const [field, rows] of Object.entries(expected)) {
        if (JSON.stringify(rowsOf(`creature_${field}`, 'creature', id)) !== JSON.stringify(rows)) wrong.push(`creature ${id} ${field}`);
      }
    }
    expect(wrong.slice(0, 20), `${wrong.length} differences`).toEqual([]);
  });

  it('finds any name of any kind in any language by three letters of it, without its accents', () => {
    const found = (query: string) => db.prepare(`SELECT kind, id, language FROM search WHERE search MATCH ? ORDER BY rank`).all(query) as Row[];
    expect(found('glurak')).toContainEqual({ kind: 'creature-species', id: 6, language: 'de' });
    expect(found('flabebe')).toContainEqual({ kind: 'creature-species', id: 669, language: 'en' });
    expect(found('flabébé')).toContainEqual({ kind: 'creature-species', id: 669, language: 'en' });
    expect(found('カチュ')).toContainEqual({ kind: 'creature-species', id: 25, language: 'ja-hrkt' });
    expect(found('pikachu')).toContainEqual({ kind: 'creature', id: 25, language: null });
  });

  it('answers its views: a creature with its types and stats, a learnset, the type matchups', () => {
    const pikachu = doc('creature', 25);
    const summary = db.prepare(`SELECT * FROM creature_summary WHERE name = 'pikachu'`).get() as Row;
    expect(summary.types).toBe('electric');
    expect(summary.base_stat_total).toBe((pikachu.stats as Array<{ base_stat: number }>).reduce((n, s) => n + s.base_stat, 0));
    const learns = (pikachu.moves as Array<{ version_group_details: unknown[] }>).reduce((n, m) => n + m.version_group_details.length, 0);
    expect((db.prepare(`SELECT count(*) AS n FROM learnset WHERE creature = 'pikachu'`).get() as Row).n).toBe(learns);
    const fire = doc('type', 10) as { damage_relations: Record<string, Link[]> };
    const doubled = (db.prepare(`SELECT defending_type FROM type_matchups WHERE attacking_type = 'fire' AND factor = 2.0`).all() as Row[]).map(
      (r) => r.defending_type,
    );
    expect(doubled.sort()).toEqual(fire.damage_relations.double_damage_to!.map((t) => t.name).sort());
  });

  const python = spawnSync('python3', ['--version']).status === 0;
  it.skipIf(!python)('opens in Python’s sqlite3: integrity, foreign keys, the search', () => {
    const script = [
      'import sqlite3, sys',
      "db = sqlite3.connect('file:' + sys.argv[1] + '?mode=ro', uri=True)",
      "print(db.execute('pragma integrity_check').fetchone()[0])",
      "print(len(db.execute('pragma foreign_key_check').fetchall()))",
      "print(db.execute(\"select id from search where search match 'glurak' and kind = 'creature-species'\").fetchone()[0])",
    ].join('\n');
    const run = spawnSync('python3', ['-c', script, file], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.stdout.split('\n').slice(0, 3)).toEqual(['ok', '0', '6']);
  });
});

describe('the listing of the downloads', () => {
  it('names every download with its size, SHA-256, type and data version; meta names the database', async () => {
    const reply = await fetch(`${inject('previewUrl')}/v2/downloads/`);
    expect(reply.status).toBe(200);
    const listing = (await reply.json()) as DownloadsIndex;
    expect(listing).toMatchObject({ data_version: meta.upstream_commit, version: meta.version });
    const servedMeta = JSON.parse(readFileSync(join(distDir, metaFile), 'utf8')) as Meta;
    expect(listing.downloads.map((d) => d.url)).toEqual([
      servedMeta.downloads.database,
      servedMeta.downloads.database_gzip,
      servedMeta.downloads.archive,
      ...Object.values(servedMeta.downloads.collections),
    ]);
    expect(listing.downloads.filter((d) => d.type === 'collection').map((d) => d.kind)).toEqual(Object.keys(servedMeta.downloads.collections));
    for (const entry of listing.downloads) {
      const bytes = readFileSync(join(distDir, new URL(entry.url).pathname));
      expect({ url: entry.url, bytes: entry.bytes, sha256: entry.sha256, data_version: entry.data_version }).toEqual({
        url: entry.url,
        bytes: bytes.byteLength,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        data_version: meta.upstream_commit,
      });
      expect(entry.content_type).toBe(entry.type === 'database' ? 'application/vnd.sqlite3' : 'application/gzip');
    }
    // the gzip'd copy is the database, byte for byte, named after it
    const [database, gzipped] = listing.downloads.filter((d) => d.type.startsWith('database'));
    expect([database!.type, gzipped!.type, gzipped!.url]).toEqual(['database', 'database-gzip', `${database!.url}.gz`]);
    expect(gunzipSync(readFileSync(join(distDir, new URL(gzipped!.url).pathname))).equals(readFileSync(join(distDir, new URL(database!.url).pathname)))).toBe(
      true,
    );
    expect(gzipped!.bytes).toBeLessThan(database!.bytes / 3);
    // the listing is not in the archive it describes
    expect(readdirSync(join(distDir, 'v2')).includes('downloads.json')).toBe(false);
  });
});

describe('the database made again from the items a folder serves, on a thread of its own', () => {
  it('stops at once when asked, leaving no file where the database goes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'database-test-'));
    try {
      const ids = new Map(databaseTables().map(({ kind }) => [kind, answers(kind).map((a) => a.id as number)]));
      const paths = { path: join(dir, 'out.sqlite'), gzipPath: join(dir, 'out.sqlite.gz') };
      const stopping = new AbortController();
      const made = assembleDatabaseAside(
        {
          ...paths,
          items: { root: distDir, ids, borrowing: [], since: null },
          meta: databaseMeta({ upstreamCommit: meta.upstream_commit, builtAt: meta.built_at, version: meta.version }),
        },
        stopping.signal,
      );
      setTimeout(() => stopping.abort(new Error('an edit came')), 50);
      await expect(made).rejects.toThrow('an edit came');
      expect(existsSync(paths.path) || existsSync(paths.gzipPath)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a database that fails its checks', () => {
  it('stops the build naming the table, the row and the column, and leaves no file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'database-test-'));
    try {
      const part = join(dir, 'part.sqlite');
      const database = new DatabasePart(part, databaseTables());
      // a creature whose species is in no row
      database.add('creature', {
        ...doc('creature', 25),
        abilities: [],
        moves: [],
        forms: [],
        game_indices: [],
        held_items: [],
        past_abilities: [],
        past_stats: [],
        past_types: [],
        stats: [],
        types: [],
      });
      database.close();
      const path = join(dir, 'out.sqlite');
      const paths = { path, gzipPath: `${path}.gz` };
      expect(() => assembleDatabase(paths, [part], databaseTables(), databaseMeta({ upstreamCommit: 'x', builtAt: 'now', version: '0' }))).toThrow(
        new DatabaseError('creature, row id 25, column species_id: 25 is no id of creature_species'),
      );
      expect(readdirSync(dir).sort()).toEqual(['part.sqlite']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
