/**
 * A byte-bounded least-recently-used map of promised values: the store under the preview's file
 * cache and its compressed variants, and so the basis of the preview's memory figure.
 */

/** What a kept value costs in memory: the whole store it is a view of, not only its own bytes. */
export const heldBytes = (bytes: Uint8Array): number => Math.max(bytes.byteLength, bytes.buffer.byteLength);

/**
 * Promised values by key, least recently used first out once the settled values' sizes pass
 * `maxBytes`. A value is made once however many ask for it while it is being made; a failure
 * is not kept, nor a value `sizeOf` gives no size (too large, or nothing to keep). A value still
 * being made counts nothing until it settles.
 */
export class PromiseLru<V> {
  private readonly entries = new Map<string, Promise<V>>();
  private readonly sizes = new Map<string, number>();
  private bytes = 0;
  private readonly maxBytes: number;
  private readonly sizeOf: (value: V) => number | null;
  constructor(maxBytes: number, sizeOf: (value: V) => number | null) {
    this.maxBytes = maxBytes;
    this.sizeOf = sizeOf;
  }

  /** The bytes the settled values are counted as. */
  get bytesKept(): number {
    return this.bytes;
  }

  /** How many values are kept, settled or still being made. */
  get size(): number {
    return this.entries.size;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  get(key: string, make: () => Promise<V>): Promise<V> {
    const hit = this.entries.get(key);
    if (hit) {
      // most recently used last: eviction takes from the front
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const made = make();
    this.entries.set(key, made);
    made.then(
      (value) => this.settled(key, made, value),
      () => {
        if (this.entries.get(key) === made) this.entries.delete(key);
      },
    );
    return made;
  }

  private settled(key: string, made: Promise<V>, value: V): void {
    // evicted while it was being made: nothing of it is kept, so nothing is counted
    if (this.entries.get(key) !== made) return;
    const size = this.sizeOf(value);
    if (size === null) {
      this.entries.delete(key);
      return;
    }
    this.sizes.set(key, size);
    this.bytes += size;
    for (const [old] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(old);
      this.bytes -= this.sizes.get(old) ?? 0;
      this.sizes.delete(old);
    }
  }
}
