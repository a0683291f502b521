/**
 * A resource as the service answers it: which kind of record it is made from, the response's
 * schema (schemas/output/), and the pure function that makes the response from one record.
 */
import type { Static, TSchema } from '@sinclair/typebox';
import type { BuildContext } from '../emit/context.ts';
import type { KindName, RecordOf } from '../model/kinds.ts';
import { queryShapes, type AnyQueryDecl, type QueryDecl, type QueryShapes } from './query.ts';

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
  /** what its collection can be asked: filters, ranges, list-entry fields, searched names (query.ts); default: its `id` field only */
  query?(shapes: QueryShapes<K, Static<S>>): QueryDecl<K, Static<S>>;
}

export function defineResource<K extends KindName, S extends TSchema>(def: ResourceDef<K, S>): ResourceDef<K, S> {
  return def;
}

/** The registry holds resources of many kinds; each is checked where it is defined. */
export type AnyResource = { [K in KindName]: ResourceDef<K, TSchema> }[KindName];

/** What a kind that declares no queries takes: no filter, and its entries may carry their `id`. */
const ID_ONLY_QUERY: AnyQueryDecl = { filters: [], fields: ['id'] };

/** A resource's query declaration, made once per resource (ID_ONLY_QUERY when it declares none). */
const declared = new WeakMap<object, AnyQueryDecl>();
export function queryOf(resource: AnyResource): AnyQueryDecl {
  const make = resource.query as ((shapes: typeof queryShapes) => AnyQueryDecl) | undefined;
  if (!make) return ID_ONLY_QUERY;
  let decl = declared.get(resource);
  if (!decl) declared.set(resource, (decl = make(queryShapes)));
  return decl;
}
