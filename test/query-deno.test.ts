/**
 * The query modules (edge/query/) run in the Netlify edge function, under Deno: they import only
 * each other and the contract (contract/: no `node:` module, no package), type-check under Deno, and give there the answers
 * they give in Node on the same invented fixture (the packed search index too: the same bytes, the same hits).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../generator/config.ts';

const run = promisify(execFile);
const deno = join(repoRoot, 'node_modules/.bin/deno');
const denoEnv = { ...process.env, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' };
const queryDir = join(repoRoot, 'edge/query');
const modules = readdirSync(queryDir).filter((f) => f.endsWith('.ts'));
const contractDir = join(repoRoot, 'contract');
const contractModules = readdirSync(contractDir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));

/** One script, run by both runtimes: every module used on a small invented fixture, the answers printed as JSON (a name under contract/ is the contract's). */
const script = (moduleUrl: (name: string) => string) => `
import { foldText } from '${moduleUrl('contract/query/fold.ts')}';
import { SearchIndex } from '${moduleUrl('search.ts')}';
import { makeSearchKind, packSearchFiles } from '${moduleUrl('contract/search-index.ts')}';
import { decodeSearchPack, encodeSearchPack } from '${moduleUrl('contract/search-pack.ts')}';
import { FilterIndex } from '${moduleUrl('filter.ts')}';
import { decodeFilterPack, encodeFilterPack, positionGaps } from '${moduleUrl('contract/filter-pack.ts')}';
import { parseRange, parseValues, checkQueryLength } from '${moduleUrl('contract/query/parse.ts')}';
import { pick } from '${moduleUrl('contract/query/fields.ts')}';
const languages = ['fr', 'ja-hrkt'];
const file = { format: 'search-index/2', languages, kinds: [makeSearchKind('critter', [
  { id: 1, name: 'flarebeast', names: [{ language: 'fr', name: 'Flambête' }, { language: 'ja-hrkt', name: 'ホノオジュウ' }] },
  { id: 2, name: 'tidecat', names: [{ language: 'fr', name: 'Marénchat' }] },
], languages)] } as const;
const index = SearchIndex.fromFiles(file);
const packedBytes = encodeSearchPack(packSearchFiles([file]));
const packed = new SearchIndex(decodeSearchPack(packedBytes));
const filterBytes = encodeFilterPack({ format: 'filter-index/1', kind: 'critter', count: 3, ranges: { speed: [1, null, 5] },
  values: { element: { about: 'an element', values: [['ember', 7, positionGaps([0, 2])], ['tide', 8, positionGaps([1])]] } } });
const filters = new FilterIndex(decodeFilterPack(filterBytes));
const checked = checkQueryLength('?element=EMBER,8&speed=2..&junk=%FF');
if (!checked.ok) throw new Error('query');
const query = { value: new URLSearchParams(checked.value) };
const element = parseValues('element', query.value.getAll('element'), filters.vocabulary('element'));
const speed = parseRange('speed', query.value.getAll('speed'));
if (!element.ok || !speed.ok || element.value === null || speed.value === null) throw new Error('parse');
const answers = {
  fold: ['ﾋﾟｶﾁｭｳ', 'PIKACHÚ', 'ｐｉｋａ', 'ぴかちゅう', '피카츄'.normalize('NFD'), 'Straße'].map(foldText),
  search: ['flambéte', 'ﾎﾉｵ', 'flarebaest', 'eca'].map((q) => index.search(foldText(q)).hits(0, 5)),
  packed: ['flambéte', 'ﾎﾉｵ', 'flarebaest', 'eca'].map((q) => packed.search(foldText(q)).hits(0, 5)),
  packedBytes: Array.from(packedBytes),
  filterBytes: Array.from(filterBytes),
  filter: filters.select({ values: [{ filter: 'element', keys: element.value }], ranges: [{ filter: 'speed', range: speed.value }] }),
  junk: query.value.get('junk'),
  fields: pick({ a: { b: 1, c: [{ d: 2, e: 3 }] }, f: null }, ['a.c.d', 'f']),
};
console.log(JSON.stringify(answers));
`;

describe('edge/query under Deno', () => {
  it('imports nothing but its own modules and the contract, which imports only itself', () => {
    expect(modules.sort()).toEqual(['edit-distance.ts', 'facets.ts', 'filter.ts', 'search.ts', 'sort.ts', 'summary.ts']);
    for (const module of modules) {
      const imports = [...readFileSync(join(queryDir, module), 'utf8').matchAll(/^import[^'"]*['"]([^'"]+)['"]/gm)].map((m) => m[1]);
      for (const target of imports) expect(target, `${module} imports ${target}`).toMatch(/^(\.|\.\.\/\.\.\/contract(\/[a-z-]+)?)\/[a-z-]+\.ts$/);
    }
    for (const module of contractModules) {
      const imports = [...readFileSync(join(contractDir, module), 'utf8').matchAll(/^import[^'"]*['"]([^'"]+)['"]/gm)].map((m) => m[1]);
      // a relative path that stays inside contract/
      for (const target of imports)
        expect(resolve(contractDir, dirname(module), target!), `contract/${module} imports ${target}`).toMatch(new RegExp(`^${contractDir}/[a-z/-]+\\.ts$`));
    }
  });

  it('type-checks under Deno', async () => {
    const files = [...modules.map((m) => join(queryDir, m)), ...contractModules.map((m) => join(contractDir, m))];
    await run(deno, ['check', '--no-lock', '--no-config', ...files], { cwd: repoRoot, env: denoEnv });
  });

  it('gives the answers Node gives', async () => {
    const work = mkdtempSync(join(tmpdir(), 'query-deno-'));
    try {
      const file = join(work, 'answers.ts');
      writeFileSync(
        file,
        script((name) => pathToFileURL(name.startsWith('contract/') ? join(repoRoot, name) : join(queryDir, name)).href),
      );
      const inDeno = (await run(deno, ['run', '--no-lock', '--no-config', file], { cwd: work, env: denoEnv })).stdout;
      const inNode = (await run(process.execPath, [file], { cwd: repoRoot, env: process.env })).stdout;
      expect(JSON.parse(inDeno)).toEqual(JSON.parse(inNode));
      const answers = JSON.parse(inDeno) as { fold: string[]; filter: number[]; junk: string; search: { name: string }[][]; packed: unknown };
      expect(answers.packed).toEqual(answers.search);
      expect(answers.fold).toEqual(['ピカチュウ', 'pikachu', 'pika', 'ピカチュウ', '피카츄', 'strasse']);
      // any of ember (0, 2) or tide (1), and a speed of at least 2 (1, none, 5)
      expect(answers.filter).toEqual([2]);
      expect(answers.junk).toBe('\uFFFD');
      expect(answers.search.map((hits) => hits.map((h) => h.name))).toEqual([['flarebeast'], ['flarebeast'], ['flarebeast'], ['tidecat']]);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
