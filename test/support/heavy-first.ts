/**
 * The order files start in. Vitest starts the files it has timed before longest first, and files
 * it has never timed (every file of a clean clone) largest first, which put the slowest files
 * (a clone under Netlify's CLI, a browser, seven incremental builds) at the end of the run: one
 * worker then ran them alone while the other sat idle. A file it has not timed starts in the
 * order below, the heaviest first, and every other file after them, the vitest way.
 */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** The files that take longest, heaviest first (SPEED.md's table of the suite's time per file). */
export const HEAVIEST = [
  'netlify-cli.test.ts',
  'incremental.test.ts',
  'fresh-clone.test.ts',
  'e2e-try.test.ts',
  'e2e.test.ts',
  'links.test.ts',
  'openapi-tools.test.ts',
  'update-clone.test.ts',
  'dev.test.ts',
  'update-swap.test.ts',
  'query-oracle.test.ts',
  'types.test.ts',
  'build.test.ts',
];

const rank = (spec: TestSpecification): number => {
  const index = HEAVIEST.findIndex((name) => spec.moduleId.endsWith(`/test/${name}`));
  return index < 0 ? HEAVIEST.length : index;
};

export default class HeavyFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const timed = files.every((spec) => this.ctx.cache.getFileTestResults(`${spec.project.name}:${relative(this.ctx.config.root, spec.moduleId)}`));
    if (timed) return super.sort(files);
    const byVitest = await super.sort(files);
    return [...byVitest].sort((a, b) => rank(a) - rank(b));
  }
}
