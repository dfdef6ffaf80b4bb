import { Worker } from 'node:worker_threads';
import { type EventColumns, EventTable } from '../../core/analytics/event-table.ts';
import type { CheckedBatch } from '../sql/flush-batch.ts';
import { workerCalls } from '../worker-calls.ts';
import type { Connection } from './connection.ts';
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
 * then, on this thread, before the thread's first job.
 */
export function threadClickWriter(path: string, started: () => void = () => {}): ClickWriter {
  let thread: { worker: Worker; calls: ReturnType<typeof workerCalls<Reply>> } | undefined;
  const calls = () => {
    if (!thread) {
      started();
      const worker = new Worker(new URL('./click-writer-worker.ts', import.meta.url), {
        workerData: { path },
      });
      // The thread keeps the process alive only while a job is under way.
      thread = { worker, calls: workerCalls<Reply>(worker, 'the click writer thread stopped') };
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
