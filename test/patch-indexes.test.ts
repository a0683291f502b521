/**
 * The incremental build patches reverse indexes instead of making them again; the patched ones
 * must equal the rebuilt ones exactly: the same values in the same order, each with the same
 * entries in the same order. Checked on invented records under random edits.
 */
import { describe, expect, it } from 'vitest';
import { createContext, IndexMemo } from '../generator/resources/context.ts';
import type { KindName } from '../generator/model/kinds.ts';

type Rec = { id: number; name: string; color: number; moves: Array<{ move: number; level: number }> };
const kind = 'creature' as KindName;
const media = { sprites: new Set<string>(), cries: new Set<string>() };

/** A small deterministic generator, so a failure can be run again. */
function random(seed: number) {
  let s = seed;
  return (n: number) => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s % n;
  };
}
const makeRecord = (id: number, r: (n: number) => number): Rec => ({
  id,
  name: `c${id}`,
  color: r(4),
  moves: Array.from({ length: r(6) }, () => ({ move: r(8), level: r(50) })),
});

/** Every reverse index, as plain data: [value, [owner id, row]...] in map order. */
function snapshot(memo: IndexMemo): unknown {
  const named = memo.all().map(({ id, index }) => [`${id.kind} ${id.child ?? '.'} ${id.field}`, index] as const);
  return named
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([key, index]) => [
      key,
      [...(index as Map<unknown, unknown[]>)].map(([value, list]) => [
        value,
        list.map((e) => ('owner' in (e as object) ? [(e as { owner: Rec }).owner.id, (e as { row: unknown }).row] : (e as Rec).id)),
      ]),
    ]);
}
function indexesOf(records: Rec[]): IndexMemo {
  const memo = new IndexMemo();
  const ctx = createContext('http://x/v2', new Map([[kind, records]]), media, memo);
  ctx.groupBy(kind, 'color' as never);
  ctx.childrenBy(kind, 'moves' as never, 'move' as never);
  ctx.childrenBy(kind, 'moves' as never, 'level' as never);
  return memo;
}

describe('patched reverse indexes', () => {
  it.each(Array.from({ length: 40 }, (_, i) => [i + 1]))('equal rebuilt ones after random edits (seed %i)', (seed) => {
    const r = random(seed);
    let records = Array.from({ length: 12 }, (_, i) => makeRecord(i * 2 + 1, r));
    const memo = indexesOf(records);
    for (let round = 0; round < 4; round++) {
      const byId = new Map(records.map((x) => [x.id, x]));
      const changes: Array<{ before?: Rec; after?: Rec }> = [];
      for (let n = 0; n < 1 + r(3); n++) {
        const id = 1 + r(30);
        if (changes.some((c) => (c.before ?? c.after)!.id === id)) continue;
        const before = byId.get(id);
        const action = r(3);
        if (action === 0 && before)
          changes.push({ before }); // removed
        else changes.push({ ...(before ? { before } : {}), after: makeRecord(id, r) }); // changed or added
      }
      for (const c of changes) {
        const id = (c.before ?? c.after)!.id;
        if (c.after) byId.set(id, c.after);
        else byId.delete(id);
      }
      records = [...byId.values()].sort((a, b) => a.id - b.id);
      memo.patch(kind, changes);
      expect(snapshot(memo)).toEqual(snapshot(indexesOf(records)));
      expect(ownersAreCurrent(memo, records)).toBe(true);
    }
  });

  it.each(Array.from({ length: 20 }, (_, i) => [i + 1]))('equal rebuilt ones after edits that keep every key, entries of the new records (seed %i)', (seed) => {
    const r = random(seed);
    let records = Array.from({ length: 12 }, (_, i) => makeRecord(i * 2 + 1, r));
    const memo = indexesOf(records);
    for (let round = 0; round < 4; round++) {
      // a name or a level edited: the color and every move stay, so no entry moves
      const changes = records
        .filter(() => r(3) === 0)
        .map((before) => ({ before, after: { ...before, name: `${before.name}!`, moves: before.moves.map((m) => ({ ...m, level: r(50) })) } }));
      const after = new Map(changes.map((c) => [c.after.id, c.after]));
      records = records.map((x) => after.get(x.id) ?? x);
      memo.patch(kind, changes);
      expect(snapshot(memo)).toEqual(snapshot(indexesOf(records)));
      expect(ownersAreCurrent(memo, records)).toBe(true);
    }
  });
});

/** Whether every entry of every index holds one of `records` itself, not an earlier version of it. */
function ownersAreCurrent(memo: IndexMemo, records: Rec[]): boolean {
  const current = new Set<unknown>(records);
  return memo
    .all()
    .every(({ index }) =>
      [...(index as Map<unknown, unknown[]>).values()].every((list) =>
        list.every((e) => current.has('owner' in (e as object) ? (e as { owner: Rec }).owner : e)),
      ),
    );
}
