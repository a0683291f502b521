/**
 * Files under one root folder, for the build writer (writer.ts): creating folders once,
 * counting files and bytes. `Output` fills a folder of its own: its writes go through the libuv
 * thread pool with a bounded number in flight, so the file system's work overlaps with making
 * the next documents instead of stalling the build on each syscall. `CopyOutput` changes a
 * hard-linked copy of the served build, where writing through a link would change the served
 * file too: an update writes a thousand or so small files there, synchronously, as the thread
 * pool's three round trips per file (open, write, close) cost more CPU than they overlap
 * (measured with bench/rename-steps.ts: a move rename's write step, 2,035 → 1,702 ms of CPU).
 */
import { linkSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { FilePool } from '../files/file-pool.ts';
import { readIfThere } from '../files/folders.ts';

export class Output {
  files = 0;
  bytes = 0;
  private readonly dirs = new Set<string>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly aliases: Array<[string, string]> = [];
  /** the first failed write's rejection, boxed so that one with a falsy reason still counts */
  private failure: { error: unknown } | null = null;

  readonly root: string;
  private readonly maxInFlight: number;
  constructor(root: string, maxInFlight = 32) {
    this.root = root;
    this.maxInFlight = maxInFlight;
  }

  /** Called before a path is written, linked or removed. */
  protected claim(_rel: string): void {}

  /** Makes room for a link at `path` (a fresh folder has nothing there). */
  protected clear(_path: string): void {}

  /** Whether `rel` holds `body` already (a fresh folder holds nothing yet). */
  holds(_rel: string, _body: string | Uint8Array): boolean {
    return false;
  }

  private ensureDir(path: string) {
    const dir = dirname(path);
    if (!this.dirs.has(dir)) {
      mkdirSync(dir, { recursive: true });
      this.dirs.add(dir);
    }
  }

  /** The path of a file another writer makes (SQLite, the database), its folder made; the caller counts its `bytes` once made. */
  external(rel: string): string {
    const path = join(this.root, rel);
    this.ensureDir(path);
    this.claim(rel);
    this.files++;
    return path;
  }

  /** Resolves once there is room for another write; rethrows the first failed write. */
  async write(rel: string, body: string | Uint8Array): Promise<void> {
    const path = join(this.root, rel);
    this.ensureDir(path);
    this.claim(rel);
    this.files++;
    this.bytes += typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
    await this.store(path, body);
  }

  /** Writes a file whose folder exists and whose path is claimed. */
  protected async store(path: string, body: string | Uint8Array): Promise<void> {
    const tracked: Promise<void> = writeFile(path, body)
      .catch((e: unknown) => {
        this.failure ??= { error: e };
      })
      .finally(() => this.inFlight.delete(tracked));
    this.inFlight.add(tracked);
    while (this.inFlight.size >= this.maxInFlight) await Promise.race(this.inFlight);
    if (this.failure) throw this.failure.error;
  }

  /** The same document under a second path: a hard link, made once every write has landed. */
  alias(rel: string, existing: string): void {
    this.aliases.push([rel, existing]);
    this.files++;
  }

  /** Removes a file, if it is there. */
  remove(rel: string): void {
    this.claim(rel);
    rmSync(join(this.root, rel), { force: true });
  }

  /** Waits for every write, then makes the links. */
  async finish(): Promise<void> {
    await Promise.all(this.inFlight);
    if (this.failure) throw this.failure.error;
    for (const [rel, existing] of this.aliases.splice(0)) {
      const path = join(this.root, rel);
      this.ensureDir(path);
      this.claim(rel);
      this.clear(path);
      linkSync(join(this.root, existing), path);
    }
  }
}

/**
 * A hard-linked copy of the served build: every path is replaced or removed before it is
 * written or linked (never written through), and every path written, linked or removed is
 * noted, so the archive knows which of the served build's files to look at again.
 */
export class CopyOutput extends Output {
  readonly rewritten = new Set<string>();

  private readonly pool: FilePool | null;
  /** `pool`: empty files made ahead, each renamed over a path to write (files/file-pool.ts) */
  constructor(root: string, pool: FilePool | null = null) {
    super(root);
    this.pool = pool;
  }

  protected override claim(rel: string): void {
    this.rewritten.add(rel);
  }

  protected override clear(path: string): void {
    rmSync(path, { force: true });
  }

  /**
   * At once, on this thread: a file of the pool renamed over the path (which replaces what was
   * there, and is linked from nowhere else), or, with none left, the path removed and written
   * with `wx`, which never writes through a link.
   */
  protected override async store(path: string, body: string | Uint8Array): Promise<void> {
    const pooled = this.pool?.take();
    if (pooled) renameSync(pooled, path);
    else this.clear(path);
    writeFileSync(path, body, { flag: pooled ? 'w' : 'wx' });
  }

  /** Compared by size first: a document made again is most often of another size (a renamed link), and reading the old bytes costs more than making them. */
  override holds(rel: string, body: string | Uint8Array): boolean {
    const path = join(this.root, rel);
    const size = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
    if (statSync(path, { throwIfNoEntry: false })?.size !== size) return false;
    const bytes = readIfThere(path);
    return bytes !== null && bytes.equals(typeof body === 'string' ? Buffer.from(body) : body);
  }
}
