/** Runs the dialect-neutral store scripts (adapters/sql/script.ts) on SQLite. */
import type { Row } from '../sql/rows.ts';
import { drive, type Script, type ScriptRunner, type Step } from '../sql/script.ts';
import type { Connection } from './connection.ts';
import type { WriteQueue } from './write-queue.ts';

/** Runs a script at once inside the transaction the caller holds open. */
export function runNow<T>(conn: Connection, script: Script<T>): T {
  return drive(script, stepper(conn));
}

// BEGIN IMMEDIATE holds the writer lock for the whole transaction: a workspace or host lock adds nothing.
const stepper =
  (conn: Connection) =>
  (step: Step): Row[] =>
    'lock' in step ? [] : (conn.stmt(step.sql).all(...step.params) as Row[]);

export function sqliteScripts(conn: Connection): ScriptRunner {
  const exec = stepper(conn);
  return {
    async read<T>(script: Script<T>) {
      return drive(script, exec);
    },
    async write<T>(script: Script<T>) {
      return conn.transaction(() => drive(script, exec));
    },
  };
}

/**
 * The same, its writes going through the main connection's write queue (write-queue.ts): work done
 * often beside the redirect (the webhooks' outbox) never holds the thread while the click writer's
 * thread has the write lock.
 */
export function queuedScripts(conn: Connection, writes: WriteQueue): ScriptRunner {
  const exec = stepper(conn);
  return {
    async read<T>(script: Script<T>) {
      return drive(script, exec);
    },
    write<T>(script: Script<T>) {
      return writes.write(() => drive(script, exec));
    },
  };
}
