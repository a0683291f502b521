/**
 * `npm run dev` over a copy of the data cut: its builds run in a child process; a saved table
 * change reaches the preview's answers; a bad edit prints the named problem and the preview
 * keeps the last good build; a change report committed meanwhile is served.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { bulkFile } from '../contract/layout.ts';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { resolveConfig } from '../generator/config.ts';
import { startDev, type Dev } from '../generator/dev/index.ts';
import { readBuildStamp } from '../generator/builder/stamp.ts';
import { ensureBuilt, inputHashes, upstreamCommit } from '../generator/pipeline.ts';

const scratch = mkdtempSync(join(tmpdir(), 'creature-dev-'));
const data = join(scratch, 'data');
// change reports of its own, so that one can be committed while it runs
const config = {
  ...resolveConfig({ data, out: join(scratch, 'dist'), port: '0' }, { RECORDS_DIR: join(scratch, 'records') }),
  changesDir: join(scratch, 'changes'),
};
const said: string[] = [];
const log = { info: (m: string) => said.push(m), warn: (m: string) => said.push(`warning: ${m}`) };
let dev: Dev;
/** what the log said, and how the preview answered, as soon as startDev returned: before the planner was ready */
let atServe: { said: string[]; status: number };

beforeAll(async () => {
  mkdirSync(data, { recursive: true });
  mkdirSync(config.changesDir, { recursive: true });
  for (const part of ['csv', 'media', 'PROVENANCE.md']) cpSync(join(inject('cutDataDir'), part), join(data, part), { recursive: true });
  dev = await startDev(config, log, { host: '127.0.0.1' });
  const status = (await fetch(`${dev.preview.url}/v2/creature/25`)).status;
  atServe = { said: [...said], status };
  await dev.ready;
}, 180_000);
afterAll(async () => {
  await dev?.close();
  // closing stops the build process (once its planner removed the spare copy of dist/)
  if (dev) expect(existsSync(`/proc/${dev.buildPid}`)).toBe(false);
  rmSync(scratch, { recursive: true, force: true });
});

const statsFile = join(data, 'csv/pokemon_stats.csv');
/** Pikachu's base HP line of the stats table, written with the given value (the file's line ends kept). */
const setPikachuHp = (value: string) => {
  const text = readFileSync(statsFile, 'utf8');
  const next = text.replace(/^25,1,[^,\r\n]*,0(\r?)$/m, `25,1,${value},0$1`);
  expect(next).not.toBe(text);
  writeFileSync(statsFile, next);
};
const pikachuHp = async (key: string) => {
  const body = (await (await fetch(`${dev.preview.url}/v2/creature/${key}`)).json()) as { stats: Array<{ base_stat: number }> };
  return body.stats[0]!.base_stat;
};
/** A creature as the served bulk file holds it. */
function creatureInBulk(id: number): { id: number; stats: { base_stat: number }[] } | undefined {
  return gunzipSync(readFileSync(join(config.outDir, bulkFile('creature'))))
    .toString('utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as { id: number; stats: { base_stat: number }[] })
    .find((creature) => creature.id === id);
}
async function until<T>(what: string, probe: () => Promise<T> | T, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)}; the dev log says:\n${said.join('\n')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('npm run dev', () => {
  it('builds in a child process that the log names; this process only serves', () => {
    const named = said.map((m) => /^dev: building in a child process \(pid (\d+)\); this process only serves$/.exec(m)?.[1]).find((pid) => pid !== undefined);
    expect(Number(named)).toBe(dev.buildPid);
    expect(dev.buildPid).not.toBe(process.pid);
    expect(readFileSync(`/proc/${dev.buildPid}/cmdline`, 'utf8')).toContain('generator/dev/build-process-entry.ts');
    // the full build and the planner's start were the child's, its log lines relayed here
    expect(said.some((m) => /^dev: ready in \d/.test(m))).toBe(true);
  });

  it('serves as soon as dist/ holds a build, while the planner opens', () => {
    expect(atServe.status).toBe(200);
    expect(atServe.said.some((m) => /^dev: serving /.test(m))).toBe(true);
    expect(atServe.said.some((m) => /^dev: ready in \d/.test(m))).toBe(false);
    expect(said.findIndex((m) => /^dev: serving /.test(m))).toBeLessThan(said.findIndex((m) => /^dev: ready in \d/.test(m)));
  });

  it('serves the result of a saved table change', async () => {
    expect(await pikachuHp('25')).toBe(35);
    setPikachuHp('41');
    await until(
      'the new base stat',
      () => pikachuHp('25'),
      (hp) => hp === 41,
    );
    expect(await pikachuHp('pikachu')).toBe(41);
    expect(said.some((m) => /pokemon_stats\.csv → 1 creature changed/.test(m))).toBe(true);

    // the downloads are made again after the answers are served: then the creature's bulk file holds the new stat
    await until(
      'the downloads made again',
      () => said.some((m) => /^dev: downloads made again \(creature, entry, the archive\) after [\d.]+ s$/.test(m)),
      (done) => done,
    );
    expect(creatureInBulk(25)?.stats[0]?.base_stat).toBe(41);

    // the stamp names the inputs the update was made from, so `npm start` next serves it as it is
    expect(readBuildStamp(config.outDir)?.downloads).toBeUndefined();
    expect(readBuildStamp(config.outDir)?.inputHash).toBe(inputHashes(config).build);
    const startSaid: string[] = [];
    await ensureBuilt(config, { info: (m) => startSaid.push(m), warn: (m) => startSaid.push(`warning: ${m}`) });
    expect(startSaid).toEqual(['build: dist/ is up to date']);
  }, 180_000);

  it('prints a bad edit by table, row and column, and keeps serving the last good build', async () => {
    setPikachuHp('lots');
    const problem = await until(
      'the problem report',
      () => said.find((m) => m.includes('"lots"')),
      (m) => m !== undefined,
    );
    expect(problem).toMatch(/table pokemon_stats\.csv, row \d+ \(line \d+\), column base_stat: expected an integer, found "lots"/);
    expect(problem).toMatch(/keeps serving the last good build/);
    expect(await pikachuHp('25')).toBe(41);

    setPikachuHp('42');
    await until(
      'the fixed base stat',
      () => pikachuHp('pikachu'),
      (hp) => hp === 42,
    );
  }, 180_000);

  it("serves a change report committed into data/changes/ (a teammate's, pulled), its stamp still current", async () => {
    const to = upstreamCommit(data);
    const from = 'a'.repeat(40);
    const report = { from, to, tables: [], kinds: {}, summary: { added: 0, removed: 0, changed: 0 } };
    writeFileSync(join(config.changesDir, `${from}..${to}.json`), JSON.stringify(report));
    const latest = async () => ((await (await fetch(`${dev.preview.url}/v2/meta/`)).json()) as { changes: { latest: string | null } }).changes.latest;
    await until('meta linking the report', latest, (url) => url?.endsWith(`/changes/${to}/`) ?? false);
    expect(await (await fetch(`${dev.preview.url}/v2/changes/${to}`)).json()).toEqual(report);
    expect(said.some((m) => m.startsWith('dev: the change reports → no records changed, 0 document(s) made again'))).toBe(true);
    expect(readBuildStamp(config.outDir)?.inputHash).toBe(inputHashes(config).build);
  }, 180_000);

  it("serves a save that comes before the last one's downloads are made, then makes the downloads of the last", async () => {
    setPikachuHp('50');
    await until(
      'the first save',
      () => pikachuHp('25'),
      (hp) => hp === 50,
    );
    // within the pause before the downloads: this save's answers go first
    setPikachuHp('51');
    await until(
      'the second save',
      () => pikachuHp('25'),
      (hp) => hp === 51,
    );
    const bulkHp = () => creatureInBulk(25)?.stats[0]?.base_stat;
    await until(
      'the downloads of the second save',
      () => (readBuildStamp(config.outDir)?.downloads === undefined ? bulkHp() : null),
      (hp) => hp === 51,
    );
    const download = await fetch(`${dev.preview.url}/downloads/creature.ndjson.gz`);
    expect(download.status).toBe(200);
    expect(readBuildStamp(config.outDir)?.inputHash).toBe(inputHashes(config).build);
  }, 180_000);
});
