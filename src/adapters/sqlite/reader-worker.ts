import { parentPort, workerData } from 'node:worker_threads';
import { openConnection } from './connection.ts';
import { type ReadJob, runRead } from './readers.ts';

/** A reader thread (readers.ts): its own connection, only reads, one job at a time, answers in order. */
const conn = openConnection((workerData as { path: string }).path);
conn.db.exec('PRAGMA query_only = ON');
parentPort?.on('message', (message: { id: number; job: ReadJob }) => {
  try {
    parentPort?.postMessage({ id: message.id, result: runRead(conn, message.job) });
  } catch (error) {
    parentPort?.postMessage({
      id: message.id,
      error: error instanceof Error ? error.message : String(error),
    });
  }
});
