/**
 * How a resource kind is made of upstream tables. A kind's canonical record is one row of its
 * main table, its public `name`, and the rows of the tables it owns (children), each child row
 * without the key that points back at the owner. Records are normalized: other resources are
 * referenced by id, and reverse lists (a type's creatures, say) are derived at build time.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { rowSchema, type TableKey } from '../../schemas/tables.ts';
import type { Row, TableStore } from './table-store.ts';

export interface ChildSpec<T extends TableKey = TableKey, K extends string = string, N extends Children = Children> {
  table: T;
  /** column of the child table that holds the owner's id */
  key: K;
  /** tables owned by each child row in turn (keyed by the child row's `id`) */
  children: N;
  /** order of child rows; default: the table's row order (the upstream's primary key order) */
  orderBy?: ReadonlyArray<string>;
  /**
   * The owner's column that `key` matches; default `id`. For tables keyed by something the
   * owner refers to, e.g. move_effect_prose rows by the move's `effect_id`: each owner gets a
   * copy of the rows it needs, so its record still holds all its response is made of.
   */
  on?: string;
}
export type Children = { readonly [field: string]: ChildSpec<TableKey, string, Children> };
/** A spec that names no children (the same type as `{}`, named for what it means). */
type NoChildren = Record<never, never>;

export function child<T extends TableKey, K extends keyof Row<T> & string, N extends Children = NoChildren>(
  table: T,
  key: K,
  options: { children?: N; orderBy?: ReadonlyArray<keyof Row<T> & string>; on?: string } = {},
): ChildSpec<T, K, N> {
  return {
    table,
    key,
    children: (options.children ?? {}) as N,
    ...(options.orderBy ? { orderBy: options.orderBy } : {}),
    ...(options.on ? { on: options.on } : {}),
  };
}

export type ChildRecord<S> = S extends ChildSpec<infer T, infer K, infer N> ? Omit<Row<T>, K> & ChildRecords<N> : never;
export type ChildRecords<C extends Children> = { [F in keyof C]: ChildRecord<C[F]>[] };

export interface KindSpec<T extends TableKey = TableKey, C extends Children = Children, K extends string = string> {
  /** the path segment, e.g. `creature-species` */
  kind: K;
  table: T;
  children: C;
  /**
   * How the public name is made; default: the row's `identifier`. Either way `pokemon` in it
   * becomes `creature`, so emitters use `record.name`, never `identifier`. `null` for kinds that are
   * addressed by id only (evolution-chain, machine, characteristic, ...).
   */
  name?: Bivariant<(row: Row<T>, tables: TableStore) => string> | null;
  /**
   * What a name used twice means. Default `error`: the import stops. `lowest-id-wins`: the
   * name addresses the item with the lowest id, the others are reachable by id only (the
   * upstream data has such pairs in a few tables; its own service answers 500 for them).
   */
  duplicateNames?: 'error' | 'lowest-id-wins';
  /** Whether an item appears in the collection list (all do, unless said otherwise). */
  listed?: Bivariant<(row: Row<T>) => boolean>;
  /**
   * Other names that address an item, after every item's own name (`giratina`, a species'
   * name, for the entry of its default variety `giratina-altered`); an alias another item
   * already has as its name, or an earlier item as an alias, addresses that one. Typed by the
   * kind where it is declared (its record's type is made from this spec).
   */
  aliases?: (record: never) => readonly string[];
  /**
   * `false` for a kind of this API's own, made of the upstream's tables but not one of its kinds
   * (the entry): the root index, which lists the upstream's kinds, and `/v2/search/` leave it out.
   */
  upstream?: false;
}

/** Lets a spec of one table stand where a spec of any table is expected (method parameters are bivariant). */
type Bivariant<F extends (...args: never[]) => unknown> = { check(...args: Parameters<F>): ReturnType<F> }['check'];

/** Marks, in the type only, a kind whose records have no name. */
export interface Unnamed {
  readonly unnamed: true;
}

export type KindRecord<S> = S extends KindSpec<infer T, infer C, string> ? Row<T> & { name: S extends Unnamed ? null : string } & ChildRecords<C> : never;

export function defineKind<K extends string, T extends TableKey, C extends Children = NoChildren>(
  spec: KindSpec<T, C, K> & { name: null },
): KindSpec<T, C, K> & Unnamed;
export function defineKind<K extends string, T extends TableKey, C extends Children = NoChildren>(spec: KindSpec<T, C, K>): KindSpec<T, C, K>;
export function defineKind(spec: KindSpec): KindSpec {
  return spec;
}

const recordSchemas = new WeakMap<KindSpec, TSchema>();

/** The JSON Schema of a kind's canonical record: the input contract, derived from the table declarations; one object per kind, so it is compiled once. */
export function recordSchema(spec: KindSpec): TSchema {
  let schema = recordSchemas.get(spec);
  if (!schema) recordSchemas.set(spec, (schema = recordSchemaOf(spec)));
  return schema;
}

function recordSchemaOf(spec: KindSpec): TSchema {
  const childrenSchema = (children: Children): Record<string, TSchema> =>
    Object.fromEntries(
      Object.entries(children).map(([field, c]) => {
        const row = rowSchema(c.table);
        const props: Record<string, TSchema> = { ...row.properties, ...childrenSchema(c.children) };
        delete props[c.key];
        return [field, Type.Array(Type.Object(props, { additionalProperties: false }))];
      }),
    );
  return Type.Object(
    {
      ...rowSchema(spec.table).properties,
      name: spec.name === null ? Type.Null() : Type.String({ minLength: 1 }),
      ...childrenSchema(spec.children),
    },
    { additionalProperties: false },
  );
}

type AnyRow = Record<string, unknown>;

function compareBy(fields: ReadonlyArray<string>) {
  return (a: AnyRow, b: AnyRow) => {
    for (const f of fields) {
      const x = a[f] as number | string | null;
      const y = b[f] as number | string | null;
      if (x === y) continue;
      if (x === null) return -1;
      if (y === null) return 1;
      return x < y ? -1 : 1;
    }
    return 0;
  };
}

/**
 * Rows of a child table, each with its own children attached, without the key to the owner;
 * only those whose key is in `wanted` when given (a stable sort keeps their order the same).
 */
function childRows(spec: ChildSpec, tables: TableStore, wanted?: ReadonlySet<unknown>): Map<unknown, AnyRow[]> {
  let rows = tables.rows(spec.table) as readonly AnyRow[];
  if (wanted) rows = rows.filter((r) => wanted.has(r[spec.key]));
  if (spec.orderBy) rows = [...rows].sort(compareBy(spec.orderBy));
  if (Object.keys(spec.children).length) rows = attachChildren(rows, spec.children, tables, wanted !== undefined);
  const groups = new Map<unknown, AnyRow[]>();
  for (const { [spec.key]: owner, ...rest } of rows) {
    let list = groups.get(owner);
    if (!list) groups.set(owner, (list = []));
    list.push(rest);
  }
  return groups;
}

/**
 * Copies of `owners`, each with the rows of every child table it owns; pure. `subset`: the
 * owners are a few of the table's rows, so only their children are gathered (same result).
 */
function attachChildren(owners: readonly AnyRow[], children: Children, tables: TableStore, subset = false): AnyRow[] {
  const attached = owners.map((o) => ({ ...o }));
  for (const [field, spec] of Object.entries(children)) {
    const ownerKey = spec.on ?? 'id';
    const groups = childRows(spec, tables, subset ? new Set(owners.map((o) => o[ownerKey])) : undefined);
    for (const owner of attached) owner[field] = groups.get(owner[ownerKey]) ?? [];
  }
  return attached;
}

/** Public names say `creature` where the upstream's identifiers say `pokemon` (`selected-pokemon` → `selected-creature`). */
export const productWordReplaced = (identifier: string) => identifier.replace(/pokemon/g, 'creature');

/** Canonical records of one kind, in id order; pure. `onlyIds`: just the records with these ids. */
export function assembleRecords(spec: KindSpec, tables: TableStore, onlyIds?: ReadonlySet<number>): AnyRow[] {
  let main = tables.rows(spec.table) as readonly AnyRow[];
  if (onlyIds) main = main.filter((r) => onlyIds.has(r.id as number));
  main = [...main].sort((a, b) => (a.id as number) - (b.id as number));
  const named = main.map((row) => ({
    ...row,
    name: spec.name === null ? null : productWordReplaced(spec.name ? spec.name(row as never, tables) : (row.identifier as string)),
  }));
  return attachChildren(named, spec.children, tables, onlyIds !== undefined);
}

/** Every table a kind's records are made of: its main table and the tables it owns, at any depth. */
export function ownedTables(spec: KindSpec): Set<TableKey> {
  const out = new Set<TableKey>([spec.table]);
  const visit = (children: Children) => {
    for (const c of Object.values(children)) {
      out.add(c.table);
      visit(c.children);
    }
  };
  visit(spec.children);
  return out;
}

/**
 * Ids of the records of `spec` that rows of `table` (changed, added or removed ones) are part
 * of, found through the chain of owner keys; `stores` are the tables before and after the
 * change, so an owner is found whichever version holds it. Only for tables the kind owns.
 */
export function ownersOfRows(spec: KindSpec, table: TableKey, rows: readonly AnyRow[], stores: readonly TableStore[]): Set<number> {
  const ids = new Set<number>();
  if (spec.table === table) for (const r of rows) ids.add(r.id as number);
  const rowsOf = (t: TableKey) => stores.flatMap((st) => st.rows(t) as readonly AnyRow[]);
  /** owner ids of `found`, rows of the last table in `path` */
  const up = (path: readonly ChildSpec[], found: readonly AnyRow[]): void => {
    const last = path[path.length - 1]!;
    const keys = new Set(found.map((r) => r[last.key]));
    const on = last.on ?? 'id';
    const parentRows = rowsOf(path.length === 1 ? spec.table : path[path.length - 2]!.table).filter((r) => keys.has(r[on]));
    if (path.length === 1) for (const r of parentRows) ids.add(r.id as number);
    else up(path.slice(0, -1), parentRows);
  };
  const visit = (children: Children, path: readonly ChildSpec[]) => {
    for (const c of Object.values(children)) {
      if (c.table === table) up([...path, c], rows);
      visit(c.children, [...path, c]);
    }
  };
  visit(spec.children, []);
  return ids;
}
