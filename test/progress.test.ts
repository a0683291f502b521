/** Progress output: a redrawn bar on a terminal, a few plain lines elsewhere. */
import { describe, expect, it } from 'vitest';
import { createProgress } from '../generator/progress.ts';

function fakeStream(isTTY: boolean) {
  const chunks: string[] = [];
  return { stream: { isTTY, write: (c: string) => chunks.push(c) } as unknown as NodeJS.WriteStream, chunks };
}

describe('progress', () => {
  it('draws a bar with counts and elapsed time on a terminal, then ends the line', () => {
    let t = 0;
    const { stream, chunks } = fakeStream(true);
    const p = createProgress('build', stream, () => t);
    p.update(0, 100);
    t = 1500;
    p.update(50, 100);
    p.done('build: done');
    expect(chunks[1]).toBe(`\rbuild [${'#'.repeat(12)}${'-'.repeat(12)}] 50/100 1.5 s  `);
    expect(chunks.at(-1)).toBe('\r\x1b[Kbuild: done\n');
  });

  it('prints a plain line at each quarter when there is no terminal', () => {
    const { stream, chunks } = fakeStream(false);
    const p = createProgress('import', stream, () => 0);
    for (let i = 0; i <= 200; i++) p.update(i, 200);
    p.done('import: done');
    expect(chunks).toEqual([
      'import: 0/200 (0%) after 0.0 s\n',
      'import: 50/200 (25%) after 0.0 s\n',
      'import: 100/200 (50%) after 0.0 s\n',
      'import: 150/200 (75%) after 0.0 s\n',
      'import: done\n',
    ]);
  });
});
