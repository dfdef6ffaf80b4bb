import { parentPort, workerData } from 'node:worker_threads';
import type { Job, Reply } from './click-writer.ts';
import { openConnection } from './connection.ts';
import { purgeEvents, writeClicks } from './write-clicks.ts';

/** The click writer's thread: one connection, one transaction per batch, answers in order. */
const conn = openConnection((workerData as { path: string }).path);

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
      writeClicks(conn, job.batch);
      reply = { id };
    } else reply = { id, count: purgeEvents(conn, job.beforeMs, job.slice) };
  } catch (error) {
    reply = { id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(reply);
});
