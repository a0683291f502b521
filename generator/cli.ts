#!/usr/bin/env node
/** The command line: `fetch-data`, `data-update`, `cut`, `import`, `build`, `serve` and `dev` (what `npm run fetch-data|import|build` and `npm start` call). */
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { Command } from 'commander';
import { dataCacheDir, lockPath, outDirOf, resolveConfig, sharedRoot, type ConfigOptions } from './config.ts';
import type { UpdateRequest } from './update/index.ts';
import { ensureDataSet, fetchCommand } from './fetch/index.ts';
import { buildCommandArgs, buildInChild } from './build-in-child.ts';
import { debugAsked, failureText, problemsFileOf } from './failure-text.ts';
import { buildStep, consoleLog, importStep, inputHashes, isBuildCurrent } from './pipeline.ts';
import { startPreview } from './preview/index.ts';

const program = new Command('creature-api')
  .description('Builds the creature reference API as static files and serves them.')
  .option('--data <dir>', 'the upstream data set (csv/ and media/); env DATA_DIR', undefined)
  .option('--base-url <url>', 'the base URL links carry, ending in /v2; env BASE_URL (default http://localhost:8080/v2)')
  .option('--out <dir>', 'the output folder; env OUT_DIR (default dist)')
  .option('--verbose', 'on a failure, print its stack with its causes after the message; env DEBUG=1');

const config = () => resolveConfig(program.opts<ConfigOptions>());
/** A list of problems left by an earlier failure is not this run's: a run that fails again writes its own. */
const forgetProblems = (outDir: string): void => rmSync(problemsFileOf(outDir), { force: true });
/** Whether a failure prints its stack: `--verbose`, or DEBUG set. */
const verbose = (): boolean => program.opts<{ verbose?: boolean }>().verbose === true || debugAsked();

program
  .command('fetch-data')
  .description('download the pinned upstream tables into data/upstream/ and verify them (import and build do it when they need to)')
  .option('--force', 'download again even when the cache is complete')
  .action(async (opts: { force?: boolean }) => {
    await fetchCommand(dataCacheDir, consoleLog, opts.force ?? false);
    const c = config();
    if (c.dataDir !== dataCacheDir)
      consoleLog.info(
        `note: builds read ${c.dataDir} (${c.dataSource === 'given' ? '--data / DATA_DIR' : 'the team copy at the pinned commit'}), which comes first`,
      );
  });

program
  .command('data-update')
  .description('move the pin to another upstream commit: new lock, tables checked, import, build, change report; all or nothing')
  .option('--commit <sha>', 'the upstream commit to move to (40 hex)')
  .option('--latest', "the head of the upstream's default branch (DATA_LATEST_URL)")
  .option('--tree <file>', "take the tables' hashes from this TREE.txt instead of the upstream's git-trees listing (DATA_TREE_URL)")
  .option('--tables <dir>', 'take the tables from this data folder (its csv/) instead of downloading the archive (DATA_URL)')
  .action(async (opts: UpdateRequest) => {
    if (!opts.commit && !opts.latest && !opts.tree) throw new Error('data:update needs --commit SHA, --latest or --tree FILE');
    const c = config();
    const { runUpdate } = await import('./update/index.ts');
    await runUpdate(opts, { lockPath, cacheDir: dataCacheDir, sharedRoot, config: c }, consoleLog);
  });

program
  .command('cut')
  .description('write a small, consistent data set: a few creatures and everything they reference (generator/cut/rules.ts), from the pinned tables')
  .option('--to <dir>', 'where to write it (replaced whole)', 'data/cut')
  .action(async (opts: { to: string }) => {
    const c = config();
    await ensureDataSet(c, consoleLog);
    const { writeCut, cutLine } = await import('./cut/index.ts');
    const to = resolve(opts.to);
    const started = performance.now();
    const summary = writeCut(c.dataDir, to);
    for (const { table, kept, of } of summary.rows) if (kept < of) consoleLog.info(`  ${table}: ${kept} of ${of} rows`);
    consoleLog.info(
      `cut: ${cutLine(summary)} in ${((performance.now() - started) / 1000).toFixed(1)} s, written to ${to} (every table whole unless listed above)`,
    );
    consoleLog.info(`try it: DATA_DIR=${opts.to} npm run dev`);
  });

program
  .command('import')
  .description('read and check the upstream tables, write canonical records to data/records/')
  .option('--force', 'import even when the records are up to date')
  .action(async (opts: { force?: boolean }) => {
    const c = config();
    forgetProblems(c.outDir);
    await ensureDataSet(c, consoleLog);
    await importStep(c, inputHashes(c).records, consoleLog, opts.force ?? false);
  });

program
  .command('build')
  .description('import if needed, then write every response under dist/v2/')
  .option('--force', 'build even when dist/ is up to date')
  .action(async (opts: { force?: boolean }) => {
    const c = config();
    forgetProblems(c.outDir);
    await ensureDataSet(c, consoleLog);
    const hashes = inputHashes(c);
    await importStep(c, hashes.records, consoleLog);
    await buildStep(c, hashes.build, consoleLog, opts.force ?? false);
  });

program
  .command('serve', { isDefault: false })
  .description('build if needed (in a child process), then serve dist/ at http://localhost:PORT')
  .option('--port <port>', 'the port; env PORT (default 8080)')
  .action(async (opts: { port?: string }) => {
    const c = resolveConfig({ ...program.opts<ConfigOptions>(), ...(opts.port ? { port: opts.port } : {}) });
    // this process only serves: what a build touches would stay with it (1.7 GB peak, 400 MB kept)
    if (isBuildCurrent(c)) consoleLog.info('build: dist/ is up to date');
    else {
      // the child printed its own failure, as `npm run build` does; its exit code is ours
      const code = await buildInChild(buildCommandArgs(c, program.opts<ConfigOptions>().data, verbose()), consoleLog);
      if (code !== 0) {
        process.exitCode = code;
        return;
      }
    }
    const preview = await startPreview({ root: c.outDir, baseUrl: c.baseUrl, port: c.port, host: '0.0.0.0' });
    console.log(`serving ${c.outDir} at ${preview.url.replace('0.0.0.0', 'localhost')}/v2/`);
  });

program
  .command('dev')
  .description('serve like serve, and rebuild what a saved change of the data set reaches')
  .option('--port <port>', 'the port; env PORT (default 8080)')
  .action(async (opts: { port?: string }) => {
    const c = resolveConfig({ ...program.opts<ConfigOptions>(), ...(opts.port ? { port: opts.port } : {}) });
    // loaded here: serving alone does not need the planner
    const { startDev } = await import('./dev/index.ts');
    const dev = await startDev(c);
    // the planner keeps a spare copy of dist/ (hard links) beside it: removed on the way out
    process.once('SIGINT', () => void dev.close().then(() => process.exit(130)));
  });

try {
  await program.parseAsync();
} catch (e) {
  console.error(await failureText(e, { problemsFile: problemsFileOf(outDirOf(program.opts<ConfigOptions>())), verbose: verbose() }));
  process.exitCode = 1;
}
