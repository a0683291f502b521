/**
 * The planner's second step: which records changed. It keeps every kind's records and, for
 * each kind, the tables it reads beyond those it owns (names made from other tables). For the
 * rows that changed it finds the records they belong to, assembles those again with the
 * import's code, keeps the ones that differ and checks them as the import does.
 */
import { validatorFor } from '../../schemas/ajv.ts';
import type { TableKey } from '../../schemas/tables.ts';
import { checkKindRecords } from '../import/import.ts';
import { DataError, recordingStore } from '../import/tables.ts';
import type { TableStore } from '../model/table-store.ts';
import { assembleRecords, ownedTables, ownersOfRows, recordSchema, type KindSpec } from '../model/define.ts';
import { allKinds, type KindName } from '../model/kinds.ts';
import type { AnyRow, SourceLook } from './sources.ts';

export type AnyRecord = AnyRow & { id: number; name: string | null };
type Problems = ConstructorParameters<typeof DataError>[0][number][];

/** A record as it was and as it is; either is missing when the record came or went. */
export interface RecordChange {
  before: AnyRecord | undefined;
  after: AnyRecord | undefined;
}

export interface RecordChanges {
  /** every kind's records after the edit */
  records: Map<KindName, AnyRecord[]>;
  /** by kind, the records that differ, by id */
  changed: Map<KindName, Map<number, RecordChange>>;
}

/**
 * Where two versions of a table differ: rows outside the longest common prefix and suffix
 * (compared cell by cell), old and new. One edited, added or removed row gives just that row;
 * it is a superset in general, which is all the planner needs.
 */
export function changedRows(before: readonly AnyRow[], after: readonly AnyRow[]): AnyRow[] {
  const same = (a: AnyRow, b: AnyRow) => {
    for (const k in a) if (a[k] !== b[k]) return false;
    return true;
  };
  let start = 0;
  while (start < before.length && start < after.length && same(before[start]!, after[start]!)) start++;
  let endB = before.length;
  let endA = after.length;
  while (endB > start && endA > start && same(before[endB - 1]!, after[endA - 1]!)) {
    endB--;
    endA--;
  }
  return [...before.slice(start, endB), ...after.slice(start, endA)];
}

export class RecordState {
  private readonly specs = new Map<KindName, KindSpec>(allKinds.map((k) => [k.kind, k as unknown as KindSpec]));
  /** the tables each kind reads beyond those it owns: an edit of one assembles the whole kind again */
  private readonly otherTables = new Map<KindName, Set<TableKey>>();
  records = new Map<KindName, AnyRecord[]>();

  constructor(store: TableStore) {
    for (const [kind, spec] of this.specs) {
      const read = new Set<TableKey>();
      this.records.set(kind, assembleRecords(spec, recordingStore(store, read)) as AnyRecord[]);
      const owned = ownedTables(spec);
      this.otherTables.set(kind, new Set([...read].filter((t) => !owned.has(t))));
    }
  }

  /** The records the changed tables of `look` reach, against `before` (the tables as the records were made from them). */
  changes(look: SourceLook, before: { rows: ReadonlyMap<TableKey, AnyRow[]>; store: TableStore }): RecordChanges {
    const records = new Map(this.records);
    const changed = new Map<KindName, Map<number, RecordChange>>();
    if (!look.changedTables.size) return { records, changed };
    const diffs = [...look.changedTables].map(([table, rows]) => ({ table, rows: changedRows(before.rows.get(table) ?? [], rows) }));
    const problems: Problems = [];
    for (const [kind, spec] of this.specs) {
      const ids = this.reached(kind, spec, diffs, [before.store, look.store]);
      if (ids !== 'all' && ids.size === 0) continue;
      const fresh = assembleRecords(spec, look.store, ids === 'all' ? undefined : ids) as AnyRecord[];
      const old = this.records.get(kind) ?? [];
      const diff = differing(old, fresh, ids);
      if (!diff.size) continue;
      const afters = [...diff.values()].flatMap((d) => (d.after ? [d.after] : []));
      const all =
        ids === 'all'
          ? fresh
          : old
              .filter((r) => !diff.has(r.id))
              .concat(afters)
              .sort((a, b) => a.id - b.id);
      checkKindRecords(spec, validatorFor(recordSchema(spec)), afters, problems, undefined, all);
      records.set(kind, all);
      changed.set(kind, diff);
    }
    if (problems.length) throw new DataError(problems);
    return { records, changed };
  }

  commit(changes: RecordChanges): void {
    this.records = changes.records;
  }

  /** The ids of `kind` that the changed rows belong to, or all of them when it reads a changed table it does not own. */
  private reached(kind: KindName, spec: KindSpec, diffs: Array<{ table: TableKey; rows: AnyRow[] }>, stores: TableStore[]): Set<number> | 'all' {
    const owned = ownedTables(spec);
    const ids = new Set<number>();
    for (const { table, rows } of diffs) {
      if (this.otherTables.get(kind)!.has(table)) return 'all';
      if (owned.has(table)) for (const id of ownersOfRows(spec, table, rows, stores)) ids.add(id);
    }
    return ids;
  }
}

/** The records among `ids` (or all) that differ between `old` and `fresh`. */
function differing(old: readonly AnyRecord[], fresh: readonly AnyRecord[], ids: Set<number> | 'all'): Map<number, RecordChange> {
  const oldById = new Map(old.map((r) => [r.id, r]));
  const freshById = new Map(fresh.map((r) => [r.id, r]));
  const touched = ids === 'all' ? new Set([...oldById.keys(), ...freshById.keys()]) : ids;
  const diff = new Map<number, RecordChange>();
  for (const id of touched) {
    const before = oldById.get(id);
    const after = freshById.get(id);
    if (before && after && JSON.stringify(before) === JSON.stringify(after)) continue;
    if (before || after) diff.set(id, { before, after });
  }
  return diff;
}
