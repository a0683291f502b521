/**
 * Field projection: `fields=types,sprites.front_default` makes each list entry carry those parts
 * of its item, with exactly the value and shape the item has:
 *
 *   pick(creature, ['types', 'sprites.front_default'])
 *     → { "types": […], "sprites": { "front_default": "…" } }   (keys in the document's order)
 *
 * Paths are compiled once per request (`compileFields`) and applied to each item (`project`).
 * Paths sharing a prefix merge into one object; a path and a longer one below it give the whole
 * value of the shorter. Rules for what is not a plain path through objects:
 * - A path that does not exist in an item is absent from its entry (no key, not null): an allowed
 *   field an item lacks leaves that entry without it, so entries of one page may differ in keys.
 *   A value that exists and is null is kept as null (`sprites.front_default: null`).
 * - A path through a null or a scalar does not exist there (`sprites.other.x` when `other` is null).
 * - Through an array, the rest of the path applies to each element, positions kept: an object
 *   element gives its projection (`{}` when it has none of the paths), any other element null;
 *   an array where no element has any of the paths is absent.
 */
import { isText, type JsonPart } from '../raw-json.ts';
import { queryShape, type QueryShape, type Routes } from '../layout.ts';

/** Compiled paths: each key leads to a subtree, or to `true` for "the whole value". */
export type FieldTree = Map<string, FieldTree | true>;

export function compileFields(paths: readonly string[]): FieldTree {
  const root: FieldTree = new Map();
  for (const path of paths) {
    const keys = path.split('.');
    let node = root;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      if (i === keys.length - 1) {
        node.set(key, true);
        break;
      }
      const next = node.get(key);
      if (next === true) break; // a shorter path already takes the whole value
      if (next === undefined) {
        const child: FieldTree = new Map();
        node.set(key, child);
        node = child;
      } else node = next;
    }
  }
  return root;
}

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** An object of an entry being made: its values may be JSON bytes taken whole from a field column. */
export type PartObject = { [key: string]: JsonPart };

/** A plain object (raw JSON bytes are a whole value, never looked into). */
const isObject = (value: unknown): value is PartObject => typeof value === 'object' && value !== null && !Array.isArray(value) && !isText(value);

/**
 * The parts of `document` the tree names; `{}` when it has none of them (or is not an object).
 * A raw value must be where the tree takes the whole value: it is not looked into.
 */
export function project(document: unknown, tree: FieldTree): PartObject {
  return isObject(document) ? (projectObject(document, tree) ?? {}) : {};
}

/**
 * An entry's fields from field columns (contract/field-column.ts): each value nested under its
 * path (split at dots), in the order given, making the objects on the way. Given in declared
 * order (the item's own key order), it nests as the item does; the build proves it for each key
 * order its items have, with each value as the column's bytes (query-facts.ts).
 */
export function nestFields(paths: readonly (readonly string[])[], values: readonly JsonPart[]): PartObject {
  const root: PartObject = {};
  for (let i = 0; i < paths.length; i++) nestField(root, paths[i]!, values[i]!);
  return root;
}

/** One value nested under its path in `root`, making the objects on the way (see `nestFields`). */
export function nestField(root: PartObject, keys: readonly string[], value: JsonPart): void {
  let node = root;
  for (let k = 0; k < keys.length - 1; k++) {
    const key = keys[k]!;
    const next = Object.hasOwn(node, key) ? node[key] : undefined;
    node = isObject(next) ? next : defineKey(node, key, {});
  }
  defineKey(node, keys[keys.length - 1]!, value);
}

/** Sets a key as data (a key `__proto__` must stay a key, not set the prototype); gives the value. */
export function defineKey<T extends JsonPart>(object: PartObject, key: string, value: T): T {
  // any other key of a plain object: an assignment makes the same data property, and faster
  if (key === '__proto__') Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  else object[key] = value;
  return value;
}

/** `project(document, compileFields(paths))`, for one document. */
export function pick(document: unknown, paths: readonly string[]): PartObject {
  return project(document, compileFields(paths));
}

/** The object's named parts in its own key order, or null when none is there. */
function projectObject(object: PartObject, tree: FieldTree): PartObject | null {
  let out: PartObject | null = null;
  // for…in walks the keys without an array of them (plain objects: own keys only, in order)
  for (const key in object) {
    const node = tree.get(key);
    if (node === undefined) continue;
    const value = node === true ? object[key]! : projectBelow(object[key]!, node);
    if (value === undefined) continue;
    defineKey((out ??= {}), key, value);
  }
  return out;
}

/** What a subtree finds in a value: undefined when the paths do not exist there. */
function projectBelow(value: JsonPart, tree: FieldTree): JsonPart | undefined {
  if (isObject(value)) return projectObject(value, tree) ?? undefined;
  if (!Array.isArray(value)) return undefined;
  let found = false;
  const elements = value.map((element): JsonPart => {
    if (!isObject(element)) return null;
    const projected = projectObject(element, tree);
    if (projected !== null) found = true;
    return projected ?? {};
  });
  return found ? elements : undefined;
}

/** The paths `fields=` takes below a kind's declared fields: its items' own, then each link's. */
export function fieldsBelow(routes: Pick<Routes, 'queries'>, shape: QueryShape): string[] {
  const own = shape.below ?? [];
  const linked = Object.entries(shape.links ?? {}).flatMap(([field, target]) => targetPaths(routes, target).map((path) => `${field}.${path}`));
  return [...own, ...linked.filter((path) => !own.includes(path))];
}

/** What a linked kind's entries take, without its own links (one step only). */
const targetPaths = (routes: Pick<Routes, 'queries'>, target: string): string[] => ownPaths(queryShape(routes, target));

/** A kind's declared fields and the paths below them its items' schema has. */
export const ownPaths = (shape: QueryShape): string[] => [...shape.fields, ...(shape.below ?? [])];
