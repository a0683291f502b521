// The resolve hook of module-trace.mjs (it runs on Node's hooks thread): every URL resolved,
// appended to the process's list. A module is loaded once per URL it resolves to.
import { appendFileSync } from 'node:fs';

let file = '';

export function initialize(data) {
  file = data.file;
}

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  appendFileSync(file, `${resolved.url}\n`);
  return resolved;
}
