/**
 * The docs page's "Download the database": the file, what its tables and views hold (from the same
 * plans as the file, generator/database/), example queries, and the SQL box (site/sql.js) that
 * runs a query in the browser by range requests, with SQLite's WebAssembly build served beside the
 * page (SITE_LIBRARIES).
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gzipCopyFile } from '../../contract/layout.ts';
import { databaseTables, VIEWS, type ColumnPlan } from '../database/index.ts';
import { escapeHtml } from './reference.ts';

/**
 * The files of SQLite's official WebAssembly build the SQL box loads, served at the site's root
 * under these names: the worker imports `/sqlite3.mjs`, which fetches `sqlite3.wasm` beside itself.
 */
export function siteLibraries(): { path: string; from: string }[] {
  const dist = join(dirname(createRequire(import.meta.url).resolve('@sqlite.org/sqlite-wasm/package.json')), 'dist');
  return [
    { path: 'sqlite3.mjs', from: join(dist, 'index.mjs') },
    { path: 'sqlite3.wasm', from: join(dist, 'sqlite3.wasm') },
  ];
}

/** The box's examples: each a question the database answers in a few pages. */
export const SQL_EXAMPLES: readonly { label: string; sql: string }[] = [
  { label: 'A name in German', sql: `SELECT kind, id, name, language FROM search WHERE search MATCH 'glurak' ORDER BY kind, id` },
  { label: 'Accents folded', sql: `SELECT kind, id, name, language FROM search WHERE search MATCH 'flabebe' AND language = 'en'` },
  {
    label: 'A learnset',
    sql: `SELECT move, method, level_learned_at FROM learnset WHERE creature = 'pikachu' AND version_group = 'scarlet-violet' ORDER BY method, level_learned_at, move`,
  },
  { label: 'Types and stats', sql: `SELECT * FROM creature_summary WHERE name = 'garchomp'` },
  {
    label: 'What ice hits hard',
    sql: `SELECT defending_type, factor FROM type_matchups WHERE attacking_type = 'ice' AND factor <> 1 ORDER BY factor DESC, defending_type`,
  },
  { label: 'The build', sql: `SELECT * FROM meta` },
];

const code = (text: string) => `<code>${escapeHtml(text)}</code>`;

/** Each table with its columns (a link's with the table it leads to) and what it holds. */
function tableList(): string {
  const tables = databaseTables().flatMap((kind) => kind.tables);
  const column = (c: ColumnPlan) => `${code(c.name)}${c.references ? ` → ${code(c.references)}` : ''}`;
  const rows = tables.map((t) => `<li>${code(t.name)}${t.about ? `: ${escapeHtml(t.about)}` : ''} (${t.columns.map(column).join(', ')})</li>`);
  return `<details><summary>Its ${tables.length} tables</summary><ul class="database-tables">${rows.join('')}</ul></details>`;
}

/** The section, for the database served at `route`. */
export function databaseSection(route: string): { nav: string; section: string } {
  const examples = SQL_EXAMPLES.map((e) => `<button type="button" class="chip" data-sql="${escapeHtml(e.sql)}">${escapeHtml(e.label)}</button>`).join('');
  const views = VIEWS.map((v) => `<li>${code(v.name)}: ${escapeHtml(v.about)}</li>`).join('');
  return {
    nav: '<li><a href="#database">Database</a></li>',
    section:
      `<section id="database" aria-labelledby="database-title"><h2 id="database-title">Download the database</h2>` +
      `<p>The whole API as one SQLite file, <a href="${escapeHtml(route)}" download>${escapeHtml(route)}</a> ` +
      `(gzip’d for a whole download: <a href="${escapeHtml(gzipCopyFile(route))}" download>${escapeHtml(gzipCopyFile(route))}</a>), made from the same records as the JSON answers, in their words: ` +
      `a table per collection keyed by ${code('id')}, a link as ${code('{field}_id')} with its foreign key, a list as a table of its own keyed by its owner and ${code('position')}, ` +
      `names and texts in every language as ${code('{collection}_names')} and the like, and ${code('meta')}: the data version, the build, the schema’s version. ` +
      `${code('search')} is a full-text table (FTS5, trigram) of every name in every language, accents folded: ${code("search MATCH 'glurak'")} finds charizard, ${code("'カチュ'")} finds ピカチュウ. ` +
      `The file answers range requests, so a program, or this page, can query it where it is served, reading only the pages a query needs; ${code('/v2/downloads/')} gives its size and SHA-256.</p>` +
      `<div class="card"><h3>The views</h3><ul id="database-views">${views}</ul></div>` +
      `<div class="card sql-box" id="sql" data-database="${escapeHtml(route)}">` +
      `<h3>Query it here</h3><p>Read only, in your browser: SQLite’s WebAssembly build fetches the pages of the file the query reads, and this box says how many bytes that was.</p>` +
      `<p class="examples">${examples}</p>` +
      `<form id="sql-form"><label for="sql-query">SQL</label><textarea id="sql-query" rows="4" spellcheck="false">${escapeHtml(SQL_EXAMPLES[0]!.sql)}</textarea>` +
      `<button type="submit" id="sql-run">Run</button></form>` +
      `<p id="sql-status" role="status" aria-live="polite"></p><div class="table-scroll"><table id="sql-output" class="fields"></table></div></div>` +
      `<div class="card">${tableList()}</div></section>`,
  };
}
