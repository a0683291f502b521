/**
 * Before any test: make sure dist/ holds a full build of ../shared/upstream for the default
 * base URL (a clean clone builds it here; a warm tree reuses it when the inputs are unchanged),
 * then start the preview on a free port for the HTTP tests.
 */
import type { TestProject } from 'vitest/node';
import { testConfig } from './config.ts';
import { ensureBuilt } from '../../generator/pipeline.ts';
import { startPreview, type Preview } from '../../generator/preview.ts';
import { findChromium, type ChromiumLookup } from './chromium.ts';

let preview: Preview | undefined;

export async function setup(project: TestProject): Promise<void> {
  const config = testConfig();
  await ensureBuilt(config, { info: (m) => console.log(`[setup] ${m}`), warn: (m) => console.log(`[setup] warning: ${m}`) });
  preview = await startPreview({ root: config.outDir, baseUrl: config.baseUrl, port: 0 });
  project.provide('previewUrl', preview.url);
  project.provide('distDir', config.outDir);
  project.provide('baseUrl', config.baseUrl);
  project.provide('chromium', findChromium());
}

export async function teardown(): Promise<void> {
  await preview?.close();
}

declare module 'vitest' {
  export interface ProvidedContext {
    previewUrl: string;
    distDir: string;
    baseUrl: string;
    /** the browser for the docs-page test, or why there is none */
    chromium: ChromiumLookup;
  }
}
