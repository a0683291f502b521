/**
 * The change report of one data version (`data/changes/{from}..{to}.json`): what moved between
 * two upstream commits, table by table and item by item. Names and field paths only, never values.
 */
import { Type, type Static } from '@sinclair/typebox';
import { about, d } from './common.ts';

const Commit = (description: string) => Type.String({ pattern: '^[0-9a-f]{40}$', description });
const Count = (description: string) => Type.Integer({ minimum: 0, description });

export const TableChange = Type.Object(
  {
    table: Type.String(d('The upstream table’s file name, e.g. `encounters.csv`.')),
    change: Type.Union([Type.Literal('changed'), Type.Literal('added'), Type.Literal('removed')], d('Whether the table changed, came or went.')),
    rows_added: Count('Rows (lines after the header) found in the new table and not in the old one.'),
    rows_removed: Count('Rows found in the old table and not in the new one.'),
  },
  { additionalProperties: false },
);

export const ItemRef = Type.Object(
  {
    id: Type.Integer(d('The item’s id.')),
    name: Type.Union([Type.String(), Type.Null()], d('The item’s name; null for kinds whose items have none.')),
  },
  { additionalProperties: false },
);

export const ChangedItem = Type.Object(
  {
    id: Type.Integer(d('The item’s id.')),
    name: Type.Union([Type.String(), Type.Null()], d('The item’s name (in the new version); null for kinds whose items have none.')),
    paths: Type.Array(
      Type.String(),
      d(
        'The field paths that differ, e.g. `forms[0].trigger_conditions`; a subresource’s are prefixed with its name and a slash (`encounters/[3].version_details`).',
      ),
    ),
  },
  { additionalProperties: false },
);

export const KindChanges = Type.Object(
  {
    added: Type.Array(ItemRef, d('Items the new version has and the old one did not.')),
    removed: Type.Array(ItemRef, d('Items the old version had and the new one does not.')),
    changed: Type.Array(ChangedItem, d('Items in both whose response differs.')),
  },
  { additionalProperties: false },
);

export const ChangeSummary = Type.Object(
  {
    added: Count('Items added, over every kind.'),
    removed: Count('Items removed, over every kind.'),
    changed: Count('Items changed, over every kind.'),
  },
  { additionalProperties: false },
);

export const MovedDownload = Type.Object(
  {
    type: Type.Union([Type.Literal('database'), Type.Literal('database-gzip'), Type.Literal('archive')], d('Which download, as `/downloads/` names its type.')),
    from: Type.Union([Type.String(), Type.Null()], d('Its path in the previous data version, no longer served; null when that build had none.')),
    to: Type.String(d('Its path in this data version.')),
  },
  { additionalProperties: false },
);

export const ChangeReport = Type.Object(
  {
    from: Commit('The upstream commit of the previous data version.'),
    to: Commit('The upstream commit this data version is taken at.'),
    tables: Type.Array(TableChange, d('The tables that differ, by name.')),
    summary: about(ChangeSummary, 'How many items this version added, removed and changed, over every kind.'),
    kinds: Type.Record(Type.String(), KindChanges, d('By kind, in the API’s kind order; only kinds with a change.')),
    downloads: Type.Optional(
      Type.Array(
        MovedDownload,
        d('The downloads whose name carries the data version, each from its old path to its new one: a build keeps only its own version’s files.'),
      ),
    ),
  },
  { additionalProperties: false },
);
export type ChangeReport = Static<typeof ChangeReport>;
export type TableChange = Static<typeof TableChange>;
export type KindChanges = Static<typeof KindChanges>;
export type MovedDownload = Static<typeof MovedDownload>;
