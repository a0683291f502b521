/**
 * A byte-bounded least-recently-used map of promised values: the store under the preview's file
 * cache and its compressed variants, and so the basis of the preview's memory figure. The
 * eviction and the byte count are lru-cache's; what is added here is the sharing of a value
 * still being made, and what is not kept.
 */
import { LRUCache } from 'lru-cache';

/** What a kept value costs in memory: the whole store it is a view of, not only its own bytes. */
export const heldBytes = (bytes: Uint8Array): number => Math.max(bytes.byteLength, bytes.buffer.byteLength);

/**
 * Promised values by key, least recently used first out once the settled values' sizes pass
 * `maxBytes`; a value larger than `maxBytes` alone is handed out but not kept. A value is made
 * once however many ask for it while it is being made; a failure is not kept, nor a value
 * `sizeOf` gives no size (too large, or nothing to keep). A value still being made counts
 * nothing and is not in line for eviction: it goes in, as the most recently used, when it settles.
 */
export class PromiseLru<V> {
  private readonly kept: LRUCache<string, Promise<V>>;
  private readonly making = new Map<string, Promise<V>>();
  private readonly sizeOf: (value: V) => number | null;
  constructor(maxBytes: number, sizeOf: (value: V) => number | null) {
    this.kept = new LRUCache<string, Promise<V>>({ maxSize: maxBytes });
    this.sizeOf = sizeOf;
  }

  /** The bytes the settled values are counted as. */
  get bytesKept(): number {
    return this.kept.calculatedSize;
  }

  /** How many values are kept, settled or still being made. */
  get size(): number {
    return this.kept.size + this.making.size;
  }

  has(key: string): boolean {
    return this.making.has(key) || this.kept.has(key);
  }

  get(key: string, make: () => Promise<V>): Promise<V> {
    const hit = this.kept.get(key) ?? this.making.get(key);
    if (hit) return hit;
    const made = make();
    this.making.set(key, made);
    made.then(
      (value) => this.settled(key, made, value),
      () => this.making.delete(key),
    );
    return made;
  }

  private settled(key: string, made: Promise<V>, value: V): void {
    this.making.delete(key);
    const size = this.sizeOf(value);
    // lru-cache takes positive sizes only: an empty value is counted as one byte
    if (size !== null) this.kept.set(key, made, { size: Math.max(1, size) });
  }
}
