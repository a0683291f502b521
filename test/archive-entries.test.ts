/**
 * The incremental build patches the archive's entry list where it rewrote files instead of
 * walking the whole tree (builder/archive.ts patchArchiveEntries). Patched or walked, the list
 * must be the same: order, folders, and which files are hard links to which.
 */
import { existsSync, linkSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { archiveEntries, patchArchiveEntries } from '../generator/builder/archive.ts';

const scratch = mkdtempSync(join(tmpdir(), 'creature-archive-entries-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// as the planner changes a tree: a path is removed first, never written through
const write = (root: string, rel: string, body: string) => {
  rmSync(join(root, rel), { force: true });
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), body);
};
const link = (root: string, rel: string, existing: string) => {
  rmSync(join(root, rel), { force: true });
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  linkSync(join(root, existing), join(root, rel));
};
const remove = (root: string, rel: string) => rmSync(join(root, rel), { force: true });

let trees = 0;
const freshRoot = () => {
  const root = join(scratch, String(++trees));
  mkdirSync(join(root, 'v2'), { recursive: true });
  return root;
};

describe('the archive entry list, patched where files changed, equals a walk of the tree', () => {
  it('a replaced file and its name link, a removed file, a new folder, and a link that now comes first', () => {
    const root = freshRoot();
    write(root, 'v2/a.json', 'a');
    write(root, 'v2/b/1.json', 'one');
    link(root, 'v2/b/one.json', 'v2/b/1.json');
    write(root, 'v2/c.json', 'c');
    const before = archiveEntries(root, 'v2');
    expect(before.map((e) => `${e.type} ${e.rel} ${e.linkTarget}`)).toEqual([
      '5 v2/ ',
      '0 v2/a.json ',
      '5 v2/b/ ',
      '0 v2/b/1.json ',
      '1 v2/b/one.json v2/b/1.json',
      '0 v2/c.json ',
    ]);

    write(root, 'v2/b/1.json', 'ONE');
    link(root, 'v2/b/one.json', 'v2/b/1.json');
    remove(root, 'v2/c.json');
    write(root, 'v2/d/new.json', 'new');
    write(root, 'v2/b/1/x.json', 'x');
    link(root, 'v2/a.json', 'v2/d/new.json');
    const changed = ['v2/b/1.json', 'v2/b/one.json', 'v2/c.json', 'v2/d/new.json', 'v2/b/1/x.json', 'v2/a.json'];
    const patched = patchArchiveEntries(root, 'v2', before, changed);
    expect(patched).toEqual(archiveEntries(root, 'v2'));
    // a folder comes before the file of the same name with an extension, as readdir sorts them
    expect(patched.map((e) => `${e.type} ${e.rel} ${e.linkTarget}`)).toEqual([
      '5 v2/ ',
      '0 v2/a.json ',
      '5 v2/b/ ',
      '5 v2/b/1/ ',
      '0 v2/b/1/x.json ',
      '0 v2/b/1.json ',
      '1 v2/b/one.json v2/b/1.json',
      '5 v2/d/ ',
      '1 v2/d/new.json v2/a.json',
    ]);
  });

  const paths = [
    'v2/a.json',
    'v2/b.json',
    'v2/x/a.json',
    'v2/x/b.json',
    'v2/x.json',
    'v2/x/y/a.json',
    'v2/_sub/k/1.json',
    'v2/_sub/k/10.json',
    'v2/_sub/k/2.json',
  ];
  const op = fc.oneof(
    fc.record({ kind: fc.constant('write' as const), rel: fc.constantFrom(...paths), body: fc.string({ maxLength: 3 }) }),
    fc.record({ kind: fc.constant('link' as const), rel: fc.constantFrom(...paths), to: fc.constantFrom(...paths) }),
    fc.record({ kind: fc.constant('remove' as const), rel: fc.constantFrom(...paths) }),
  );
  type Op = { kind: 'write'; rel: string; body: string } | { kind: 'link'; rel: string; to: string } | { kind: 'remove'; rel: string };
  const apply = (root: string, ops: readonly Op[], changed?: Set<string>) => {
    for (const o of ops) {
      if (o.kind === 'write') write(root, o.rel, o.body);
      else if (o.kind === 'remove') remove(root, o.rel);
      else if (o.rel !== o.to && existsSync(join(root, o.to))) link(root, o.rel, o.to);
      else continue;
      changed?.add(o.rel);
    }
  };

  it('after any writes, links and removals', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 12 }), fc.array(op, { maxLength: 12 }), (first, then) => {
        const root = freshRoot();
        apply(root, first);
        const before = archiveEntries(root, 'v2');
        const changed = new Set<string>();
        apply(root, then, changed);
        expect(patchArchiveEntries(root, 'v2', before, changed)).toEqual(archiveEntries(root, 'v2'));
      }),
      { numRuns: 200 },
    );
  });
});
