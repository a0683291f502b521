/**
 * Every link leads somewhere: each string in any built file that starts with the base URL is
 * asked of the real request logic (in-process, reading dist/) and must answer 200. A failure
 * names the file and the field path where the link was found.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { createHandler } from '../edge/handler.ts';
import { diskReader } from '../generator/preview/index.ts';

const distDir = inject('distDir');
const base = inject('baseUrl');

/** Every JSON file once: an item's file by name is a hard link of its file by id, the same bytes and links. */
function* jsonFiles(dir: string, seen = new Set<number>()): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, e.name);
    if (e.isDirectory()) yield* jsonFiles(full, seen);
    else if (e.name.endsWith('.json')) {
      const { ino } = statSync(full);
      if (seen.has(ino)) continue;
      seen.add(ino);
      yield full;
    }
  }
}

function* links(value: unknown, path: string): Generator<[string, string]> {
  if (typeof value === 'string') {
    if (value.startsWith(base)) yield [value, path || '/'];
  } else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) yield* links(value[i], `${path}/${i}`);
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) yield* links(v, `${path}/${k}`);
  }
}

describe('links', () => {
  it('every link in every built file resolves to a built response', async () => {
    const handle = createHandler(diskReader(distDir), { baseUrl: base });
    const origin = new URL(base).origin;
    const status = new Map<string, Promise<number>>();
    const broken: string[] = [];
    let checked = 0;
    for (const file of jsonFiles(join(distDir, 'v2'))) {
      const doc = JSON.parse(readFileSync(file, 'utf8')) as unknown;
      for (const [link, path] of links(doc, '')) {
        checked++;
        let answer = status.get(link);
        if (!answer) {
          answer = handle(new Request(origin + new URL(link).pathname + new URL(link).search)).then((r) => r.status);
          status.set(link, answer);
        }
        if ((await answer) !== 200 && broken.length < 50) broken.push(`${relative(distDir, file)} ${path}: ${link}`);
      }
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(100_000);
  }, 300_000);
});
