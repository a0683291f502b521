/**
 * The files a build makes once (BuildWriter.finish: the change reports, meta, the docs page,
 * the stamp, the archive…) made again over a finished build with other finish options, every
 * kind's files kept. `npm run data:update` needs it: its change report compares its own build
 * with the served one, so that build could not serve the report yet. Written by the one writer
 * on a hard-linked copy (only files whose bytes change are replaced), swapped in whole.
 *
 *   refinish(dist, options) → dist as a full build with those options writes it
 */
import { rmSync } from 'node:fs';
import { API_PREFIX } from '../../edge/layout.ts';
import { linkTree, swapIn } from '../files/folders.ts';
import { archiveEntries } from './archive.ts';
import { BuildWriter, type FinishOptions } from './writer.ts';

export async function refinish(dist: string, options: FinishOptions): Promise<void> {
  const copy = `${dist}.refinish-${process.pid}`;
  rmSync(copy, { recursive: true, force: true });
  try {
    linkTree(dist, copy);
    await BuildWriter.onCopy(copy, dist, archiveEntries(dist, API_PREFIX)).finish(options, []);
    swapIn(copy, dist);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}
