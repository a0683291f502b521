/**
 * The lists as of a game made again after an edit (generator/indexes/as-of-lists.ts): only the
 * parts of the views one of whose inputs was written again are made; the others are the served
 * lists', and the result is what a full making of the same inputs gives, file for file. Over the
 * cut's build, with its as-of facts edited in memory (nothing on disk is written).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import {
  asOfFactsFile,
  asOfLearnsetFile,
  asOfListsFile,
  asOfMoveNamesFile,
  asOfStatsFile,
  type FactsFile,
  type LearnsetFile,
  type MoveNamesFile,
  type StatsFile,
} from '../contract/as-of/facts.ts';
import { encodeColumnPatch, encodeFieldColumn, FieldColumn, PatchedColumn } from '../contract/field-column.ts';
import { jsonBytes } from '../contract/raw-json.ts';
import { decodeFilterPack, encodeFilterPack, unpackFilterIndex } from '../contract/filter-pack.ts';
import { filterIndexFile, listFile } from '../contract/layout.ts';
import { asOfListFiles, type AsOfListFiles, type BuiltFile } from '../generator/indexes/as-of-lists.ts';

const dist = inject('cutDistDir');
const baseUrl = inject('baseUrl');
const served: BuiltFile = (rel) => {
  try {
    return readFileSync(join(dist, rel));
  } catch {
    return null;
  }
};
const servedText = (rel: string): string | null => served(rel)?.toString() ?? null;

/** The served build with one file's JSON edited. */
function editedJson<T>(file: string, edit: (json: T) => void): BuiltFile {
  const json = JSON.parse(servedText(file)!) as T;
  edit(json);
  const bytes = Buffer.from(JSON.stringify(json));
  return (rel) => (rel === file ? bytes : served(rel));
}

/** Every file a full making writes is what the partial one writes, or, where it writes none, the served file. */
function expectSameAsFull(partial: AsOfListFiles, full: AsOfListFiles, read: BuiltFile): void {
  const written = new Map(partial.files);
  const text = (body: string | Uint8Array) => (typeof body === 'string' ? body : Buffer.from(body).toString('base64'));
  for (const [path, body] of full.files) {
    const got = written.get(path) ?? read(path);
    expect(got === null || got === undefined ? null : typeof body === 'string' ? Buffer.from(got).toString() : text(got), path).toBe(text(body));
  }
  for (const [kind, named] of partial.named) expect([...named].sort(), kind).toEqual([...full.named.get(kind)!].sort());
}

describe('the lists as of a game, made again after an edit', () => {
  it("a base stat: the creature and entry lists' stats parts are made again; their types, abilities and move filters are the served ones", () => {
    const read = editedJson<StatsFile>(asOfStatsFile, (stats) => {
      stats.records[0]![1].stats[0]![1] += 50;
    });
    const partial = asOfListFiles(read, baseUrl, (rel) => rel === asOfStatsFile);
    const full = asOfListFiles(read, baseUrl);
    expectSameAsFull(partial, full, read);
    // an entry's list is its creature's
    expect([...partial.named.keys()]).toEqual(['creature', 'entry']);
    const paths = partial.files.map(([path]) => path);
    expect(paths.filter((path) => path.endsWith('~move.bin'))).toEqual([]);
    // the edit reached the lists: a new view, a new stats column
    expect(partial.files.find(([path]) => path === asOfListsFile('creature'))![1]).not.toBe(servedText(asOfListsFile('creature')));
    expect(paths.filter((path) => path.endsWith('.jsonl')).length).toBeGreaterThan(0);
  });

  it("a move renamed: no list of then is made again (the move facts hold no names, a creature list's move filters hold move ids, named by today's filter at the edge)", () => {
    const read = editedJson<MoveNamesFile>(asOfMoveNamesFile, (names) => {
      names.records[0]![1] = 'a-renamed-move';
    });
    const partial = asOfListFiles(read, baseUrl, (rel) => rel === asOfMoveNamesFile);
    expect(partial).toEqual({ files: [], named: new Map() });
    expectSameAsFull(asOfListFiles(served, baseUrl), asOfListFiles(read, baseUrl), read);
  });

  it("a move's power: the move list's values part is made again, no creature list", () => {
    const read = editedJson<FactsFile<'move'>>(asOfFactsFile('move'), (moves) => {
      const values = moves.records.find(([, facts]) => facts.values[0] !== null)![1].values;
      values[0]! += 5;
    });
    const partial = asOfListFiles(read, baseUrl, (rel) => rel === asOfFactsFile('move'));
    const full = asOfListFiles(read, baseUrl);
    expectSameAsFull(partial, full, read);
    expect([...partial.named.keys()]).toEqual(['move']);
    expect(partial.files.map(([path]) => path).filter((path) => path.includes('/creature'))).toEqual([]);
  });

  it("a learnset edited: the creature and entry lists' move filters are made again, not their views' columns", () => {
    const read = editedJson<LearnsetFile>(asOfLearnsetFile, (learnsets) => {
      const pairs = learnsets.records[0]![1];
      pairs.splice(0, 2);
    });
    const partial = asOfListFiles(read, baseUrl, (rel) => rel === asOfLearnsetFile);
    const full = asOfListFiles(read, baseUrl);
    expectSameAsFull(partial, full, read);
    expect([...partial.named.keys()]).toEqual(['creature', 'entry']);
    const creatureFiles = partial.files.map(([path]) => path).filter((path) => path.includes('/creature/'));
    expect(creatureFiles.some((path) => path.endsWith('~move.bin'))).toBe(true);
    expect(creatureFiles.filter((path) => path.endsWith('.jsonl'))).toEqual([]);
  });

  it("today's list or filter index written again: the views are made again only when its ids or its ranges changed", () => {
    const index = filterIndexFile('creature');
    const unchanged = [index, listFile('creature'), listFile('move'), filterIndexFile('move')];
    expect(asOfListFiles(served, baseUrl, (rel) => unchanged.includes(rel))).toEqual({ files: [], named: new Map() });
    const edited = unpackFilterIndex(decodeFilterPack(served(index)!));
    const attack = edited.ranges['attack']!;
    attack[attack.findIndex((n) => n !== null)]! += 50;
    const bytes = encodeFilterPack(edited);
    const read: BuiltFile = (rel) => (rel === index ? bytes : served(rel));
    const partial = asOfListFiles(read, baseUrl, (rel) => rel === index);
    expectSameAsFull(partial, asOfListFiles(read, baseUrl), read);
    expect([...partial.named.keys()]).toEqual(['creature']);
    expect(partial.files.filter(([path]) => path.endsWith('~move.bin'))).toEqual([]);
  });

  it("today's list with an entry gone: that kind's views are made again", () => {
    const read = editedJson<{ count: number; results: unknown[] }>(listFile('ability'), (list) => {
      list.results.pop();
      list.count -= 1;
    });
    const partial = asOfListFiles(read, baseUrl, (rel) => rel === listFile('ability'));
    expectSameAsFull(partial, asOfListFiles(read, baseUrl), read);
    expect([...partial.named.keys()]).toEqual(['ability']);
  });

  it('an edit no list reads makes none again', () => {
    expect(asOfListFiles(served, baseUrl, (rel) => rel === 'v2/berry/1.json')).toEqual({ files: [], named: new Map() });
  });
});

describe('a column patch (a field of then over today’s column)', () => {
  const today = new FieldColumn(Buffer.from(encodeFieldColumn({ kind: 'thing', field: 'sizes' }, [1, [2], { a: 3 }, null, 'five'])));
  const patch = (header: { count: number; positions: number[] }, lines: string[]) =>
    Buffer.from(encodeColumnPatch({ kind: 'thing', field: 'sizes', ...header }, lines));
  const text = (part: unknown) => new TextDecoder().decode(jsonBytes(part));

  it('reads the patched entries from the patch and every other from today’s column, as bytes and as values', () => {
    const then = new PatchedColumn(today, patch({ count: 5, positions: [1, 3] }, ['[20,"b"]', '{"was":null}']));
    expect(then.count).toBe(5);
    expect([0, 1, 2, 3, 4].map((p) => text(then.raw(p)))).toEqual(['1', '[20,"b"]', '{"a":3}', '{"was":null}', '"five"']);
    expect([0, 1, 2, 3, 4].map((p) => then.value(p))).toEqual([1, [20, 'b'], { a: 3 }, { was: null }, 'five']);
  });

  it('writes entries alike as shapes and runs, as a field column does, and reads them back', () => {
    const lines = [5, 6, 7].map((n) => JSON.stringify([{ base_stat: n * 10, stat: { name: 'special', url: 'http://x/v2/stat/9/' } }]));
    const bytes = patch({ count: 5, positions: [0, 2, 4] }, lines);
    expect(JSON.parse(new TextDecoder().decode(bytes).split('\n')[0]!)).toMatchObject({ format: 'column-patch/2', shapes: 1 });
    const then = new PatchedColumn(today, bytes);
    expect([0, 1, 2, 3, 4].map((p) => text(then.raw(p)))).toEqual([lines[0], '[2]', lines[1], 'null', lines[2]]);
    expect(then.value(2)).toEqual([{ base_stat: 60, stat: { name: 'special', url: 'http://x/v2/stat/9/' } }]);
  });

  it('refuses a patch of another length or format, and one cut short', () => {
    expect(() => new PatchedColumn(today, patch({ count: 6, positions: [1] }, ['2']))).toThrow(/6 entries over a column of 5/);
    expect(() => new PatchedColumn(today, Buffer.from(encodeFieldColumn({ kind: 'thing', field: 'sizes' }, [1, 2, 3, 4, 5])))).toThrow(/format field-column/);
    expect(() => new PatchedColumn(today, patch({ count: 5, positions: [1, 2] }, ['2']))).toThrow(/cut short/);
  });
});
