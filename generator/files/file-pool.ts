/**
 * Empty files made ahead of need in a folder beside dist/, for the dev loop's writes onto a
 * hard-linked copy. There a written path must get a file of its own (writing through the link
 * would change the served one), and making a new file is the costly part of such a write on this
 * kind of disk: allocating its inode waits on the file system's journal, where renaming a file
 * made earlier over the path and writing into it does not (SPEED.md has the figures). So the pool
 * makes its files while nobody waits, and a write takes one when there is one.
 */
import { mkdirSync, promises as fsp, rmSync } from 'node:fs';
import { join } from 'node:path';

export class FilePool {
  /** files made and not taken, each empty and linked from nowhere else */
  private readonly ready: string[] = [];
  private made = 0;
  private filling: Promise<void> = Promise.resolve();
  private closed = false;

  readonly dir: string;
  private readonly size: number;
  constructor(dir: string, size: number) {
    this.dir = dir;
    this.size = size;
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
  }

  /** A file of the pool to rename into place, empty and linked from nowhere else; null when none is ready. */
  take(): string | null {
    return this.ready.pop() ?? null;
  }

  /** Tops the pool up to its size, in the background, one file at a time; resolves when it is full (or closed). */
  fill(): Promise<void> {
    this.filling = this.filling
      .then(async () => {
        while (!this.closed && this.ready.length < this.size) {
          const path = join(this.dir, String(this.made++));
          await fsp.writeFile(path, '', { flag: 'wx' });
          this.ready.push(path);
        }
      })
      // a file system error (a full disk): the pool stays as it is, and a write makes its file
      // itself, where a lasting fault then stops the update; anything else is a bug
      .catch((error: unknown) => {
        if ((error as NodeJS.ErrnoException).code === undefined) throw error;
      });
    return this.filling;
  }

  /** Stops filling and removes the folder. */
  async close(): Promise<void> {
    this.closed = true;
    await this.filling.catch(() => {});
    rmSync(this.dir, { recursive: true, force: true });
  }
}
