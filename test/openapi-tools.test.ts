/**
 * Real tools accept the OpenAPI document the build writes, not only this project's own tests:
 * - Redocly CLI lints it with its recommended rules (less the ones redocly.yaml turns off, each
 *   with its reason) and finds no error and no warning;
 * - openapi-typescript makes TypeScript types from it, and those types accept the same real
 *   responses that the project's own `.d.ts` is checked against (test/types.test.ts).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { routesFile, type Routes } from '../contract/layout.ts';
import { OPENAPI_FILE } from '../generator/artifacts/openapi.ts';
import { inventedDocument } from './support/contract-queries.ts';
import { realSamples, typeCheck, type Sample } from './support/type-samples.ts';

const distDir = inject('distDir');
const origin = inject('previewUrl');
const root = fileURLToPath(new URL('..', import.meta.url));
const documentPath = join(distDir, OPENAPI_FILE);
const routes = JSON.parse(readFileSync(join(distDir, routesFile), 'utf8')) as Routes;

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer?: string }[] }[];
}

/** `redocly lint` with the project's redocly.yaml; no telemetry, no update check. */
async function lint(path: string): Promise<LintReport> {
  const bin = join(root, 'node_modules', '.bin', 'redocly');
  const run = promisify(execFile);
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
  const args = ['lint', path, '--config', join(root, 'redocly.yaml'), '--format', 'json', '--max-problems', '1000'];
  // a failed lint exits 1 and still writes its report to stdout
  const { stdout } = await run(bin, args, { env, cwd: root, maxBuffer: 64 * 1024 * 1024 }).catch((e: { stdout?: string }) => ({ stdout: e.stdout ?? '' }));
  return JSON.parse(stdout) as LintReport;
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'creature-openapi-tools-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('Redocly CLI lint (recommended rules, redocly.yaml)', () => {
  it('finds no error and no warning in the document the build wrote', async () => {
    const report = await lint(documentPath);
    expect(report.problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? '?'}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 120_000);

  it('finds no error and no warning in a document with declared filters, ranges and fields (test/support/contract-queries.ts)', async () => {
    const { document } = await inventedDocument(distDir, inject('baseUrl'));
    const path = join(dir, 'openapi-with-queries.json');
    writeFileSync(path, JSON.stringify(document));
    const report = await lint(path);
    expect(report.problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? '?'}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 120_000);

  it('does report what its rules are for: a copy without tag descriptions, a license or `security` fails', async () => {
    const broken = JSON.parse(readFileSync(documentPath, 'utf8')) as { tags: { description?: string }[]; info: { license?: unknown }; security?: unknown };
    for (const tag of broken.tags) delete tag.description;
    delete broken.info.license;
    delete broken.security;
    const path = join(dir, 'broken-openapi.json');
    writeFileSync(path, JSON.stringify(broken));
    const rules = new Set((await lint(path)).problems.map((p) => p.ruleId));
    expect([...rules].sort()).toEqual(expect.arrayContaining(['info-license', 'security-defined', 'tag-description']));
  }, 120_000);
});

describe('openapi-typescript', () => {
  it('makes types from openapi.json that accept the real responses the .d.ts is checked against', async () => {
    const document = JSON.parse(readFileSync(documentPath, 'utf8')) as Parameters<typeof openapiTS>[0];
    writeFileSync(join(dir, 'openapi-types.ts'), astToString(await openapiTS(document)));
    const { samples } = await realSamples(distDir, origin, routes);
    const write = (s: Sample) => `import type { components } from './openapi-types';\nexport const value: components['schemas']['${s.type}'] = ${s.json};\n`;
    const errors = typeCheck(dir, samples, write);
    expect(Object.fromEntries(errors)).toEqual({});
    expect(samples.length).toBeGreaterThan(routes.kinds.length * 3);
    // and they are not so loose that anything passes
    const creature = samples.find((s) => s.type === 'Creature')!;
    const wrong: Sample[] = [
      { file: 'wrong-height', type: 'Creature', json: JSON.stringify({ ...(JSON.parse(creature.json) as object), height: '7' }) },
      { file: 'wrong-page', type: 'PaginatedList', json: JSON.stringify({ count: 1, next: 5, previous: null, results: [] }) },
    ];
    const wrongErrors = typeCheck(dir, wrong, write);
    for (const w of wrong) expect(wrongErrors.get(w.file)?.length ?? 0, w.file).toBeGreaterThan(0);
  }, 300_000);
});
