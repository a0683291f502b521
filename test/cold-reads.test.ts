/**
 * A cold start's reads (edge/collection.ts `startReads`): at the edge every file is a fetch, so a
 * fresh handler must not read a heavy query's files one after another. A reader that answers
 * in rounds counts how many waits in a row a first answer costs; the answer must be the one a
 * warm handler gives, and a request naming files that are not declared must read only files the
 * build has. A round is every read asked until the handler has nothing left to do but wait:
 * its files are read first and handed over together, so what the handler asks next cannot
 * depend on which disk read came back first, and no clock decides where a round ends.
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

/** A read waiting for its round: the file's bytes, being read, and the handler's wait. */
interface Waiting {
  bytes: Promise<Uint8Array | null>;
  answer: (bytes: Uint8Array | null) => void;
}

/**
 * The build's files, each read answered at the end of its round: a fetch that takes a while.
 * A round closes on the macrotask after its first read, which runs only once the handler's
 * promise callbacks are all done (between reads it waits on nothing else: parsing and
 * matching are synchronous), so every read it can ask before waiting is in.
 */
function roundReader(): FileReader & { rounds: () => number; paths: string[] } {
  const disk = diskReader(distDir);
  const paths: string[] = [];
  let rounds = 0;
  let waiting: Waiting[] = [];
  const release = async () => {
    rounds++;
    const round = waiting;
    waiting = [];
    const bytes = await Promise.all(round.map((read) => read.bytes));
    round.forEach((read, i) => read.answer(bytes[i]!));
  };
  return {
    paths,
    rounds: () => rounds,
    read(path) {
      paths.push(path);
      if (waiting.length === 0) setImmediate(() => void release());
      const bytes = disk.read(path);
      return new Promise((answer) => waiting.push({ bytes, answer }));
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
  it('the heaviest shaped query waits on two rounds of reads, not one per file, and answers as a warm handler does', async () => {
    const cold = await firstAnswer(HEAVY);
    expect(cold.reply.status).toBe(200);
    // routes, meta and the language list `lang` is checked against; then the lists, the filter index and the columns, those in that language among them
    expect(cold.paths.length).toBeGreaterThanOrEqual(12);
    expect(cold.rounds, cold.paths.join(' ')).toBeLessThanOrEqual(2);
    const warm = createResponder(diskReader(distDir), { baseUrl });
    const request = { method: 'GET', url: origin + HEAVY, headers: new Headers() };
    await warm(request);
    const again = await warm(request);
    expect(Buffer.from(cold.reply.body!).equals(Buffer.from(again.body!))).toBe(true);
  });

  it('an item waits on one round: its file is read beside the routing table, and served once the table lists its kind', async () => {
    const item = await firstAnswer('/v2/creature/bulbasaur/');
    expect(item.reply.status).toBe(200);
    expect(item.rounds, item.paths.join(' ')).toBe(1);
    // a build's own file named as an item is read beside the table too, and never served: the table lists no such kind
    const internal = await firstAnswer('/v2/_lists/type');
    expect(internal.reply.status).toBe(404);
    expect(Buffer.from(internal.reply.body!).toString()).toBe('"Not Found"');
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

describe("a cold start's reads as of a game", () => {
  /** The first answer of a fresh handler, in rounds, and that it is a warm handler's answer byte for byte. */
  async function coldAsWarm(path: string) {
    const cold = await firstAnswer(path);
    const warm = createResponder(diskReader(distDir), { baseUrl });
    const request = { method: 'GET', url: origin + path, headers: new Headers() };
    await warm(request);
    const again = await warm(request);
    expect(cold.reply.status, path).toBe(again.status);
    expect(Buffer.from(cold.reply.body!).equals(Buffer.from(again.body!)), path).toBe(true);
    return cold;
  }

  it('a creature as of a game waits on one round: its document is read beside the routing table, meta and the version groups', async () => {
    const cold = await coldAsWarm('/v2/as-of/generation-i/creature/mew/');
    expect(cold.reply.status).toBe(200);
    expect(cold.rounds, cold.paths.join(' ')).toBe(1);
    expect(cold.paths).toContain('v2/_as-of/creature/mew.json');
  });

  it("a heavy list as of a game waits on three: the views beside the routing table, then the view with the query's files, then its columns of then", async () => {
    const cold = await coldAsWarm(
      '/v2/as-of/generation-v/creature/?type=normal,fairy&sort=-base_stat_total,name&facets=type&summary=base_stat_total,special-attack&fields=types,stats,abilities&limit=100000',
    );
    expect(cold.reply.status).toBe(200);
    expect(cold.rounds, cold.paths.join(' ')).toBeLessThanOrEqual(3);
  });

  it.each([
    ['a move as of a game, by name: its item today and its as-of document, both named by the key', '/v2/as-of/red-blue/move/surf/'],
    ['a move as of a game, by id', '/v2/as-of/red-blue/move/57/'],
    ["a creature's matchups today: the facts and the type list", '/v2/creature/clefairy/matchups/'],
    ["a creature's matchups as of a game", '/v2/as-of/generation-v/creature/clefairy/matchups/'],
  ])('%s: one round, every read beside the routing table (%s)', async (_what, path) => {
    const cold = await coldAsWarm(path);
    expect(cold.reply.status).toBe(200);
    expect(cold.rounds, cold.paths.join(' ')).toBe(1);
  });

  it('an unknown game is a 404 whatever was read beside it', async () => {
    const cold = await coldAsWarm('/v2/as-of/nope/creature/mew/');
    expect(cold.reply.status).toBe(404);
  });
});
