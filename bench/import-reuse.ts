/**
 * The import of the update bench's edit (three tables: a name, a base stat, a move's power)
 * with and without the previous records to take unchanged kinds from, in a scratch folder:
 *   node bench/import-reuse.ts
 * Prints each import's seconds and how many kinds it took as they were; checks that both wrote
 * the same bytes.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveConfig } from '../generator/config.ts';
import { runImport, type ImportOptions } from '../generator/import/import.ts';
import { importCodeHash } from '../generator/pipeline.ts';
import { editedTables } from './update.ts';

const scratch = mkdtempSync(join(tmpdir(), 'creature-import-reuse-bench-'));
try {
  const pinned = join(resolveConfig({}, {}).dataDir, 'csv');
  const edited = join(scratch, 'edited-csv');
  editedTables(pinned, edited);
  const codeHash = importCodeHash();
  const timed = (label: string, options: Omit<ImportOptions, 'inputHash' | 'codeHash'>) => {
    const started = performance.now();
    const result = runImport({ ...options, inputHash: 'bench', codeHash });
    console.log(`${label}: ${((performance.now() - started) / 1000).toFixed(2)} s (${result.reused} of ${result.kinds} kinds reused)`);
  };
  const none = join(scratch, 'no-records');
  timed('import of the pinned tables', { csvDir: pinned, recordsDir: join(scratch, 'pinned'), previousDir: none });
  timed('import of the edited tables, all kinds', { csvDir: edited, recordsDir: join(scratch, 'full'), previousDir: none });
  timed('import of the edited tables, reusing', { csvDir: edited, recordsDir: join(scratch, 'reused'), previousDir: join(scratch, 'pinned') });
  const differ = readdirSync(join(scratch, 'full')).filter((f) => !readFileSync(join(scratch, 'full', f)).equals(readFileSync(join(scratch, 'reused', f))));
  console.log(differ.length ? `differ: ${differ.join(', ')}` : 'the two imports of the edited tables wrote the same bytes');
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
