/**
 * The order a clean clone's files start in (test/support/heavy-first.ts): the list names files
 * that exist, so that a renamed file does not silently fall to the end of the run, and untimed
 * files start heaviest first.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TestSpecification, Vitest } from 'vitest/node';
import HeavyFirst, { HEAVIEST } from './support/heavy-first.ts';
import { repoRoot } from '../generator/config.ts';

const spec = (name: string) =>
  ({ moduleId: join(repoRoot, 'test', name), project: { name: '', config: { sequence: { groupOrder: 0 }, isolate: true } } }) as unknown as TestSpecification;

const sequencer = (timed: boolean) =>
  new HeavyFirst({
    config: { root: repoRoot },
    cache: { getFileTestResults: () => (timed ? { failed: false, duration: 1 } : undefined), getFileStats: () => ({ size: 1 }) },
  } as unknown as Vitest);

describe('the order test files start in', () => {
  it('names only files that exist', () => {
    for (const name of HEAVIEST) expect(existsSync(join(repoRoot, 'test', name)), name).toBe(true);
  });

  it('starts untimed files heaviest first, the rest after them', async () => {
    const files = ['params.test.ts', HEAVIEST[2]!, 'lru.test.ts', HEAVIEST[0]!, HEAVIEST[1]!].map(spec);
    const order = (await sequencer(false).sort(files)).map((s) => s.moduleId.split('/').pop());
    expect(order).toEqual([HEAVIEST[0], HEAVIEST[1], HEAVIEST[2], 'params.test.ts', 'lru.test.ts']);
  });

  it('leaves timed files in vitest order', async () => {
    const files = ['params.test.ts', HEAVIEST[0]!].map(spec);
    const order = (await sequencer(true).sort(files)).map((s) => s.moduleId.split('/').pop());
    expect(order).toEqual(['params.test.ts', HEAVIEST[0]]);
  });
});
