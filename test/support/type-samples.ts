/**
 * Real responses as typed TypeScript constants, and a type check of them: the project's own
 * `.d.ts` (test/types.test.ts) and the types openapi-typescript makes from the OpenAPI document
 * (test/openapi-tools.test.ts) are held to the same samples.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { itemFile, listFile, metaFile, notFoundFile, pageFile, rootFile, subresourceFile, type Routes } from '../../edge/layout.ts';
import { pascalCase } from '../../generator/artifacts/openapi.ts';

export interface Sample {
  /** file name (without `.ts`) in the check folder */
  file: string;
  /** the component name: `Creature`, `PaginatedList`, ... */
  type: string;
  /** the response body */
  json: string;
}

const idOf = (url: string) => Number(/\/(-?\d+)\/$/.exec(url)![1]);

/**
 * At least 3 items of every kind (first two, middle, last, and the first id of 10001 or more),
 * their subresources, each kind's first page, the creature met in most places, two computed
 * pages, the root, meta and the 404 body.
 */
export async function realSamples(distDir: string, origin: string, routes: Routes): Promise<{ samples: Sample[]; tenThousands: number }> {
  const readText = (path: string) => readFileSync(join(distDir, path), 'utf8');
  const sampleIds = (kind: string) => {
    const ids = (JSON.parse(readText(listFile(kind))) as { results: { url: string }[] }).results.map((r) => idOf(r.url));
    const picks = [ids[0], ids[1], ids[Math.floor(ids.length / 2)], ids.at(-1), ids.find((id) => id >= 10001)];
    return [...new Set(picks.filter((id): id is number => id !== undefined))];
  };
  const samples: Sample[] = [];
  let tenThousands = 0;
  for (const kind of routes.kinds) {
    const ids = sampleIds(kind);
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
  return { samples, tenThousands };
}

/** How the names are counted: at least this many samples of every kind. */
export const samplesPerKind = (distDir: string, kind: string) =>
  Math.min(3, (JSON.parse(readFileSync(join(distDir, listFile(kind)), 'utf8')) as { count: number }).count);

/**
 * Writes each sample as `<header><const value: <type> = <json>>` in `dir` and type-checks them
 * all strictly; the errors of each file by its name (a declaration file under its own name).
 */
export function typeCheck(dir: string, samples: Sample[], write: (sample: Sample) => string): Map<string, string[]> {
  const files = samples.map((s) => {
    const path = join(dir, `${s.file}.ts`);
    writeFileSync(path, write(s));
    return path;
  });
  const program = ts.createProgram(files, {
    strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ES2022,
    moduleResolution: ts.ModuleResolutionKind.Bundler, types: [], skipLibCheck: false, noUncheckedIndexedAccess: true,
  });
  const errors = new Map<string, string[]>();
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const name = d.file ? d.file.fileName.slice(dir.length + 1).replace(/\.(d\.)?ts$/, '') : '(global)';
    const list = errors.get(name) ?? [];
    list.push(ts.flattenDiagnosticMessageText(d.messageText, '\n').split('\n')[0]!.slice(0, 200));
    errors.set(name, list);
  }
  return errors;
}
