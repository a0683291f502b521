/**
 * The database's tables, made from the answers' schemas alone (schemas/output/), and how each
 * answer becomes rows of them. Pure: sqlite-file.ts writes what this plans.
 *
 * What each field of an answer becomes:
 *   - a number, string or boolean: a column of its name (booleans as 0 and 1);
 *   - a link to one item: `<field>_id`, a foreign key to its kind's table (`move.type_id`);
 *   - an object of fixed shape that is no link: its fields as columns prefixed by its name
 *     (`meta_ailment_id`), objects within it likewise;
 *   - a free tree (an object whose fields hold objects that hold objects, as `sprites`, or a
 *     record of any keys): one column of JSON text;
 *   - a list: a child table `<kind>_<field>` of one row per element, keyed by `<kind>_id` and the
 *     row's `position` in the answer's order; its element's fields are columns by the same rules.
 *     An element's one list of objects is flattened into the same rows, as deep as they go (one
 *     row per element of the innermost list, the outer elements' columns repeated: a creature's
 *     moves are one row per learn; an element whose list is empty is one row with that list's
 *     columns null). Any other list in a row (of links, or one of several) is a table of its own,
 *     `<table>_<field>`, keyed by the row's keys and position. A list of links is a table of one
 *     link column (`<kind>_id` of the linked kind); a list of numbers or strings, one `value` column.
 *   - a tree of one shape repeated (an evolution chain's `chain`, TREES): one row per node, in the
 *     order a walk from the root meets them, with its parent's link; a list a node holds is a
 *     table of its own, as a row's.
 */
import type { TSchema } from '@sinclair/typebox';
import { Kind, OptionalKind } from '@sinclair/typebox';
import { linkedKind } from '../../schemas/output/common.ts';

export type SqlValue = number | string | null;
export type SqlType = 'INTEGER' | 'REAL' | 'TEXT';

export interface ColumnPlan {
  name: string;
  type: SqlType;
  nullable: boolean;
  /** the table whose `id` a link column holds */
  references: string | null;
  /** the answer's field it holds, as a path (`moves[].version_group_details[].level_learned_at`) */
  field: string;
  /** what it holds: the field's description */
  about: string;
}

export interface TablePlan {
  name: string;
  /** the kind whose answers fill it */
  kind: string;
  about: string;
  /**
   * how many of `columns`, first, are its owner's key (`<kind>_id`, and the position of the owner's
   * row for a list in a list's rows), followed by its own `position`; 0 for a kind's table, keyed by `id`
   */
  keys: number;
  /** the table its owner keys lead to, with that table's key columns; null for a kind's table */
  owner: { table: string; columns: string[] } | null;
  columns: ColumnPlan[];
}

/** A table's name for a kind or a field's path: `creature-species` → `creature_species`. */
export const tableName = (...parts: string[]): string => parts.join('_').replaceAll('-', '_');

/** A kind whose answer holds a tree of one shape repeated: the field, its table, and the column that names a node's parent. */
export interface TreeDecl {
  field: string;
  table: string;
  /** the parent's column of this name is held again as `parent` (the species a stage evolves from) */
  parentOf: { column: string; as: string };
}

/** The trees of the answers: an evolution chain's stages. */
export const TREES: Readonly<Record<string, TreeDecl>> = {
  'evolution-chain': { field: 'chain', table: 'evolution_chain_links', parentOf: { column: 'species_id', as: 'evolves_from_species_id' } },
};

type Doc = Record<string, unknown>;
type Schema = TSchema & {
  properties?: Record<string, TSchema>;
  items?: TSchema;
  anyOf?: TSchema[];
  description?: string;
  $id?: string;
};

/** Thrown when a schema holds a shape the database has no rule for: it names the field. */
export class TablePlanError extends Error {}

/** The id at the end of a link's URL (`…/type/12/` → 12). */
export function idOfLinkUrl(url: string): number {
  // read from the end, without a regular expression: a creature's learnset holds two thousand links
  const end = url.endsWith('/') ? url.length - 1 : url.length;
  const start = url.lastIndexOf('/', end - 1) + 1;
  const id = start > 0 && end > start ? Number(url.slice(start, end)) : NaN;
  if (!Number.isInteger(id)) throw new TablePlanError(`a link's URL ends in no id: ${url}`);
  return id;
}

/** What a value is, for the rules: null aside (`nullable`). */
type Shape =
  | { is: 'scalar'; type: SqlType }
  | { is: 'link'; kind: string }
  | { is: 'json' }
  | { is: 'object'; properties: Record<string, TSchema> }
  | { is: 'list'; items: TSchema };

/** A schema's shape and whether it admits null (`Nullable`, `Type.Optional`). */
function shapeOf(schema: Schema, field: string): { shape: Shape; nullable: boolean } {
  let nullable = false;
  let at: Schema = schema;
  if (at.anyOf) {
    const others = nonNull(at);
    nullable = others.length < at.anyOf.length;
    if (others.length === 1) at = others[0]!;
    else if (others.every((s) => s[Kind] === 'Literal')) return { shape: { is: 'scalar', type: literalType(others) }, nullable };
    else throw new TablePlanError(`${field}: a union of ${others.length} shapes has no column rule`);
  }
  const kind = linkedKind(at);
  if (kind !== undefined) return { shape: { is: 'link', kind }, nullable };
  switch (at[Kind]) {
    case 'Integer':
      return { shape: { is: 'scalar', type: 'INTEGER' }, nullable };
    case 'Boolean':
      return { shape: { is: 'scalar', type: 'INTEGER' }, nullable };
    case 'Number':
      return { shape: { is: 'scalar', type: 'REAL' }, nullable };
    case 'String':
      return { shape: { is: 'scalar', type: 'TEXT' }, nullable };
    case 'Literal':
      return { shape: { is: 'scalar', type: literalType([at]) }, nullable };
    case 'Array':
      return { shape: { is: 'list', items: at.items! }, nullable };
    case 'Record':
    case 'Intersect':
      return { shape: { is: 'json' }, nullable };
    case 'Object':
      if (isFreeTree(at)) return { shape: { is: 'json' }, nullable };
      if (isUnsaidLink(at)) throw new TablePlanError(`${field}: a link that does not say which kind it leads to (schemas/output/common.ts linkTo)`);
      return { shape: { is: 'object', properties: at.properties ?? {} }, nullable };
    default:
      throw new TablePlanError(`${field}: a ${String(at[Kind])} has no column rule`);
  }
}

/** A link's shape (`{name, url}` or `{url}`) with no kind said: a schema to mend, not a shape to store as two strings. */
const isUnsaidLink = (schema: Schema): boolean => {
  const keys = Object.keys(schema.properties ?? {})
    .sort()
    .join();
  return keys === 'name,url' || keys === 'url';
};

const literalType = (literals: Schema[]): SqlType => (literals.every((l) => typeof (l as { const?: unknown }).const === 'number') ? 'INTEGER' : 'TEXT');

/** An object whose fields hold objects that hold objects (links aside): a tree, kept as JSON. */
function isFreeTree(schema: Schema): boolean {
  const objectsIn = (s: Schema): Schema[] =>
    Object.values(s.properties ?? {})
      .map((p) => unwrapNull(p as Schema))
      .filter((p) => p[Kind] === 'Object' && linkedKind(p) === undefined);
  return objectsIn(schema).some((inner) => objectsIn(inner).length > 0);
}

/** A union's branches but null. */
const nonNull = (schema: Schema): Schema[] => (schema.anyOf ?? []).filter((s) => s[Kind] !== 'Null');

/** A nullable schema's one other branch; any other schema as it is. */
const unwrapNull = (schema: Schema): Schema => {
  const others = nonNull(schema);
  return schema.anyOf && others.length === 1 ? others[0]! : schema;
};

/** Reads one column's value from the object of its level. */
interface ColumnRead {
  plan: ColumnPlan;
  read(from: Doc): SqlValue;
}

/** A list met while walking an object: where it is, and its element's schema. */
interface ListAt {
  path: string[];
  field: string;
  items: Schema;
  about: string;
}

const valueAt = (from: Doc, path: readonly string[]): unknown => {
  let at: unknown = from;
  for (const key of path) {
    if (at === null || at === undefined) return null;
    at = (at as Doc)[key];
  }
  return at;
};

/** A reader of the value at `path`: most are one key deep, read without a walk. */
const getter = (path: readonly string[]): ((from: Doc) => unknown) => {
  const [key] = path;
  return path.length === 1 ? (from) => from[key!] : (from) => valueAt(from, path);
};

const sqlValue = (value: unknown): SqlValue =>
  value === undefined || value === null ? null : typeof value === 'boolean' ? (value ? 1 : 0) : (value as number | string);

/** The columns of an object's scalar, link, tree and fixed-object fields, and the lists it holds, prefixed by `prefix`. */
function walkObject(
  properties: Record<string, TSchema>,
  prefix: string[],
  fieldPath: string,
  parentNullable: boolean,
): { columns: ColumnRead[]; lists: ListAt[] } {
  const columns: ColumnRead[] = [];
  const lists: ListAt[] = [];
  for (const [key, schema] of Object.entries(properties)) {
    const path = [...prefix, key];
    const at = getter(path);
    const field = fieldPath ? `${fieldPath}.${key}` : key;
    const { shape, nullable: own } = shapeOf(schema, field);
    const nullable = own || parentNullable || isOptional(schema);
    const about = (schema as Schema).description ?? '';
    const name = tableName(...path);
    switch (shape.is) {
      case 'scalar':
      case 'link':
      case 'json':
        columns.push(leafColumn(shape, shape.is === 'link' ? `${name}_id` : name, { nullable, field, about }, at));
        break;
      case 'object': {
        const inner = walkObject(shape.properties, path, field, nullable);
        columns.push(...inner.columns);
        lists.push(...inner.lists);
        break;
      }
      case 'list':
        lists.push({ path, field, items: shape.items, about });
        break;
    }
  }
  return { columns, lists };
}

/** The one column of a scalar, a link (its id) or a tree (its JSON text), read from what `at` finds. */
function leafColumn(
  shape: Extract<Shape, { is: 'scalar' | 'link' | 'json' }>,
  name: string,
  { nullable, field, about }: Pick<ColumnPlan, 'nullable' | 'field' | 'about'>,
  at: (from: Doc) => unknown,
): ColumnRead {
  switch (shape.is) {
    case 'scalar':
      return { plan: { name, type: shape.type, nullable, references: null, field, about }, read: (from) => sqlValue(at(from)) };
    case 'link':
      return {
        plan: { name, type: 'INTEGER', nullable, references: tableName(shape.kind), field, about },
        read: (from) => {
          const link = at(from) as { url: string } | null | undefined;
          return link === null || link === undefined ? null : idOfLinkUrl(link.url);
        },
      };
    case 'json':
      return {
        plan: { name, type: 'TEXT', nullable, references: null, field, about: `${about} JSON text.`.trim() },
        read: (from) => {
          const value = at(from);
          return value === null || value === undefined ? null : JSON.stringify(value);
        },
      };
  }
}

const isOptional = (schema: TSchema): boolean => (schema as unknown as Record<symbol, unknown>)[OptionalKind] === 'Optional';

/** What one depth of a table's rows reads: its element's columns, and the one list of objects flattened below it, if any. */
interface Depth {
  columns: ColumnRead[];
  /** where the next depth's elements are, in this depth's element */
  flat: string[] | null;
}

/** A table's rows as the walk of an answer fills them: the depths flattened into one row, and the tables of the lists its rows hold. */
interface TableShape {
  plan: TablePlan;
  depths: Depth[];
  children: Array<{ path: string[]; shape: TableShape }>;
}

/** The table's key: its owner's keys, then its own `position`. */
interface Keys {
  columns: ColumnPlan[];
  /** the table the keys but `position` lead to (the owner's), with its key columns */
  owner: { table: string; columns: string[] };
}

/**
 * An element's columns and lists (`list.items`): a link or a scalar is one column; an object's
 * fields are walked (walkObject).
 */
function elementOf(list: ListAt): { columns: ColumnRead[]; lists: ListAt[] } {
  const field = `${list.field}[]`;
  const { shape } = shapeOf(list.items, field);
  switch (shape.is) {
    case 'scalar':
    case 'link':
    case 'json': {
      const name = shape.is === 'link' ? `${tableName(shape.kind)}_id` : 'value';
      return { columns: [leafColumn(shape, name, { nullable: false, field, about: list.about }, (e) => e)], lists: [] };
    }
    case 'list':
      throw new TablePlanError(`${field}: a list of lists has no table rule`);
    case 'object':
      return walkObject(shape.properties, [], field, false);
  }
}

/** The one list of objects an element holds, to flatten into its rows; none when it holds no list, several, or a list of links or values. */
function flattened(lists: readonly ListAt[]): ListAt | null {
  if (lists.length !== 1) return null;
  return shapeOf(lists[0]!.items, lists[0]!.field).shape.is === 'object' ? lists[0]! : null;
}

/** A list's table (`name`), keyed by `keys` and `position`: its depths flattened, and a child table for each list its rows hold. */
function listShape(kind: string, name: string, keys: Keys, list: ListAt): TableShape {
  const depths: Depth[] = [];
  let element = elementOf(list);
  let flat = flattened(element.lists);
  depths.push({ columns: element.columns, flat: flat?.path ?? null });
  while (flat) {
    element = elementOf(flat);
    const inner: ListAt = flat;
    flat = flattened(element.lists);
    // below the first depth, a value is missing where an outer element's list is empty
    depths.push({
      columns: element.columns.map((c) => ({ ...c, plan: { ...c.plan, nullable: true, field: `${inner.field}[].${c.plan.field}` } })),
      flat: flat?.path ?? null,
    });
  }
  const own = depths.flatMap((d) => d.columns);
  const taken = new Set([...keys.columns.map((c) => c.name), 'position']);
  for (const c of own) {
    // an element's column named as a key (a list of types in a type's answer): named by its list too
    if (taken.has(c.plan.name)) c.plan = { ...c.plan, name: tableName(list.path.at(-1)!, c.plan.name) };
    if (taken.has(c.plan.name)) throw new TablePlanError(`${name}: two columns named ${c.plan.name}`);
    taken.add(c.plan.name);
  }
  const plan: TablePlan = {
    name,
    kind,
    about: list.about,
    keys: keys.columns.length,
    owner: keys.owner,
    columns: [...keys.columns, positionColumn, ...own.map((c) => c.plan)],
  };
  // the deepest depth's lists are those no depth flattened
  return { plan, depths, children: childShapes(kind, name, keys, element.lists) };
}

/** The tables of the lists a row of `table` holds, keyed by the row's keys and position. */
function childShapes(kind: string, table: string, keys: Keys, lists: readonly ListAt[]): TableShape['children'] {
  const rowKeys: Keys = {
    columns: [
      ...keys.columns,
      { ...positionColumn, name: `${table.slice(tableName(kind).length + 1)}_position`, about: `Its row's \`position\` in ${table}.` },
    ],
    owner: { table, columns: [...keys.columns.map((c) => c.name), 'position'] },
  };
  return lists.map((list) => ({ path: list.path, shape: listShape(kind, `${table}_${tableName(...list.path)}`, rowKeys, list) }));
}

const positionColumn: ColumnPlan = {
  name: 'position',
  type: 'INTEGER',
  nullable: false,
  references: null,
  field: '',
  about: 'Its place among its owner’s rows, from 0, in the answer’s order.',
};

/** Fills `shape`'s rows (and its children's) from a list's elements, under the keys `keys`. */
function fill(shape: TableShape, keys: readonly SqlValue[], elements: readonly unknown[], out: Map<string, SqlValue[][]>): void {
  const table = rowsOf(out, shape.plan.name);
  const padding = (from: number) => shape.depths.slice(from).flatMap((d) => d.columns.map(() => null));
  const emit = (values: SqlValue[], element: Doc | null) => {
    const position = table.length;
    table.push([...keys, position, ...values]);
    if (element !== null) fillChildren(shape, [...keys, position], element, out);
  };
  const walk = (depth: number, element: Doc, above: SqlValue[]) => {
    const { columns, flat } = shape.depths[depth]!;
    const values = [...above, ...columns.map((c) => c.read(element))];
    if (flat === null) return emit(values, element);
    const inner = (valueAt(element, flat) as Doc[] | null) ?? [];
    if (!inner.length) return emit([...values, ...padding(depth + 1)], null);
    for (const next of inner) walk(depth + 1, next, values);
  };
  for (const element of elements) walk(0, element as Doc, []);
}

/** The rows of `table` made so far from one answer. */
function rowsOf(out: Map<string, SqlValue[][]>, table: string): SqlValue[][] {
  let rows = out.get(table);
  if (!rows) out.set(table, (rows = []));
  return rows;
}

/** The child tables' rows of the lists one row's element holds. */
function fillChildren(shape: TableShape, keys: readonly SqlValue[], element: Doc, out: Map<string, SqlValue[][]>): void {
  for (const child of shape.children) fill(child.shape, keys, listAt(element, child.path), out);
}

/** The list at `path`; none where the answer holds null. */
const listAt = (from: Doc, path: readonly string[]): unknown[] => (valueAt(from, path) as unknown[] | null) ?? [];

/** Every table of a shape and its children's, parents first. */
const plansOf = (shape: TableShape): TablePlan[] => [shape.plan, ...shape.children.flatMap((c) => plansOf(c.shape))];

/**
 * A tree's table (TREES): one row per node in the order a walk from the root meets them, its
 * parent's link held again; a list a node holds is a child table of it.
 */
function treeShape(kind: string, decl: TreeDecl, schema: Schema, keys: Keys): TreeShape {
  const node = schema.properties ?? {};
  const branch = Object.keys(node).find((key) => isSelfList(node[key] as Schema));
  if (!branch) throw new TablePlanError(`${kind}.${decl.field}: a tree whose nodes list no nodes`);
  const { columns, lists } = walkObject(Object.fromEntries(Object.entries(node).filter(([key]) => key !== branch)), [], decl.field, false);
  const parent = columns.find((c) => c.plan.name === decl.parentOf.column);
  if (!parent) throw new TablePlanError(`${kind}.${decl.field}: no column ${decl.parentOf.column} to name a parent by`);
  const plan: TablePlan = {
    name: decl.table,
    kind,
    about: schema.description ?? '',
    keys: keys.columns.length,
    owner: keys.owner,
    columns: [
      ...keys.columns,
      { ...positionColumn, about: 'Its place in a walk of the tree from its root, from 0.' },
      ...columns.map((c) => c.plan),
      { ...parent.plan, name: decl.parentOf.as, nullable: true, about: `${parent.plan.about} Of the node above it; null at the root.`.trim() },
    ],
  };
  return { shape: { plan, depths: [{ columns, flat: null }], children: childShapes(kind, decl.table, keys, lists) }, branch, parent };
}

/** A tree's table: its rows' shape, the field that lists a node's nodes, and the column a node names its parent by (TreeDecl `parentOf`). */
interface TreeShape {
  shape: TableShape;
  branch: string;
  parent: ColumnRead;
}

/** Fills a tree's table from its root, each node's row holding its parent's link. */
function fillTree({ shape, branch, parent: parentRead }: TreeShape, keys: readonly SqlValue[], root: Doc, out: Map<string, SqlValue[][]>): void {
  const own = shape.depths[0]!.columns;
  const table = rowsOf(out, shape.plan.name);
  const walk = (node: Doc, parent: Doc | null) => {
    const position = table.length;
    table.push([...keys, position, ...own.map((c) => c.read(node)), parent === null ? null : parentRead.read(parent)]);
    fillChildren(shape, [...keys, position], node, out);
    for (const next of (node[branch] as Doc[] | undefined) ?? []) walk(next, node);
  };
  walk(root, null);
}

/** A list of the tree's own nodes (`Type.Recursive`'s `This`). */
const isSelfList = (schema: Schema): boolean => schema[Kind] === 'Array' && schema.items?.[Kind] === 'This';

/** A kind's tables, and how one answer becomes their rows. */
export interface KindTables {
  kind: string;
  /** its own table first, then each list's, each followed by its children's */
  tables: TablePlan[];
  /** one answer's rows, by table name (a table with none may be absent) */
  rows(answer: unknown): Map<string, SqlValue[][]>;
}

/** Every table of one kind's answers: its own, then one per list it holds (and per list their rows hold), in its fields' order. */
export function kindTables(kind: string, schema: TSchema, about: string): KindTables {
  const properties = (schema as Schema).properties ?? {};
  const tree = TREES[kind];
  const plain = Object.fromEntries(Object.entries(properties).filter(([key]) => key !== tree?.field));
  const { columns, lists } = walkObject(plain, [], '', false);
  if (!columns.some((c) => c.plan.name === 'id')) throw new TablePlanError(`${kind}: an answer without an id`);
  const own: TablePlan = { name: tableName(kind), kind, about, keys: 0, owner: null, columns: columns.map((c) => c.plan) };
  const keys: Keys = {
    columns: [{ name: `${tableName(kind)}_id`, type: 'INTEGER', nullable: false, references: null, field: 'id', about: `The ${kind} it belongs to.` }],
    owner: { table: own.name, columns: ['id'] },
  };
  const shapes = lists.map((list) => ({ path: list.path, shape: listShape(kind, tableName(kind, ...list.path), keys, list) }));
  const treeOf = tree ? treeShape(kind, tree, properties[tree.field] as Schema, keys) : null;
  return {
    kind,
    tables: [own, ...shapes.flatMap((s) => plansOf(s.shape)), ...(treeOf ? plansOf(treeOf.shape) : [])],
    rows: (answer) => {
      const doc = answer as Doc;
      const out = new Map<string, SqlValue[][]>([[own.name, [columns.map((c) => c.read(doc))]]]);
      const id = doc.id as number;
      for (const { path, shape } of shapes) fill(shape, [id], listAt(doc, path), out);
      if (treeOf && tree) fillTree(treeOf, [id], doc[tree.field] as Doc, out);
      return out;
    },
  };
}
