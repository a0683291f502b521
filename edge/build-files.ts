/**
 * One build's files as the request logic reads them: through the reader it is given, with the
 * routing table, meta and lists parsed once and kept, and each file's ETag computed once.
 * Files do not change under one instance: a CDN deploy is immutable, and the preview makes a new
 * instance for each build it serves.
 */
import { contentHash, type Answer, type AnswerIdentity } from './http.ts';
import { listFile, metaFile, routesFile, type Meta, type Routes } from './layout.ts';
import type { FullList } from './pagination.ts';

export interface FileReader {
  /** the bytes of a file under dist/, by its relative path, or null when there is none */
  read(path: string): Promise<Uint8Array | null>;
}

const decoder = new TextDecoder();

export class BuildFiles {
  /**
   * Parsed files by path. A read that failed or found nothing is not kept, so a passing fault
   * (a CDN fetch, a rebuild in progress) does not outlive itself.
   */
  private readonly kept = new Map<string, Promise<unknown>>();
  private readonly fileHashes = new Map<string, Promise<string>>();

  constructor(
    private readonly files: FileReader,
    /** `{base_url}` as links in the files carry it */
    readonly baseUrl: string,
  ) {}

  read(path: string): Promise<Uint8Array | null> {
    return this.files.read(path);
  }

  routes(): Promise<Routes | null> {
    return this.keepRead<Routes>(routesFile);
  }

  meta(): Promise<Meta | null> {
    return this.keepRead<Meta>(metaFile);
  }

  list(kind: string): Promise<FullList | null> {
    return this.keepRead<FullList>(listFile(kind));
  }

  /** The answer's ETag (a file's computed once) and the build's data version. */
  async identify(answer: Answer): Promise<AnswerIdentity> {
    const version = (await this.meta().catch(() => null))?.upstream_commit;
    let etag: Promise<string>;
    if (answer.file !== undefined) {
      let known = this.fileHashes.get(answer.file);
      if (!known) this.fileHashes.set(answer.file, (known = contentHash(answer.body)));
      etag = known;
    } else etag = contentHash(answer.body);
    return { etag: await etag, version };
  }

  private keepRead<T>(path: string): Promise<T | null> {
    let read = this.kept.get(path) as Promise<T | null> | undefined;
    if (!read) {
      read = this.readJson<T>(path);
      this.kept.set(path, read);
      read.then(
        (value) => value === null && this.kept.delete(path),
        () => this.kept.delete(path),
      );
    }
    return read;
  }

  private async readJson<T>(path: string): Promise<T | null> {
    const bytes = await this.files.read(path);
    return bytes === null ? null : (JSON.parse(decoder.decode(bytes)) as T);
  }
}
