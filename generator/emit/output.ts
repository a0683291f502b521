/**
 * Writes documents under one root folder, creating folders once, counting files and bytes.
 * Writes go through the libuv thread pool with a bounded number in flight, so the file system's
 * work overlaps with making the next documents instead of stalling the build on each syscall.
 */
import { linkSync, mkdirSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

export class Output {
  files = 0;
  bytes = 0;
  private readonly dirs = new Set<string>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly aliases: Array<[string, string]> = [];
  private failure: unknown = null;
  /** every path written or linked, when replacing (an incremental build reports them) */
  readonly written = new Set<string>();

  constructor(
    readonly root: string,
    private readonly maxInFlight = 32,
    /**
     * Remove a path before writing it. Needed where the folder holds hard links to the files of
     * the build being served (an incremental build): writing through one would change them.
     */
    private readonly options: { replace?: boolean } = {},
  ) {}

  private ensureDir(path: string) {
    const dir = dirname(path);
    if (!this.dirs.has(dir)) {
      mkdirSync(dir, { recursive: true });
      this.dirs.add(dir);
    }
  }

  /** Resolves once there is room for another write; rethrows the first failed write. */
  async write(rel: string, body: string | Uint8Array): Promise<void> {
    const path = join(this.root, rel);
    this.ensureDir(path);
    if (this.options.replace) {
      rmSync(path, { force: true });
      this.written.add(rel);
    }
    this.files++;
    this.bytes += typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
    const tracked: Promise<void> = writeFile(path, body)
      .catch((e: unknown) => {
        this.failure ??= e;
      })
      .finally(() => this.inFlight.delete(tracked));
    this.inFlight.add(tracked);
    while (this.inFlight.size >= this.maxInFlight) await Promise.race(this.inFlight);
    if (this.failure) throw this.failure;
  }

  /** The same document under a second path: a hard link, made once every write has landed. */
  alias(rel: string, existing: string): void {
    this.aliases.push([rel, existing]);
    this.files++;
  }

  /** Waits for every write, then makes the links. */
  async finish(): Promise<void> {
    await Promise.all(this.inFlight);
    if (this.failure) throw this.failure;
    for (const [rel, existing] of this.aliases) {
      const path = join(this.root, rel);
      this.ensureDir(path);
      if (this.options.replace) {
        rmSync(path, { force: true });
        this.written.add(rel);
      }
      linkSync(join(this.root, existing), path);
    }
  }
}
