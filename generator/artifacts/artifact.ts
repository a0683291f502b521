/**
 * What an artifact maker is: it makes files a build writes besides the resources' own
 * (documents about the API, the docs page, rules for the CDN). Each maker runs after every
 * resource file is written into the build's folder, so it may read them; what it returns is
 * written in the same all-or-nothing build. An artifact with a `route` is served at that path
 * (outside /v2/ too). The makers a build runs are listed in artifacts.ts.
 */
import { join } from 'node:path';
import type { Meta, Routes } from '../../contract/layout.ts';
import { readIfThere } from '../files/folders.ts';
import type { AnyResource } from '../resources/define.ts';

export interface ArtifactContext {
  baseUrl: string;
  /**
   * A file of the build's folder, which holds every resource file already, as text (null when
   * the build has none): every file a maker reads is read here, so that the writer knows what
   * its artifacts were made from (builder/artifact-memo.ts).
   */
  read: (rel: string) => string | null;
  resources: readonly AnyResource[];
  routes: Routes;
  meta: TimelessMeta;
}

/**
 * Meta without the build's time: no artifact shows it, so that builds of the same data make the
 * same artifacts (and the dev loop, whose every update has a time of its own, keeps them).
 */
export type TimelessMeta = Omit<Meta, 'built_at' | 'deploy_date'>;

/** `meta` without the build's time. */
export function timeless(meta: Meta): TimelessMeta {
  const { built_at: _builtAt, deploy_date: _deployDate, ...rest } = meta;
  return rest;
}

export interface Artifact {
  /** where it goes, relative to dist/ */
  path: string;
  body: string | Uint8Array;
  /** the URL path it answers at, when it is not a /v2/ resource (e.g. `/` for the docs page) */
  route?: string;
  /** its Content-Type when it has a route */
  contentType?: string;
}

export interface ArtifactMaker {
  name: string;
  make(ctx: ArtifactContext): Promise<Artifact[]> | Artifact[];
}

/** The files of a folder as `ArtifactContext.read` gives them. */
export const folderReader =
  (dir: string) =>
  (rel: string): string | null =>
    readIfThere(join(dir, rel))?.toString('utf8') ?? null;
