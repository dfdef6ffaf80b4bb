import { Worker } from 'node:worker_threads';
import { type EventColumns, EventTable } from '../../core/analytics/event-table.ts';
import type { CheckedBatch } from '../sql/flush-batch.ts';
import { workerCalls } from '../worker-calls.ts';
import { type Connection, openConnection } from './connection.ts';
import { FIRST_ACCOUNT, purgeEvents, writeClicks } from './write-clicks.ts';

/**
 * Events a purge slice deletes in one transaction: 6 ms of the write lock (median, 13 ms at most)
 * with a workspace's events spread over the file among others' (10,000: 160 ms; docs/adr/042), so
 * a write of the main thread (a new link) never waits long behind it.
 */
export const SQLITE_PURGE_SLICE = 500;

/**
 * Click batches (and the purge of old events) are written by a worker thread with its own
 * connection to the same file (WAL lets it write while the main thread reads): node:sqlite blocks
 * its thread, and thousands of counter updates and events a second would otherwise stall every
 * redirect. An in-memory database has no second connection, so there the batch is written in place.
 */
export interface ClickWriter {
  write(batch: CheckedBatch): Promise<void>;
  /** Deletes events older than `beforeMs`; how many went. */
  purge(beforeMs: number): Promise<number>;
  close(): Promise<void>;
}

/**
 * What the thread is asked to do; it answers each with a Reply of the same id, in order. A write's
 * events travel as typed arrays moved to the thread, not copied, so even a large batch is one
 * message (the ClickBuffer bounds a batch to 65,536 events).
 */
export type Job =
  | { kind: 'write'; batch: PostedBatch }
  | { kind: 'purge'; beforeMs: number; slice: number; from: number };

/** A checked batch as posted: its events as columns (an EventTable's methods do not cross). */
export type PostedBatch = Omit<CheckedBatch, 'events'> & { events: EventColumns };

/** Posted as columns, whose arrays move to the thread instead of being copied. */
function posted(batch: CheckedBatch): { batch: PostedBatch; moved: ArrayBuffer[] } {
  const events = batch.events.toColumns();
  const moved = [events.links, events.accounts, events.at, events.codes].map(
    (column) => column.buffer as ArrayBuffer,
  );
  return { batch: { ...batch, events }, moved };
}

/** The batch of a write as the thread sees it again. */
export function received(batch: PostedBatch): CheckedBatch {
  return { ...batch, events: EventTable.fromColumns(batch.events) };
}

export interface Reply {
  id: number;
  error?: string;
  /** Rows purged, for a purge slice. */
  count?: number;
  /** Where the purge goes on, for a slice that did not finish it. */
  next?: number;
}

/**
 * The click writer thread's connection (click-writer-worker.ts; the bench's writer phase opens the
 * same). This thread alone checkpoints the WAL (the main connection is set not to): after 40,000
 * pages of it (160 MB) rather than SQLite's 1,000, so the pages every flush writes again (the ends of
 * the event table and its indexes, hot links' daily rows, the B-trees' upper pages) are copied once
 * per checkpoint, not once per flush (docs/adr/022, 053); and every 10 s, for what the main thread
 * wrote while no click came. A reset WAL is cut back to 64 MB, so a burst does not leave 160 MB on
 * disk. Its page cache is 64 MB rather than the 16 MB of the other connections: a flush of clicks
 * spread over many links dirties tens of thousands of pages, which a smaller cache writes out
 * mid-flush and reads back (-20% of this thread's CPU per click on the long tail; the cache grows
 * only that far).
 */
export function openWriterConnection(path: string): Connection {
  const conn = openConnection(path);
  conn.db.exec('PRAGMA wal_autocheckpoint = 40000');
  conn.db.exec('PRAGMA journal_size_limit = 67108864');
  conn.db.exec('PRAGMA cache_size = -65536');
  return conn;
}

export function inPlaceClickWriter(conn: Connection): ClickWriter {
  return {
    async write(batch) {
      writeClicks(conn, batch);
    },
    async purge(beforeMs) {
      return purgeEvents(conn, beforeMs, SQLITE_PURGE_SLICE);
    },
    async close() {},
  };
}

/**
 * The thread starts with the first batch or purge, not with the store: a store that never counts a
 * click (a command, a test, a server before its first visitor) never pays for it. `started` runs
 * then, on this thread, before the thread's first job. A thread that stopped (its isolate out of
 * memory, say) is replaced by the next job, so clicks are written again rather than held until the
 * process ends; a batch under way when it stopped fails, and the click buffer keeps it for the next
 * flush. `onThread` sees each thread started.
 */
export function threadClickWriter(
  path: string,
  started: () => void = () => {},
  onThread: (worker: Worker) => void = () => {},
): ClickWriter {
  let thread: { worker: Worker; calls: ReturnType<typeof workerCalls<Reply>> } | undefined;
  let closed = false;
  const calls = () => {
    if (closed) throw new Error('the click writer is closed');
    if (!thread || thread.calls.exited) {
      started();
      const worker = new Worker(new URL('./click-writer-worker.ts', import.meta.url), {
        workerData: { path },
      });
      // The thread keeps the process alive only while a job is under way.
      thread = { worker, calls: workerCalls<Reply>(worker, 'the click writer thread stopped') };
      onThread(worker);
    }
    return thread.calls;
  };
  const run = (job: Job, moved: ArrayBuffer[] = []) => calls().call({ job }, moved);

  return {
    async write(batch) {
      const { batch: whole, moved } = posted(batch);
      await run({ kind: 'write', batch: whole }, moved);
    },
    /** One job per slice: batches posted meanwhile are written between them, in order. */
    async purge(beforeMs) {
      let purged = 0;
      for (let from: number | undefined = FIRST_ACCOUNT; from !== undefined; ) {
        const done = await run({ kind: 'purge', beforeMs, slice: SQLITE_PURGE_SLICE, from });
        purged += done.count ?? 0;
        from = done.next;
      }
      return purged;
    },
    async close() {
      closed = true;
      if (!thread || thread.calls.exited) return;
      const { worker } = thread;
      // Jobs already posted are answered first: the thread handles messages in order.
      await new Promise<void>((resolve) => {
        worker.once('exit', () => resolve());
        worker.ref();
        worker.postMessage({ close: true });
      });
    },
  };
}
