/** A thread that makes the database from the build workers' parts (sqlite-file.ts `assembleDatabaseAside`). */
import { parentPort, workerData } from 'node:worker_threads';
import { databaseTables } from './index.ts';
import { assembleDatabase, type AssembleJob, type AssembleReply } from './sqlite-file.ts';

const { path, gzipPath, parts, meta } = workerData as AssembleJob;
let reply: AssembleReply;
try {
  reply = { file: assembleDatabase({ path, gzipPath }, parts, databaseTables(), meta) };
} catch (error) {
  reply = { failure: error instanceof Error ? error.message : String(error), error };
}
parentPort?.postMessage(reply);
