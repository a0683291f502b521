// Worker threads do not inherit tsx's loader from the main thread: register it, then load the
// TypeScript entry named in workerData.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
