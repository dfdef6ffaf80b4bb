import { parentPort, workerData } from 'node:worker_threads';
import { type Entry, writeClicks } from './clicks.ts';
import { openConnection } from './connection.ts';

/** The click writer's thread: one connection, one transaction per batch, answers in order. */
const conn = openConnection((workerData as { path: string }).path);

parentPort?.on('message', (message: { id: number; entries: Entry[] } | { close: true }) => {
  if ('close' in message) {
    conn.close();
    parentPort?.close();
    return;
  }
  try {
    writeClicks(conn, message.entries);
    parentPort?.postMessage({ id: message.id });
  } catch (error) {
    parentPort?.postMessage({
      id: message.id,
      error: error instanceof Error ? error.message : String(error),
    });
  }
});
