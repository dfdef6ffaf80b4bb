import { Worker } from 'node:worker_threads';
import type { EventFilter, StatsRange, StatsScope, StoredStats } from '../../core/analytics/model.ts';
import type { LinkPage, LinkQuery } from '../../core/link-query.ts';
import type { LinkCsvAsk, LinkCsvPage } from '../../core/ports/store.ts';
import { countPerGroup } from '../sql/link-change-scripts.ts';
import { linkCsvPage } from '../sql/link-export.ts';
import { listLinks } from '../sql/link-scripts.ts';
import { statsOf } from '../sql/stats-store.ts';
import { type WorkerReply, workerCalls } from '../worker-calls.ts';
import type { Connection } from './connection.ts';
import { runNow } from './run-script.ts';

/**
 * The SQLite adapter's rule for reads that grow with the data (docs/adr/025): node:sqlite runs a
 * query on the thread that asks, so listings (a search is a scan), exports and stats run on reader
 * threads of their own over the WAL, each with its own connection, and the redirect's thread never
 * waits on one. A read sees every commit made before it was asked. An export's page is written as
 * CSV there too: the redirect's thread only passes its text on.
 */
export type ReadJob =
  | { kind: 'stats'; scope: StatsScope; range: StatsRange; filter?: EventFilter }
  | { kind: 'links'; workspaceId: number; query: LinkQuery }
  | { kind: 'perGroup'; workspaceId: number }
  | { kind: 'csv'; ask: LinkCsvAsk };

export interface Readers {
  stats(scope: StatsScope, range: StatsRange, filter?: EventFilter): Promise<StoredStats>;
  listLinks(workspaceId: number, query: LinkQuery): Promise<LinkPage>;
  countLinksPerGroup(workspaceId: number): Promise<Map<number, number>>;
  exportLinksPage(ask: LinkCsvAsk): Promise<LinkCsvPage>;
  close(): Promise<void>;
}

/** Runs a job on a connection: in a reader thread, or in place for a store in memory. */
export function runRead(
  conn: Connection,
  job: ReadJob,
): StoredStats | LinkPage | Map<number, number> | LinkCsvPage {
  if (job.kind === 'stats') return runNow(conn, statsOf(job.scope, job.range, job.filter));
  if (job.kind === 'perGroup') return runNow(conn, countPerGroup(job.workspaceId));
  if (job.kind === 'csv') return runNow(conn, linkCsvPage(job.ask));
  // The FTS5 trigram table of migration 021.
  return runNow(conn, listLinks(job.workspaceId, job.query, 'fts5'));
}

/** For `:memory:`, which no other connection can open: the reads run in place. */
export function inPlaceReaders(conn: Connection): Readers {
  return {
    stats: async (scope, range, filter) =>
      runRead(conn, { kind: 'stats', scope, range, filter }) as StoredStats,
    listLinks: async (workspaceId, query) => runRead(conn, { kind: 'links', workspaceId, query }) as LinkPage,
    countLinksPerGroup: async (workspaceId) =>
      runRead(conn, { kind: 'perGroup', workspaceId }) as Map<number, number>,
    exportLinksPage: async (ask) => runRead(conn, { kind: 'csv', ask }) as LinkCsvPage,
    async close() {},
  };
}

/**
 * `size` reader threads, started by the first read (a store that never lists or counts never pays
 * for them); each read goes to the one with the fewest waiting. `onThread` sees each thread started.
 */
export function threadReaders(
  path: string,
  size = 2,
  onThread: (worker: Worker) => void = () => {},
): Readers {
  type Thread = { worker: Worker; calls: ReturnType<typeof workerCalls<WorkerReply & { result: unknown }>> };
  let threads: Thread[] = [];
  let closed = false;
  const startOne = (): Thread => {
    const worker = new Worker(new URL('./reader-worker.ts', import.meta.url), { workerData: { path } });
    onThread(worker);
    return {
      worker,
      calls: workerCalls<WorkerReply & { result: unknown }>(worker, 'a reader thread stopped'),
    };
  };
  const start = (): Thread[] => Array.from({ length: size }, startOne);
  const read = async (job: ReadJob) => {
    if (closed) throw new Error('the reader threads are closed');
    if (threads.length === 0) threads = start();
    // A thread that stopped (out of memory on a huge read, say) is replaced, not asked again.
    threads = threads.map((thread) => (thread.calls.exited ? startOne() : thread));
    const idle = threads.reduce((best, thread) =>
      thread.calls.waiting < best.calls.waiting ? thread : best,
    );
    return (await idle.calls.call({ job })).result;
  };
  return {
    stats: async (scope, range, filter) =>
      (await read({ kind: 'stats', scope, range, filter })) as StoredStats,
    listLinks: async (workspaceId, query) => (await read({ kind: 'links', workspaceId, query })) as LinkPage,
    countLinksPerGroup: async (workspaceId) =>
      (await read({ kind: 'perGroup', workspaceId })) as Map<number, number>,
    exportLinksPage: async (ask) => (await read({ kind: 'csv', ask })) as LinkCsvPage,
    async close() {
      closed = true;
      await Promise.all(threads.map((thread) => thread.worker.terminate()));
    },
  };
}
