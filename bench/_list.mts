import { createResponder } from '../edge/handler.ts';
import { diskReader } from '../generator/preview/disk-reader.ts';
import { AS_OF_TARGETS } from './as-of.ts';
const dist = process.argv[3] ?? '/tmp/tb-lead/dist';
const meta = JSON.parse((await import('node:fs')).readFileSync(`${dist}/v2/meta.json`, 'utf8'));
const origin = new URL(meta.base_url).origin;
const path = AS_OF_TARGETS[Number(process.argv[2] ?? 4)]!.path;
const out: string[] = [];
for (let i = 0; i < 6; i++) {
  const respond = createResponder(diskReader(dist), { baseUrl: meta.base_url });
  const t = performance.now();
  const r = await respond({ method: 'GET', url: origin + path, headers: new Headers() });
  out.push(`${(performance.now() - t).toFixed(1)}${r.status === 200 ? '' : ` (${r.status})`}`);
}
console.log(`fresh handlers: ${out.join(', ')} ms`);
