import { parentPort, workerData } from 'node:worker_threads';
import { collectWhenIdle } from '../idle-collect.ts';
import { type Job, type Reply, received } from './click-writer.ts';
import { openConnection } from './connection.ts';
import { purgeSlice, writeClicks } from './write-clicks.ts';

/** The click writer's thread: one connection, one transaction per batch, answers in order. */
const conn = openConnection((workerData as { path: string }).path);
// This thread alone checkpoints the WAL (the main connection is set not to): after 40,000 pages of
// it (160 MB) rather than SQLite's 1,000, so the pages every flush writes again (the ends of the
// event table and its indexes, hot links' daily rows, the B-trees' upper pages) are copied once per
// checkpoint, not once per flush (docs/adr/022, 053); and every 10 s, for what the main thread wrote
// while no click came. A reset WAL is cut back to 64 MB, so a burst does not leave 160 MB on disk.
// Its page cache is 64 MB rather than the 16 MB of the other connections: a flush of clicks spread
// over many links dirties tens of thousands of pages, which a smaller cache writes out mid-flush and
// reads back (-20% of this thread's CPU per click on the long tail; the cache grows only that far).
conn.db.exec('PRAGMA wal_autocheckpoint = 40000');
conn.db.exec('PRAGMA journal_size_limit = 67108864');
conn.db.exec('PRAGMA cache_size = -65536');
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
