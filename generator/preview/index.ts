/**
 * The local preview: serves a built dist/ over HTTP with the shared request logic (edge/),
 * adding gzip and brotli, and follows a new build swapped into the folder. What each module does:
 *   disk-reader.ts    files under the folder only
 *   lru.ts            the byte-bounded LRU every cache of the preview is made of
 *   file-cache.ts     recently read files in memory
 *   compression.ts    coding negotiation, compressed variants and their ETags, the compression step
 *   stale-downloads.ts  a download answered 503 while the dev loop makes the downloads again
 *   served-build.ts   exactly one build at a time: its identity, its caches, the retry on a swap
 *   node-listener.ts  the node:http shell and startPreview
 */
export { diskReader } from './disk-reader.ts';
export { heldBytes, PromiseLru } from './lru.ts';
export { cachedReader } from './file-cache.ts';
export { chooseCoding, compression, CompressionCache, MIN_COMPRESSED_SIZE, ownBytes, variantEtag, type Coding } from './compression.ts';
export {
  buildIdentity,
  createServing,
  DEFAULT_COMPRESSION_CACHE_BYTES,
  DEFAULT_FILE_CACHE_BYTES,
  OneBuildServing,
  type PreviewCacheSizes,
} from './served-build.ts';
export { nodeListener, startPreview, type Preview, type PreviewStartOptions } from './node-listener.ts';
