/**
 * A developer's loop for one or more kinds: builds only those kinds into a scratch folder and
 * prints where each example of theirs differs from what we make.
 *   node test/compare-examples.ts creature-color type
 * It keeps its records in the system's temp folder, keyed by their input hash, so several of
 * these can run at once without touching data/records or dist/.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveConfig } from '../generator/config.ts';
import { runBuild } from '../generator/builder/build.ts';
import { importStep, inputHashes, consoleLog, mediaDir } from '../generator/pipeline.ts';
import { differences, pinnedExamples, readJson } from './support/examples.ts';

const kinds = process.argv.slice(2);
if (!kinds.length) {
  console.error('usage: node test/compare-examples.ts KIND [KIND...]');
  process.exit(2);
}
const config = resolveConfig();
const hashes = inputHashes(config);
const recordsDir = join(tmpdir(), `creature-records-${hashes.records.slice(0, 16)}`);
if (!existsSync(join(recordsDir, 'manifest.json'))) await importStep({ ...config, recordsDir }, hashes.records, consoleLog, true);

const outDir = mkdtempSync(join(tmpdir(), 'creature-compare-'));
let failed = 0;
try {
  const started = performance.now();
  await runBuild({
    recordsDir,
    mediaDir: mediaDir(config.dataDir),
    outDir: join(outDir, 'dist'),
    baseUrl: config.baseUrl,
    inputHash: 'compare',
    about: { upstreamCommit: 'compare', version: 'compare', builtAt: '2026-01-01T00:00:00.000Z' },
    only: new Set(kinds),
  });
  console.log(`built ${kinds.join(', ')} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  for (const example of pinnedExamples().filter((e) => kinds.includes(e.kind))) {
    const path = join(outDir, 'dist', example.distPath);
    if (!existsSync(path)) {
      console.log(`✗ ${example.name}: not built (${example.distPath})`);
      failed++;
      continue;
    }
    const diffs = differences(readJson(example.file), JSON.parse(readFileSync(path, 'utf8')), 25);
    if (diffs.length) {
      failed++;
      console.log(`✗ ${example.name}\n  ${diffs.join('\n  ')}`);
    } else console.log(`✓ ${example.name}`);
  }
} finally {
  rmSync(outDir, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
