/**
 * A resource as the service answers it: which kind of record it is made from, the response's
 * schema (schemas/output/), and the pure function that makes the response from one record.
 */
import type { Static, TSchema } from '@sinclair/typebox';
import type { BuildContext } from './context.ts';
import type { KindName, RecordOf } from '../model/kinds.ts';
import type { QueryDecl, QueryShapes } from './query.ts';

export interface SubresourceDef<K extends KindName, S extends TSchema = TSchema> {
  schema: S;
  emit(record: RecordOf<K>, ctx: BuildContext): Static<S>;
}

export interface ResourceDef<K extends KindName = KindName, S extends TSchema = TSchema> {
  kind: K;
  schema: S;
  emit(record: RecordOf<K>, ctx: BuildContext): Static<S>;
  /** documents below an item, e.g. `creature/{id}/encounters` */
  subresources?: Record<string, SubresourceDef<K>>;
  /** what its collection can be asked: filters, ranges, list-entry fields, searched names (query.ts), compiled by indexes/query-facts.ts `kindQuery`; default: its `id` field only */
  query?(shapes: QueryShapes<K, Static<S>>): QueryDecl<K, Static<S>>;
  /**
   * A field its item's file leaves to the document a link of the item names, which holds the
   * same field with the same value (contract/borrowed-field.ts): the answer is spliced from both.
   */
  borrows?: { field: keyof Static<S> & string; from: keyof Static<S> & string };
}

export function defineResource<K extends KindName, S extends TSchema>(def: ResourceDef<K, S>): ResourceDef<K, S> {
  return def;
}

/**
 * The registry holds resources of many kinds; each is checked where it is defined, its query
 * declaration too (its field paths are typed by its own schema, which the registry forgets:
 * indexes/query-facts.ts `kindQuery` reads it as `AnyQueryDecl`).
 */
export type AnyResource = {
  [K in KindName]: Omit<ResourceDef<K, TSchema>, 'query' | 'borrows'> & { query?: unknown; borrows?: { field: string; from: string } };
}[KindName];
