/**
 * The house's rule (ARCHITECTURE.md, "The rooms"): no two rooms import each other (the rooms as
 * test/support/rooms.ts reads them). An arrow back up is a room that cannot be understood, moved
 * or tested without the room that uses it. test/architecture.test.ts holds the document's table,
 * in its order, to the same arrows.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../generator/config.ts';
import { roomArrows, roomOf } from './support/rooms.ts';

describe('the rooms of the house', () => {
  it('places files as ARCHITECTURE.md names the rooms', () => {
    expect(roomOf(join(repoRoot, 'generator/builder/writer.ts'))).toBe('generator/builder');
    expect(roomOf(join(repoRoot, 'generator/pipeline.ts'))).toBe('generator/pipeline.ts');
    expect(roomOf(join(repoRoot, 'generator/resources/battle/type.ts'))).toBe('generator/resources');
    expect(roomOf(join(repoRoot, 'edge/query/sort.ts'))).toBe('edge/query');
    expect(roomOf(join(repoRoot, 'contract/as-of/rules.ts'))).toBe('contract');
    expect(roomOf(join(repoRoot, 'contract/layout.ts'))).toBe('contract');
    expect(roomOf(join(repoRoot, 'edge/handler.ts'))).toBe('edge');
  });

  it('has no two rooms that import each other', () => {
    const arrows = roomArrows();
    expect(arrows.size).toBeGreaterThan(10);
    const mutual: string[] = [];
    for (const [from, out] of arrows) {
      for (const [to, example] of out) {
        if (from < to && arrows.get(to)?.has(from)) mutual.push(`${from} ⇄ ${to}: ${example}; ${arrows.get(to)!.get(from)}`);
      }
    }
    expect(mutual).toEqual([]);
  });

  it('keeps the request logic apart: edge/ imports nothing but itself and the contract, and the contract imports nothing', () => {
    const arrows = roomArrows();
    const out = ['edge', 'edge/query']
      .flatMap((room) => [...(arrows.get(room) ?? new Map<string, string>())])
      .filter(([to]) => !to.startsWith('edge') && to !== 'contract');
    expect(out).toEqual([]);
    expect([...(arrows.get('contract') ?? new Map<string, string>())]).toEqual([]);
  });

  it('keeps the build apart from the request logic: no room of generator/ but the preview, which hosts it, imports edge/', () => {
    const found = [...roomArrows()]
      .filter(([from]) => from.startsWith('generator') && from !== 'generator/preview')
      .flatMap(([from, out]) => [...out].filter(([to]) => to.startsWith('edge')).map(([to, example]) => `${from} → ${to}: ${example}`));
    expect(found).toEqual([]);
  });
});
