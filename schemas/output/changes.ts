/**
 * The change report of a data version (issue 25): what moved between two upstream commits,
 * by table and by the API's items, names and field paths only, never values. Committed as
 * `data/changes/{from}..{to}.json` by `npm run data:update`; read, checked against this schema,
 * and served by the build (`GET /v2/changes/`, `GET /v2/changes/{commit}`).
 */
import { Type, type Static } from '@sinclair/typebox';
import { about } from './common.ts';

const Commit = (description: string) => Type.String({ pattern: '^[0-9a-f]{40}$', description });
const Count = (description: string) => Type.Integer({ minimum: 0, description });

const TableChange = Type.Object(
  {
    table: Type.String({ description: 'The upstream table’s file name, e.g. `encounters.csv`.' }),
    change: Type.Union([Type.Literal('changed'), Type.Literal('added'), Type.Literal('removed')], { description: 'Whether the table changed, came or went.' }),
    rows_added: Count('Rows the new commit has that the old one did not.'),
    rows_removed: Count('Rows the old commit had that the new one does not.'),
  },
  { additionalProperties: false },
);

const ItemRef = Type.Object(
  {
    id: Type.Integer({ description: 'The item’s id.' }),
    name: Type.Union([Type.String(), Type.Null()], { description: 'The item’s name; null for kinds addressed by id only.' }),
  },
  { additionalProperties: false },
);

const ChangedItem = Type.Object(
  {
    id: Type.Integer({ description: 'The item’s id.' }),
    name: Type.Union([Type.String(), Type.Null()], { description: 'The item’s name; null for kinds addressed by id only.' }),
    paths: Type.Array(Type.String(), {
      description: 'The field paths that changed (`forms[0].trigger_conditions`); a subresource’s are prefixed with its name and a slash (`encounters/[3].version_details[0].max_chance`).',
    }),
  },
  { additionalProperties: false },
);

const KindChanges = Type.Object(
  {
    added: Type.Array(ItemRef, { description: 'Items the new version has that the old one did not.' }),
    removed: Type.Array(ItemRef, { description: 'Items the old version had that the new one does not.' }),
    changed: Type.Array(ChangedItem, { description: 'Items whose documents differ, with the paths that differ.' }),
  },
  { additionalProperties: false },
);

export const ChangeSummary = Type.Object(
  {
    added: Count('Items added, summed over kinds.'),
    removed: Count('Items removed, summed over kinds.'),
    changed: Count('Items changed, summed over kinds.'),
  },
  { additionalProperties: false, description: 'How many items the version added, removed and changed.' },
);

export const ChangeReport = Type.Object(
  {
    from: Commit('The upstream commit the previous data version was built from.'),
    to: Commit('The upstream commit this data version is built from.'),
    tables: Type.Array(TableChange, { description: 'The tables that differ, sorted by name.' }),
    summary: about(ChangeSummary, 'How many items this version added, removed and changed, summed over kinds.'),
    kinds: Type.Record(Type.String(), KindChanges, { description: 'By collection (path segment), only those with a change, in the API’s kind order.' }),
  },
  { additionalProperties: false, description: 'What a data version changed: tables, and the API’s items by kind with the field paths that changed. Names and paths only, never values.' },
);

export type ChangeReport = Static<typeof ChangeReport>;
export type ChangeSummary = Static<typeof ChangeSummary>;

/** `GET /v2/changes/`: the data versions, newest first. */
export const ChangeList = Type.Object(
  {
    count: Count('How many data versions have a report.'),
    results: Type.Array(
      Type.Object(
        {
          from: Commit('The upstream commit of the version before.'),
          to: Commit('The upstream commit of this version.'),
          url: Type.String({ format: 'uri', description: 'URL of the version’s full report, `/changes/{to}/`.' }),
          summary: about(ChangeSummary, 'The version’s items added, removed and changed, summed over kinds.'),
        },
        { additionalProperties: false },
      ),
      { description: 'Newest first: this build’s version, then the one it was made from, and so on.' },
    ),
  },
  { additionalProperties: false, description: 'Every data version with a change report, newest first.' },
);
