/**
 * The preview serves exactly one build of its folder at a time: which build the folder holds
 * (asked on every request), the caches and request logic made for that build, and answering
 * again when a new build is swapped in while a request is being answered.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { createResponder } from '../../edge/handler.ts';
import type { Reply, RequestLike, Respond } from '../../edge/http.ts';
import { buildStampFile } from '../../contract/layout.ts';
import { readBuildStamp } from '../builder/stamp.ts';
import { compression, CompressionCache } from './compression.ts';
import { staleDownloads } from './stale-downloads.ts';
import { diskReader } from './disk-reader.ts';
import { cachedReader } from './file-cache.ts';

/** The preview's memory for one build; all of it is dropped when another build is swapped in. */
export interface PreviewCacheSizes {
  /** file bytes kept in memory (default 16 MB, DEFAULT_FILE_CACHE_BYTES); a file larger than an eighth of it is not kept */
  fileCacheBytes?: number;
  /** compressed variants kept in memory (default 8 MB, DEFAULT_COMPRESSION_CACHE_BYTES) */
  compressionCacheBytes?: number;
}

export const DEFAULT_FILE_CACHE_BYTES = 16 * 1024 * 1024;
export const DEFAULT_COMPRESSION_CACHE_BYTES = 8 * 1024 * 1024;

/**
 * Which build `root` holds, from the folder's inode and its build stamp's inode, time and size:
 * a build swaps the whole folder in, so each build has its own. Two `stat`s, a few microseconds,
 * cheap enough to ask on every request. Null while a swap leaves no folder there.
 */
export function buildIdentity(root: string): string | null {
  // throwIfNoEntry: false: missing is null; any other failure is thrown
  const folder = statSync(root, { throwIfNoEntry: false });
  if (folder === undefined) return null;
  const stamp = statSync(join(root, buildStampFile), { throwIfNoEntry: false });
  return stamp === undefined ? `${folder.ino}:-` : `${folder.ino}:${stamp.ino}:${stamp.mtimeMs}:${stamp.size}`;
}

/** One build and everything kept about it: its files' bytes, the request logic's routes, lists and ETags, compressed variants. */
interface ServedBuild {
  identity: string;
  respond: Respond;
}

/** A swap is two renames; a request that lands between them waits this long before asking again. */
const SWAP_WAIT_MS = 20;
const MAX_ATTEMPTS = 50;

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Answers from exactly one build of `root`. Each build gets fresh caches; a request is answered
 * from one build and its answer used only if the folder still holds that build afterwards,
 * otherwise it is answered again from the new one. So no answer mixes two builds, and an ETag
 * is only ever compared with the bytes of the build now served. The base URL of computed pages
 * is the build's own (its stamp says it), so `next` links of a page always match the build its
 * items came from.
 */
export class OneBuildServing {
  private current: ServedBuild | null = null;

  private readonly root: string;
  private readonly fallbackBaseUrl: string;
  private readonly sizes: PreviewCacheSizes;
  constructor(
    root: string,
    /** the base URL of computed pages when the build has no stamp to say it */
    fallbackBaseUrl: string,
    sizes: PreviewCacheSizes = {},
  ) {
    this.root = root;
    this.fallbackBaseUrl = fallbackBaseUrl;
    this.sizes = sizes;
  }

  async respond(request: RequestLike): Promise<Reply> {
    let last: Reply | null = null;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const build = this.servedBuild();
      if (build === null) {
        await new Promise((r) => setTimeout(r, SWAP_WAIT_MS));
        continue;
      }
      last = await build.respond(request);
      if (buildIdentity(this.root) === build.identity) return last;
    }
    // the folder kept changing under every attempt: the last answer is still from one build's request logic
    return last ?? { status: 404, headers: { 'content-type': JSON_TYPE }, body: request.method === 'HEAD' ? null : Buffer.from('"Not Found"') };
  }

  /** The build the folder holds now, made anew when it is not the one served so far. */
  private servedBuild(): ServedBuild | null {
    const identity = buildIdentity(this.root);
    if (identity === null) return null;
    if (this.current?.identity !== identity) {
      const files = cachedReader(diskReader(this.root), this.sizes.fileCacheBytes ?? DEFAULT_FILE_CACHE_BYTES);
      const variants = new CompressionCache(this.sizes.compressionCacheBytes ?? DEFAULT_COMPRESSION_CACHE_BYTES);
      // the base URL its links carry, and whether its downloads are stale (builder/stamp.ts)
      const stamp = readBuildStamp(this.root);
      this.current = {
        identity,
        respond: createResponder(
          files,
          { baseUrl: typeof stamp?.baseUrl === 'string' ? stamp.baseUrl : this.fallbackBaseUrl },
          ...(stamp?.downloads === 'stale' ? [staleDownloads] : []),
          compression(variants),
        ),
      };
    }
    return this.current;
  }
}

/** The preview's answering function over `root`. */
export function createServing(root: string, fallbackBaseUrl: string, sizes: PreviewCacheSizes = {}): Respond {
  const serving = new OneBuildServing(root, fallbackBaseUrl, sizes);
  return (request) => serving.respond(request);
}
