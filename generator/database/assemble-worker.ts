/**
 * A thread that makes the database (sqlite-file.ts `assembleDatabaseAside`): from the build
 * workers' parts, or from the items as a folder serves them (the dev loop's downloads, made again
 * beside the bulk files and the archive), their part in the caller's scratch folder.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { databaseTables } from './index.ts';
import { assembleDatabase, databaseFromItems, type AssembleJob, type AssembleReply } from './sqlite-file.ts';

const { path, gzipPath, parts, items, scratch, meta } = workerData as AssembleJob;
let reply: AssembleReply;
try {
  const file =
    items && scratch
      ? databaseFromItems({ path, gzipPath }, items, databaseTables(), meta, scratch)
      : assembleDatabase({ path, gzipPath }, parts ?? [], databaseTables(), meta);
  reply = { file };
} catch (error) {
  reply = { failure: error instanceof Error ? error.message : String(error), error };
}
parentPort?.postMessage(reply);
