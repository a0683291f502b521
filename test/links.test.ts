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

/**
 * The JSON strings of a file's text that start with the base URL. A URL holds no quote or
 * backslash, so each is a quote, the base, and what follows up to the closing quote: read off the
 * text, with no parse of its 373 MB; a file is parsed only to name where a broken link lies.
 */
const linkPattern = new RegExp(`"(${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[^"\\\\]*)"`, 'g');
const linksIn = (text: string): string[] => [...text.matchAll(linkPattern)].map((m) => m[1]!);

describe('links', () => {
  it('every link in every built file resolves to a built response', async () => {
    const handle = createHandler(diskReader(distDir), { baseUrl: base });
    const origin = new URL(base).origin;
    /** each distinct link, with the first file that holds it */
    const firstFile = new Map<string, string>();
    let checked = 0;
    for (const file of jsonFiles(join(distDir, 'v2'))) {
      for (const link of linksIn(readFileSync(file, 'utf8'))) {
        checked++;
        if (!firstFile.has(link)) firstFile.set(link, file);
      }
    }
    const broken: string[] = [];
    for (const [link, file] of firstFile) {
      const { status } = await handle(new Request(origin + new URL(link).pathname + new URL(link).search));
      if (status === 200 || broken.length >= 50) continue;
      const doc = JSON.parse(readFileSync(file, 'utf8')) as unknown;
      const where = [...links(doc, '')].find(([found]) => found === link)?.[1] ?? '?';
      broken.push(`${relative(distDir, file)} ${where}: ${link}`);
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(100_000);
  }, 300_000);

  it('finds a link as the walk of the parsed document does, and only one that starts with the base URL', () => {
    const doc = { a: `${base}/creature/1/`, b: [{ url: `${base}/type/3/?x=1` }, 'http://elsewhere/v2/type/3/'], c: `see ${base}/move/1/` };
    expect(linksIn(JSON.stringify(doc))).toEqual([...links(doc, '')].map(([link]) => link));
  });
});
