/**
 * The served folder (dist/) as the planner sees it: which build it is (its folder's inode:
 * the planner's state describes that build only), its archive's entries, and a spare copy of
 * it as hard links, made in the background after each swap so the next update starts from a
 * copy instead of making one while the user waits; then the pool of files made ahead for the
 * next update's writes is topped up.
 */
import { promises as fsp, renameSync, rmSync } from 'node:fs';
import { API_PREFIX } from '../../contract/layout.ts';
import { archiveEntries, type ArchiveEntry } from '../builder/archive.ts';
import { BuildError } from '../build-error.ts';
import { FilePool } from '../files/file-pool.ts';
import { folderIdentity, linkTree, linkTreeAsync, swapOut } from '../files/folders.ts';

/** How long after a swap the background file work waits (see prepareSpare). */
const BACKGROUND_PAUSE_MS = 1500;

/**
 * How many files the pool keeps made ahead for an update's writes: more than a move rename
 * writes (some hundreds); an update that writes more makes the rest itself.
 */
const POOL_FILES = 1024;

export class ServedFolder {
  private served: number | null;
  /** the served build's archive entries: each update's copy of it differs only where it rewrote */
  entries: readonly ArchiveEntry[];
  private spare: { from: number | null; path: string; ready: Promise<boolean>; hurry: () => void } | null = null;
  /** the removal of the folder the last swap took out, after the spare it waits for */
  private removing: Promise<void> = Promise.resolve();
  private swaps = 0;
  /** empty files made ahead, for the writes onto a copy (files/file-pool.ts) */
  readonly pool: FilePool;

  readonly dir: string;
  constructor(dir: string) {
    this.dir = dir;
    this.served = folderIdentity(dir);
    this.entries = archiveEntries(dir, API_PREFIX);
    this.pool = new FilePool(`${dir}.pool-${process.pid}`, POOL_FILES);
    this.prepareSpare();
  }

  /** Throws when someone else swapped another build in since. */
  check(): void {
    if (folderIdentity(this.dir) !== this.served) {
      throw new BuildError([`${this.dir} was replaced by another build while npm run dev was running; restart it to build from there`]);
    }
  }

  /** A folder of links to the served build: the spare when it is ready and still of this build. */
  async copy(): Promise<string> {
    const tmp = `${this.dir}.tmp-${process.pid}`;
    rmSync(tmp, { recursive: true, force: true });
    const candidate = this.spare;
    this.spare = null;
    // an update that comes within the pause (saves in quick succession, a test) waits for no timer
    candidate?.hurry();
    if (candidate && candidate.from === this.served && (await candidate.ready)) {
      renameSync(candidate.path, tmp);
      return tmp;
    }
    if (candidate) await candidate.ready.then(() => fsp.rm(candidate.path, { recursive: true, force: true }));
    linkTree(this.dir, tmp);
    return tmp;
  }

  /** Serves `tmp` (a copy the update finished), whose archive has `entries`; returns the folder swapped out. */
  swap(tmp: string, entries: readonly ArchiveEntry[]): string | null {
    const old = swapOut(tmp, this.dir, `${this.dir}.old-${process.pid}-${++this.swaps}`);
    this.served = folderIdentity(this.dir);
    this.entries = entries;
    return old;
  }

  /** After an update, swapped in or not: removes its copy, then prepares the next spare (removing `swappedOut` first). */
  release(tmp: string, swappedOut: string | null): void {
    rmSync(tmp, { recursive: true, force: true });
    this.prepareSpare(swappedOut);
  }

  async close(): Promise<void> {
    const last = this.spare;
    this.spare = null;
    if (last) await last.ready.then(() => fsp.rm(last.path, { recursive: true, force: true }));
    await this.removing;
    await this.pool.close();
  }

  /**
   * Starts the spare copy of the served build after a pause; then removes the folder an update
   * swapped out. The pause lets the preview's first reads of a new build go ahead of the
   * thousands of links and unlinks, which share Node's thread pool with them. An update that
   * needs the spare during the pause ends it (`hurry`), and waits for the links only.
   */
  private prepareSpare(swappedOut: string | null = null): void {
    const path = `${this.dir}.spare-${process.pid}`;
    const from = this.served;
    let hurry = () => {};
    const paused = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, swappedOut ? BACKGROUND_PAUSE_MS : 0);
      hurry = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    const ready = paused
      .then(() => fsp.rm(path, { recursive: true, force: true }))
      .then(() => linkTreeAsync(this.dir, path))
      .then(() => folderIdentity(this.dir) === from)
      // the pool fills after the spare, which an update needs first
      .finally(() => void this.pool.fill())
      // a file system error (the folder swapped or removed under the copy): no spare, and `copy`
      // makes its copy itself, where a lasting fault then stops the update; anything else is a bug
      .catch((error: unknown) => {
        if ((error as NodeJS.ErrnoException).code === undefined) throw error;
        return false;
      });
    this.spare = { from, path, ready, hurry };
    const previous = this.removing;
    // a folder that cannot be removed is left where it is, as a failed spare leaves its own
    this.removing = ready
      .catch(() => false)
      .then(async () => {
        await previous;
        if (swappedOut !== null) await fsp.rm(swappedOut, { recursive: true, force: true });
      })
      .catch(() => {});
  }
}
