import { parentPort, workerData } from 'node:worker_threads';
import { collectWhenIdle } from '../idle-collect.ts';
import { openConnection } from './connection.ts';
import { type ReadJob, runRead } from './readers.ts';

/** A reader thread (readers.ts): its own connection, only reads, one job at a time, answers in order. */
const conn = openConnection((workerData as { path: string }).path);
conn.db.exec('PRAGMA query_only = ON');
// A page of links or a stats answer grows this thread's heap by what it read; once no read came
// for 10 s it is given back (docs/adr/053).
const idle = collectWhenIdle(10_000);
parentPort?.on('message', (message: { id: number; job: ReadJob }) => {
  idle.busy();
  try {
    parentPort?.postMessage({ id: message.id, result: runRead(conn, message.job) });
  } catch (error) {
    parentPort?.postMessage({
      id: message.id,
      error: error instanceof Error ? error.message : String(error),
    });
  }
});
