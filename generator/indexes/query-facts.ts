/**
 * A record's query facts: what the kind's query indexes say of it, read off its item
 * by the kind's declaration (resources/query.ts) when the item is made, with the item's own
 * context, so the planner counts those reads as the item's. Facts are plain JSON: they travel
 * with the item's bytes (RecordDocuments), and a build keeps them beside its build index
 * (`queryFactsFile`) for the next update's records that are not made again.
 *
 * Field values are the item's own, and the build proves it: for an item of each key order along
 * the declared fields (the others' bytes can differ only where that order does), nesting the
 * declared fields' values in declared order, each as the JSON bytes its column holds, and writing
 * that as the request side does (contract/raw-json.ts) gives, byte for byte, what `pick` takes of
 * the item, which is what the request side will answer for `fields=`.
 */
import type { TSchema } from '@sinclair/typebox';
import { linkOf, type QueryShape } from '../../contract/layout.ts';
import { QUERYABLE_COLLECTION_PARAMS } from '../../contract/query/params.ts';
import { compileFields, nestFields, project, type FieldTree, type Json } from '../../contract/query/fields.ts';
import { jsonBytes, RawJson } from '../../contract/raw-json.ts';
import type { KindName } from '../model/kinds.ts';
import type { AnyResource } from '../resources/define.ts';
import { queryShapes, translatedNames, type AnyQueryDecl, type FactSource, type FilterValue } from '../resources/query.ts';
import { unwatched, type BuildContext } from '../resources/context.ts';
import { pathsBelow, withNames } from './field-paths.ts';

/** One value a record holds for a value filter: the linked resource's name and id, or `true`/`false` as 1/0. */
export type FactValue = [name: string, id: number | null];

export interface QueryFacts {
  /** per value filter, in declared order: the values the record holds */
  values: FactValue[][];
  /** per range, in declared order: the record's number or null */
  ranges: Array<number | null>;
  /** translated names searched besides the own name, as [language, name] */
  names: Array<[language: string, name: string]>;
  /** per declared field, in declared order: the item's value there */
  fields: Json[];
}

/**
 * Why a record's facts cannot be made: a problem naming kind, id and what, and, when the
 * declaration's own code threw (a bug rather than a bad value), what it threw.
 */
export interface FactsProblem {
  problem: string;
  thrown?: unknown;
}

/** A value the declaration gave that the index cannot hold; its message is the whole problem. */
class FactProblem extends Error {}

/** Where a build keeps each kind's facts for the next update: beside the build index, outside v2/ (not served, not archived). */
export const queryFactsFile = (kind: string): string => `query-facts/${kind}.json`;

/** What a kind that declares no queries takes: no filter, and its entries may carry their `id`. */
const ID_ONLY_QUERY: AnyQueryDecl = { filters: [], fields: ['id'] };

const compiled = new WeakMap<object, KindQuery>();

/**
 * The one conversion of a resource's query declaration (generator/resources/query.ts
 * `QueryDecl`): the kind's `KindQuery`, made once per resource, whose `shape` is what the
 * routing table, the request logic and the contract read (contract/layout.ts `QueryShape`).
 */
export function kindQuery(resource: AnyResource): KindQuery {
  let query = compiled.get(resource);
  if (query === undefined) {
    const declare = resource.query as ((shapes: typeof queryShapes) => AnyQueryDecl) | undefined;
    const decl = declare ? declare(queryShapes) : ID_ONLY_QUERY;
    const fields = withNames(decl.fields, resource.schema) as AnyQueryDecl['fields'];
    compiled.set(resource, (query = new KindQuery(resource.kind, { ...decl, fields }, resource.schema)));
  }
  return query;
}

/** A kind's declaration, ready to make facts: its routing-table shape and compiled fields. */
export class KindQuery {
  readonly shape: QueryShape;
  private readonly fieldTree: FieldTree;
  private readonly fieldKeys: string[][];
  /** the key orders (`keyOrder`) of items whose values were proven to nest back into them */
  private readonly provenOrders = new Set<string>();

  /** `schema`, the item's output schema, gives the paths accepted below the declared fields. */
  readonly kind: KindName;
  private readonly decl: AnyQueryDecl;
  constructor(kind: KindName, decl: AnyQueryDecl, schema?: TSchema) {
    this.kind = kind;
    this.decl = decl;
    this.shape = schema === undefined ? shapeOf(decl) : { ...shapeOf(decl), below: pathsBelow(kind, schema, decl.fields) };
    checkParameterNames(kind, this.shape);
    this.fieldTree = compileFields(decl.fields);
    this.fieldKeys = decl.fields.map((path) => path.split('.'));
  }

  /**
   * The record's facts, or why they cannot be made. `watched`: the item's view for facts code
   * (`ctx.forFacts`), when the caller has made it already for the item's other facts.
   */
  facts(record: { id: number }, item: unknown, ctx: BuildContext, watched = ctx.forFacts(item)): QueryFacts | FactsProblem {
    // the declaration's code may read a link's name for more than the link; a value's link and the fields are copied as they are
    const source = { item: watched.doc, record, ctx: watched.ctx } as FactSource<KindName, unknown>;
    const where = `${this.kind} ${record.id}`;
    try {
      const values = this.decl.filters.map((f) => f.values(source).map((v) => factValue(unwatched(v), f.target, `${where}: filter ${f.name}`)));
      const ranges = (this.decl.ranges ?? []).map((r) => checkedNumber(r.value(source), `${where}: range ${r.name}`));
      const names = (this.decl.names ? this.decl.names(source) : translatedNames(source.item)).map((n): [string, string] => [n.language, n.name]);
      const fields = this.fieldValues(item, where);
      return { values, ranges, names, fields };
    } catch (e) {
      if (e instanceof FactProblem) return { problem: e.message };
      return { problem: `${where}: ${e instanceof Error ? e.message : String(e)}`, thrown: e };
    }
  }

  /** The item's value at each declared field, proven to nest back into exactly what `pick` takes. */
  private fieldValues(item: unknown, where: string): Json[] {
    const values = this.fieldKeys.map((keys, i) => {
      const value = valueAt(item, keys);
      if (value === undefined) throw new FactProblem(`${where}: field ${this.decl.fields[i]!} is not in the item`);
      return value as Json;
    });
    // the proof's bytes differ only where the keys' order does: one item of each order is proof for all
    const order = keyOrder(item, this.fieldTree);
    if (this.provenOrders.has(order)) return values;
    if (!nestsAsItem(this.fieldKeys, values, this.fieldTree, item)) {
      throw new FactProblem(
        `${where}: field ${this.firstUnequalField(item, values)}: its column value, nested in declared order, is not what the item holds (declare fields in the item's key order)`,
      );
    }
    this.provenOrders.add(order);
    return values;
  }

  /** The first field whose columns, up to and with it, no longer give the item's parts. */
  private firstUnequalField(item: unknown, values: readonly Json[]): string {
    for (let n = 1; n <= values.length; n++) {
      const keys = this.fieldKeys.slice(0, n);
      const tree = compileFields(this.decl.fields.slice(0, n));
      if (!nestsAsItem(keys, values.slice(0, n), tree, item)) return this.decl.fields[n - 1]!;
    }
    return this.decl.fields[values.length - 1] ?? '(none)';
  }
}

/** The routing table's entry for a declaration. */
function shapeOf(decl: AnyQueryDecl): QueryShape {
  return {
    filters: decl.filters.map(({ name, about, target, from }) => ({ name, about, target, ...(from === undefined ? {} : { from }) })),
    ranges: (decl.ranges ?? []).map(({ name, about }) => ({ name, about })),
    fields: [...decl.fields],
    ...(decl.links === undefined ? {} : { links: checkedLinks(decl) }),
  };
}

/** The declared links, each on a declared field: its column gives each entry's link. */
function checkedLinks(decl: AnyQueryDecl): Record<string, string> {
  const links = { ...(decl.links as Record<string, string>) };
  for (const field of Object.keys(links)) {
    if (!decl.fields.includes(field)) throw new Error(`the link ${field} is not a declared field`);
  }
  return links;
}

/**
 * Each filter and range is a parameter of its own: none may share a name with another, nor with
 * a parameter every collection reads (`id`, `fields`, ...), which the request logic would read
 * instead.
 */
function checkParameterNames(kind: string, shape: QueryShape): void {
  const taken = new Set<string>(QUERYABLE_COLLECTION_PARAMS);
  for (const { name } of [...shape.filters, ...shape.ranges]) {
    if (taken.has(name)) throw new Error(`${kind}: the query parameter ${name} is declared twice, or is one every collection reads`);
    taken.add(name);
  }
}

/** A filter value as the index stores it; a link must point into the declared kind. */
function factValue(value: FilterValue, target: KindName | null, where: string): FactValue {
  if (typeof value === 'boolean') {
    if (target !== null) throw new FactProblem(`${where}: a yes/no value for a filter on ${target}`);
    return value ? ['true', 1] : ['false', 0];
  }
  const link = linkOf(value.url);
  if (link === null || link.kind !== target) throw new FactProblem(`${where}: ${value.url} is no link to ${target ?? 'a yes/no value'}`);
  return [value.name, link.id];
}

function checkedNumber(value: number | null, where: string): number | null {
  if (value !== null && !Number.isSafeInteger(value)) throw new FactProblem(`${where}: ${String(value)} is no integer`);
  return value;
}

/** The value at a path through objects; undefined when the path is not there. */
function valueAt(document: unknown, keys: readonly string[]): unknown {
  let at = document;
  for (const key of keys) {
    if (typeof at !== 'object' || at === null || Array.isArray(at) || !Object.hasOwn(at, key)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

const encoder = new TextEncoder();

/**
 * The item's keys along the tree, each in the item's own order, with what stands where the tree
 * goes on (an object's keys, or the kind of value that is not one). The bytes `nestsAsItem`
 * compares are the same values' JSON on both sides, nested by the tree and by the item: they
 * can differ only where this does.
 */
function keyOrder(item: unknown, tree: FieldTree): string {
  const walk = (node: unknown, below: FieldTree): unknown => {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return node === null ? 'null' : Array.isArray(node) ? 'array' : typeof node;
    const keys: unknown[] = [];
    for (const key of Object.keys(node)) {
      const next = below.get(key);
      if (next !== undefined) keys.push(key, next === true ? 1 : walk((node as Record<string, unknown>)[key], next));
    }
    return keys;
  };
  return JSON.stringify(walk(item, tree));
}

/** Whether the values, as a column's bytes nested in this order and projected, write the item's own parts' text. */
function nestsAsItem(keys: readonly (readonly string[])[], values: readonly Json[], tree: FieldTree, item: unknown): boolean {
  const columnBytes = values.map((value) => new RawJson(encoder.encode(JSON.stringify(value))));
  const spliced = jsonBytes(project(nestFields(keys, columnBytes), tree));
  const own = encoder.encode(JSON.stringify(project(item, tree)));
  return spliced.length === own.length && spliced.every((byte, i) => byte === own[i]);
}
