/**
 * Bulk downloads: a gzip'd NDJSON stream per collection (written by the shards as they make
 * the items) and one ustar archive of the whole dist/v2 tree (made last). Both are
 * deterministic: entries in name order, times zero, owner root, the same gzip level.
 */
import { createWriteStream, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import { createGzip, type Gzip } from 'node:zlib';

/** Fast compression: the downloads are made on every build, and level 1 costs a fraction of 6. */
const GZIP_LEVEL = 1;
const BLOCK = 512;

/** Chunks handed to gzip at once: fewer, larger writes cost far less than many small ones. */
const BATCH_BYTES = 1 << 20;

/** A gzip'd file written in order, in batches, respecting the stream's backpressure. */
export class GzipFile {
  private readonly gzip: Gzip;
  private readonly finished: Promise<unknown>;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  constructor(path: string) {
    this.gzip = createGzip({ level: GZIP_LEVEL });
    const file = createWriteStream(path);
    this.gzip.pipe(file);
    this.finished = once(file, 'finish');
  }
  async write(chunk: string | Uint8Array): Promise<void> {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    this.pending.push(buffer);
    this.pendingBytes += buffer.byteLength;
    if (this.pendingBytes >= BATCH_BYTES) await this.flush();
  }
  private async flush(): Promise<void> {
    if (!this.pendingBytes) return;
    const batch = Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    if (!this.gzip.write(batch)) await once(this.gzip, 'drain');
  }
  async close(): Promise<void> {
    await this.flush();
    this.gzip.end();
    await this.finished;
  }
}

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

/** Archives `root/dir` as `dir/...` into a .tar.gz; hard-linked files are stored once, then as links. */
export async function writeTarGz(root: string, dir: string, outFile: string): Promise<number> {
  const out = new GzipFile(outFile);
  const firstPathOfInode = new Map<number, string>();
  let entries = 0;
  const visit = async (rel: string) => {
    const full = join(root, rel);
    const st = lstatSync(full);
    if (st.isDirectory()) {
      await out.write(tarHeader(`${rel}/`, 0, '5'));
      entries++;
      for (const name of readdirSync(full).sort()) await visit(`${rel}/${name}`);
      return;
    }
    const first = st.nlink > 1 ? firstPathOfInode.get(st.ino) : undefined;
    if (first !== undefined) {
      await out.write(tarHeader(rel, 0, '1', first));
    } else {
      if (st.nlink > 1) firstPathOfInode.set(st.ino, rel);
      const body = readFileSync(full);
      await out.write(tarHeader(rel, body.byteLength, '0'));
      await out.write(body);
      const pad = (BLOCK - (body.byteLength % BLOCK)) % BLOCK;
      if (pad) await out.write(Buffer.alloc(pad));
    }
    entries++;
  };
  await visit(dir);
  await out.write(Buffer.alloc(BLOCK * 2));
  await out.close();
  return entries;
}
