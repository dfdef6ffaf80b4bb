import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

/**
 * One server per SQLite file (ADR 023): a second would keep its own caches, counters and
 * schedulers on the same data. The server holds an exclusive lock on `<file>.serving`, a small
 * database of its own, for its life; the operating system drops the lock with the process, so a
 * server killed without a goodbye never leaves a stale lock behind. Commands (`snip link …`) take no
 * such lock and keep working beside the server.
 */

export class ServedElsewhere extends Error {
  override name = 'ServedElsewhere';
}

const SQLITE_BUSY = 5;

/** Takes the lock of the file's server, or throws ServedElsewhere; returns what gives it back. */
export function holdServeLock(path: string): () => void {
  if (path === ':memory:' || path.startsWith('file:')) return () => {};
  mkdirSync(dirname(path), { recursive: true });
  const lock = new DatabaseSync(`${path}.serving`);
  try {
    lock.exec('PRAGMA busy_timeout = 0');
    lock.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    lock.close();
    if ((error as { errcode?: unknown }).errcode !== SQLITE_BUSY) throw error;
    throw new ServedElsewhere(
      `another snip server is serving ${path}: one server per SQLite file (several instances need PostgreSQL)`,
    );
  }
  return () => {
    if (lock.isOpen) lock.close();
  };
}
