/**
 * The build stamp: which inputs and base URL a build of dist/ was made from. Read by `npm start`
 * to decide whether to build, and by the preview to know a build's base URL, neither of which
 * should load the build's machinery to find out.
 */
import { join } from 'node:path';
import { buildStampFile } from '../../edge/layout.ts';
import { readJsonIfThere } from '../files/folders.ts';

export interface BuildStamp {
  inputHash: string;
  baseUrl: string;
}

/** The stamp of the build in `outDir`; null when it has none, or one cut short (a build killed while writing it): either way it is built again. */
export function readBuildStamp(outDir: string): BuildStamp | null {
  return readJsonIfThere<BuildStamp>(join(outDir, buildStampFile), () => null);
}
