/**
 * The bulk writer: a kind's bulk file (`downloads/{kind}.ndjson.gz`) is gzip members of up to
 * 16 consecutive ids each (the chunk is the id's bucket), so an edit of one record
 * recompresses one member and copies the rest.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { MemberGzipFile, type GzipMember } from './archive.ts';

export const bulkChunk = (id: number): string => String(Math.floor(id / 16));

const NEWLINE = Buffer.from('\n');

/** Where a bulk writer finds a chunk's member of the previous file. */
export interface PreviousMembers {
  get(key: string): Buffer | null;
  close(): void;
}

/** A bulk file with no previous one (a full build). */
export const noPrevious: PreviousMembers = { get: () => null, close: () => {} };

/**
 * Writes a bulk file from lines given in id order, one gzip member per chunk. A chunk none of
 * whose lines changed (`changed`) is copied from the previous file when it has it; otherwise
 * its lines are asked for, at most one chunk's at a time.
 */
export class BulkWriter {
  private readonly file: MemberGzipFile;
  private chunk: string | null = null;
  private lines: Array<() => Buffer> = [];
  private readonly previous: PreviousMembers;
  private readonly changed: (chunk: string) => boolean;
  constructor(path: string, previous: PreviousMembers, changed: (chunk: string) => boolean) {
    this.previous = previous;
    this.changed = changed;
    mkdirSync(dirname(path), { recursive: true });
    this.file = new MemberGzipFile(path);
  }
  add(id: number, line: () => Buffer): void {
    const chunk = bulkChunk(id);
    if (chunk !== this.chunk) this.flush();
    this.chunk = chunk;
    this.lines.push(line);
  }
  private flush(): void {
    if (this.chunk === null) return;
    const old = this.changed(this.chunk) ? null : this.previous.get(this.chunk);
    if (old) this.file.append(this.chunk, old);
    else this.file.add(this.chunk, Buffer.concat(this.lines.flatMap((line) => [line(), NEWLINE])));
    this.chunk = null;
    this.lines = [];
  }
  close(): GzipMember[] {
    this.flush();
    this.previous.close();
    return this.file.close();
  }
}
