import { parentPort, workerData } from 'node:worker_threads';
import { collectWhenIdle } from '../idle-collect.ts';
import { type Job, openWriterConnection, type Reply, received } from './click-writer.ts';
import { purgeSlice, writeClicks } from './write-clicks.ts';

/** The click writer's thread: one connection, one transaction per batch, answers in order. */
const conn = openWriterConnection((workerData as { path: string }).path);
// The checkpoint of what the main thread wrote while no click came (click-writer.ts).
setInterval(() => {
  try {
    conn.db.exec('PRAGMA wal_checkpoint(PASSIVE)');
  } catch {
    // Busy or closed: the next one will do.
  }
}, 10_000).unref();
// A burst of the long tail grows this thread's heap by tens of MB (batches of 100,000 events and
// their rows) that an idle isolate keeps; once no batch came for 10 s it is given back (~90 MB
// after a minute of the tail, docs/adr/053).
const idle = collectWhenIdle(10_000);
parentPort?.on('message', (message: { id: number; job: Job } | { close: true }) => {
  if ('close' in message) {
    conn.close();
    parentPort?.close();
    return;
  }
  const { id, job } = message;
  let reply: Reply;
  try {
    if (job.kind === 'write') {
      writeClicks(conn, received(job.batch));
      reply = { id };
    } else {
      const done = purgeSlice(conn, job.beforeMs, job.slice, job.from);
      reply = { id, count: done.purged, ...(done.next === undefined ? {} : { next: done.next }) };
    }
  } catch (error) {
    reply = { id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(reply);
  idle.busy();
});
