/**
 * The whole API as one SQLite database (`dist/downloads/`): a table per kind of the upstream's,
 * made from the same answers as the JSON files (tables.ts says what each field becomes), with
 * the full-text search over every name and the views of sql.ts. The entry, this API's own merge
 * of a creature's documents, is left out: its fields are the creature's, species' and forms'
 * tables' rows.
 */
import { allResources } from '../resources/index.ts';
import { ownKinds } from '../model/kinds.ts';
import { kindTables, type KindTables } from './tables.ts';

import type { DatabaseMeta } from './sql.ts';

export { assembleDatabase, assembleDatabaseAside, DatabaseError, DatabasePart, type AssembleJob, type DatabaseFile } from './sqlite-file.ts';
export { VIEWS, type DatabaseMeta } from './sql.ts';
export type { ColumnPlan } from './tables.ts';

/** The layout's version: what a reader of the file can rely on. It changes when a table or a column changes. */
export const DATABASE_SCHEMA_VERSION = '1';

/** The `meta` table of a build's database (its SQLite's version is added as it is made). */
export const databaseMeta = (about: { upstreamCommit: string; builtAt: string; version: string }): Omit<DatabaseMeta, 'sqlite_version'> => ({
  upstream_commit: about.upstreamCommit,
  built_at: about.builtAt,
  version: about.version,
  schema_version: DATABASE_SCHEMA_VERSION,
});

let planned: KindTables[] | null = null;

/** Every kind's tables, in the order of the kinds. */
export function databaseTables(): readonly KindTables[] {
  return (planned ??= allResources.filter((r) => !ownKinds.has(r.kind)).map((r) => kindTables(r.kind, r.schema, aboutKind(r.kind))));
}

const aboutKind = (kind: string): string => `One row per ${kind}: the fields of /v2/${kind}/{id}/ that hold one value.`;
