/**
 * The artifacts this process made last, and what they were made from. The artifacts are a
 * function of what the writer hands their makers (the base URL, the kinds, the routing table,
 * meta) and of the files of the build they read (`ArtifactContext.read`). The dev loop's planner
 * writes them on every update; where all of that is as it was (a base stat edit changes none of
 * it), the artifacts are the ones made last, and the OpenAPI document, the types and the docs
 * page are not made again.
 */
import { createHash } from 'node:crypto';
import type { Artifact } from '../artifacts/artifact.ts';

type Read = (rel: string) => string | null;

const digest = (text: string | null): string => (text === null ? '-' : createHash('sha1').update(text).digest('hex'));

export class ArtifactMemo {
  private last: { key: string; reads: ReadonlyMap<string, string>; artifacts: readonly Artifact[] } | null = null;

  /** The artifacts made last, when `key` is the same and every file they read reads the same; null otherwise. */
  reuse(key: string, read: Read): readonly Artifact[] | null {
    const last = this.last;
    if (last?.key !== key) return null;
    for (const [rel, hash] of last.reads) if (digest(read(rel)) !== hash) return null;
    return last.artifacts;
  }

  /** A reader that notes what each file read held, and `keep`, which remembers the artifacts made from them. */
  recording(read: Read): { read: Read; keep: (key: string, artifacts: readonly Artifact[]) => void } {
    const reads = new Map<string, string>();
    return {
      read: (rel) => {
        const text = read(rel);
        reads.set(rel, digest(text));
        return text;
      },
      keep: (key, artifacts) => {
        this.last = { key, reads, artifacts };
      },
    };
  }
}

/** The process's memo: the planner's updates share it. */
export const artifactMemo = new ArtifactMemo();
