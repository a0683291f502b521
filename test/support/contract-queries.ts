/**
 * Invented query declarations for a few real kinds, for the contract's tests: the routing table
 * of the test build with its `queries` replaced, so the OpenAPI document, the types and the docs
 * page can be made and checked before (and whatever) the kinds really declare. The values are
 * made up here; the target kinds' lists are the build's.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { listFile, metaFile, routesFile, type QueryShape, type Routes } from '../../contract/layout.ts';
import { buildContract, exampleFromList, openApiDocument, type JsonSchema } from '../../generator/artifacts/openapi.ts';
import { readVocabularies, type Vocabularies } from '../../generator/artifacts/query-contract.ts';
import { folderReader } from '../../generator/artifacts/artifact.ts';
import { allResources } from '../../generator/resources/index.ts';

export const INVENTED_QUERIES: Record<string, QueryShape> = {
  creature: {
    filters: [
      { name: 'type', about: 'a type', target: 'type' },
      { name: 'generation', about: 'the generation of its species', target: 'generation' },
      { name: 'is_legendary', about: 'legendary', target: null },
      { name: 'move', about: 'a move it can learn', target: 'move' },
    ],
    ranges: [
      { name: 'speed', about: 'base speed' },
      { name: 'special-attack', about: 'base special attack' },
    ],
    fields: ['id', 'types', 'sprites.front_default', 'sprites.other.official-artwork.front_default', 'stats'],
    below: [
      'stats.base_stat',
      'stats.effort',
      'stats.stat',
      'stats.stat.name',
      'stats.stat.url',
      'types.slot',
      'types.type',
      'types.type.name',
      'types.type.url',
    ],
    links: { species: 'creature-species' },
  },
  move: {
    filters: [
      { name: 'type', about: 'a type', target: 'type' },
      { name: 'damage_class', about: 'a damage class', target: 'move-damage-class' },
    ],
    ranges: [{ name: 'power', about: 'power (moves without power match no range)' }],
    fields: ['id', 'power', 'type'],
  },
  'evolution-chain': { filters: [], ranges: [], fields: ['id'] },
  'creature-species': { filters: [], ranges: [], fields: ['id', 'names', 'is_legendary', 'generation'] },
};

const readDist = (distDir: string, path: string) => JSON.parse(readFileSync(join(distDir, path), 'utf8')) as unknown;

/** The test build's routing table, with the invented declarations as its queries. */
export function inventedRoutes(distDir: string): Routes {
  const routes = readDist(distDir, routesFile) as Routes;
  return { ...routes, queries: INVENTED_QUERIES };
}

/** The OpenAPI document the code makes for the test build with the invented declarations. */
export async function inventedDocument(distDir: string, baseUrl: string): Promise<{ routes: Routes; vocabularies: Vocabularies; document: JsonSchema }> {
  const routes = inventedRoutes(distDir);
  const vocabularies = readVocabularies(folderReader(distDir), routes);
  const examples = Object.fromEntries(
    routes.kinds.flatMap((k) => {
      const e = exampleFromList(readDist(distDir, listFile(k)) as { results: { name?: string; url: string }[] });
      return e ? [[k, e]] : [];
    }),
  );
  const version = (readDist(distDir, metaFile) as { version: string }).version;
  const document = openApiDocument({ baseUrl, version, routes, contract: buildContract(allResources, routes), examples, vocabularies });
  return { routes, vocabularies, document };
}
