/**
 * Fidelity: every real upstream response in ../shared/reference/examples/ equals what the
 * build wrote for the same path, field for field and in array order.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { differences, listExamples, readJson } from './support/examples.ts';

const distDir = inject('distDir');
const examples = listExamples();

describe('upstream examples', () => {
  it('are all there to compare with', () => {
    expect(examples.length).toBeGreaterThanOrEqual(155);
  });

  it.each(examples.map((e) => [e.name, e] as const))('%s equals the upstream response', (_name, example) => {
    const path = join(distDir, example.distPath);
    expect(existsSync(path), `${example.distPath} was not built`).toBe(true);
    const ours = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    expect(differences(readJson(example.file), ours, 30)).toEqual([]);
  });
});
