/**
 * What an emitter may ask while it turns a record into a response: links to other resources,
 * other records, reverse indexes ("which creatures have this type", built once and kept in an
 * IndexMemo that contexts over the same records share), sprite and cry URLs. It reads only the
 * records and media lists it was given, but it is not pure: it builds and caches indexes as it
 * is asked, and a view made for one document (`forDocument`) tells its caller every read, so
 * the dev loop's planner knows which documents an edit reaches.
 */
import type { ApiResource, NamedResource } from '../../schemas/output/common.ts';
import { linkOf } from '../../contract/layout.ts';
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
  /** The same context for making one document: it tells `onRead` every read (sharing the indexes). */
  forDocument(onRead: (read: Read) => void): BuildContext;
  /**
   * The document and context a made document's facts (query, coverage, as of a game) are read
   * through. Their code may read a link's name for more than the link (a range by a stat's
   * name, a name's language), so when reads are told, every link name it reads in `doc`, and
   * every link it makes, is a `name` read rather than a `link` one. `unwatched` gives back what
   * the document holds, for the facts that copy it as it is.
   */
  forFacts<T>(doc: T): { doc: T; ctx: BuildContext };
}

/** A reverse index: the records of `kind` (child null) or their `child` rows, grouped by `field`. */
export interface IndexId {
  kind: KindName;
  child: string | null;
  field: string;
}

/**
 * What a document read, as the planner matches it against what changed:
 * - `record`: one record, any of its fields (asked for by id, found or not);
 * - `link`: only whether the record exists, and its name as the `{name, url}` link `ref` makes,
 *   which the document holds as it is: a rename changes the document's bytes where that link
 *   stands and nowhere else (incremental/relink.ts splices them). Emitters keep to it: a name
 *   wanted for anything else is read from the record (`get`), and the lint refuses `ref(…).name`;
 * - `name`: only whether the record exists, and its name, read for more than a link;
 * - `kind`: every record of a kind (the whole list, or a whole reverse index);
 * - `entry`: one entry of a reverse index: which records (and which of their child rows, as
 *   they are) have that value. The records in it are read like any other: their name is a
 *   `name` read, another field a `record` read;
 * - `sprite`, `cry`: whether a media file exists.
 * A link changes only with a name, so a stat edit does not make every document that links to
 * the creature again, only those that read its stats.
 */
export type Read =
  | { type: 'record'; kind: KindName; id: number }
  | { type: 'link'; kind: KindName; id: number }
  | { type: 'name'; kind: KindName; id: number }
  | { type: 'field'; kind: KindName; id: number; field: string }
  | { type: 'kind'; kind: KindName }
  | { type: 'entry'; index: IndexId; value: unknown }
  | { type: 'sprite'; path: string }
  | { type: 'cry'; path: string };

type AnyRecord = Record<string, unknown> & { id: number; name: string | null };

/** `{base}/{kind}/{id}/`, the upstream's link form. */
export const resourceUrl = (baseUrl: string, kind: string, id: number): string => `${baseUrl}/${kind}/${id}/`;
type OwnedEntry = { owner: AnyRecord; row: Record<string, unknown> };
type IndexEntry = AnyRecord | OwnedEntry;

type OnRead = (read: Read) => void;

/**
 * A record as an emitter finds it in a reverse index when reads are recorded: its id is part of
 * the index entry, its name is a `name` read, another field a `field` read (a species listing its
 * varieties reads whether each is the default, not their stats), and anything that walks the
 * whole record a `record` read.
 */
function recordedRecord(record: AnyRecord, onRead: OnRead, kind: KindName): AnyRecord {
  const whole = () => onRead({ type: 'record', kind, id: record.id });
  return new Proxy(record, {
    get(target, property, receiver) {
      if (property === 'name') onRead({ type: 'name', kind, id: target.id });
      else if (typeof property === 'string') {
        if (property !== 'id') onRead({ type: 'field', kind, id: target.id, field: property });
      } else whole();
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
function recordedIndex(index: ReadonlyMap<unknown, readonly IndexEntry[]>, onRead: OnRead, id: IndexId): ReadonlyMap<unknown, readonly IndexEntry[]> {
  const whole = () => onRead({ type: 'kind', kind: id.kind });
  const entries = (value: unknown): readonly IndexEntry[] | undefined => {
    onRead({ type: 'entry', index: id, value });
    return index
      .get(value)
      ?.map((e) =>
        id.child === null
          ? recordedRecord(e as AnyRecord, onRead, id.kind)
          : { ...(e as OwnedEntry), owner: recordedRecord((e as OwnedEntry).owner, onRead, id.kind) },
      );
  };
  return {
    get: entries,
    has: (value) => (onRead({ type: 'entry', index: id, value }), index.has(value)),
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

type Index = ReadonlyMap<unknown, readonly IndexEntry[]>;

/**
 * The reverse indexes contexts have built, by IndexId. The planner keeps one between updates
 * and hands a patched copy (`copy`, then `patch`) to the next update's context, so the indexes
 * of the kinds an edit did not touch are not made again.
 */
export class IndexMemo {
  /** keyed by a string made from the IndexId here, and only looked up with one */
  private readonly byKey: Map<string, { id: IndexId; index: Index }>;

  constructor(from?: IndexMemo) {
    this.byKey = new Map(from?.byKey);
  }

  /** A memo holding the same indexes, which `patch` changes without changing this one. */
  copy(): IndexMemo {
    return new IndexMemo(this);
  }

  /** Every index built so far. */
  all(): Array<{ id: IndexId; index: Index }> {
    return [...this.byKey.values()];
  }

  index(id: IndexId, make: () => Index): Index {
    const key = `${id.kind}\0${id.child ?? ''}\0${id.field}`;
    let found = this.byKey.get(key);
    if (!found) this.byKey.set(key, (found = { id, index: make() }));
    return found.index;
  }

  /**
   * Brings the reverse indexes of `kind` up to date for records that changed (their versions
   * before and after; either may be missing), giving exactly what building them again from the
   * new records gives: each value's entries in record order, then row order within a record,
   * and the values in the order of their first entry. New maps and arrays replace the changed
   * ones, so a memo this one was copied from stays as it was.
   */
  patch(kind: string, changes: ReadonlyArray<{ before?: AnyRecord | undefined; after?: AnyRecord | undefined }>): void {
    for (const [key, { id, index }] of this.byKey) {
      if (id.kind === kind) this.byKey.set(key, { id, index: patchedIndex(index, id.child, id.field, changes) });
    }
  }
}

/** One index patched for `changes` (IndexMemo.patch). */
function patchedIndex(
  index: Index,
  child: string | null,
  field: string,
  changes: ReadonlyArray<{ before?: AnyRecord | undefined; after?: AnyRecord | undefined }>,
): Index {
  const changedIds = new Set(changes.map((c) => (c.before ?? c.after)!.id));
  const afters = changes.flatMap((c) => (c.after ? [c.after] : [])).sort((a, b) => a.id - b.id);
  const ownerOf = (e: IndexEntry): AnyRecord => (child === null ? (e as AnyRecord) : (e as OwnedEntry).owner);
  const keyOf = (e: IndexEntry): unknown => (child === null ? (e as AnyRecord)[field] : (e as OwnedEntry).row[field]);
  const entriesOf = (r: AnyRecord): IndexEntry[] => (child === null ? [r] : (r[child] as Array<Record<string, unknown>>).map((row) => ({ owner: r, row })));
  if (changes.every((c) => c.before && c.after && sameKeys(entriesOf(c.before).map(keyOf), entriesOf(c.after).map(keyOf)))) {
    return swappedEntries(index, changes as ReadonlyArray<{ before: AnyRecord; after: AnyRecord }>, entriesOf, keyOf, ownerOf);
  }
  const next = new Map(index as ReadonlyMap<unknown, IndexEntry[]>);
  const touched = new Set<unknown>();
  for (const c of changes) for (const r of [c.before, c.after]) if (r) for (const e of entriesOf(r)) touched.add(keyOf(e));
  for (const v of touched)
    next.set(
      v,
      (index.get(v) ?? []).filter((e) => !changedIds.has(ownerOf(e).id)),
    );
  // each changed record's entries go in as one block, before the first entry of a later record
  for (const r of afters) {
    for (const [k, block] of groupBy(entriesOf(r), keyOf)) {
      const list = next.get(k)!;
      const at = list.findIndex((e) => ownerOf(e).id > r.id);
      list.splice(at < 0 ? list.length : at, 0, ...block);
    }
  }
  for (const v of touched) if (next.get(v)!.length === 0) next.delete(v);
  // values in the order their first entry appears, as groupBy makes them
  const position = (e: IndexEntry): [number, number] => {
    const owner = ownerOf(e);
    return [owner.id, child === null ? 0 : (owner[child] as unknown[]).indexOf((e as OwnedEntry).row)];
  };
  const ordered = [...next].map(([k, list]) => ({ k, list, at: position(list[0]!) }));
  ordered.sort((x, y) => x.at[0] - y.at[0] || x.at[1] - y.at[1]);
  return new Map(ordered.map(({ k, list }) => [k, list]));
}

const sameKeys = (a: readonly unknown[], b: readonly unknown[]): boolean => a.length === b.length && a.every((key, i) => key === b[i]);

/**
 * An index patched for records that changed but kept the keys of their entries, in order (a
 * creature's stat edited: its hundreds of learnset rows keep their moves): each entry stands where
 * it stood, and the values keep their order, so the new entries take the old ones' places.
 */
function swappedEntries(
  index: Index,
  changes: ReadonlyArray<{ before: AnyRecord; after: AnyRecord }>,
  entriesOf: (r: AnyRecord) => IndexEntry[],
  keyOf: (e: IndexEntry) => unknown,
  ownerOf: (e: IndexEntry) => AnyRecord,
): Index {
  const next = new Map(index);
  for (const { before, after } of changes) {
    const byKey = groupBy(entriesOf(after), keyOf);
    for (const [key, entries] of byKey) {
      const list = [...next.get(key)!];
      let at = 0;
      for (let i = 0; i < list.length && at < entries.length; i++) if (ownerOf(list[i]!).id === before.id) list[i] = entries[at++]!;
      next.set(key, list);
    }
  }
  return next;
}

/** What every view of one build's context shares: the records by id, and the indexes. */
interface Shared {
  baseUrl: string;
  records: ReadonlyMap<KindName, ReadonlyArray<Record<string, unknown>>>;
  media: Media;
  byId: Map<KindName, Map<number, AnyRecord>>;
  /** the links made so far, by kind and id: one object per record, frozen, as documents link to a record many times */
  links: Map<KindName, Map<number, NamedResource>>;
  memo: IndexMemo;
}

/**
 * A context over `records` and `media`. `memo`: where the reverse indexes are kept (the planner
 * hands over those of the last update, patched where records changed).
 */
export function createContext(
  baseUrl: string,
  records: ReadonlyMap<KindName, ReadonlyArray<Record<string, unknown>>>,
  media: Media,
  memo: IndexMemo = new IndexMemo(),
): BuildContext {
  return contextView({ baseUrl, records, media, byId: new Map(), links: new Map(), memo }, undefined);
}

/**
 * The context, telling `onRead` (when given) every read; without it, it reads at full speed.
 * `linkRead`: what a link it makes is told as (`name` in the view of a document's facts).
 */
function contextView(shared: Shared, onRead: OnRead | undefined, linkRead: 'link' | 'name' = 'link'): BuildContext {
  const { baseUrl, records, media, memo } = shared;
  const table = (kind: KindName) => {
    let map = shared.byId.get(kind);
    if (!map) shared.byId.set(kind, (map = new Map(((records.get(kind) ?? []) as AnyRecord[]).map((r) => [r.id, r]))));
    return map;
  };
  const find = (kind: KindName, id: number) => {
    onRead?.({ type: 'record', kind, id });
    return table(kind).get(id);
  };
  const get = (kind: KindName, id: number) => {
    const found = find(kind, id);
    if (!found) throw new Error(`no ${kind} with id ${id}`);
    return found;
  };
  /** the records this view told `onRead` it linked to, by kind: a document links to one many times (a move learned in twenty version groups) */
  const linksTold = new Map<KindName, Set<number>>();
  const tellLink = (kind: KindName, id: number) => {
    if (!onRead) return;
    let ids = linksTold.get(kind);
    if (!ids) linksTold.set(kind, (ids = new Set()));
    if (ids.has(id)) return;
    ids.add(id);
    onRead({ type: linkRead, kind, id });
  };
  /** A record a link is made to: only its existence and name are read. */
  const linked = (kind: KindName, id: number) => {
    tellLink(kind, id);
    const found = table(kind).get(id);
    if (!found) throw new Error(`no ${kind} with id ${id}`);
    return found;
  };
  const url = (kind: KindName, id: number) => resourceUrl(baseUrl, kind, id);
  const ref = (kind: KindName, id: number): NamedResource => {
    const record = linked(kind, id);
    let byId = shared.links.get(kind);
    if (!byId) shared.links.set(kind, (byId = new Map<number, NamedResource>()));
    let link = byId.get(id);
    if (link) return link;
    if (record.name === null) throw new Error(`${kind} has no names; link to it with resource()`);
    byId.set(id, (link = Object.freeze({ name: record.name, url: url(kind, id) })));
    return link;
  };
  const seen = (id: IndexId, index: Index) => (onRead ? recordedIndex(index, onRead, id) : index);

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
      onRead?.({ type: 'kind', kind });
      return (records.get(kind) ?? []) as unknown as readonly RecordOf<K>[];
    },
    get: <K extends KindName>(kind: K, id: number) => get(kind, id) as unknown as RecordOf<K>,
    find: <K extends KindName>(kind: K, id: number) => find(kind, id) as unknown as RecordOf<K> | undefined,
    groupBy: (kind, field) => {
      const id: IndexId = { kind, child: null, field };
      return seen(
        id,
        memo.index(id, () => groupBy((records.get(kind) ?? []) as AnyRecord[], (r) => r[field])),
      ) as never;
    },
    refsWhere: (kind, field, value) => (context.groupBy(kind, field).get(value) ?? []).map((r) => ref(kind, r.id)),
    childrenBy: (kind, child, field) => {
      const id: IndexId = { kind, child, field };
      const index = memo.index(id, () => {
        const owned = ((records.get(kind) ?? []) as AnyRecord[]).flatMap((owner) =>
          (owner[child] as Array<Record<string, unknown>>).map((row) => ({ owner, row })),
        );
        return groupBy(owned, ({ row }) => row[field]);
      });
      return seen(id, index) as never;
    },
    sprite: (path) => {
      onRead?.({ type: 'sprite', path });
      return media.sprites.has(path) ? SPRITE_BASE + path : null;
    },
    cry: (path) => {
      onRead?.({ type: 'cry', path });
      return media.cries.has(path) ? CRY_BASE + path : null;
    },
    forDocument: (reads) => contextView(shared, reads),
    forFacts: (doc) => (onRead ? { doc: watchedNames(doc, onRead, new WeakMap()), ctx: contextView(shared, onRead, 'name') } : { doc, ctx: context }),
  };
  return context;
}

/** what each watched view (watchedNames) stands for */
const watchedTargets = new WeakMap<object, object>();

/** What a document holds where `forFacts` gave a watched view of it (anything else is given back as it is). */
export function unwatched<T>(value: T): T {
  return typeof value === 'object' && value !== null ? ((watchedTargets.get(value) as T | undefined) ?? value) : value;
}

/**
 * A view of a made document, its objects and arrays seen through proxies (made once per object,
 * in `views`), that tells `onRead` a `name` read when the name of a link in it is read.
 */
function watchedNames<T>(value: T, onRead: OnRead, views: WeakMap<object, object>): T {
  if (typeof value !== 'object' || value === null) return value;
  if (!Array.isArray(value) && Object.getPrototypeOf(value) !== Object.prototype) return value;
  const known = views.get(value);
  if (known) return known as T;
  const target = value as Record<string, unknown>;
  const link = typeof target.url === 'string' && typeof target.name === 'string' ? linkOf(target.url) : null;
  // a frozen object's properties must be given as they are (a proxy's invariant): the links, whose values are strings
  const frozen = Object.isFrozen(target);
  const view = new Proxy(target, {
    get(of, property, receiver) {
      if (link && property === 'name') onRead({ type: 'name', kind: link.kind as KindName, id: link.id });
      const found: unknown = Reflect.get(of, property, receiver);
      return frozen ? found : watchedNames(found, onRead, views);
    },
  });
  views.set(value, view);
  watchedTargets.set(view, value);
  return view as T;
}
