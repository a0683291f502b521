/**
 * Real responses as typed TypeScript constants, and a type check of them: the project's own
 * `.d.ts` (test/types.test.ts) and the types openapi-typescript makes from the OpenAPI document
 * (test/openapi-tools.test.ts) are held to the same samples.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { servedItemText } from './files.ts';
import { listFile, metaFile, notFoundFile, pageFile, rootFile, subresourceFile, type Routes } from '../../contract/layout.ts';
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
 * A response with each array's elements of the same shape kept once: the first of each. Whether
 * TypeScript accepts a value for these types turns only on its shape (which keys, and whether each
 * value is an object, array, string, number, boolean or null): the response types hold no literal
 * types (schemas/output: only change reports and the 404 body, which are sampled whole). So the
 * check sees every kind of element a response holds, without checking a creature's 4,000
 * version-group details one by one: the samples were 3.5 MB of literals, most of the type checks' time.
 */
export function sameShapesOnce(json: string): string {
  return JSON.stringify(compact(JSON.parse(json) as unknown).value);
}

function compact(value: unknown): { value: unknown; shape: string } {
  if (value === null) return { value, shape: 'null' };
  if (Array.isArray(value)) {
    const kept = new Map<string, unknown>();
    for (const element of value) {
      const c = compact(element);
      if (!kept.has(c.shape)) kept.set(c.shape, c.value);
    }
    return { value: [...kept.values()], shape: `[${[...kept.keys()].sort().join('|')}]` };
  }
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    const shapes: string[] = [];
    for (const [key, v] of Object.entries(value)) {
      const c = compact(v);
      out[key] = c.value;
      shapes.push(`${JSON.stringify(key)}:${c.shape}`);
    }
    return { value: out, shape: `{${shapes.join(',')}}` };
  }
  return { value, shape: typeof value };
}

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
    for (const id of ids) samples.push({ file: `${kind}-${id}`, type: pascalCase(kind), json: sameShapesOnce(servedItemText(distDir, kind, id)) });
    for (const sub of routes.subresources[kind] ?? []) {
      for (const id of ids)
        samples.push({
          file: `${kind}-${id}-${sub}`,
          type: pascalCase(kind) + pascalCase(sub),
          json: sameShapesOnce(readText(subresourceFile(kind, id, sub))),
        });
    }
    samples.push({ file: `${kind}-page-0`, type: 'PaginatedList', json: readText(pageFile(kind, 0)) });
  }
  // a creature met somewhere: the encounters sampled above may all be empty lists
  const encounters = join(distDir, subresourceFile('creature', 0, 'encounters'), '..');
  const met = readdirSync(encounters)
    .filter((f) => /^\d+\.json$/.test(f))
    .sort((a, b) => statSync(join(encounters, b)).size - statSync(join(encounters, a)).size)[0]!;
  samples.push({ file: `creature-most-encounters`, type: 'CreatureEncounters', json: sameShapesOnce(readFileSync(join(encounters, met), 'utf8')) });
  // computed pages (not files): a filtered one and one of an id-only kind
  for (const [name, path] of [
    ['page-q', '/v2/creature/?q=saur&limit=3&offset=1'],
    ['page-id-only', '/v2/evolution-chain/?limit=2&offset=7'],
  ] as const) {
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
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ES2022,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: [],
    skipLibCheck: false,
    skipDefaultLibCheck: true,
    noUncheckedIndexedAccess: true,
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
