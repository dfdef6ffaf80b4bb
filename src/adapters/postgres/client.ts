/** The pooled `postgres` client, its number handling, transactions and error tests. */
import postgres from 'postgres';

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

/** Runs `text` (with `$1…` placeholders) as a prepared statement, reused per connection. */
export async function query(db: Queryable, text: string, params: readonly Param[] = []): Promise<Rows> {
  return db.unsafe(text, params as postgres.ParameterOrJSON<number>[], { prepare: true });
}

export interface PoolOptions {
  /** Connections in the pool; default 10. */
  max?: number;
}

/**
 * A pool on `url`. Connection parameters can travel in the URL's query
 * (`?search_path=snip&application_name=snip`), postgres.js passes unknown ones to the server.
 */
export function openPool(url: string, options: PoolOptions = {}): Db {
  return postgres(url, {
    max: options.max ?? 10,
    prepare: true,
    types: { int8: int8AsNumber },
    // CREATE … IF NOT EXISTS and friends send notices; the default prints them to stdout.
    onnotice: () => {},
    connection: { application_name: 'snip' },
  });
}

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
  try {
    return (await db.begin(async (tx) => {
      const result = await body(tx);
      if (!commitIf(result)) throw new Rollback(result);
      return result;
    })) as T;
  } catch (error) {
    if (error instanceof Rollback) return error.result as T;
    throw error;
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
