/** The preview's file cache: the bytes of recently read files of one build, in memory. */
import type { FileReader } from '../../edge/handler.ts';
import { heldBytes, PromiseLru } from './lru.ts';

/**
 * Keeps the bytes of recently read files in memory, up to `maxBytes`: a read from memory spares
 * the four thread-pool round trips of a file read. A file larger than an eighth of it is not
 * kept. Files of one build never change (a new build is swapped in whole, and gets a new
 * reader: see served-build.ts).
 */
export function cachedReader(reader: FileReader, maxBytes: number): FileReader {
  const files = new PromiseLru<Uint8Array | null>(maxBytes, (body) => (body !== null && body.byteLength <= maxBytes / 8 ? heldBytes(body) : null));
  return { read: (path) => files.get(path, () => reader.read(path)) };
}
