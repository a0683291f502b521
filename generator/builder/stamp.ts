/**
 * The build stamp: which inputs and base URL a build of dist/ was made from, and where its data
 * folder was when one was given by hand. Read by `npm start` to decide whether to build, by the
 * preview to know a build's base URL, neither of which should load the build's machinery to
 * find out, and by a data update to find the tables the served build read.
 */
import { join } from 'node:path';
import { buildStampFile } from '../../contract/layout.ts';
import { readJsonIfThere } from '../files/folders.ts';

export interface BuildStamp {
  inputHash: string;
  baseUrl: string;
  /**
   * the data folder given with --data / DATA_DIR that the build read: nothing else says where
   * its tables are once the variable is unset, and a data update reads them there (a team copy
   * and the download cache are found again by the configuration)
   */
  dataDir?: string;
  /**
   * the dev loop served an edit's answers before making its downloads again (the bulk files and
   * the archive are the previous build's until the mark goes): `npm start` builds again, and the
   * preview answers a download 503 with Retry-After meanwhile
   */
  downloads?: 'stale';
}

/** The stamp of the build in `outDir`; null when it has none, or one cut short (a build killed while writing it): either way it is built again. */
export function readBuildStamp(outDir: string): BuildStamp | null {
  return readJsonIfThere<BuildStamp>(join(outDir, buildStampFile), () => null);
}
