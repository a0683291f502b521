/**
 * The build stamp: which inputs and base URL a build of dist/ was made from. Read by `npm start`
 * to decide whether to build, and by the preview to know a build's base URL, neither of which
 * should load the build's machinery to find out.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildStampFile } from '../../edge/layout.ts';

export interface BuildStamp {
  inputHash: string;
  baseUrl: string;
}

export function readBuildStamp(outDir: string): BuildStamp | null {
  try {
    return JSON.parse(readFileSync(join(outDir, buildStampFile), 'utf8')) as BuildStamp;
  } catch {
    return null;
  }
}
