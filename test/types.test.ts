/**
 * The TypeScript types the build writes (`{base}/creature-api.d.ts`) match what the API really
 * returns: real responses from dist/ (at least 3 items of every kind, ids 10001+ where a kind has
 * them, subresources, pages, the root, meta and the 404 body) are written as typed constants and
 * type-checked with the TypeScript compiler; deliberately wrong values must be rejected.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { itemFile, metaFile, pageFile, routesFile, type Routes } from '../contract/layout.ts';
import { buildContract, pascalCase } from '../generator/artifacts/openapi.ts';
import { TYPES_FILE, TYPES_ROUTE, typeDeclarations } from '../generator/artifacts/typescript-types.ts';
import { readVocabularies } from '../generator/artifacts/query-contract.ts';
import { folderReader } from '../generator/artifacts/artifact.ts';
import { allResources } from '../generator/resources/index.ts';
import { realSamples, samplesPerKind, typeCheck, type Sample } from './support/type-samples.ts';

const distDir = inject('distDir');
const origin = inject('previewUrl');

const readText = (path: string) => readFileSync(join(distDir, path), 'utf8');
const readDist = (path: string) => JSON.parse(readText(path)) as unknown;
const routes = readDist(routesFile) as Routes;
const declarations = readText(TYPES_FILE);

let dir: string;
const ownTypes = (s: Sample) => `import type { ${s.type} } from './creature-api';\nexport const value: ${s.type} = ${s.json};\n`;

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

  it('are what the code makes from the schemas (the file is not stale)', async () => {
    const version = (readDist(metaFile) as { version: string }).version;
    const vocabularies = readVocabularies(folderReader(distDir), routes);
    expect(typeDeclarations({ contract: buildContract(allResources, routes), routes, version, vocabularies })).toBe(declarations);
  });

  it('export one type per resource response, named after the resource, and the shared documents', () => {
    const exported = new Set([...declarations.matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => m[1]));
    for (const kind of routes.kinds) expect(exported, kind).toContain(pascalCase(kind));
    for (const name of [
      'Creature',
      'CreatureSpecies',
      'EvolutionChain',
      'ChainLink',
      'PaginatedList',
      'NotFound',
      'NamedResource',
      'CreatureEncounters',
      'Meta',
      'RootIndex',
    ]) {
      expect(exported, name).toContain(name);
    }
  });

  it('document every field with a JSDoc comment, so editors show what it means on hover', () => {
    const source = ts.createSourceFile('creature-api.d.ts', declarations, ts.ScriptTarget.ES2022, true);
    const undocumented: string[] = [];
    const docs = new Map<string, string>();
    const visit = (node: ts.Node, owner: string) => {
      if (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) owner = node.name.text;
      if (ts.isPropertySignature(node)) {
        const path = `${owner}.${node.name.getText(source)}`;
        const comment = ts
          .getJSDocCommentsAndTags(node)
          .map((c) => (typeof c.comment === 'string' ? c.comment : ''))
          .join(' ')
          .trim();
        if (comment.length < 10) undocumented.push(path);
        if (!docs.has(path)) docs.set(path, comment);
        owner = path;
      }
      ts.forEachChild(node, (child) => visit(child, owner));
    };
    visit(source, '');
    expect(docs.size).toBeGreaterThan(500);
    expect(undocumented).toEqual([]);
    expect(docs.get('Creature.height')).toMatch(/decimetres/);
    expect(docs.get('Creature.weight')).toMatch(/hectograms/);
    expect(docs.get('CreatureSpecies.evolution_chain')).toMatch(/not this species’ id/);
    // a shared shape keeps its own meaning and the field using it says where the link goes
    expect(docs.get('NamedResource.url')).toMatch(/URL/);
    expect(docs.get('Creature.species')).toMatch(/\/creature-species\//);
  });

  it('accept real responses from dist/: ≥ 3 items of every kind, ids 10001+, subresources, pages, root, meta, 404', async () => {
    const { samples, tenThousands } = await realSamples(distDir, origin, routes);
    for (const kind of routes.kinds) {
      expect(samples.filter((s) => s.type === pascalCase(kind)).length, kind).toBeGreaterThanOrEqual(samplesPerKind(distDir, kind));
    }
    expect(tenThousands).toBeGreaterThan(0);

    const errors = typeCheck(dir, samples, ownTypes);
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
    const errors = typeCheck(dir, wrong, ownTypes);
    for (const w of wrong) expect(errors.get(w.file)?.length ?? 0, w.file).toBeGreaterThan(0);
    // and the declaration file itself is clean
    expect(errors.get('creature-api')).toBeUndefined();
  }, 120_000);
});
