import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { asOfListFiles } from '../generator/indexes/as-of-lists.ts';
const dist = '/tmp/tb-lead/dist';
const read = (rel: string) => { try { return readFileSync(join(dist, rel), 'utf8'); } catch { return null; } };
for (let i = 0; i < 3; i++) { const t = performance.now(); const files = asOfListFiles(read, 'https://x/v2'); console.log(files.length, (performance.now() - t).toFixed(0), 'ms'); }
