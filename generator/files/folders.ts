/**
 * Whole folders on disk: swapping a freshly written folder in place of another with two renames
 * (records, the fetched data set, a build of dist/), and copying a folder as hard links (the
 * planner's starting point, which costs no bytes). A reader sees the old folder or the new one,
 * never half of each. Also what "not there" means on disk, kept apart from "cannot be read".
 */
import { spawn } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Puts `fresh` where `target` is with two renames and returns the folder swapped out (or null
 * when there was none) for the caller to remove when it suits it. `old` must be a path no one
 * else uses; whatever is there is removed first.
 */
export function swapOut(fresh: string, target: string, old = `${target}.old-${process.pid}`): string | null {
  rmSync(old, { recursive: true, force: true });
  const had = existsSync(target);
  if (had) renameSync(target, old);
  renameSync(fresh, target);
  return had ? old : null;
}

/** Replaces `target` by `fresh` (swapOut), then removes the old folder. */
export function swapIn(fresh: string, target: string): void {
  const old = swapOut(fresh, target);
  if (old) rmSync(old, { recursive: true, force: true });
}

/**
 * Removes folders in a process of its own that outlives this one: a command whose result is
 * already in place (folders swapped out) need not wait for thousands of unlinks. Each path
 * must be one no one else uses (swapOut's `old`).
 */
export function removeInBackground(paths: readonly string[]): void {
  if (!paths.length) return;
  const code = 'for (const p of process.argv.slice(1)) require("node:fs").rmSync(p, { recursive: true, force: true })';
  spawn(process.execPath, ['-e', code, ...paths], { detached: true, stdio: 'ignore' }).unref();
}

/** Whether a file system call failed because nothing is at the path (any other failure is a fault to report). */
export const isMissing = (error: unknown): boolean => (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';

/** A file's bytes; null when there is none. A file that is there but cannot be read throws. */
export function readIfThere(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

/**
 * A JSON file's value; null when there is no file. One that does not parse is `unparsable`'s to
 * answer: a fallback where the file is only a shortcut, else an error naming it.
 */
export function readJsonIfThere<T>(path: string, unparsable: (error: SyntaxError) => T | null): T | null {
  const bytes = readIfThere(path);
  return bytes === null ? null : parsedJson(bytes, unparsable);
}

/** A file's bytes as JSON; `unparsable` says what bytes that are no JSON give. */
export function parsedJson<T>(bytes: Buffer, unparsable: (error: SyntaxError) => T | null): T | null {
  try {
    return JSON.parse(bytes.toString('utf8')) as T;
  } catch (error) {
    if (error instanceof SyntaxError) return unparsable(error);
    throw error;
  }
}

/** A folder's inode, or null when there is none: tells a folder swapped in by someone else from the one we know. */
export function folderIdentity(dir: string): number | null {
  return statSync(dir, { throwIfNoEntry: false })?.ino ?? null;
}

/** Hard links to every file of `from` under `to`. */
export function linkTree(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory()) linkTree(source, target);
    else linkSync(source, target);
  }
}

/** linkTree off the event loop, a batch of links at a time, for a copy made while nothing waits on it. */
export async function linkTreeAsync(from: string, to: string): Promise<void> {
  await fsp.mkdir(to, { recursive: true });
  const entries = await fsp.readdir(from, { withFileTypes: true });
  for (let i = 0; i < entries.length; i += 16) {
    await Promise.all(
      entries.slice(i, i + 16).map((entry) => {
        const source = join(from, entry.name);
        const target = join(to, entry.name);
        return entry.isDirectory() ? linkTreeAsync(source, target) : fsp.link(source, target);
      }),
    );
  }
}
