/**
 * The TypeScript types the build writes (`{base}/creature-api.d.ts`) match what the API really
 * returns: real responses from dist/ (at least 3 items of every kind, ids 10001+ where a kind has
 * them, subresources, pages, the root, meta and the 404 body) are written as typed constants and
 * type-checked with the TypeScript compiler; deliberately wrong values must be rejected.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { itemFile, listFile, metaFile, notFoundFile, pageFile, rootFile, routesFile, subresourceFile, type Routes } from '../edge/layout.ts';
import { buildContract, pascalCase } from '../generator/emit/openapi.ts';
import { TYPES_FILE, TYPES_ROUTE, typeDeclarations } from '../generator/emit/typescript-types.ts';
import { allResources } from '../generator/resources/index.ts';

const distDir = inject('distDir');
const origin = inject('previewUrl');

const readText = (path: string) => readFileSync(join(distDir, path), 'utf8');
const readDist = (path: string) => JSON.parse(readText(path)) as unknown;
const routes = readDist(routesFile) as Routes;
const declarations = readText(TYPES_FILE);

const idOf = (url: string) => Number(/\/(-?\d+)\/$/.exec(url)![1]);

/** First two, middle and last ids of a kind, and its first id of 10001 or more when it has one. */
function sampleIds(kind: string): number[] {
  const ids = (readDist(listFile(kind)) as { results: { url: string }[] }).results.map((r) => idOf(r.url));
  const picks = [ids[0], ids[1], ids[Math.floor(ids.length / 2)], ids.at(-1), ids.find((id) => id >= 10001)];
  return [...new Set(picks.filter((id): id is number => id !== undefined))];
}

interface Sample {
  file: string;
  type: string;
  json: string;
}

let dir: string;
const typeCheck = (samples: Sample[]) => {
  const files = samples.map((s) => {
    const path = join(dir, `${s.file}.ts`);
    writeFileSync(path, `import type { ${s.type} } from './creature-api';\nexport const value: ${s.type} = ${s.json};\n`);
    return path;
  });
  const program = ts.createProgram(files, {
    strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ES2022,
    moduleResolution: ts.ModuleResolutionKind.Bundler, types: [], skipLibCheck: false, noUncheckedIndexedAccess: true,
  });
  /** the errors of each file, by sample name; the .d.ts itself under its own name */
  const errors = new Map<string, string[]>();
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const name = d.file ? d.file.fileName.slice(dir.length + 1).replace(/\.(d\.)?ts$/, '') : '(global)';
    const list = errors.get(name) ?? [];
    list.push(ts.flattenDiagnosticMessageText(d.messageText, '\n').split('\n')[0]!.slice(0, 200));
    errors.set(name, list);
  }
  return errors;
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'creature-types-'));
  writeFileSync(join(dir, 'creature-api.d.ts'), declarations);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the TypeScript types', () => {
  it('are served by the preview at /v2/creature-api.d.ts, the same text as the file', async () => {
    const response = await fetch(`${origin}${TYPES_ROUTE}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await response.text()).toBe(declarations);
  });

  it('are what the code makes from the schemas (the file is not stale)', () => {
    const version = (readDist(metaFile) as { version: string }).version;
    expect(typeDeclarations({ contract: buildContract(allResources, routes), routes, version })).toBe(declarations);
  });

  it('export one type per resource response, named after the resource, and the shared documents', () => {
    const exported = new Set([...declarations.matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => m[1]));
    for (const kind of routes.kinds) expect(exported, kind).toContain(pascalCase(kind));
    for (const name of ['Creature', 'CreatureSpecies', 'EvolutionChain', 'ChainLink', 'PaginatedList', 'NotFound', 'NamedResource', 'CreatureEncounters', 'Meta', 'RootIndex']) {
      expect(exported, name).toContain(name);
    }
  });

  it('accept real responses from dist/: ≥ 3 items of every kind, ids 10001+, subresources, pages, root, meta, 404', async () => {
    const samples: Sample[] = [];
    let tenThousands = 0;
    for (const kind of routes.kinds) {
      const ids = sampleIds(kind);
      expect(ids.length, kind).toBeGreaterThanOrEqual(Math.min(3, (readDist(listFile(kind)) as { count: number }).count));
      tenThousands += ids.filter((id) => id >= 10001).length;
      for (const id of ids) samples.push({ file: `${kind}-${id}`, type: pascalCase(kind), json: readText(itemFile(kind, id)) });
      for (const sub of routes.subresources[kind] ?? []) {
        for (const id of ids) samples.push({ file: `${kind}-${id}-${sub}`, type: pascalCase(kind) + pascalCase(sub), json: readText(subresourceFile(kind, id, sub)) });
      }
      samples.push({ file: `${kind}-page-0`, type: 'PaginatedList', json: readText(pageFile(kind, 0)) });
    }
    // a creature met somewhere: the encounters sampled above may all be empty lists
    const encounters = join(distDir, subresourceFile('creature', 0, 'encounters'), '..');
    const met = readdirSync(encounters).filter((f) => /^\d+\.json$/.test(f)).sort((a, b) => statSync(join(encounters, b)).size - statSync(join(encounters, a)).size)[0]!;
    samples.push({ file: `creature-most-encounters`, type: 'CreatureEncounters', json: readFileSync(join(encounters, met), 'utf8') });
    // computed pages (not files): a filtered one and one of an id-only kind
    for (const [name, path] of [['page-q', '/v2/creature/?q=saur&limit=3&offset=1'], ['page-id-only', '/v2/evolution-chain/?limit=2&offset=7']] as const) {
      samples.push({ file: name, type: 'PaginatedList', json: await (await fetch(`${origin}${path}`)).text() });
    }
    samples.push({ file: 'root', type: 'RootIndex', json: readText(rootFile) });
    samples.push({ file: 'meta', type: 'Meta', json: readText(metaFile) });
    samples.push({ file: 'not-found', type: 'NotFound', json: readText(notFoundFile) });
    expect(tenThousands).toBeGreaterThan(0);

    const errors = typeCheck(samples);
    expect(Object.fromEntries(errors)).toEqual({});
    expect(samples.length).toBeGreaterThan(routes.kinds.length * 3);
  }, 300_000);

  it('reject wrong values: each deliberate mistake is an error in its own file', () => {
    const creature = readDist(itemFile('creature', 1)) as Record<string, unknown>;
    const chain = readDist(itemFile('evolution-chain', 1)) as { chain: { evolves_to: Record<string, unknown>[] } };
    const type = readDist(itemFile('type', 1)) as { sprites: Record<string, unknown> };
    const page = readDist(pageFile('creature', 0)) as Record<string, unknown>;
    const { species: _, ...noSpecies } = creature;
    const deepWrong = structuredClone(chain);
    deepWrong.chain.evolves_to[0]!.is_baby = 'no';
    const missingGeneration = structuredClone(type);
    delete missingGeneration.sprites['generation-iii'];
    const wrong: Sample[] = [
      { file: 'wrong-id-type', type: 'Creature', json: JSON.stringify({ ...creature, id: '1' }) },
      { file: 'wrong-missing-field', type: 'Creature', json: JSON.stringify(noSpecies) },
      { file: 'wrong-extra-field', type: 'Creature', json: JSON.stringify({ ...creature, pokemon: 1 }) },
      { file: 'wrong-null', type: 'Creature', json: JSON.stringify({ ...creature, height: null }) },
      { file: 'wrong-deep-in-chain', type: 'EvolutionChain', json: JSON.stringify(deepWrong) },
      { file: 'wrong-sprite-tree', type: 'Type', json: JSON.stringify(missingGeneration) },
      { file: 'wrong-page-next', type: 'PaginatedList', json: JSON.stringify({ ...page, next: 5 }) },
      { file: 'wrong-not-found', type: 'NotFound', json: JSON.stringify('Not found') },
      { file: 'wrong-kind', type: 'Ability', json: JSON.stringify(creature) },
    ];
    const errors = typeCheck(wrong);
    for (const w of wrong) expect(errors.get(w.file)?.length ?? 0, w.file).toBeGreaterThan(0);
    // and the declaration file itself is clean
    expect(errors.get('creature-api')).toBeUndefined();
  }, 120_000);
});
