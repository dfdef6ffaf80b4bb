/** One SQLite handle with its prepared-statement cache and write transactions. */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';

export interface Connection {
  readonly db: DatabaseSync;
  /** The statement for this SQL, prepared on first use and reused after. */
  stmt(sql: string): StatementSync;
  /**
   * Runs `body` inside BEGIN IMMEDIATE (the write lock is taken up front, so two handles
   * serialise here, waiting up to busy_timeout). Commits when `commitIf(result)` holds,
   * rolls back otherwise or when `body` throws.
   */
  transaction<T>(body: () => T, commitIf?: (result: T) => boolean): T;
  /**
   * The same, but only if the write lock is free now: undefined, and nothing run, when another
   * connection holds it. A thread that must not sleep waits for it by trying again later.
   */
  transactionNow<T>(body: () => T): { result: T } | undefined;
  close(): void;
}

const SQLITE_BUSY = 5;
const BUSY_TIMEOUT_MS = 5000;
const SQLITE_CONSTRAINT_UNIQUE = 2067;
const SQLITE_CONSTRAINT_PRIMARYKEY = 1555;
const UNIQUE_PREFIX = 'UNIQUE constraint failed: ';

export function openConnection(path: string): Connection {
  if (path !== ':memory:' && !path.startsWith('file:')) mkdirSync(dirname(path), { recursive: true });
  const db = new DatabaseSync(path);
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = NORMAL');
  db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
  db.exec('PRAGMA foreign_keys = ON');
  // Up to 16 MiB of pages per connection (the default is 2 MB): the hot index pages of a large
  // links table stay in memory, while the process stays small (the redirect cache holds hot links).
  db.exec('PRAGMA cache_size = -16384');

  const cache = new Map<string, StatementSync>();
  const stmt = (sql: string): StatementSync => {
    let statement = cache.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      cache.set(sql, statement);
    }
    return statement;
  };
  const inTransaction = <T>(body: () => T, commitIf: (result: T) => boolean): T => {
    try {
      const result = body();
      stmt(commitIf(result) ? 'COMMIT' : 'ROLLBACK').run();
      return result;
    } catch (error) {
      if (db.isTransaction) stmt('ROLLBACK').run();
      throw error;
    }
  };
  return {
    db,
    stmt,
    transaction(body, commitIf = () => true) {
      // Prepared once like any statement: exec() would compile BEGIN and COMMIT on every call.
      stmt('BEGIN IMMEDIATE').run();
      return inTransaction(body, commitIf);
    },
    transactionNow(body) {
      // SQLite's busy handler sleeps the thread, in steps of up to 100 ms: not for this BEGIN.
      stmt('PRAGMA busy_timeout = 0').run();
      try {
        stmt('BEGIN IMMEDIATE').run();
      } catch (error) {
        if ((error as { errcode?: unknown }).errcode === SQLITE_BUSY) return undefined;
        throw error;
      } finally {
        stmt(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`).run();
      }
      return { result: inTransaction(body, () => true) };
    },
    close() {
      cache.clear();
      if (db.isOpen) db.close();
    },
  };
}

/**
 * True when `error` is a unique violation on exactly these columns, as SQLite names them
 * (`links.code`, or `links.workspace_id, links.url_hash`).
 */
export function isUniqueViolation(error: unknown, ...columns: string[]): boolean {
  if (!(error instanceof Error)) return false;
  const errcode = (error as { errcode?: unknown }).errcode;
  if (errcode !== SQLITE_CONSTRAINT_UNIQUE && errcode !== SQLITE_CONSTRAINT_PRIMARYKEY) return false;
  if (!error.message.startsWith(UNIQUE_PREFIX)) return false;
  const named = error.message.slice(UNIQUE_PREFIX.length).split(', ');
  return named.length === columns.length && columns.every((column) => named.includes(column));
}
