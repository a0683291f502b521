/**
 * The planner's first step: what changed on disk. It keeps the tables as last read and the
 * media manifests, and on each look reads again only the files whose bytes differ (the file
 * memo keeps that to stat calls), checks their keys and the keys pointing into them, and says
 * which sprite and cry paths appeared or went.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tables as tableDeclarations, type TableKey } from '../../schemas/tables.ts';
import type { Media, Read } from '../resources/context.ts';
import { manifestPaths, readMedia } from '../builder/emit-kinds.ts';
import { digestOf, FileMemo } from '../files/file-memo.ts';
import { checkKeys, DataError, readTable, storeOf } from '../import/tables.ts';
import type { TableStore } from '../model/table-store.ts';

export type AnyRow = Record<string, unknown>;
type Problems = ConstructorParameters<typeof DataError>[0][number][];

/** The data set as one look found it; nothing of it is the planner's until `commit`. */
export interface SourceLook {
  /** tables whose bytes changed, read again */
  changedTables: Map<TableKey, AnyRow[]>;
  /** every table, as this look found them */
  rows: Map<TableKey, AnyRow[]>;
  store: TableStore;
  media: Media;
  /** `sprite` and `cry` reads of the paths that appeared or went */
  mediaReads: Read[];
  /** each file's digest, as this look found it */
  digests: Map<string, string>;
}

const MANIFESTS = [
  ['sprites.txt', 'sprites'],
  ['cries.txt', 'cries'],
] as const;

export class DataSetFiles {
  private readonly csvDir: string;
  private readonly tableNames = Object.keys(tableDeclarations) as TableKey[];
  /** each file's digest, as the planner's state was made from it */
  private digests = new Map<string, string>();
  rows = new Map<TableKey, AnyRow[]>();
  store: TableStore;
  media: Media;

  /** Reads every table and manifest; throws DataError naming every problem. */
  private readonly mediaDir: string;
  private readonly memo: FileMemo;
  constructor(
    dataDir: string,
    mediaDir: string,
    /** may be shared with the input hash's (dev/index.ts): the digests it holds are taken as they are, never the bytes */
    memo: FileMemo = new FileMemo(),
  ) {
    this.mediaDir = mediaDir;
    this.memo = memo;
    this.csvDir = join(dataDir, 'csv');
    this.media = readMedia(mediaDir);
    this.store = storeOf(this.rows);
    // every table is new to the first look: it reads and checks them all, as an import does
    this.commit(this.look());
  }

  /** The tables and manifests whose bytes differ from the planner's; throws DataError when one is bad. */
  look(): SourceLook {
    const problems: Problems = [];
    const digests = new Map<string, string>();
    const changedTables = new Map<TableKey, AnyRow[]>();
    for (const table of this.tableNames) {
      let text: string | null;
      try {
        text = this.changedText(join(this.csvDir, `${table}.csv`), digests);
      } catch (e) {
        // a table deleted or made unreadable by the edit is a problem of the data set; anything else is not
        const code = (e as NodeJS.ErrnoException).code;
        if (code === undefined) throw e;
        problems.push({ table: `${table}.csv`, message: `cannot be read from ${this.csvDir} (${code})` });
        continue;
      }
      if (text !== null) changedTables.set(table, readTable(table, text, problems));
    }
    if (problems.length) throw new DataError(problems);
    const rows = new Map(this.rows);
    for (const [table, changed] of changedTables) rows.set(table, changed);
    if (changedTables.size) {
      checkKeys(rows, problems, new Set(changedTables.keys()));
      if (problems.length) throw new DataError(problems);
    }
    const { media, mediaReads } = this.lookAtMedia(digests);
    return { changedTables, rows, store: changedTables.size ? storeOf(rows) : this.store, media, mediaReads, digests };
  }

  commit(look: SourceLook): void {
    for (const [path, digest] of look.digests) this.digests.set(path, digest);
    this.rows = look.rows;
    this.store = look.store;
    this.media = look.media;
  }

  /** The manifests that are plain files of the data set (the committed gzip'd copies are pinned facts). */
  private lookAtMedia(digests: Map<string, string>): { media: Media; mediaReads: Read[] } {
    let media = this.media;
    const mediaReads: Read[] = [];
    for (const [file, key] of MANIFESTS) {
      const path = join(this.mediaDir, file);
      if (!existsSync(path)) continue;
      const text = this.changedText(path, digests);
      if (text === null) continue;
      const paths = manifestPaths(text);
      const before = media[key];
      const read = (p: string): Read => (key === 'sprites' ? { type: 'sprite', path: p } : { type: 'cry', path: p });
      for (const p of paths) if (!before.has(p)) mediaReads.push(read(p));
      for (const p of before) if (!paths.has(p)) mediaReads.push(read(p));
      media = { ...media, [key]: paths };
    }
    return { media, mediaReads };
  }

  /** The file's text when its bytes differ from those the planner's state was made from, else null; notes the digest of what it read. */
  private changedText(path: string, digests: Map<string, string>): string | null {
    const found = this.memo.look(path);
    if (found.digest === this.digests.get(path)) {
      digests.set(path, found.digest);
      return null;
    }
    // bytes the memo did not read just now are read here, and their own digest noted with them
    const bytes = found.bytes ?? readFileSync(path);
    digests.set(path, found.bytes ? found.digest : digestOf(bytes));
    return bytes.toString('utf8');
  }
}
