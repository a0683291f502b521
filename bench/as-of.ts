/**
 * The figures of "as of a game", on a built dist/: answers made at the edge from today's
 * documents and the as-of files (contract/as-of/), each measured as bench/query.ts measures a query:
 *   - in-process and under Deno: p50 and p99 warm (the same URL again and again, after a warm-up),
 *     and the first answer of a fresh handler (every as-of file read and parsed again);
 *   - the first answer of a fresh Deno process (a true cold start);
 *   - a spread: every creature as of one generation, one request each after a warm-up over the
 *     same URLs, p99 (the warm figure over items of every size, mew's 650 kB of today's moves included);
 * and the size of the files the build writes for them (v2/_as-of/).
 * `node bench/as-of.ts DIST [BASE_URL]` prints them alone; `npm run bench` prints them with the rest.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { AS_OF_PREFIX } from '../contract/as-of/facts.ts';
import { createResponder } from '../edge/handler.ts';
import { listFile } from '../contract/layout.ts';
import { diskReader } from '../generator/preview/disk-reader.ts';
import { FETCH_MS, firstAnswerInFreshDeno, firstAnswerOverFetches, FRESH_PROCESSES, kb, ms, quantile, timeInProcess, timeUnderDeno } from './query.ts';
import { distArgs } from './args.ts';
import { printRows } from './measure.ts';

/** The answers measured: the largest creature, a type's reverse lists, a move, matchups, a heavy list, and the learnset filter. */
export const AS_OF_TARGETS = [
  { what: 'as-of item: mew as of generation I (650 kB of moves today)', path: '/v2/as-of/generation-i/creature/mew/' },
  { what: 'as-of item: type normal as of red-blue (its creatures and moves of then)', path: '/v2/as-of/red-blue/type/normal/' },
  { what: 'as-of item: move tackle as of firered (past values, learners)', path: '/v2/as-of/firered/move/tackle/' },
  { what: 'matchups: gengar as of generation I', path: '/v2/as-of/generation-i/creature/gengar/matchups/' },
  {
    what: 'as-of list: creature as of generation V, type=normal, sort, facet, summary, fields, whole list',
    path: '/v2/as-of/generation-v/creature/?type=normal,fairy&sort=-base_stat_total,name&facets=type&summary=base_stat_total,special-attack&fields=types,stats,abilities&limit=100000',
  },
  { what: 'as-of list: creature as of red-blue, move=surf (the learnsets read)', path: '/v2/as-of/red-blue/creature/?move=surf&limit=100000' },
  { what: 'as-of item: entry pikachu as of generation I (its chain, forms and dex text of then)', path: '/v2/as-of/generation-i/entry/pikachu/' },
  {
    what: 'as-of list: entry as of generation IV, stage, evolution_trigger, sort, fields, whole list',
    path: '/v2/as-of/generation-iv/entry/?stage=2..&evolution_trigger=level-up,trade&sort=-base_stat_total&fields=base_stat_total,evolution.stage&limit=100000',
  },
] as const;

const SPREAD_ROUNDS = 3;

/** Every creature as of `v`, each asked once a round after a warm-up round over the same URLs: p50 and p99 of the timed rounds (ms). */
async function spread(dist: string, baseUrl: string, v: string): Promise<{ p50: number; p99: number; count: number }> {
  const list = JSON.parse(readFileSync(join(dist, listFile('creature')), 'utf8')) as { results: Array<{ url: string }> };
  const origin = new URL(baseUrl).origin;
  const paths = list.results.map((entry) => `/v2/as-of/${v}/creature/${/\/(\d+)\/$/.exec(entry.url)![1]}/`);
  const respond = createResponder(diskReader(dist), { baseUrl });
  const times: number[] = [];
  for (let round = 0; round <= SPREAD_ROUNDS; round++) {
    for (const path of paths) {
      const start = performance.now();
      await respond({ method: 'GET', url: origin + path, headers: new Headers() });
      if (round > 0) times.push(performance.now() - start);
    }
  }
  times.sort((a, b) => a - b);
  return { p50: quantile(times, 0.5), p99: quantile(times, 0.99), count: paths.length };
}

/** Bytes of every file under a folder, each file once (a name is a hard link to its id's file: what a disk or a deploy holds). */
function folderBytes(dir: string): { files: number; bytes: number } {
  const seen = new Set<number>();
  let bytes = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const stat = statSync(join(entry.parentPath, entry.name));
    if (seen.has(stat.ino)) continue;
    seen.add(stat.ino);
    bytes += stat.size;
  }
  return { files: seen.size, bytes };
}

export async function runAsOfBench(dist: string, baseUrl: string): Promise<Array<[string, string, string]>> {
  const rows: Array<[string, string, string]> = [];
  for (const { what, path } of AS_OF_TARGETS) {
    const node = await timeInProcess(dist, baseUrl, path);
    rows.push([
      `${what}, in-process`,
      `p50 ${ms(node.p50)}, p99 ${ms(node.p99)}, fresh handler ${ms(node.cold)} (status ${node.status})`,
      'p99 ≤ 5 ms, fresh ≤ 25 ms',
    ]);
    const deno = timeUnderDeno(dist, baseUrl, path);
    rows.push([
      `${what}, Deno`,
      `p50 ${ms(deno.p50)}, p99 ${ms(deno.p99)}, fresh handler ${ms(deno.cold)} (status ${deno.status})`,
      'p99 ≤ 5 ms, fresh ≤ 25 ms',
    ]);
  }
  for (const target of [AS_OF_TARGETS[4], AS_OF_TARGETS[5], AS_OF_TARGETS[7]]) {
    const overFetches = await firstAnswerOverFetches(dist, baseUrl, target.path);
    rows.push([`${target.what}, fresh handler, each read ${FETCH_MS} ms late (the edge reads files over HTTP)`, ms(overFetches), '']);
  }
  for (const target of [AS_OF_TARGETS[0], AS_OF_TARGETS[4], AS_OF_TARGETS[6], AS_OF_TARGETS[7]]) {
    const fresh = firstAnswerInFreshDeno(dist, baseUrl, target.path);
    rows.push([
      `${target.what}, Deno, first answer of a new process`,
      `${ms(fresh.ms)}, ${fresh.faults} page faults (medians of ${FRESH_PROCESSES} processes)`,
      '≤ 25 ms',
    ]);
  }
  const every = await spread(dist, baseUrl, 'generation-iv');
  rows.push([
    `every creature as of generation-iv (${every.count} URLs), in-process, ${SPREAD_ROUNDS} rounds after one`,
    `p50 ${ms(every.p50)}, p99 ${ms(every.p99)}`,
    'p99 ≤ 5 ms',
  ]);
  const files = folderBytes(join(dist, AS_OF_PREFIX));
  const whole = folderBytes(dist);
  rows.push([
    `the as-of files (${AS_OF_PREFIX}/)`,
    `${files.files} files, ${kb(files.bytes)} (${((100 * files.bytes) / whole.bytes).toFixed(1)}% of dist/'s ${kb(whole.bytes)})`,
    '',
  ]);
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { dist, baseUrl } = distArgs('node bench/as-of.ts DIST [BASE_URL]');
  printRows(await runAsOfBench(dist, baseUrl));
}
