/**
 * What an entry made at the edge from today's documents would cost, against reading the entry's
 * file as the service does: for each creature, its creature's, species', forms' and chain's
 * documents read and parsed (the files in the OS's cache), the first time and then 200 times (p50,
 * p99), beside 200 reads of its entry's file. SPEED.md, "The entry", says why entries are files.
 *   node bench/entry-assembly.ts DIST [IDS, default 151,1,25,487,10100]
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { idOfUrl } from '../contract/layout.ts';

type Link = { url: string };

const [dist, idList = '151,1,25,487,10100'] = process.argv.slice(2);
if (!dist) throw new Error('usage: node bench/entry-assembly.ts DIST [IDS]');
const file = (kind: string, id: number) => join(dist, 'v2', kind, `${id}.json`);
const idOf = (link: Link) => idOfUrl(link.url)!;
const json = <T>(kind: string, id: number) => JSON.parse(readFileSync(file(kind, id), 'utf8')) as T;

/** The four documents an entry is made of, read and parsed, and the parts it copies put together. */
function assemble(id: number): number {
  const creature = json<{ species: Link; forms: Link[]; types: unknown; stats: unknown }>('creature', id);
  const species = json<{ evolution_chain: Link; names: unknown; flavor_text_entries: unknown }>('creature-species', idOf(creature.species));
  const forms = creature.forms.map((form) => json<{ name: string }>('creature-form', idOf(form)));
  const chain = json<{ id: number }>('evolution-chain', idOf(species.evolution_chain));
  const parts = { types: creature.types, stats: creature.stats, names: species.names, flavor: species.flavor_text_entries };
  return JSON.stringify({ id, ...parts, forms: forms.map((f) => f.name), chain: chain.id }).length;
}

/** p50 and p99 of `rounds` runs of `run`, ms. */
function timed(run: () => unknown, rounds = 200): { p50: number; p99: number } {
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(rounds / 2)]!, p99: times[Math.floor(rounds * 0.99)]! };
}

for (const id of idList.split(',').map(Number)) {
  const start = performance.now();
  assemble(id);
  const first = performance.now() - start;
  const made = timed(() => assemble(id));
  const read = timed(() => readFileSync(file('entry', id)));
  const size = readFileSync(file('creature', id)).length / 1e3;
  console.log(
    `creature ${id} (${size.toFixed(0)} kB): made ${first.toFixed(2)} ms first, p50 ${made.p50.toFixed(2)}, p99 ${made.p99.toFixed(2)} ms;` +
      ` the entry's file read p50 ${read.p50.toFixed(3)}, p99 ${read.p99.toFixed(3)} ms`,
  );
}
