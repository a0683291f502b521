/**
 * Bulk downloads: a gzip'd NDJSON file per collection (written by the shards as they make
 * the items) and one ustar archive of the whole dist/v2 tree (made last). Both are
 * deterministic: entries in name order, times zero, owner root, the same gzip level, and the
 * same cuts between gzip members, so a build that redoes part of them gives the same bytes.
 */
import { createHash } from 'node:crypto';
import { closeSync, lstatSync, openSync, readdirSync, readFileSync, readSync, rmSync, writeSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { isMissing } from '../files/folders.ts';
import { gzipSync } from 'node:zlib';

/** Fast compression: the downloads are made on every build, and level 1 costs a fraction of 6. */
const GZIP_LEVEL = 1;
const BLOCK = 512;

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, '0') + '\0';
}

/** One ustar header block. `type`: '0' file, '1' hard link, '5' directory. */
export function tarHeader(path: string, size: number, type: '0' | '1' | '5', linkTarget = ''): Buffer {
  const header = Buffer.alloc(BLOCK);
  let name = path;
  let prefix = '';
  if (Buffer.byteLength(name) > 100) {
    const cut = path.lastIndexOf('/', 155);
    prefix = path.slice(0, cut);
    name = path.slice(cut + 1);
    if (cut <= 0 || Buffer.byteLength(name) > 100 || Buffer.byteLength(prefix) > 155) throw new Error(`path too long for a tar header: ${path}`);
  }
  header.write(name, 0, 100, 'utf8');
  header.write(octal(type === '5' ? 0o755 : 0o644, 8), 100, 8, 'ascii');
  header.write(octal(0, 8), 108, 8, 'ascii');
  header.write(octal(0, 8), 116, 8, 'ascii');
  header.write(octal(size, 12), 124, 12, 'ascii');
  header.write(octal(0, 12), 136, 12, 'ascii');
  header.write('        ', 148, 8, 'ascii');
  header.write(type, 156, 1, 'ascii');
  header.write(linkTarget, 157, 100, 'utf8');
  header.write('ustar\0' + '00', 257, 8, 'ascii');
  header.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(octal(sum, 7) + ' ', 148, 8, 'ascii');
  return header;
}

/**
 * A gzip file written as a series of independent members (RFC 1952 allows any number; gunzip,
 * tar and zlib read them as one stream). Each member is compressed on its own, so a later build
 * that changes a few entries recompresses only their members and copies the others' bytes.
 */
export interface GzipMember {
  /** what the member holds, as the writer names it (a chunk key, a signature of entries) */
  key: string;
  offset: number;
  length: number;
}

export class MemberGzipFile {
  private readonly fd: number;
  private offset = 0;
  readonly members: GzipMember[] = [];
  constructor(path: string) {
    // never written through: the path may be a hard link to a file of the build being served
    rmSync(path, { force: true });
    this.fd = openSync(path, 'w');
  }
  /** Compresses `body` as a member of its own. */
  add(key: string, body: Buffer): void {
    this.append(key, gzipSync(body, { level: GZIP_LEVEL }));
  }
  /** Appends a member compressed before (its bytes as they are). */
  append(key: string, compressed: Uint8Array): void {
    writeSync(this.fd, compressed);
    this.members.push({ key, offset: this.offset, length: compressed.byteLength });
    this.offset += compressed.byteLength;
  }
  close(): GzipMember[] {
    closeSync(this.fd);
    return this.members;
  }
}

/** The bytes of a member of a file written by MemberGzipFile. */
export function readMember(fd: number, member: GzipMember): Buffer {
  const out = Buffer.allocUnsafe(member.length);
  let done = 0;
  while (done < member.length) done += readSync(fd, out, done, member.length - done, member.offset + done);
  return out;
}

/** Members of a previous file, by key, and where to read them. */
export interface PreviousMembers {
  file: string;
  members: readonly GzipMember[];
}

/** Reads members of a previous file by key; null when there is no such member or file. */
export function memberSource(previous: PreviousMembers | undefined): { get(key: string): Buffer | null; close(): void } {
  if (!previous) return { get: () => null, close: () => {} };
  let fd: number | null = null;
  try {
    fd = openSync(previous.file, 'r');
  } catch (error) {
    // no previous file: every member is made anew
    if (isMissing(error)) return { get: () => null, close: () => {} };
    throw error;
  }
  const byKey = new Map(previous.members.map((m) => [m.key, m]));
  return {
    get: (key) => {
      const m = byKey.get(key);
      return m && fd !== null ? readMember(fd, m) : null;
    },
    close: () => fd !== null && closeSync(fd),
  };
}

/** One entry of an archive, in archive order. */
export interface ArchiveEntry {
  rel: string;
  /** '0' a file, '1' a hard link to the entry `linkTarget` (the first path of its inode), '5' a folder (`rel` ends with /) */
  type: '0' | '1' | '5';
  /** the file's size on disk, kept for a link too: it becomes the file should its first path go */
  size: number;
  linkTarget: string;
  /** not archived: tells hard links apart when the list is patched (patchArchiveEntries) */
  ino: number;
}

/** A previous archive of the same folder, and which of its files have been written since. */
export interface PreviousArchive extends PreviousMembers {
  /** files written, linked or removed since, relative to the root */
  rewritten: ReadonlySet<string>;
  /**
   * The previous archive's entries, when the folder is a copy of its tree (hard links: same
   * inodes) changed only at `rewritten`: then only those paths are looked at again.
   */
  entries?: readonly ArchiveEntry[];
}

/** Archive order: a folder, then its contents by name (as a sorted readdir gives them). */
function compareArchivePaths(a: string, b: string): number {
  const x = a.replace(/\/$/, '').split('/');
  const y = b.replace(/\/$/, '').split('/');
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
  return x.length - y.length;
}

/** What an entry's header says it holds: a link or a folder holds nothing. */
const storedSize = (e: ArchiveEntry): number => (e.type === '0' ? e.size : 0);

/** Files whose inode came earlier are links to its first path; the others are files. */
function markLinks(entries: ArchiveEntry[]): ArchiveEntry[] {
  const firstPathOfInode = new Map<number, string>();
  for (const e of entries) {
    if (e.type === '5') continue;
    const first = firstPathOfInode.get(e.ino);
    e.type = first === undefined ? '0' : '1';
    e.linkTarget = first ?? '';
    if (first === undefined) firstPathOfInode.set(e.ino, e.rel);
  }
  return entries;
}

/** Every entry of `root/dir` (archived as `dir/...`), by walking the tree. */
export function archiveEntries(root: string, dir: string): ArchiveEntry[] {
  const entries: ArchiveEntry[] = [];
  const visit = (rel: string) => {
    const full = join(root, rel);
    const st = lstatSync(full);
    if (st.isDirectory()) {
      entries.push({ rel: `${rel}/`, type: '5', size: 0, linkTarget: '', ino: st.ino });
      for (const name of readdirSync(full).sort()) visit(`${rel}/${name}`);
      return;
    }
    entries.push({ rel, type: '0', size: st.size, linkTarget: '', ino: st.ino });
  };
  visit(dir);
  return markLinks(entries);
}

/**
 * What archiveEntries gives for `root/dir`, from the entries of an earlier tree that `root`
 * differs from only at the `changed` paths (and the folders holding them): those are looked at
 * again, the rest is taken as it was. An update of a few hundred files then costs a few hundred
 * `lstat` calls instead of a walk of the whole tree.
 */
export function patchArchiveEntries(root: string, dir: string, earlier: readonly ArchiveEntry[], changed: Iterable<string>): ArchiveEntry[] {
  const byRel = new Map(earlier.map((e) => [e.rel, { ...e }]));
  let added = false;
  /** each folder above a changed path: looked at once, null when it is gone */
  const folders = new Map<string, Stats | null>();
  const folderAt = (rel: string) => {
    let found = folders.get(rel);
    if (found === undefined) {
      const st = lstatSync(join(root, rel), { throwIfNoEntry: false });
      found = st?.isDirectory() ? st : null;
      folders.set(rel, found);
    }
    return found;
  };
  for (const rel of changed) {
    if (!rel.startsWith(`${dir}/`)) continue;
    // gone: removed from the list below
    const st = lstatSync(join(root, rel), { throwIfNoEntry: false }) ?? null;
    if (st?.isDirectory()) throw new Error(`${rel} is a folder; the archive's list is patched with files`);
    if (st) {
      if (!byRel.has(rel)) added = true;
      byRel.set(rel, { rel, type: '0', size: st.size, linkTarget: '', ino: st.ino });
    } else byRel.delete(rel);
    // the folders above it: new ones join, emptied ones that were removed go
    for (let cut = rel.lastIndexOf('/'); cut > dir.length; cut = rel.lastIndexOf('/', cut - 1)) {
      const folder = `${rel.slice(0, cut)}/`;
      const st = folderAt(folder.slice(0, -1));
      if (st && !byRel.has(folder)) {
        byRel.set(folder, { rel: folder, type: '5', size: 0, linkTarget: '', ino: st.ino });
        added = true;
      } else if (!st) byRel.delete(folder);
    }
  }
  const entries = [...byRel.values()];
  if (added) entries.sort((a, b) => compareArchivePaths(a.rel, b.rel));
  return markLinks(entries);
}

/** About 64 entries per member: a changed entry costs recompressing its neighbours only. */
const ENTRIES_PER_MEMBER = 64;
/** A file this large starts a member of its own: recompressing its neighbours would cost more than the lost context saves. */
const OWN_MEMBER_BYTES = 64 * 1024;
/** FNV-1a of a path: where members start does not move when entries are added or removed elsewhere. */
function pathHash(path: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) h = Math.imul(h ^ path.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * Archives `root/dir` as `dir/...` into a .tar.gz; hard-linked files are stored once, then as
 * links. The gzip stream is cut into members at every folder and at entries picked by a hash
 * of their path (and before every large file), so the same tree always gives the same bytes. A member is keyed by its
 * entries (path, type, size, link); one with the key of a member of `previous` and none of
 * whose files were rewritten since is copied from it, not recompressed.
 */
export function writeTarGz(root: string, dir: string, outFile: string, previous?: PreviousArchive): { members: GzipMember[]; entries: ArchiveEntry[] } {
  const entries = previous?.entries ? patchArchiveEntries(root, dir, previous.entries, previous.rewritten) : archiveEntries(root, dir);

  const groups: ArchiveEntry[][] = [];
  for (const entry of entries) {
    const last = groups[groups.length - 1];
    if (!last || entry.type === '5' || storedSize(entry) >= OWN_MEMBER_BYTES || pathHash(entry.rel) % ENTRIES_PER_MEMBER === 0) groups.push([entry]);
    else last.push(entry);
  }
  const old = memberSource(previous);
  const out = new MemberGzipFile(outFile);
  try {
    for (const group of groups) {
      const key = createHash('sha1')
        .update(group.map((e) => `${e.rel}\0${e.type}\0${storedSize(e)}\0${e.linkTarget}`).join('\n'))
        .digest('hex');
      // a link entry is its path and its target, both in the key: only a file's bytes can change unseen
      const reused = group.some((e) => e.type === '0' && previous?.rewritten.has(e.rel)) ? null : old.get(key);
      if (reused) {
        out.append(key, reused);
        continue;
      }
      const parts: Buffer[] = [];
      for (const e of group) {
        if (e.type !== '0') {
          parts.push(tarHeader(e.rel, 0, e.type, e.linkTarget));
          continue;
        }
        const body = readFileSync(join(root, e.rel));
        if (body.byteLength !== e.size) throw new Error(`${e.rel} changed while it was archived`);
        parts.push(tarHeader(e.rel, body.byteLength, '0'), body);
        const pad = (BLOCK - (body.byteLength % BLOCK)) % BLOCK;
        if (pad) parts.push(Buffer.alloc(pad));
      }
      out.add(key, Buffer.concat(parts));
    }
    out.add('end', Buffer.alloc(BLOCK * 2));
  } finally {
    old.close();
  }
  return { members: out.close(), entries };
}
