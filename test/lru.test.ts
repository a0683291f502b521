/**
 * The preview's byte-bounded LRU (generator/preview/lru.ts), the basis of its memory figure:
 * which values go first, what is counted and when, and what is never kept. Values are invented.
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { cachedReader, heldBytes, ownBytes, PromiseLru } from '../generator/preview/index.ts';
import type { FileReader } from '../edge/handler.ts';

/** A value of `n` bytes in a store of exactly `n` bytes. */
const bytes = (n: number) => new Uint8Array(n);
/** A promise settled by hand, for a value still being made. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}
/** Lets the LRU's `then` callbacks run. */
const settle = () => new Promise((r) => setTimeout(r, 0));

/** An LRU of byte arrays, counting calls to make per key. */
function lru(maxBytes: number) {
  const made = new Map<string, number>();
  const cache = new PromiseLru<Uint8Array>(maxBytes, heldBytes);
  const get = (key: string, size: number) =>
    cache.get(key, async () => {
      made.set(key, (made.get(key) ?? 0) + 1);
      return bytes(size);
    });
  return { cache, get, made };
}

describe('PromiseLru: eviction order and byte accounting', () => {
  it('counts settled values and, past the bound, drops the least recently used first', async () => {
    const { cache, get } = lru(100);
    await get('a', 40);
    await get('b', 40);
    await settle();
    expect(cache.bytesKept).toBe(80);
    await get('a', 40); // a is now the most recently used
    await get('c', 40);
    await settle();
    expect([cache.has('a'), cache.has('b'), cache.has('c')]).toEqual([true, false, true]);
    expect(cache.bytesKept).toBe(80);
  });

  it('drops as many old values as it takes, and a value of exactly the bound stays alone', async () => {
    const { cache, get } = lru(100);
    for (const key of ['a', 'b', 'c', 'd']) await get(key, 25);
    await settle();
    expect(cache.bytesKept).toBe(100);
    await get('big', 100);
    await settle();
    expect(['a', 'b', 'c', 'd'].map((k) => cache.has(k))).toEqual([false, false, false, false]);
    expect(cache.has('big')).toBe(true);
    expect(cache.bytesKept).toBe(100);
  });

  it('a hit is the kept value, made once', async () => {
    const { cache, get, made } = lru(100);
    const first = await get('a', 10);
    expect(await get('a', 10)).toBe(first);
    expect(made.get('a')).toBe(1);
    expect(cache.size).toBe(1);
  });

  it('an empty value is kept, counted as one byte (lru-cache takes positive sizes only)', async () => {
    const { cache, get, made } = lru(100);
    await get('empty', 0);
    await settle();
    await get('empty', 0);
    expect(made.get('empty')).toBe(1);
    expect(cache.bytesKept).toBe(1);
  });

  it('a value still being made is shared by every caller and counted only once it settles', async () => {
    const cache = new PromiseLru<Uint8Array>(100, heldBytes);
    const making = deferred<Uint8Array>();
    let makes = 0;
    const make = () => (makes++, making.promise);
    const first = cache.get('a', make);
    const second = cache.get('a', make);
    expect(second).toBe(first);
    expect(makes).toBe(1);
    expect(cache.bytesKept).toBe(0);
    making.resolve(bytes(30));
    await first;
    await settle();
    expect(cache.bytesKept).toBe(30);
  });

  it('a value still being made is not in line for eviction: it goes in as the most recently used when it settles', async () => {
    const cache = new PromiseLru<Uint8Array>(100, heldBytes);
    const making = deferred<Uint8Array>();
    let makes = 0;
    const pending = cache.get('slow', () => (makes++, making.promise)); // asked first
    await cache.get('x', async () => bytes(60));
    await cache.get('y', async () => bytes(60)); // 120 > 100: x goes, the value being made stays
    await settle();
    expect([cache.has('slow'), cache.has('x'), cache.has('y')]).toEqual([true, false, true]);
    expect(cache.bytesKept).toBe(60);
    making.resolve(bytes(50));
    expect((await pending).byteLength).toBe(50);
    await settle();
    // 60 + 50 > 100: y, now the least recently used, goes
    expect([cache.has('slow'), cache.has('y')]).toEqual([true, false]);
    expect(cache.bytesKept).toBe(50);
    await cache.get('slow', () => (makes++, making.promise));
    expect(makes).toBe(1);
  });

  it('a value larger than the bound is handed out but not kept, and pushes nothing out', async () => {
    const { cache, get } = lru(100);
    await get('a', 40);
    expect((await get('huge', 101)).byteLength).toBe(101);
    await settle();
    expect([cache.has('a'), cache.has('huge')]).toEqual([true, false]);
    expect(cache.bytesKept).toBe(40);
  });

  it('a failed make is not kept: the next caller makes it again, and nothing is counted', async () => {
    const cache = new PromiseLru<Uint8Array>(100, heldBytes);
    await expect(cache.get('a', () => Promise.reject(new Error('read failed')))).rejects.toThrow('read failed');
    await settle();
    expect(cache.has('a')).toBe(false);
    expect(cache.bytesKept).toBe(0);
    expect((await cache.get('a', async () => bytes(5))).byteLength).toBe(5);
    await settle();
    expect(cache.bytesKept).toBe(5);
  });

  it('a value sizeOf gives no size (too large, or nothing to keep) is handed out but not kept', async () => {
    const cache = new PromiseLru<Uint8Array | null>(100, (v) => (v !== null && v.byteLength <= 50 ? v.byteLength : null));
    await cache.get('small', async () => bytes(50));
    expect((await cache.get('large', async () => bytes(51)))!.byteLength).toBe(51);
    expect(await cache.get('none', async () => null)).toBeNull();
    await settle();
    expect([cache.has('small'), cache.has('large'), cache.has('none')]).toEqual([true, false, false]);
    expect(cache.bytesKept).toBe(50);
  });
});

describe('heldBytes: what a kept view costs', () => {
  const text = Buffer.from('invented words, repeated. '.repeat(200));

  it('a view of a larger store costs the whole store; its own bytes (ownBytes) cost only themselves', () => {
    const view = gzipSync(text); // zlib hands back a view of a larger chunk
    expect(view.buffer.byteLength).toBeGreaterThan(view.byteLength);
    expect(heldBytes(view)).toBe(view.buffer.byteLength);
    expect(heldBytes(ownBytes(view))).toBe(view.byteLength);
  });

  it('an LRU of views counts their stores, so the bound holds for memory, not only for lengths', async () => {
    const store = new ArrayBuffer(1000);
    const cache = new PromiseLru<Uint8Array>(1500, heldBytes);
    await cache.get('a', async () => new Uint8Array(store, 0, 10));
    await settle();
    expect(cache.bytesKept).toBe(1000);
    await cache.get('b', async () => new Uint8Array(store, 10, 10)); // 2000 > 1500: a goes
    await settle();
    expect(cache.has('a')).toBe(false);
    expect(cache.bytesKept).toBe(1000);
  });
});

describe('cachedReader: the file cache', () => {
  it('reads a file once, and does not keep one larger than an eighth of its bound', async () => {
    const reads = new Map<string, number>();
    const sizes: Record<string, number> = { 'small.json': 100, 'large.json': 101 };
    const disk: FileReader = {
      read: async (path) => {
        reads.set(path, (reads.get(path) ?? 0) + 1);
        return path in sizes ? bytes(sizes[path]!) : null;
      },
    };
    const files = cachedReader(disk, 800);
    for (let i = 0; i < 3; i++) {
      for (const path of ['small.json', 'large.json', 'missing.json']) await files.read(path);
      await settle();
    }
    expect(Object.fromEntries(reads)).toEqual({ 'small.json': 1, 'large.json': 3, 'missing.json': 3 });
  });
});
