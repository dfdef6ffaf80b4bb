import type { Row } from './rows.ts';

/**
 * A store operation written once for both dialects: a generator that yields its statements and
 * receives their rows. Each adapter runs it in its own way (SQLite synchronously inside BEGIN
 * IMMEDIATE, PostgreSQL awaiting each statement inside a transaction), so the logic of a
 * multi-statement change, such as "never remove the last owner", exists in one place. Statements
 * use `?` placeholders, `true`/`false` literals and RETURNING, which both dialects share.
 */

export type Param = string | number | null | Buffer;

export interface Query {
  sql: string;
  params: readonly Param[];
}

/**
 * Rows held until the transaction ends: its `SELECT … FOR UPDATE` runs on PostgreSQL, and SQLite skips
 * it, its writer lock already holding every row for the transaction.
 */
export interface Lock {
  lock: Query;
}

export type Step = Query | Lock;

export type Script<T> = Generator<Step, T, Row[]>;

export const q = (sql: string, ...params: Param[]): Query => ({ sql, params });

/** A workspace's row. */
export const lockWorkspace = (id: number): Lock => ({
  lock: q('SELECT id FROM workspaces WHERE id = ? FOR UPDATE', id),
});

/** Every domain row of a host, in id order: changes of one host's rows queue instead of deadlocking. */
export const lockHost = (host: string): Lock => ({
  lock: q('SELECT id FROM domains WHERE host = ? ORDER BY id FOR UPDATE', host),
});

/** A script of one statement: its rows. */
export function* rowsOf(sql: string, ...params: Param[]): Script<Row[]> {
  return yield q(sql, ...params);
}

/** Runs scripts: `read` outside any transaction, `write` in one transaction. */
export interface ScriptRunner {
  read<T>(script: Script<T>): Promise<T>;
  write<T>(script: Script<T>): Promise<T>;
}

/** Runs a script with `exec` answering each statement; a failing statement is thrown into the script. */
export function drive<T>(script: Script<T>, exec: (step: Step) => Row[]): T {
  let next = script.next(undefined as unknown as Row[]);
  while (!next.done) {
    let rows: Row[];
    try {
      rows = exec(next.value);
    } catch (error) {
      next = script.throw(error);
      continue;
    }
    next = script.next(rows);
  }
  return next.value;
}

/** The same, for a driver whose statements are awaited. */
export async function driveAsync<T>(script: Script<T>, exec: (step: Step) => Promise<Row[]>): Promise<T> {
  let next = script.next(undefined as unknown as Row[]);
  while (!next.done) {
    let rows: Row[];
    try {
      rows = await exec(next.value);
    } catch (error) {
      next = script.throw(error);
      continue;
    }
    next = script.next(rows);
  }
  return next.value;
}
