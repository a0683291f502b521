/**
 * A streaming reader of (uncompressed) tar archives, enough for the archives git and GitHub
 * make: ustar headers with the `prefix` field, pax extended headers (`x`, and the global `g`
 * git writes with the commit), and GNU long names (`L`). It holds at most one block of a
 * header in memory; file bytes are handed on as they arrive.
 */

const BLOCK = 512;

export interface TarEntry {
  /** the path as stored, e.g. `pokeapi-<commit>/data/v2/csv/abilities.csv` */
  path: string;
  size: number;
  type: 'file' | 'directory' | 'other';
}

/** What to do with one entry's bytes; `null` from `onEntry` skips them. */
export interface EntrySink {
  write(chunk: Buffer): void;
  end(): void;
}

export class TarFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TarFormatError';
  }
}

const text = (block: Buffer, start: number, length: number): string => {
  const field = block.subarray(start, start + length);
  const nul = field.indexOf(0);
  return field.subarray(0, nul === -1 ? length : nul).toString('utf8');
};

function octal(block: Buffer, start: number, length: number): number {
  // GNU tar stores sizes of 8 GiB and more in base 256, flagged by the high bit
  if ((block[start]! & 0x80) !== 0) {
    let n = block[start]! & 0x7f;
    for (let i = start + 1; i < start + length; i++) n = n * 256 + block[i]!;
    return n;
  }
  const digits = text(block, start, length).trim();
  if (!/^[0-7]*$/.test(digits)) throw new TarFormatError(`not a tar archive (a header field holds ${JSON.stringify(digits)})`);
  return digits ? parseInt(digits, 8) : 0;
}

function checksumOk(block: Buffer): boolean {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : block[i]!;
  return sum === octal(block, 148, 8);
}

/** `len key=value\n` records of a pax header. */
function paxRecords(data: Buffer): Map<string, string> {
  const out = new Map<string, string>();
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    if (space === -1) break;
    const length = Number(data.subarray(at, space).toString('ascii'));
    if (!Number.isInteger(length) || length <= 0) throw new TarFormatError('not a tar archive (a pax header record has no length)');
    const record = data.subarray(space + 1, at + length - 1).toString('utf8');
    const eq = record.indexOf('=');
    if (eq > 0) out.set(record.slice(0, eq), record.slice(eq + 1));
    at += length;
  }
  return out;
}

type State =
  | { kind: 'header' }
  /** bytes of an entry's data still to come, then padding up to the next block */
  | { kind: 'data'; remaining: number; padding: number; sink: EntrySink | null; meta: Buffer[] | null; metaType: string }
  | { kind: 'end' };

/**
 * Feed it the archive's bytes in any chunk sizes with `push`, then call `end`. `onEntry` is
 * called for each file or folder with its full path; the bytes go to the sink it returns.
 */
export function createTarReader(onEntry: (entry: TarEntry) => EntrySink | null) {
  let state: State = { kind: 'header' };
  let pending: Buffer = Buffer.alloc(0); // a partial header block
  let zeroBlocks = 0;
  let nextPath: string | null = null; // from a pax `x` or GNU `L` entry
  let nextSize: number | null = null;

  const header = (block: Buffer): void => {
    if (block.every((b) => b === 0)) {
      if (++zeroBlocks === 2) state = { kind: 'end' };
      return;
    }
    zeroBlocks = 0;
    if (!checksumOk(block)) throw new TarFormatError('not a tar archive, or a damaged one (a header checksum does not match)');
    const typeflag = String.fromCharCode(block[156]!);
    let size = octal(block, 124, 12);
    const padding = (BLOCK - (size % BLOCK)) % BLOCK;
    if (typeflag === 'x' || typeflag === 'g' || typeflag === 'L') {
      // metadata for the next entry (x, L) or for all of them (g: git's commit comment); small
      state = { kind: 'data', remaining: size, padding, sink: null, meta: typeflag === 'g' ? null : [], metaType: typeflag };
      return;
    }
    const magic = text(block, 257, 6);
    const prefix = magic === 'ustar' ? text(block, 345, 155) : '';
    const name = text(block, 0, 100);
    const path = nextPath ?? (prefix ? `${prefix}/${name}` : name);
    if (nextSize !== null) size = nextSize;
    nextPath = null;
    nextSize = null;
    const type = typeflag === '0' || typeflag === '\0' || typeflag === '7' ? 'file' : typeflag === '5' ? 'directory' : 'other';
    const sink = onEntry({ path, size: type === 'file' ? size : 0, type });
    state = { kind: 'data', remaining: size, padding: (BLOCK - (size % BLOCK)) % BLOCK, sink, meta: null, metaType: typeflag };
    if (size === 0) finishEntry();
  };

  const finishEntry = (): void => {
    if (state.kind !== 'data') return;
    const { sink, meta, metaType } = state;
    if (meta) {
      const data = Buffer.concat(meta);
      if (metaType === 'L') nextPath = text(data, 0, data.length);
      else {
        const records = paxRecords(data);
        if (records.has('path')) nextPath = records.get('path')!;
        if (records.has('size')) nextSize = Number(records.get('size'));
      }
    }
    sink?.end();
    const padding = state.padding;
    state = { kind: 'data', remaining: 0, padding, sink: null, meta: null, metaType: '' };
    if (padding === 0) state = { kind: 'header' };
  };

  return {
    push(chunk: Buffer): void {
      let at = 0;
      while (at < chunk.length) {
        if (state.kind === 'end') return; // trailing zeros after the end marker
        if (state.kind === 'header') {
          const need = BLOCK - pending.length;
          const take = Math.min(need, chunk.length - at);
          pending = pending.length ? Buffer.concat([pending, chunk.subarray(at, at + take)]) : chunk.subarray(at, at + take);
          at += take;
          if (pending.length === BLOCK) {
            const block = Buffer.from(pending);
            pending = Buffer.alloc(0);
            header(block);
          }
          continue;
        }
        if (state.remaining > 0) {
          const take = Math.min(state.remaining, chunk.length - at);
          const part = chunk.subarray(at, at + take);
          state.sink?.write(part);
          state.meta?.push(Buffer.from(part));
          state.remaining -= take;
          at += take;
          if (state.remaining === 0) finishEntry();
          continue;
        }
        const skip = Math.min(state.padding, chunk.length - at);
        state.padding -= skip;
        at += skip;
        if (state.padding === 0) state = { kind: 'header' };
      }
    },
    /** The archive has ended: it must have ended cleanly. */
    end(): void {
      if (state.kind === 'end') return;
      // git and GitHub always write the two-block end marker; without it the archive was cut short
      throw new TarFormatError(
        state.kind === 'data' && (state.remaining > 0 || state.padding > 0)
          ? 'the archive ends in the middle of a file'
          : 'the archive ends without its end marker',
      );
    },
  };
}
