import { createResponder } from './edge/handler.ts';
import { diskReader } from './generator/preview/disk-reader.ts';
const dist = '.test-build/dist';
const urls = process.argv.slice(2);
const respond = createResponder(diskReader(dist), { baseUrl: 'http://localhost:8080/v2' });
for (const url of urls) {
  const t0 = performance.now();
  const r = await respond({ method: 'GET', url: `http://localhost:8080${url}`, headers: new Headers() });
  const first = performance.now() - t0;
  const times: number[] = [];
  for (let i = 0; i < 200; i++) { const t = performance.now(); await respond({ method: 'GET', url: `http://localhost:8080${url}`, headers: new Headers() }); times.push(performance.now() - t); }
  times.sort((a, b) => a - b);
  console.log(`${url} status ${r.status} bytes ${r.body?.byteLength}: first ${first.toFixed(1)} ms, warm p50 ${times[100]!.toFixed(2)} p99 ${times[198]!.toFixed(2)} ms`);
}
