// Lists the modules a Node process loads, for tests that assert what a process never loaded
// (test/fresh-clone.test.ts: `npm start`'s serving process loads none of the build's). Given to
// node with `--import`, its hook sees every module node resolves, and appends its URL to
// <MODULE_TRACE_DIR>/<pid>.txt: one file a process, child processes included.
import { register } from 'node:module';

const dir = process.env.MODULE_TRACE_DIR;
if (!dir) throw new Error('module-trace.mjs needs MODULE_TRACE_DIR, the folder to write the lists in');
register('./module-trace-hooks.mjs', import.meta.url, { data: { file: `${dir}/${process.pid}.txt` } });
