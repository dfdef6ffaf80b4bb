import type { Connection } from './connection.ts';

/** How long a queued write waits for the write lock, as SQLite's busy timeout would have. */
const LOCK_WAIT_MS = 5000;

interface Job {
  body: () => unknown;
  keep: (result: unknown) => boolean;
  resolve: (result: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * The writes of the main connection that requests wait on (creates, visits taken for a link with a
 * visit limit, key uses), queued and run together: the writes that reach it in one turn of the event
 * loop share one transaction and its one commit (the commit was the largest cost of a create), each
 * in its own savepoint, so one that fails or is refused rolls back only itself and the others see
 * exactly what one-after-another writes would (docs/adr/020). Every write is answered after the commit.
 *
 * When the click writer's thread holds the write lock (it writes a flush), the queue tries again a
 * millisecond later, the thread serving redirects meanwhile — SQLite's busy handler would sleep it in
 * steps of up to 100 ms — and writes that come in meanwhile join the batch (docs/adr/022). After the
 * busy timeout it waits as any write does, and fails as any write would.
 */
export function writeQueue(conn: Connection) {
  let queue: Job[] = [];
  /** The jobs of the transaction under way, taken from the queue when its body runs. */
  let running: Job[] = [];
  /** A drain is scheduled or waiting for the lock; since when. */
  let pendingSince: number | undefined;

  const runQueued = (): Array<{ result: unknown } | { error: unknown }> => {
    running = queue;
    queue = [];
    return running.map(({ body, keep }) => {
      conn.stmt('SAVEPOINT queued_write').run();
      try {
        const result = body();
        if (!keep(result)) conn.stmt('ROLLBACK TO queued_write').run();
        return { result };
      } catch (error) {
        conn.stmt('ROLLBACK TO queued_write').run();
        return { error };
      } finally {
        conn.stmt('RELEASE queued_write').run();
      }
    });
  };

  const drain = (): void => {
    let outcomes: ReturnType<typeof runQueued>;
    try {
      const now = conn.transactionNow(runQueued);
      if (now === undefined && Date.now() - (pendingSince ?? 0) < LOCK_WAIT_MS) {
        setTimeout(drain, 1);
        return;
      }
      outcomes = now === undefined ? conn.transaction(runQueued) : now.result;
    } catch (error) {
      // BEGIN or COMMIT failed: none of these is stored (if BEGIN failed, they are still queued).
      const failed = running.length > 0 ? running : queue.splice(0);
      running = [];
      pendingSince = undefined;
      for (const { reject } of failed) reject(error);
      return;
    }
    const done = running;
    running = [];
    pendingSince = undefined;
    done.forEach(({ resolve, reject }, i) => {
      const outcome = outcomes[i] as (typeof outcomes)[number];
      if ('result' in outcome) resolve(outcome.result);
      else reject(outcome.error);
    });
  };

  return {
    /**
     * Runs `body` in the next shared transaction; `keep(result)` false rolls its changes back (a
     * refused create) while still answering the result.
     */
    write<T>(body: () => T, keep: (result: T) => boolean = () => true): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        queue.push({
          body,
          keep: keep as (result: unknown) => boolean,
          resolve: resolve as (result: unknown) => void,
          reject,
        });
        if (pendingSince === undefined) {
          pendingSince = Date.now();
          setImmediate(drain);
        }
      });
    },
  };
}

export type WriteQueue = ReturnType<typeof writeQueue>;
