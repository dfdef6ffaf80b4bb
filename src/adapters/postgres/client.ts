/** The pooled `postgres` client, its number handling, transactions and error tests. */
import postgres from 'postgres';
import { UnavailableError } from '../../core/errors.ts';

/**
 * int8 (ids, counts, epoch-ms times, `count(*)`) as a JS number, as the ports expect. Every value
 * Snip stores is far below 2^53; a larger one is refused rather than silently rounded.
 */
const int8AsNumber: postgres.PostgresType<number> = {
  to: 20,
  from: [20],
  serialize: (value: number) => String(value),
  parse: (raw: string) => {
    const value = Number(raw);
    if (!Number.isSafeInteger(value)) throw new RangeError(`int8 value ${raw} is beyond 2^53`);
    return value;
  },
};

export type Db = postgres.Sql<{ int8: number }>;
export type Tx = postgres.TransactionSql<{ int8: number }>;

import type { Row } from '../sql/rows.ts';

export type { Row };
/** The pool or an open transaction: anything that runs a query. */
export type Queryable = postgres.ISql<{ int8: number }>;
/**
 * A query parameter. Arrays hold only text, numbers and nulls: postgres.js types an array by its
 * first element, which works for those (the SQL's `$n::type[]` decides) but not for booleans or Buffers.
 */
export type Param = string | number | boolean | null | Buffer | readonly (string | number | null)[];

/** Rows, plus how many rows the statement touched (for UPDATE/DELETE without RETURNING). */
export type Rows = Row[] & { count: number };

/**
 * Errors that say the server cannot be reached or is going away (connection closed, refused, reset,
 * timed out; SQLSTATE classes 08 and 57P, too many connections) rather than that a statement failed.
 */
const UNREACHABLE = new Set([
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  '53300',
]);

function unreachable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    typeof code === 'string' && (UNREACHABLE.has(code) || code.startsWith('08') || code.startsWith('57P'))
  );
}

/** The same failure, as an UnavailableError (503) when the database could not be reached. */
function asUnavailable(error: unknown): unknown {
  if (!unreachable(error)) return error;
  return new UnavailableError('The database is unreachable; nothing was done.', 5, { cause: error });
}

/** Runs `text` (with `$1…` placeholders) as a prepared statement, reused per connection. */
export async function query(db: Queryable, text: string, params: readonly Param[] = []): Promise<Rows> {
  try {
    return await db.unsafe(text, params as postgres.ParameterOrJSON<number>[], { prepare: true });
  } catch (error) {
    throw asUnavailable(error);
  }
}

export interface PoolOptions {
  /** Connections in the pool; default 10. */
  max?: number;
  /** Seconds a new connection may take; default 30. */
  connectTimeoutSeconds?: number;
  /**
   * A transaction whose statements are done only after this many milliseconds rolls back instead of
   * committing: its caller has been told 503 by then (STORE_TIMEOUT_MS), and a link it stored anyway
   * would surprise the client who retries. Unbounded by default.
   */
  commitWithinMs?: number;
}

/** Each pool's commit deadline (see PoolOptions.commitWithinMs). */
const commitDeadlines = new WeakMap<Db, number>();

/**
 * A pool on `url`. Connection parameters can travel in the URL's query
 * (`?search_path=snip&application_name=snip`), postgres.js passes unknown ones to the server.
 */
export function openPool(url: string, options: PoolOptions = {}): Db {
  const db: Db = postgres(url, {
    max: options.max ?? 10,
    connect_timeout: options.connectTimeoutSeconds ?? 30,
    prepare: true,
    types: { int8: int8AsNumber },
    // CREATE … IF NOT EXISTS and friends send notices; the default prints them to stdout.
    onnotice: () => {},
    connection: { application_name: 'snip' },
  });
  if (options.commitWithinMs !== undefined) commitDeadlines.set(db, options.commitWithinMs);
  return db;
}

/** Thrown inside `sql.begin` when the statements finished too late to commit. */
class TooLate extends Error {}

/** Thrown inside `sql.begin` to roll back while still handing a result to the caller. */
class Rollback<T> extends Error {
  readonly result: T;
  constructor(result: T) {
    super('rollback');
    this.result = result;
  }
}

/**
 * Runs `body` in one transaction (READ COMMITTED, the server default). Commits when
 * `commitIf(result)` holds, rolls back otherwise or when `body` throws.
 */
export async function transaction<T>(
  db: Db,
  body: (tx: Tx) => Promise<T>,
  commitIf: (result: T) => boolean = () => true,
): Promise<T> {
  const started = Date.now();
  const commitWithin = commitDeadlines.get(db) ?? Number.POSITIVE_INFINITY;
  try {
    return (await db.begin(async (tx) => {
      const result = await body(tx);
      if (!commitIf(result)) throw new Rollback(result);
      if (Date.now() - started > commitWithin) throw new TooLate();
      return result;
    })) as T;
  } catch (error) {
    if (error instanceof Rollback) return error.result as T;
    if (error instanceof TooLate) {
      throw new UnavailableError('The database answered too late; nothing was stored.', 5, { cause: error });
    }
    throw asUnavailable(error);
  }
}

const UNIQUE_VIOLATION = '23505';

/** True when `error` is a unique violation of the named constraint or unique index. */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  return (
    error instanceof postgres.PostgresError &&
    error.code === UNIQUE_VIOLATION &&
    error.constraint_name === constraint
  );
}

/** A statement written with `?` placeholders (shared with SQLite), numbered `$1…` for PostgreSQL. */
export function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}
