/**
 * Worker for the cross-process-like test in sqlite.test.ts: opens its own handle on the file,
 * waits for the shared start signal, then stores the given links and posts back the kinds.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openSqliteStore } from '../../../src/adapters/sqlite/store.ts';
import type { NewLink } from '../../../src/core/entities.ts';

interface Job {
  path: string;
  links: NewLink[];
  start: SharedArrayBuffer;
}

const job = workerData as Job;
const store = openSqliteStore(job.path);
const start = new Int32Array(job.start);
Atomics.add(start, 1, 1);
Atomics.wait(start, 0, 0);
const kinds: string[] = [];
for (const link of job.links) kinds.push((await store.insertLinkWithinQuota(link)).kind);
await store.close();
parentPort?.postMessage(kinds);
