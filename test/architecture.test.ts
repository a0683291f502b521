/**
 * ARCHITECTURE.md stays true: its rooms table is the code's rooms, in an order where each room
 * imports only rooms below it, each row's "reads from" exactly the rooms it imports; and every
 * path and every code name it mentions exists. A document that drifts from the code misleads
 * the newcomer it was written for.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../generator/config.ts';
import { roomArrows, SOURCE_ROOTS, sourceFiles } from './support/rooms.ts';

/** The document without its fenced blocks (drawings, not names). */
const doc = readFileSync(join(repoRoot, 'ARCHITECTURE.md'), 'utf8').replace(/```[\s\S]*?```/g, '');

interface Row {
  rooms: string[];
  readsFrom: string[];
}

const ticked = (cell: string): string[] => [...cell.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);
/** A room as the table's first column writes it (`generator/dev/`) → as test/support/rooms.ts names it. */
const roomName = (path: string): string => path.replace(/\/$/, '');
/** A room as "reads from" writes it: a room of generator/ by its name within it. */
const readName = (name: string): string => (SOURCE_ROOTS.some((root) => name === root || name.startsWith(`${root}/`)) ? name : `generator/${name}`);

/** The rooms table's rows of source rooms (the tests' and the bench's rows read everything). */
function tableRows(): Row[] {
  const section = doc.slice(doc.indexOf('## The rooms'), doc.indexOf('\n## ', doc.indexOf('## The rooms') + 1));
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => line.split(' | '))
    .filter((cells) => cells.at(-1)!.trim() !== 'everything |')
    .map((cells) => ({ rooms: ticked(cells[0]!).map(roomName), readsFrom: ticked(cells.at(-1)!).map(readName) }));
}

describe('ARCHITECTURE.md', () => {
  const rows = tableRows();
  const arrows = roomArrows();

  it('lists every room of the code once, and no room the code lacks', () => {
    const listed = rows.flatMap((row) => row.rooms);
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual([...arrows.keys()].sort());
  });

  it('says of each row exactly the rooms it imports, each of them in a row below it', () => {
    const wrong: string[] = [];
    rows.forEach((row, at) => {
      const imported = new Set(row.rooms.flatMap((room) => [...(arrows.get(room)?.keys() ?? [])]).filter((room) => !row.rooms.includes(room)));
      const said = new Set(row.readsFrom);
      for (const room of imported) if (!said.has(room)) wrong.push(`${row.rooms.join(', ')} imports ${room}, which its row does not say`);
      for (const room of said) if (!imported.has(room)) wrong.push(`${row.rooms.join(', ')} says it reads ${room}, which it does not import`);
      for (const room of imported) {
        const below = rows.findIndex((other) => other.rooms.includes(room));
        if (below <= at) wrong.push(`${row.rooms.join(', ')} imports ${room}, which is not below it`);
      }
    });
    expect(wrong).toEqual([]);
  });

  it('names only paths that exist', () => {
    const files = SOURCE_ROOTS.concat(['test', 'bench', 'scripts']).flatMap((root) => sourceFiles(join(repoRoot, root)));
    const names = new Set(
      files.flatMap((file) => [
        basename(file),
        ...dirname(relative(repoRoot, file))
          .split('/')
          .map((folder) => `${folder}/`),
      ]),
    );
    // the output layout's names are the build's files, under dist/, not the repository's
    const outputLayout = doc.slice(doc.indexOf('## Output layout'), doc.indexOf('\n## ', doc.indexOf('## Output layout') + 1));
    const missing = ticked(doc.replace(outputLayout, ''))
      .map((text) => text.replace(/\(.*$/, '').trim())
      .filter((text) => /^[\w][\w./-]*$/.test(text) && /\.(ts|mjs|js|json|md|toml|html|css)$|\/$/.test(text) && !/^(dist|data|v2)\//.test(text))
      .filter((path) =>
        path.includes('/') && !path.endsWith('/')
          ? !existsSync(join(repoRoot, path)) && !files.some((file) => file.endsWith(`/${path}`))
          : !names.has(path.split('/').at(-2) === undefined ? path : `${path.split('/').at(-2)}/`) && !existsSync(join(repoRoot, path)),
      );
    expect(missing).toEqual([]);
  });

  it('names only code names that exist', () => {
    const code = SOURCE_ROOTS.concat(['test'])
      .flatMap((root) => sourceFiles(join(repoRoot, root)))
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    const names = ticked(doc)
      .map((text) => text.replace(/\(.*\)$/, ''))
      .filter((text) => /^[a-z]+[A-Z]\w*$|^[A-Z][a-z]+[A-Z]\w*$|^[A-Z][A-Z0-9]*_[A-Z0-9_]+$/.test(text));
    const declared = (name: string) =>
      new RegExp(
        `(function\\*?|const|let|class|interface|type)\\s+${name}\\b|^\\s*(readonly |private |static |async |get )*${name}\\??[(:<]|[{,]\\s*${name}\\s*[:,}]`,
        'm',
      ).test(code);
    expect(names.length).toBeGreaterThan(20);
    expect([...new Set(names)].filter((name) => !declared(name))).toEqual([]);
  });
});
