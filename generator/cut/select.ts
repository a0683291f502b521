/**
 * Which rows of each table the cut keeps (rules.ts), as a pure function of the tables' rows.
 * Keeping a row keeps what it references and the rows it owns, until nothing new is kept;
 * then the link tables' rows whose every reference is kept join (they reference nothing new).
 */
import type { TSchema } from '@sinclair/typebox';
import { columnInfo } from '../../schemas/columns.ts';
import { tables, type TableKey } from '../../schemas/tables.ts';
import { howKept, type HowKept, type Seeds } from './rules.ts';

/** A table's rows as the cut reads them: a declared column's cell (CSV text) by column name. */
export interface CutTable {
  cell(row: number, column: string): string;
  readonly rowCount: number;
}

export type KeptRows = Map<TableKey, number[]>;

interface Reference {
  column: string;
  target: TableKey;
}

interface TablePlan {
  table: TableKey;
  primaryKey: string | undefined;
  references: Reference[];
  kept: HowKept;
}

function planOf(table: TableKey): TablePlan {
  const columns = Object.entries<TSchema>(tables[table]).map(([column, schema]) => ({ column, info: columnInfo(schema) }));
  const primaryKey = columns.find((c) => c.info.primaryKey)?.column;
  const references = columns.flatMap(({ column, info }) => (info.references ? [{ column, target: info.references as TableKey }] : []));
  return { table, primaryKey, references, kept: howKept(table, primaryKey !== undefined, references[0]?.column) };
}

export class CutError extends Error {}

/** The kept rows of every table, in file order. `read` gives a declared table's rows. */
export function selectRows(read: (table: TableKey) => CutTable, seeds: Seeds): KeptRows {
  const plans = (Object.keys(tables) as TableKey[]).map(planOf);
  const selection = new Selection(plans, read);
  for (const plan of plans) if (plan.kept.how === 'whole') selection.keepAll(plan.table);
  for (const [table, names] of Object.entries(seeds) as Array<[TableKey, readonly string[]]>) {
    for (const name of names) selection.keepNamed(table, name);
  }
  selection.settle();
  for (const plan of plans) if (plan.kept.how === 'link') selection.keepLinks(plan);
  return selection.result();
}

/** The rows kept so far, and what keeping one more brings with it. */
class Selection {
  private readonly kept = new Map<TableKey, Set<number>>();
  private readonly keptIds = new Map<TableKey, Set<string>>();
  private readonly rowOfId = new Map<TableKey, Map<string, number>>();
  /** for a table: the tables it owns rows of, with each of their rows by the owner's id */
  private readonly owned = new Map<TableKey, Array<{ table: TableKey; rowsByOwner: Map<string, number[]> }>>();
  private readonly pending: Array<[TableKey, number]> = [];

  private readonly plans: ReadonlyMap<TableKey, TablePlan>;

  private readonly read: (table: TableKey) => CutTable;
  constructor(plans: readonly TablePlan[], read: (table: TableKey) => CutTable) {
    this.read = read;
    this.plans = new Map(plans.map((plan) => [plan.table, plan]));
    for (const plan of plans) this.kept.set(plan.table, new Set());
    for (const plan of plans) {
      if (plan.kept.how !== 'owned') continue;
      const by = plan.kept.by;
      const owner = plan.references.find((r) => r.column === by);
      if (!owner) throw new CutError(`${plan.table}: the cut's rules say it is owned by ${by}, which is not one of its foreign keys`);
      const rows = new Map<string, number[]>();
      const data = read(plan.table);
      for (let row = 0; row < data.rowCount; row++) {
        const id = data.cell(row, by);
        if (id === '') continue;
        const list = rows.get(id);
        if (list) list.push(row);
        else rows.set(id, [row]);
      }
      this.owned.set(owner.target, [...(this.owned.get(owner.target) ?? []), { table: plan.table, rowsByOwner: rows }]);
    }
  }

  keepAll(table: TableKey): void {
    for (let row = 0; row < this.read(table).rowCount; row++) this.keep(table, row);
  }

  /** Keeps every row of the table with this identifier (an identifier may be on two rows: the upstream has such names). */
  keepNamed(table: TableKey, name: string): void {
    const data = this.read(table);
    let found = false;
    for (let row = 0; row < data.rowCount; row++) {
      if (data.cell(row, 'identifier') !== name) continue;
      this.keep(table, row);
      found = true;
    }
    if (!found) throw new CutError(`the cut starts from ${table} ${JSON.stringify(name)}, which the table does not hold`);
  }

  /** Keeps what the rows kept so far reference and own, until nothing new comes. */
  settle(): void {
    for (let next = this.pending.pop(); next; next = this.pending.pop()) this.bringIn(...next);
  }

  keepLinks(plan: TablePlan): void {
    const data = this.read(plan.table);
    for (let row = 0; row < data.rowCount; row++) {
      const all = plan.references.every(({ column, target }) => {
        const id = data.cell(row, column);
        return id === '' || this.keptIds.get(target)?.has(id) === true;
      });
      if (all) this.kept.get(plan.table)!.add(row);
    }
  }

  result(): KeptRows {
    return new Map([...this.kept].map(([table, rows]) => [table, [...rows].sort((a, b) => a - b)]));
  }

  private keep(table: TableKey, row: number): void {
    const rows = this.kept.get(table)!;
    if (rows.has(row)) return;
    rows.add(row);
    this.pending.push([table, row]);
  }

  private bringIn(table: TableKey, row: number): void {
    const plan = this.plans.get(table)!;
    const data = this.read(table);
    for (const { column, target } of plan.references) {
      const id = data.cell(row, column);
      if (id !== '') this.keep(target, this.rowOf(target, id, `${table}.csv row ${row + 1}, column ${column}`));
    }
    if (!plan.primaryKey) return;
    const id = data.cell(row, plan.primaryKey);
    const ids = this.keptIds.get(table) ?? new Set<string>();
    this.keptIds.set(table, ids.add(id));
    for (const owned of this.owned.get(table) ?? []) {
      for (const ownedRow of owned.rowsByOwner.get(id) ?? []) this.keep(owned.table, ownedRow);
    }
  }

  private rowOf(table: TableKey, id: string, where: string): number {
    let index = this.rowOfId.get(table);
    if (!index) {
      const data = this.read(table);
      const primaryKey = this.plans.get(table)!.primaryKey;
      if (!primaryKey) throw new CutError(`${where} references ${table}, which has no primary key`);
      index = new Map();
      for (let row = 0; row < data.rowCount; row++) index.set(data.cell(row, primaryKey), row);
      this.rowOfId.set(table, index);
    }
    const row = index.get(id);
    if (row === undefined) throw new CutError(`${where}: ${table} has no row with id ${id} (the import would refuse this data set too)`);
    return row;
  }
}
