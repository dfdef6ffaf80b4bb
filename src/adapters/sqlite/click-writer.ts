import { Worker } from 'node:worker_threads';
import { type Entry, writeClicks } from './clicks.ts';
import type { Connection } from './connection.ts';

/**
 * Click batches are written by a worker thread with its own connection to the same file (WAL lets
 * it write while the main thread reads): node:sqlite blocks its thread, and thousands of counter
 * updates a second would otherwise stall every redirect. An in-memory database has no second
 * connection, so there the batch is written in place.
 */
export interface ClickWriter {
  write(entries: Entry[]): Promise<void>;
  close(): Promise<void>;
}

interface Reply {
  id: number;
  error?: string;
}

export function inPlaceClickWriter(conn: Connection): ClickWriter {
  return {
    async write(entries) {
      writeClicks(conn, entries);
    },
    async close() {},
  };
}

export function threadClickWriter(path: string): ClickWriter {
  const worker = new Worker(new URL('./click-writer-worker.ts', import.meta.url), { workerData: { path } });
  const pending = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  let next = 0;
  // The thread keeps the process alive only while a write is under way.
  worker.unref();
  const settleAll = (error: Error) => {
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  };
  worker.on('message', (reply: Reply) => {
    const waiting = pending.get(reply.id);
    pending.delete(reply.id);
    if (pending.size === 0) worker.unref();
    if (reply.error === undefined) waiting?.resolve();
    else waiting?.reject(new Error(reply.error));
  });
  worker.on('error', (error) => settleAll(error));
  let exited = false;
  worker.on('exit', () => {
    exited = true;
    settleAll(new Error('the click writer thread stopped'));
  });

  return {
    write(entries) {
      const id = next++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.ref();
        worker.postMessage({ id, entries });
      });
    },
    async close() {
      if (exited) return;
      // Writes already posted are answered first: the thread handles messages in order.
      await new Promise<void>((resolve) => {
        worker.once('exit', () => resolve());
        worker.ref();
        worker.postMessage({ close: true });
      });
    },
  };
}
