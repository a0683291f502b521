/**
 * What every document reads, kept beside dist/ between `npm run dev` sessions (`dist.reads`):
 * learning it makes every document once, which takes seconds; reading it back takes a fraction of
 * that. It describes one build: the file is named by the served build's stamp (its inputs' hash,
 * which covers the tables, the media manifests, the change reports and the code, and its base
 * URL), and a stamp that names anything else, or a file that cannot be read, is as no file (the
 * planner learns the reads again). A build whose downloads are stale is named by no stamp: the
 * next start builds again.
 */
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { deserialize, serialize } from 'node:v8';
import { readBuildStamp } from '../builder/stamp.ts';
import { readIfThere } from '../files/folders.ts';
import { ReadLedger, type LedgerSnapshot } from './ledger.ts';

/** The file's layout; another one is as no file. */
const FORMAT = 1;

interface KeptFile {
  format: number;
  /** the served build it describes (`servedKey`) */
  build: string;
  ledger: LedgerSnapshot;
}

/** The kept reads of the build served in `outDir`: one file beside it. */
export class KeptReads {
  /** the build whose reads the file holds, as far as this session knows */
  private kept: string | null = null;

  private readonly outDir: string;
  readonly file: string;
  constructor(outDir: string) {
    this.outDir = outDir;
    this.file = `${outDir}.reads`;
  }

  /** The ledger kept for the build dist/ holds; null when there is none for it. */
  load(): ReadLedger | null {
    const build = this.servedKey();
    const bytes = build === null ? null : readIfThere(this.file);
    if (bytes === null) return null;
    let kept: Partial<KeptFile>;
    try {
      kept = deserialize(bytes) as Partial<KeptFile>;
    } catch {
      // cut short (a session killed while it wrote) or written by a runtime that lays values out otherwise
      return null;
    }
    if (kept.format !== FORMAT || kept.build !== build || !kept.ledger) return null;
    this.kept = build;
    return ReadLedger.restore(kept.ledger);
  }

  /** Keeps `ledger` as the reads of the build dist/ holds, unless the file holds them already or no stamp names that build. */
  save(ledger: ReadLedger): void {
    const build = this.servedKey();
    if (build === null || build === this.kept) return;
    const tmp = `${this.file}.tmp-${process.pid}`;
    try {
      writeFileSync(tmp, serialize({ format: FORMAT, build, ledger: ledger.snapshot() } satisfies KeptFile));
      renameSync(tmp, this.file);
    } finally {
      rmSync(tmp, { force: true });
    }
    this.kept = build;
  }

  private servedKey(): string | null {
    const stamp = readBuildStamp(this.outDir);
    return stamp && stamp.downloads === undefined ? `${stamp.inputHash} ${stamp.baseUrl}` : null;
  }
}
