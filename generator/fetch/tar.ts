/**
 * The files of an (uncompressed) tar stream, read with node-tar's parser (`tar`): each file's
 * bytes handed on as they arrive, and a damaged or cut-short archive told apart from any other
 * failure of the stream. Strict: what node-tar would pass over with a warning (a header whose
 * checksum fails, input cut short) stops the stream instead.
 */
import { Writable } from 'node:stream';
import { Parser, type ReadEntry } from 'tar';

export interface TarEntry {
  /** the path as stored, e.g. `pokeapi-<commit>/data/v2/csv/abilities.csv` */
  path: string;
  size: number;
}

/** What to do with one file's bytes; `null` from `onFile` passes over them. */
export interface EntrySink {
  write(chunk: Buffer): void;
  end(): void;
}

/** The entry types that are a regular file's bytes. */
const FILE_TYPES: ReadonlySet<string> = new Set(['File', 'OldFile', 'ContiguousFile']);

/**
 * The end of a stream pipeline that reads a tar stream: each file goes to the sink `onFile`
 * returns for it. The sinks take their bytes at once, so the parser never holds more than a
 * block and its backpressure has nothing to do. A sink that throws (a full disk) stops the
 * stream with its error; so does an archive that ends without its end marker, cut short
 * between two files (node-tar alone would take it as whole).
 */
export function tarFiles(onFile: (entry: TarEntry) => EntrySink | null): Writable {
  let failure: Error | null = null;
  let sawEnd = false;
  /** final's callback, once the parser has finished or failed */
  let settle: (() => void) | null = null;
  const parser: Parser = new Parser({ strict: true, onReadEntry: (entry) => readEntry(parser, entry, onFile) });
  parser.on('eof', () => (sawEnd = true));
  parser.on('error', (e: Error) => {
    failure ??= e;
    settle?.();
  });
  parser.on('finish', () => settle?.());
  return new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      parser.write(chunk);
      done(failure);
    },
    final: (done) => {
      settle = () => {
        settle = null;
        done(failure ?? (sawEnd ? null : endMissing()));
      };
      if (failure) settle();
      else parser.end();
    },
  });
}

/** In the shape of node-tar's own failures, so that tarFault reads it as theirs. */
const endMissing = (): Error => Object.assign(new Error('TAR_BAD_ARCHIVE: the archive ends without its end marker'), { tarCode: 'TAR_BAD_ARCHIVE' });

function readEntry(parser: Parser, entry: ReadEntry, onFile: (entry: TarEntry) => EntrySink | null): void {
  const sink = FILE_TYPES.has(entry.type) ? onFile({ path: entry.path, size: entry.size }) : null;
  if (sink === null) {
    entry.resume();
    return;
  }
  const guarded = (step: () => void) => {
    try {
      step();
    } catch (e) {
      parser.abort(e as Error);
    }
  };
  entry.on('data', (chunk: Buffer) => guarded(() => sink.write(chunk)));
  entry.on('end', () => guarded(() => sink.end()));
}

/**
 * What was wrong with the archive, when `e` is the tar reader's word on it (input cut short, a
 * damaged header, no archive at all), with the file it was in where it knows; else null. A
 * sink's own failure (TAR_ABORT) is not the archive's.
 */
export function tarFault(e: unknown): string | null {
  const { tarCode, entry } = (e ?? {}) as { tarCode?: string; entry?: { path?: string } };
  if (tarCode === undefined || tarCode === 'TAR_ABORT') return null;
  const what = (e as Error).message.replace(/^TAR_[A-Z_]+: /, '');
  return entry?.path ? `${what}, in ${entry.path}` : what;
}
