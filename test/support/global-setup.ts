/**
 * Before any test: make sure the tests' own folder (.test-build/, see config.ts) holds a full
 * build of the data set for the default base URL (a clean clone builds it here; a warm tree
 * reuses it when the inputs are unchanged), then start the preview on a free port for the HTTP
 * tests. The full build is the one the tests that need every item read; the tests of a
 * mechanism run on the data cut (generator/cut), which is made and built here too, once.
 *
 * It also guards what the user serves: the user's dist/ and records are hashed before any test
 * and again after the last one, and the run fails if either changed (or appeared). The check
 * lives in teardown because only there has every test file finished.
 *
 * `npm test` also type-checks, lints and checks the format, beside the setup (checks.ts), and
 * fails in teardown on a finding.
 * Every run also fetches the pinned netlify-cli into npx's cache beside the builds, when it is not
 * there yet (netlify-cli-fetch.ts): test/netlify-cli.test.ts waits for it, not its own download.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { cutCacheDir, cutConfig, overlaps, testBuildDir, testConfig, userFolders } from './config.ts';
import { treeHash } from './files.ts';
import { ensureBuilt } from '../../generator/pipeline.ts';
import { ensureCut } from '../../generator/cut/index.ts';
import { ensureDataSet } from '../../generator/fetch/index.ts';
import { startPreview, type Preview } from '../../generator/preview/index.ts';
import { findChromium, type ChromiumLookup } from './chromium.ts';
import { checksWanted, startChecks, type Check } from './checks.ts';
import { startCliFetch, type CliFetch } from './netlify-cli-fetch.ts';

let preview: Preview | undefined;
let cutPreview: Preview | undefined;
let before: Map<string, string> | undefined;
let checks: Check[] = [];
let cliFetch: CliFetch | undefined;

export async function setup(project: TestProject): Promise<void> {
  if (checksWanted()) checks = startChecks(project.config.root);
  // one marker a run (its setup's pid), so two runs in one tree never read each other's
  cliFetch = startCliFetch(join(testBuildDir, `netlify-cli-fetch.${process.pid}.json`));
  project.provide('netlifyCliMarker', cliFetch.marker);
  const config = testConfig();
  const guarded = userFolders();
  for (const folder of guarded) {
    for (const ours of [testBuildDir, config.outDir, config.recordsDir]) {
      if (overlaps(folder, ours)) throw new Error(`the tests would build into ${ours}, which is or holds the user's ${folder}; set TEST_BUILD_DIR elsewhere`);
    }
  }
  before = new Map(guarded.map((folder) => [folder, treeHash(folder)]));
  const started = performance.now();
  const log = { info: (m: string) => console.log(`[setup] ${m}`), warn: (m: string) => console.log(`[setup] warning: ${m}`) };
  await ensureDataSet(config, log);
  const cutDataDir = ensureCut(config.dataDir, cutCacheDir);
  const cut = cutConfig(cutDataDir);
  await ensureBuilt(cut, { info: (m) => log.info(`cut ${m}`), warn: (m) => log.warn(`cut ${m}`) });
  await ensureBuilt(config, log);
  log.info(`the cut and the whole data set ready in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  preview = await startPreview({ root: config.outDir, baseUrl: config.baseUrl, port: 0 });
  cutPreview = await startPreview({ root: cut.outDir, baseUrl: cut.baseUrl, port: 0 });
  project.provide('previewUrl', preview.url);
  project.provide('distDir', config.outDir);
  project.provide('baseUrl', config.baseUrl);
  project.provide('cutDataDir', cutDataDir);
  project.provide('cutDistDir', cut.outDir);
  project.provide('cutPreviewUrl', cutPreview.url);
  project.provide('chromium', findChromium());
  project.provide('guardedFolders', Object.fromEntries(before));
}

export async function teardown(): Promise<void> {
  await preview?.close();
  await cutPreview?.close();
  await reportChecks();
  await settleCliFetch();
  const changed = [...(before ?? [])].filter(([folder, hash]) => treeHash(folder) !== hash).map(([folder]) => folder);
  if (changed.length) {
    // vitest reports an error thrown here but still exits 0; the exit code is what CI reads
    console.error(`\nThe test run changed what the user serves: ${changed.join(', ')}. Tests must build into ${testBuildDir} or a temporary folder.\n`);
    process.exitCode = 1;
  } else if (before) {
    console.log(`[teardown] ${[...before.keys()].join(' and ')} unchanged by the test run`);
  }
}

/** A fetch still running when the tests are done (a run without the netlify-cli test, on a new machine) is waited for: npx's cache is never left half-written. */
async function settleCliFetch(): Promise<void> {
  if (!cliFetch) return;
  const waited = performance.now();
  await cliFetch.done;
  const seconds = (performance.now() - waited) / 1000;
  if (seconds > 1) console.log(`[teardown] waited ${seconds.toFixed(1)} s for the fetch of netlify-cli into npx's cache`);
  rmSync(cliFetch.marker, { force: true });
}

async function reportChecks(): Promise<void> {
  for (const check of checks) {
    const { code, output } = await check.done;
    if (code === 0) {
      console.log(`[teardown] ${check.command} passed`);
      continue;
    }
    console.error(`\n${check.command} failed (exit ${code}):\n${output}`);
    process.exitCode = 1;
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    previewUrl: string;
    distDir: string;
    baseUrl: string;
    /** the data cut (generator/cut): a small, consistent data set for the tests of a mechanism */
    cutDataDir: string;
    /** the cut's build, for the same base URL as the full one */
    cutDistDir: string;
    /** the preview serving the cut's build */
    cutPreviewUrl: string;
    /** the browser for the docs-page test, or why there is none */
    chromium: ChromiumLookup;
    /** the file the setup writes once the pinned netlify-cli is in npx's cache, or why it is not (netlify-cli-fetch.ts) */
    netlifyCliMarker: string;
    /** the user's folders the run must leave alone, with their hashes before any test ran */
    guardedFolders: Record<string, string>;
  }
}
