/**
 * The build's promises: the same inputs give byte-identical output; a bad document stops the
 * build and leaves the previous dist/ as it was; links are absolute with the upstream's form.
 * Built from the data cut's records (the global setup's, only read), into scratch folders.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { cutConfig } from './support/config.ts';
import { fileHashes } from './support/files.ts';
import { BuildError, runBuild } from '../generator/builder/build.ts';
import { bulkFile, metaFile, rootFile, type Meta } from '../contract/layout.ts';
import { readBuildStamp } from '../generator/builder/stamp.ts';
import { failureText, problemsFileOf } from '../generator/failure-text.ts';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const config = cutConfig(inject('cutDataDir'));
const mediaDir = join(config.dataDir, 'media');
/** Records per kind, as the cut's import counted them. */
const recordCounts = (JSON.parse(readFileSync(join(config.recordsDir, 'manifest.json'), 'utf8')) as { kinds: Record<string, number> }).kinds;
const about = { upstreamCommit: 'test', version: 'test', builtAt: '2026-01-01T00:00:00.000Z' };
const scratch = mkdtempSync(join(tmpdir(), 'creature-build-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** An output folder holding a previous build: a marker file. */
function previousBuild(name: string): string {
  const out = join(scratch, name);
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'marker'), 'previous build');
  return out;
}

/** The previous build as it was, and no unfinished build left beside it. */
function expectPreviousKept(out: string): void {
  expect(readdirSync(out)).toEqual(['marker']);
  expect(readdirSync(scratch).filter((f) => f.includes('.tmp-'))).toEqual([]);
}

describe('build', () => {
  const only = new Set(['creature-color', 'type', 'ability', 'evolution-chain']);

  it('writes byte-identical output from the same inputs', async () => {
    const a = join(scratch, 'a');
    const b = join(scratch, 'b');
    await runBuild({ recordsDir: config.recordsDir, mediaDir, outDir: a, baseUrl: config.baseUrl, inputHash: 'same', about, only });
    await runBuild({ recordsDir: config.recordsDir, mediaDir, outDir: b, baseUrl: config.baseUrl, inputHash: 'same', about, only });
    const ha = fileHashes(a);
    // at least a document per record of the kinds built: the comparison covers real output
    const records = [...only].reduce((n, kind) => n + (recordCounts[kind] ?? 0), 0);
    expect(records).toBeGreaterThan(0);
    expect(ha.size).toBeGreaterThan(records);
    expect(fileHashes(b)).toEqual(ha);
  });

  it("writes meta with the project's keys and the upstream's own (deploy_date, hash, tag)", async () => {
    const out = join(scratch, 'meta');
    await runBuild({
      recordsDir: config.recordsDir,
      mediaDir,
      outDir: out,
      baseUrl: config.baseUrl,
      inputHash: 'meta',
      about,
      only: new Set(['creature-color']),
    });
    const meta = JSON.parse(readFileSync(join(out, metaFile), 'utf8')) as Meta;
    // the cut keeps the colors table whole: the upstream's 10 colors
    expect(meta).toMatchObject({ upstream_commit: 'test', built_at: about.builtAt, version: 'test', counts: { 'creature-color': 10 } });
    // 2026-01-01T00:00:00Z in Unix seconds, as a string, as the upstream sends it
    expect(meta.deploy_date).toBe('1767225600');
    expect(meta.hash).toBe(meta.upstream_commit);
    expect(meta.tag).toBeNull();
  });

  it('stops on a bad record and leaves the previous output as it was', async () => {
    const records = join(scratch, 'bad-records');
    mkdirSync(records, { recursive: true });
    for (const kind of ['language', 'creature-species']) copyFileSync(join(config.recordsDir, `${kind}.ndjson`), join(records, `${kind}.ndjson`));
    const colors = readFileSync(join(config.recordsDir, 'creature-color.ndjson'), 'utf8').split('\n');
    const broken = JSON.parse(colors[2]!) as { names: Array<{ local_language_id: number }> };
    broken.names[0]!.local_language_id = 424242;
    colors[2] = JSON.stringify(broken);
    writeFileSync(join(records, 'creature-color.ndjson'), colors.join('\n'));

    const out = previousBuild('previous');
    let error: unknown;
    try {
      await runBuild({ recordsDir: records, mediaDir, outDir: out, baseUrl: config.baseUrl, inputHash: 'x', about, only: new Set(['creature-color']) });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(BuildError);
    expect((error as BuildError).problems).toEqual(['creature-color 3: no language with id 424242']);
    expectPreviousKept(out);
  });

  it('names every bad document, past a screenful and across shards, and keeps what their code threw as the cause', async () => {
    const records = join(scratch, 'many-bad-records');
    mkdirSync(records, { recursive: true });
    copyFileSync(join(config.recordsDir, 'language.ndjson'), join(records, 'language.ndjson'));
    copyFileSync(join(config.recordsDir, 'creature-species.ndjson'), join(records, 'creature-species.ndjson'));
    // every encounter method names a language that is none: more problems than a shard once stopped at (50)
    const methods = readFileSync(join(config.recordsDir, 'encounter-method.ndjson'), 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((line) => {
        const method = JSON.parse(line) as { id: number; names: Array<{ local_language_id: number; name: string }> };
        method.names.unshift({ local_language_id: 424242, name: 'nowhere' });
        return method;
      });
    writeFileSync(join(records, 'encounter-method.ndjson'), methods.map((m) => JSON.stringify(m)).join('\n'));
    // a color whose names are no list: the resource's own code throws on it
    const colors = readFileSync(join(config.recordsDir, 'creature-color.ndjson'), 'utf8').split('\n');
    colors[0] = JSON.stringify({ ...(JSON.parse(colors[0]!) as object), names: 7 });
    writeFileSync(join(records, 'creature-color.ndjson'), colors.join('\n'));

    const out = previousBuild('many-bad');
    let error: unknown;
    try {
      await runBuild({
        recordsDir: records,
        mediaDir,
        outDir: out,
        baseUrl: config.baseUrl,
        inputHash: 'x',
        about,
        workers: 2,
        only: new Set(['encounter-method', 'creature-color']),
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(BuildError);
    const { problems, message, cause } = error as BuildError;
    const languageProblems = methods.map((m) => `encounter-method ${m.id}: no language with id 424242`);
    expect(methods.length).toBeGreaterThan(50);
    expect(problems.filter((p) => p.startsWith('encounter-method ')).sort()).toEqual([...languageProblems].sort());
    const colorProblems = problems.filter((p) => p.startsWith('creature-color '));
    expect(colorProblems).toHaveLength(1);
    expect(colorProblems[0]).toMatch(/^creature-color 1: /);
    // the message: a screenful, and how many more
    expect(message.split('\n')).toEqual([
      `the build found ${problems.length} bad document(s):`,
      ...problems.slice(0, 30),
      `… and ${problems.length - 30} more`,
    ]);
    // what each document's code threw (a name's missing language, the color's list that is none), across the worker threads, with its stack
    expect(cause).toBeInstanceOf(AggregateError);
    const thrown = (cause as AggregateError).errors as Error[];
    expect(thrown.map((e) => e.message).sort()).toEqual(problems.map((p) => p.replace(/^[a-z-]+ \d+: /, '')).sort());
    for (const e of thrown) expect(e.stack).toMatch(/\n {4}at /);
    expectPreviousKept(out);
    // as the command line tells it: every problem in the file beside the output folder, which it names
    const problemsFile = problemsFileOf(out);
    const text = await failureText(error, { problemsFile });
    expect(text).toBe(`The build failed; dist/ was left as it was.\n${message}; all ${problems.length} are in ${problemsFile}`);
    expect(readFileSync(problemsFile, 'utf8')).toBe(`${problems.join('\n')}\n`);
    expect(await failureText(error, { problemsFile, verbose: true })).toMatch(
      new RegExp(
        `^${escapeRegExp(text)}\n\nBuildError: the build found [^]*\n {4}at [^]*\ncaused by: AggregateError: ${problems.length} exceptions\n[^]*\n  \\[1 of ${problems.length}\\] Error: `,
      ),
    );
  });

  it('lets its caller look at the kinds written before the files made once, and take the stamp it gives', async () => {
    const out = join(scratch, 'hooked');
    const seen: string[] = [];
    await runBuild({
      recordsDir: config.recordsDir,
      mediaDir,
      outDir: out,
      baseUrl: config.baseUrl,
      inputHash: 'before',
      about,
      only: new Set(['creature-color', 'creature-habitat']),
      beforeFinish: async (dir, kinds) => {
        seen.push(...kinds.map((k) => k.kind).sort(), `bulk ${existsSync(join(dir, bulkFile('creature-habitat')))}`, `root ${existsSync(join(dir, rootFile))}`);
        return { inputHash: 'after' };
      },
    });
    expect(seen).toEqual(['creature-color', 'creature-habitat', 'bulk true', 'root false']);
    expect(readBuildStamp(out)?.inputHash).toBe('after');
  });

  it("tells its caller each shard's kinds as they are written, every kind once, before the look before the finish", async () => {
    const events: string[] = [];
    await runBuild({
      recordsDir: config.recordsDir,
      mediaDir,
      outDir: join(scratch, 'each-shard'),
      baseUrl: config.baseUrl,
      inputHash: 'x',
      about,
      workers: 2,
      only: new Set(['creature-color', 'creature-habitat', 'creature-shape']),
      kindsWritten: (dir, kinds) => events.push(...kinds.map((k) => `${k.kind} ${existsSync(join(dir, bulkFile(k.kind)))}`)),
      beforeFinish: async () => (events.push('finish'), {}),
    });
    expect(events.slice(0, -1).sort()).toEqual(['creature-color true', 'creature-habitat true', 'creature-shape true']);
    expect(events.at(-1)).toBe('finish');
  });

  it("leaves the previous output as it was when a shard's kinds cannot be compared", async () => {
    const out = previousBuild('shard-hook-fails');
    const failing = runBuild({
      recordsDir: config.recordsDir,
      mediaDir,
      outDir: out,
      baseUrl: config.baseUrl,
      inputHash: 'x',
      about,
      workers: 2,
      only: new Set(['creature-color', 'creature-habitat']),
      kindsWritten: () => {
        throw new Error('the early compare failed');
      },
    });
    await expect(failing).rejects.toThrow('the early compare failed');
    expectPreviousKept(out);
  });

  it('leaves the previous output as it was when the look before the finish fails', async () => {
    const out = previousBuild('hook-fails');
    const failing = runBuild({
      recordsDir: config.recordsDir,
      mediaDir,
      outDir: out,
      baseUrl: config.baseUrl,
      inputHash: 'x',
      about,
      only: new Set(['creature-color']),
      beforeFinish: () => Promise.reject(new Error('the compare failed')),
    });
    await expect(failing).rejects.toThrow('the compare failed');
    expectPreviousKept(out);
  });

  it('writes every link absolute, in the upstream form {base}/{kind}/{id}/', () => {
    const dist = inject('cutDistDir');
    const bulbasaur = JSON.parse(readFileSync(join(dist, 'v2/creature/1.json'), 'utf8')) as {
      species: { url: string };
      location_area_encounters: string;
    };
    expect(bulbasaur.species.url).toBe(`${config.baseUrl}/creature-species/1/`);
    expect(bulbasaur.location_area_encounters).toBe(`${config.baseUrl}/creature/1/encounters`);
  });
});
