/**
 * What an artifact maker is: it makes files a build writes besides the resources' own
 * (documents about the API, the docs page, rules for the CDN). Each maker runs after every
 * resource file is written into the build's folder, so it may read them; what it returns is
 * written in the same all-or-nothing build. An artifact with a `route` is served at that path
 * (outside /v2/ too). The makers a build runs are listed in artifacts.ts.
 */
import type { Meta, Routes } from '../../contract/layout.ts';
import type { AnyResource } from '../resources/define.ts';

export interface ArtifactContext {
  baseUrl: string;
  /** the build's temporary folder, holding every resource file already */
  outDir: string;
  resources: readonly AnyResource[];
  routes: Routes;
  meta: Meta;
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
