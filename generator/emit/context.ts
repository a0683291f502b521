/**
 * What an emitter may ask while it turns a record into a response: links to other resources,
 * other records, and reverse indexes ("which creatures have this type"), computed once per
 * build and shared. Pure: it only reads the records and media lists it was given.
 */
import type { ApiResource, NamedResource } from '../../schemas/output/common.ts';
import { groupBy } from '../lists.ts';
import type { KindName, RecordOf } from '../model/kinds.ts';

export interface Media {
  /** paths that exist in the sprite repository */
  sprites: ReadonlySet<string>;
  /** paths that exist in the cry repository */
  cries: ReadonlySet<string>;
}

export const SPRITE_BASE = 'https://raw.githubusercontent.com/PokeAPI/sprites/master/';
export const CRY_BASE = 'https://raw.githubusercontent.com/PokeAPI/cries/main/';

type ChildField<K extends KindName> = { [F in keyof RecordOf<K>]: RecordOf<K>[F] extends ReadonlyArray<object> ? F : never }[keyof RecordOf<K>];
type ChildRow<K extends KindName, C extends ChildField<K>> = RecordOf<K>[C] extends ReadonlyArray<infer R> ? R : never;

export interface Owned<K extends KindName, C extends ChildField<K>> {
  owner: RecordOf<K>;
  row: ChildRow<K, C>;
}

export interface BuildContext {
  readonly baseUrl: string;
  /** `{base}/{kind}/{id}/`, the upstream's link form */
  url(kind: KindName, id: number): string;
  /** `{name, url}` of a record; throws if it does not exist */
  ref(kind: KindName, id: number): NamedResource;
  /** `ref`, or null for a null id */
  refOrNull(kind: KindName, id: number | null): NamedResource | null;
  /** `{url}` for kinds without names */
  resource(kind: KindName, id: number): ApiResource;
  records<K extends KindName>(kind: K): readonly RecordOf<K>[];
  get<K extends KindName>(kind: K, id: number): RecordOf<K>;
  find<K extends KindName>(kind: K, id: number): RecordOf<K> | undefined;
  /** links to every record of `kind` whose `field` is `value`, in id order (a reverse list) */
  refsWhere<K extends KindName, F extends keyof RecordOf<K> & string>(kind: K, field: F, value: RecordOf<K>[F]): NamedResource[];
  /** records of `kind` grouped by the value of one of their fields (built once, then shared) */
  groupBy<K extends KindName, F extends keyof RecordOf<K> & string>(kind: K, field: F): ReadonlyMap<RecordOf<K>[F], readonly RecordOf<K>[]>;
  /** child rows of every record of `kind`, grouped by a field of the child row, with their owners */
  childrenBy<K extends KindName, C extends ChildField<K> & string, F extends keyof ChildRow<K, C> & string>(
    kind: K,
    child: C,
    field: F,
  ): ReadonlyMap<ChildRow<K, C>[F], readonly Owned<K, C>[]>;
  /** full URL of a sprite path, or null when the file does not exist upstream */
  sprite(path: string): string | null;
  /** full URL of a cry path, or null when the file does not exist upstream */
  cry(path: string): string | null;
}

type AnyRecord = Record<string, unknown> & { id: number; name: string | null };
type OwnedEntry = { owner: AnyRecord; row: Record<string, unknown> };
type IndexEntry = AnyRecord | OwnedEntry;

/**
 * What a document read, as keys an incremental build can match against what changed:
 * - `r {kind} {id}`: one record, any of its fields (asked for by id, found or not);
 * - `n {kind} {id}`: only whether the record exists, and its name (a link to it);
 * - `k {kind}`: every record of a kind (the whole list, or a whole reverse index);
 * - `g {kind} {child or .} {field} {value as JSON}`: one entry of a reverse index: which
 *   records (and which of their child rows, as they are) have that value. The records in it
 *   are read like any other: their name is an `n` read, another field an `r` read;
 * - `s {path}`, `c {path}`: whether a sprite or a cry exists.
 * A link changes only with a name, so a stat edit does not make every document that links to
 * the creature again, only those that read its stats.
 */
export const readKeys = {
  record: (kind: string, id: number) => `r ${kind} ${id}`,
  name: (kind: string, id: number) => `n ${kind} ${id}`,
  kind: (kind: string) => `k ${kind}`,
  group: (kind: string, child: string, field: string, value: unknown) => `g ${kind} ${child} ${field} ${JSON.stringify(value)}`,
  sprite: (path: string) => `s ${path}`,
  cry: (path: string) => `c ${path}`,
};
/** The child name a groupBy (over whole records) is keyed with in `readKeys.group`. */
export const WHOLE_RECORD = '.';

/**
 * A record as an emitter finds it in a reverse index when reads are recorded: its id is part of
 * the index entry, its name is an `n` read, anything else an `r` read of the record.
 */
function recordedRecord(record: AnyRecord, onRead: (key: string) => void, kind: string): AnyRecord {
  const whole = () => onRead(readKeys.record(kind, record.id));
  return new Proxy(record, {
    get(target, property, receiver) {
      if (property === 'name') onRead(readKeys.name(kind, target.id));
      else if (property !== 'id') whole();
      return Reflect.get(target, property, receiver) as unknown;
    },
    has: (target, property) => (whole(), Reflect.has(target, property)),
    ownKeys: (target) => (whole(), Reflect.ownKeys(target)),
    getOwnPropertyDescriptor: (target, property) => (whole(), Reflect.getOwnPropertyDescriptor(target, property)),
  });
}

/**
 * A reverse index as an emitter sees it when reads are recorded: looking up one value is a read
 * of that entry (whose records are then read field by field: recordedRecord); anything that
 * walks the whole index is a read of the whole kind.
 */
function recordedIndex<V>(
  index: ReadonlyMap<V, readonly IndexEntry[]>,
  onRead: (key: string) => void,
  kind: string,
  child: string,
  field: string,
): ReadonlyMap<V, readonly IndexEntry[]> {
  const whole = () => onRead(readKeys.kind(kind));
  const entries = (value: V): readonly IndexEntry[] | undefined => {
    onRead(readKeys.group(kind, child, field, value));
    return index
      .get(value)
      ?.map((e) => (child === WHOLE_RECORD ? recordedRecord(e as AnyRecord, onRead, kind) : { ...(e as OwnedEntry), owner: recordedRecord((e as OwnedEntry).owner, onRead, kind) }));
  };
  return {
    get: entries,
    has: (value) => (onRead(readKeys.group(kind, child, field, value)), index.has(value)),
    get size() {
      whole();
      return index.size;
    },
    forEach: (fn, thisArg?: unknown) => (whole(), index.forEach(fn, thisArg)),
    entries: () => (whole(), index.entries()),
    keys: () => (whole(), index.keys()),
    values: () => (whole(), index.values()),
    [Symbol.iterator]: () => (whole(), index[Symbol.iterator]()),
  };
}

/**
 * `onRead`, when given, is told every read (see readKeys) as it happens; the incremental build
 * attributes them to the document being made. Without it the context reads at full speed.
 */
export function createContext(
  baseUrl: string,
  records: ReadonlyMap<KindName, ReadonlyArray<Record<string, unknown>>>,
  media: Media,
  onRead?: (key: string) => void,
  /**
   * Where the reverse indexes are kept: the incremental build hands over those of the last
   * update (patched where records changed: patchIndexes), so they are not made again.
   */
  memo: Map<string, unknown> = new Map(),
): BuildContext {
  const byId = new Map<KindName, Map<number, AnyRecord>>();
  const table = (kind: KindName) => {
    let map = byId.get(kind);
    if (!map) {
      map = new Map(((records.get(kind) ?? []) as AnyRecord[]).map((r) => [r.id, r]));
      byId.set(kind, map);
    }
    return map;
  };
  const remember = <T>(key: string, make: () => T): T => {
    if (!memo.has(key)) memo.set(key, make());
    return memo.get(key) as T;
  };
  const find = (kind: KindName, id: number) => {
    onRead?.(readKeys.record(kind, id));
    return table(kind).get(id);
  };
  const get = (kind: KindName, id: number) => {
    const found = find(kind, id);
    if (!found) throw new Error(`no ${kind} with id ${id}`);
    return found;
  };
  /** A record a link is made to: only its existence and name are read. */
  const linked = (kind: KindName, id: number) => {
    onRead?.(readKeys.name(kind, id));
    const found = table(kind).get(id);
    if (!found) throw new Error(`no ${kind} with id ${id}`);
    return found;
  };
  const url = (kind: KindName, id: number) => `${baseUrl}/${kind}/${id}/`;
  const ref = (kind: KindName, id: number): NamedResource => {
    const record = linked(kind, id);
    if (record.name === null) throw new Error(`${kind} has no names; link to it with resource()`);
    return { name: record.name, url: url(kind, id) };
  };

  const context: BuildContext = {
    baseUrl,
    url,
    ref,
    refOrNull: (kind, id) => (id === null ? null : ref(kind, id)),
    resource: (kind, id) => {
      linked(kind, id);
      return { url: url(kind, id) };
    },
    records: <K extends KindName>(kind: K) => {
      onRead?.(readKeys.kind(kind));
      return (records.get(kind) ?? []) as unknown as readonly RecordOf<K>[];
    },
    get: <K extends KindName>(kind: K, id: number) => get(kind, id) as unknown as RecordOf<K>,
    find: <K extends KindName>(kind: K, id: number) => find(kind, id) as unknown as RecordOf<K> | undefined,
    groupBy: (kind, field) => {
      const index = remember(`group:${kind}:${field}`, () => groupBy((records.get(kind) ?? []) as AnyRecord[], (r) => r[field]));
      return (onRead ? recordedIndex(index as ReadonlyMap<unknown, readonly IndexEntry[]>, onRead, kind, WHOLE_RECORD, field) : index) as never;
    },
    refsWhere: (kind, field, value) => (context.groupBy(kind, field).get(value) ?? []).map((r) => ref(kind, r.id as number)),
    childrenBy: (kind, child, field) => {
      const index = remember(`children:${kind}:${child}:${field}`, () => {
        const owned = ((records.get(kind) ?? []) as AnyRecord[]).flatMap((owner) =>
          (owner[child] as Array<Record<string, unknown>>).map((row) => ({ owner, row })),
        );
        return groupBy(owned, ({ row }) => row[field]);
      });
      return (onRead ? recordedIndex(index as ReadonlyMap<unknown, readonly IndexEntry[]>, onRead, kind, child, field) : index) as never;
    },
    sprite: (path) => {
      onRead?.(readKeys.sprite(path));
      return media.sprites.has(path) ? SPRITE_BASE + path : null;
    },
    cry: (path) => {
      onRead?.(readKeys.cry(path));
      return media.cries.has(path) ? CRY_BASE + path : null;
    },
  };
  return context;
}


/**
 * Brings the reverse indexes of `kind` in a context's memo up to date for records that changed
 * (their versions before and after; either may be missing), giving exactly what building them
 * again from the new records gives: each value's entries in record order, then row order within
 * a record, and the values in the order of their first entry. New maps and arrays replace the
 * changed ones, so the memo handed in as the previous one stays as it was.
 */
export function patchIndexes(memo: Map<string, unknown>, kind: string, changes: ReadonlyArray<{ before?: AnyRecord | undefined; after?: AnyRecord | undefined }>): void {
  const changedIds = new Set(changes.map((c) => (c.before ?? c.after)!.id));
  const afters = changes.flatMap((c) => (c.after ? [c.after] : [])).sort((a, b) => a.id - b.id);
  for (const [memoKey, value] of [...memo]) {
    const [type, memoKind, a, b] = memoKey.split(':') as [string, string, string, string | undefined];
    if (memoKind !== kind) continue;
    const child = type === 'children' ? a : null;
    const field = child === null ? a : b!;
    const ownerOf = (e: IndexEntry): AnyRecord => (child === null ? (e as AnyRecord) : (e as { owner: AnyRecord }).owner);
    const keyOf = (e: IndexEntry): unknown => (child === null ? (e as AnyRecord)[field] : (e as { row: Record<string, unknown> }).row[field]);
    const entriesOf = (r: AnyRecord): IndexEntry[] => (child === null ? [r] : (r[child] as Array<Record<string, unknown>>).map((row) => ({ owner: r, row })));
    const index = value as Map<unknown, IndexEntry[]>;
    const next = new Map(index);
    const touched = new Set<unknown>();
    for (const c of changes) for (const r of [c.before, c.after]) if (r) for (const e of entriesOf(r)) touched.add(keyOf(e));
    for (const v of touched) next.set(v, (index.get(v) ?? []).filter((e) => !changedIds.has(ownerOf(e).id)));
    // each changed record's entries go in as one block, before the first entry of a later record
    for (const r of afters) {
      const blocks = new Map<unknown, IndexEntry[]>();
      for (const e of entriesOf(r)) {
        const k = keyOf(e);
        const block = blocks.get(k);
        if (block) block.push(e);
        else blocks.set(k, [e]);
      }
      for (const [k, block] of blocks) {
        const list = next.get(k)!;
        const at = list.findIndex((e) => ownerOf(e).id > r.id);
        list.splice(at < 0 ? list.length : at, 0, ...block);
      }
    }
    for (const v of touched) if (next.get(v)!.length === 0) next.delete(v);
    // values in the order their first entry appears, as groupBy makes them
    const position = (e: IndexEntry): [number, number] => {
      const owner = ownerOf(e);
      return [owner.id, child === null ? 0 : (owner[child] as unknown[]).indexOf((e as { row: unknown }).row)];
    };
    const ordered = [...next].map(([k, list]) => ({ k, list, at: position(list[0]!) }));
    ordered.sort((x, y) => x.at[0] - y.at[0] || x.at[1] - y.at[1]);
    memo.set(memoKey, new Map(ordered.map(({ k, list }) => [k, list])));
  }
}
