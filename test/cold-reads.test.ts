/**
 * A cold start's reads (edge/collection.ts `startReads`): at the edge every file is a fetch, so a
 * fresh handler must not read a heavy query's files one after another. A reader that answers
 * in rounds (every read asked before the next timer tick lands in one round) counts how many
 * waits in a row a first answer costs; the answer must be the one a warm handler gives, and a
 * request naming files that are not declared must read only files the build has.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import type { FileReader } from '../edge/build-files.ts';
import { createResponder } from '../edge/handler.ts';
import { diskReader } from '../generator/preview/disk-reader.ts';

const distDir = inject('distDir');
const baseUrl = inject('baseUrl');
const origin = new URL(baseUrl).origin;

/** The build's files, each read answered at the next round: a fetch that takes a while. */
function roundReader(): FileReader & { rounds: () => number; paths: string[] } {
  const disk = diskReader(distDir);
  const paths: string[] = [];
  let rounds = 0;
  let pending: Array<() => void> = [];
  const release = () => {
    rounds++;
    const now = pending;
    pending = [];
    for (const go of now) go();
  };
  return {
    paths,
    rounds: () => rounds,
    async read(path) {
      paths.push(path);
      if (pending.length === 0) setTimeout(release, 1);
      await new Promise<void>((go) => pending.push(go));
      return disk.read(path);
    },
  };
}

async function firstAnswer(path: string) {
  const reader = roundReader();
  const respond = createResponder(reader, { baseUrl });
  const reply = await respond({ method: 'GET', url: origin + path, headers: new Headers() });
  return { reply, rounds: reader.rounds(), paths: reader.paths };
}

const HEAVY =
  '/v2/creature/?type=grass,water,poison,bug&type=poison,water,flying&move=tackle,cut,surf&move=strength,swift,toxic&generation=1,2,3,4&generation=1,3,4,5' +
  '&sort=-base_stat_total,name&facets=generation,egg_group&summary=base_stat_total,speed&fields=types,stats,sprites.front_default,species.names&lang=de&limit=100000';

describe("a cold start's reads", () => {
  it("issue 24's heaviest query waits on three rounds of reads, not one per file, and answers as a warm handler does", async () => {
    const cold = await firstAnswer(HEAVY);
    expect(cold.reply.status).toBe(200);
    // routes and meta; then the lists, the filter index, the columns and the language list; then the columns in that language
    expect(cold.paths.length).toBeGreaterThanOrEqual(12);
    expect(cold.rounds).toBeLessThanOrEqual(3);
    const warm = createResponder(diskReader(distDir), { baseUrl });
    const request = { method: 'GET', url: origin + HEAVY, headers: new Headers() };
    await warm(request);
    const again = await warm(request);
    expect(Buffer.from(cold.reply.body!).equals(Buffer.from(again.body!))).toBe(true);
  });

  it('a search waits on two rounds: the routing table beside meta, then the packed index', async () => {
    const cold = await firstAnswer('/v2/search/?q=charzard');
    expect(cold.reply.status).toBe(200);
    expect(cold.rounds, cold.paths.join(' ')).toBeLessThanOrEqual(2);
  });

  it('reads the filter index only for a query that needs it (not for a sort by name or id)', async () => {
    const byName = await firstAnswer('/v2/creature/?sort=-name,id&limit=3');
    expect(byName.reply.status).toBe(200);
    expect(byName.paths.filter((p) => p.includes('_query/filters/'))).toEqual([]);
    const bySpeed = await firstAnswer('/v2/creature/?sort=-speed&limit=3');
    expect(bySpeed.reply.status).toBe(200);
    expect(bySpeed.paths.filter((p) => p.includes('_query/filters/'))).toEqual(['v2/_query/filters/creature.bin']);
  });

  it('reads no file twice', async () => {
    const { paths } = await firstAnswer(HEAVY);
    expect(paths.length).toBe(new Set(paths).size);
  });

  it.each([
    '/v2/creature/?fields=../../../etc/passwd,types&lang=../../x',
    '/v2/creature/?fields=species.names,species.nope&lang=de&facets=../x,generation&type=../../y',
    '/v2/creature/?fields=species.names&lang=zz&sort=-speed',
  ])('a request with undeclared names reads only files the build has: %s', async (path) => {
    const { reply, paths } = await firstAnswer(path);
    expect(reply.status).toBe(400);
    for (const read of paths) expect(existsSync(join(distDir, read)), read).toBe(true);
  });
});
