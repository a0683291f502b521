/**
 * What the model reads the data set through: a table's rows, typed by its declaration in
 * schemas/tables.ts. The import (generator/import/tables.ts) makes one from the CSV files; the
 * dev loop's planner makes one that records which rows were read.
 */
import type { Static, TObject } from '@sinclair/typebox';
import type { TableKey, Tables } from '../../schemas/tables.ts';

export type Row<T extends TableKey> = Static<TObject<Tables[T]>>;

export interface TableStore {
  rows<T extends TableKey>(table: T): readonly Row<T>[];
  /** Rows of a table by primary key; only for tables that have one. */
  byId<T extends TableKey>(table: T): ReadonlyMap<number, Row<T>>;
}
