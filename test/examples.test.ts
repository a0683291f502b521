/**
 * Fidelity: every real upstream response at the pinned commit equals what the build wrote for
 * the same path, field for field and in array order: test/fixtures/examples/, where the lock is
 * at the next commit overlaid with examples-next/ (see pinnedExamples for why).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { differences, pinnedExamples, readJson } from './support/examples.ts';

const distDir = inject('distDir');
const examples = pinnedExamples();

describe('upstream examples', () => {
  it('cover every collection the root lists, and the root itself', () => {
    const root = readJson(join(distDir, 'v2/index.json')) as Record<string, string>;
    const kinds = Object.keys(root).filter((k) => k !== 'meta');
    expect(kinds.length).toBe(49);
    expect(kinds.filter((k) => !examples.some((e) => e.kind === k))).toEqual([]);
    expect(examples.some((e) => e.name === '_root')).toBe(true);
  });

  it.each(examples.map((e) => [e.name, e] as const))('%s equals the upstream response', (_name, example) => {
    const path = join(distDir, example.distPath);
    expect(existsSync(path), `${example.distPath} was not built`).toBe(true);
    const ours = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    expect(differences(readJson(example.file), ours, 30)).toEqual([]);
  });
});
