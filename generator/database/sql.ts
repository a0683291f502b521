/**
 * The database's SQL, from the table plans (tables.ts): each table's definition, the full-text
 * search over every name, the views, and the meta table. Pure text; sqlite-file.ts runs it.
 */
import { tableName, type ColumnPlan, type TablePlan } from './tables.ts';

/** A name as SQL quotes it (`order` is a keyword). */
export const quoted = (name: string): string => `"${name.replaceAll('"', '""')}"`;

const columnSql = (c: ColumnPlan): string => `${quoted(c.name)} ${c.type}${c.nullable ? '' : ' NOT NULL'}`;

/**
 * A table's definition: STRICT, so a value of another type is refused rather than kept; a kind's
 * table keyed by `id`, a child table by its owner and position (WITHOUT ROWID: the key is the
 * table, no second copy); every link a foreign key.
 */
export function createTableSql(table: TablePlan): string {
  const child = table.owner !== null;
  const list = (names: readonly string[]) => names.map(quoted).join(', ');
  const key = `PRIMARY KEY (${list(keyColumns(table))})`;
  const owner =
    table.owner === null
      ? []
      : [`FOREIGN KEY (${list(table.columns.slice(0, table.keys).map((c) => c.name))}) REFERENCES ${quoted(table.owner.table)} (${list(table.owner.columns)})`];
  const links = table.columns.filter((c) => c.references !== null).map((c) => `FOREIGN KEY (${quoted(c.name)}) REFERENCES ${quoted(c.references!)} ("id")`);
  const body = [...table.columns.map(columnSql), key, ...owner, ...links].join(',\n  ');
  return `CREATE TABLE ${quoted(table.name)} (\n  ${body}\n) STRICT${child ? ', WITHOUT ROWID' : ''};`;
}

/** A table's key columns: `id`, or its owner's keys and its `position`. */
export const keyColumns = (table: TablePlan): string[] => (table.owner === null ? ['id'] : table.columns.slice(0, table.keys + 1).map((c) => c.name));

/**
 * The indexes made once the rows are in: a kind's `name` (an item is asked for by name; not
 * unique: the data set gives a few names to two items, the API answers the lower id).
 */
export function indexSql(table: TablePlan): string[] {
  if (table.owner !== null || !table.columns.some((c) => c.name === 'name')) return [];
  return [`CREATE INDEX ${quoted(`${table.name}_by_name`)} ON ${quoted(table.name)} ("name");`];
}

/** An insert of `rows` rows of a table, their values in the plan's column order, one row after another. */
export const insertSql = (table: TablePlan, rows = 1): string => {
  const row = `(${table.columns.map(() => '?').join(', ')})`;
  return `INSERT INTO ${quoted(table.name)} VALUES ${Array.from({ length: rows }, () => row).join(', ')}`;
};

/** The tables of names in every language: a kind's `names` list (`<kind>_names`: its owner, `name`, `language_id`). */
const namesTables = (tables: readonly TablePlan[]): TablePlan[] =>
  tables.filter((t) => t.name === tableName(t.kind, 'names') && t.columns.some((c) => c.name === 'name') && t.columns.some((c) => c.name === 'language_id'));

/**
 * The full-text search over every name of every kind: each item's own name (no language) and its
 * names in every language, each also without its accents (`plain`). Trigram tokens: a name is
 * found by any three letters of it in a row, whatever the script (`カチュ` finds ピカチュウ, which
 * has no spaces to cut words at), in any case; `flabebe` finds Flabébé by its plain form; a word
 * of three letters or more is found inside the names that hold it (`glurak`). The trigram
 * tokenizer is SQLite's since 3.34; its own folding of accents is not (3.45), so the plain form
 * is a column of its own, and the file opens in the SQLite of older systems.
 */
export function searchSql(tables: readonly TablePlan[]): string[] {
  const own = tables.filter((t) => t.owner === null && t.columns.some((c) => c.name === 'name'));
  const inLanguages = namesTables(tables);
  const columns = '(kind, id, name, language, plain)';
  return [
    `CREATE VIRTUAL TABLE "search" USING fts5(kind UNINDEXED, id UNINDEXED, name, language UNINDEXED, plain, tokenize = 'trigram');`,
    ...own.map(
      (t) => `INSERT INTO "search" ${columns} SELECT '${t.kind}', "id", "name", NULL, ${PLAIN}("name") FROM ${quoted(t.name)} WHERE "name" IS NOT NULL;`,
    ),
    ...inLanguages.map((t) => {
      const owner = quoted(t.columns[0]!.name);
      return `INSERT INTO "search" ${columns} SELECT '${t.kind}', n.${owner}, n."name", l."name", ${PLAIN}(n."name") FROM ${quoted(t.name)} n JOIN "language" l ON l."id" = n."language_id";`;
    }),
  ];
}

/** The SQL function of `plainText`, while the search is filled (it is not in the file). */
export const PLAIN = 'plain_text';

/** A name without its accents: its letters decomposed, their marks dropped (Flabébé → Flabebe). */
export const plainText = (text: string): string => text.normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC');

/** A view and what it answers. */
export interface ViewDecl {
  name: string;
  about: string;
  sql: string;
}

/** The summary's stat columns and the stats they read, in the answers' order. */
const BASE_STATS = [
  ['hp', 'hp'],
  ['attack', 'attack'],
  ['defense', 'defense'],
  ['special_attack', 'special-attack'],
  ['special_defense', 'special-defense'],
  ['speed', 'speed'],
] as const;

/**
 * The views for the questions asked most, each over the tables' own columns. Each column is a subquery of the row's own item, never a GROUP BY over the whole
 * table, so a `WHERE` on the view reaches the item's index: a reader by ranges fetches a dozen
 * pages for one creature's summary, not every creature's stats.
 */
export const VIEWS: readonly ViewDecl[] = [
  {
    name: 'creature_summary',
    about: 'One row per creature: its species, its types (slot order, comma-separated), each base stat and their total.',
    sql: `SELECT c."id", c."name", c."species_id", c."is_default",
  (SELECT group_concat(t."name", ',') FROM (SELECT ty."name" FROM "creature_types" ct JOIN "type" ty ON ty."id" = ct."type_id" WHERE ct."creature_id" = c."id" ORDER BY ct."slot") t) AS "types",
${BASE_STATS.map(([column, stat]) => `  (SELECT cs."base_stat" FROM "creature_stats" cs JOIN "stat" s ON s."id" = cs."stat_id" WHERE cs."creature_id" = c."id" AND s."name" = '${stat}') AS "${column}",`).join('\n')}
  (SELECT sum(cs."base_stat") FROM "creature_stats" cs WHERE cs."creature_id" = c."id") AS "base_stat_total"
FROM "creature" c`,
  },
  {
    name: 'learnset',
    about:
      'One row per way a creature learns a move in a version group: the creature, the move, the version group and the method by name, and the level (0 when not by level).',
    sql: `SELECT cm."creature_id", c."name" AS "creature", cm."move_id", m."name" AS "move", cm."version_group_id", vg."name" AS "version_group",
  ml."name" AS "method", cm."level_learned_at", cm."order"
FROM "creature_moves" cm
JOIN "creature" c ON c."id" = cm."creature_id"
JOIN "move" m ON m."id" = cm."move_id"
JOIN "version_group" vg ON vg."id" = cm."version_group_id"
JOIN "move_learn_method" ml ON ml."id" = cm."move_learn_method_id"`,
  },
  {
    name: 'type_matchups',
    about: 'Every attacking type against every defending type, today: the damage factor (0, 0.5, 1 or 2). Against two types, multiply the two rows’ factors.',
    sql: `SELECT a."id" AS "attacking_type_id", a."name" AS "attacking_type", d."id" AS "defending_type_id", d."name" AS "defending_type",
  CASE
    WHEN EXISTS (SELECT 1 FROM "type_damage_relations_no_damage_to" r WHERE r."type_id" = a."id" AND r."no_damage_to_type_id" = d."id") THEN 0.0
    WHEN EXISTS (SELECT 1 FROM "type_damage_relations_half_damage_to" r WHERE r."type_id" = a."id" AND r."half_damage_to_type_id" = d."id") THEN 0.5
    WHEN EXISTS (SELECT 1 FROM "type_damage_relations_double_damage_to" r WHERE r."type_id" = a."id" AND r."double_damage_to_type_id" = d."id") THEN 2.0
    ELSE 1.0
  END AS "factor"
FROM "type" a CROSS JOIN "type" d`,
  },
];

export const viewSql = (view: ViewDecl): string => `CREATE VIEW ${quoted(view.name)} AS\n${view.sql};`;

/** The meta table's rows. */
export interface DatabaseMeta {
  upstream_commit: string;
  built_at: string;
  version: string;
  schema_version: string;
  sqlite_version: string;
}

export const META_TABLE_SQL = `CREATE TABLE "meta" ("key" TEXT PRIMARY KEY, "value" TEXT NOT NULL) STRICT;`;
