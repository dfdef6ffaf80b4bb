/**
 * The retention sweep on PostgreSQL, where click_events is partitioned by UTC day of `at` with a
 * DEFAULT partition (migration 023, docs/adr/042): each sweep makes the day partitions of today and
 * the next AHEAD_DAYS days, drops every partition wholly before the cut as a file, and deletes what
 * is left before it (rows the DEFAULT partition took, a cut inside a day) in bounded slices.
 *
 * Safe on a fleet: the partition changes run under a SHARE UPDATE EXCLUSIVE lock on click_events
 * taken with NOWAIT. That lock lets reads and inserts through but not a second sweeper, which finds
 * it held and leaves the work to the first; DDL waits at most LOCK_TIMEOUT for readers to finish,
 * else it is left to the next sweep (partitions are made days ahead, a day dropped an hour late).
 */
import { DAY_MS } from '../../core/days.ts';
import { PURGE_SLICE } from '../sql/stats-queries.ts';
import { type Db, type Queryable, query, transaction } from './client.ts';

/** Day partitions made ahead of today: a week without any sweep and still no insert in DEFAULT. */
export const AHEAD_DAYS = 7;
/** How long a partition change waits for a lock before it gives up until the next sweep. */
const LOCK_TIMEOUT = '1s';
/** lock_not_available: another sweeper holds the lock, or readers kept it past LOCK_TIMEOUT. */
const LOCK_NOT_AVAILABLE = '55P03';

interface Partition {
  /** Its name as SQL, quoted as needed. */
  name: string;
  /** Its range [from, to) of `at`; undefined for the DEFAULT partition. */
  range?: { from: number; to: number };
}

const BOUND = /FROM \('?(-?\d+)'?\) TO \('?(-?\d+)'?\)/;

async function partitions(db: Queryable): Promise<Partition[]> {
  const rows = await query(
    db,
    `SELECT c.oid::regclass::text AS name, pg_get_expr(c.relpartbound, c.oid) AS bound
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'click_events'::regclass ORDER BY 1`,
  );
  return rows.map((row) => {
    const bound = BOUND.exec(String(row.bound));
    const name = String(row.name);
    return bound ? { name, range: { from: Number(bound[1]), to: Number(bound[2]) } } : { name };
  });
}

/** The name of the partition of the UTC day starting at `from`, e.g. click_events_2026_03_01. */
export function dayPartitionName(from: number): string {
  return `click_events_${new Date(from).toISOString().slice(0, 10).replaceAll('-', '_')}`;
}

/**
 * Runs `body` holding the sweeper's lock; undefined when another sweeper holds it or a lock was not
 * had within LOCK_TIMEOUT (the transaction is rolled back, nothing changed).
 */
async function underSweepLock<T>(db: Db, body: (tx: Queryable) => Promise<T>): Promise<T | undefined> {
  try {
    return await transaction(db, async (tx) => {
      await tx.unsafe(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`);
      await tx.unsafe('LOCK TABLE click_events IN SHARE UPDATE EXCLUSIVE MODE NOWAIT');
      return body(tx);
    });
  } catch (error) {
    if ((error as { code?: unknown }).code === LOCK_NOT_AVAILABLE) return undefined;
    throw error;
  }
}

/**
 * Makes the missing day partitions from the day of `nowMs` to AHEAD_DAYS after it. Rows the DEFAULT
 * partition took for such a day (an event stamped ahead) move into the new partition first; it is
 * filled while standalone and then attached, which locks click_events only against other DDL.
 */
async function makeAhead(tx: Queryable, nowMs: number): Promise<void> {
  const held = await partitions(tx);
  const fallback = held.find((p) => !p.range);
  const today = nowMs - (((nowMs % DAY_MS) + DAY_MS) % DAY_MS);
  for (let day = 0; day <= AHEAD_DAYS; day++) {
    const from = today + day * DAY_MS;
    const to = from + DAY_MS;
    if (held.some((p) => p.range && p.range.from < to && p.range.to > from)) continue;
    const name = dayPartitionName(from);
    await tx.unsafe(`CREATE TABLE ${name} (LIKE click_events)`);
    if (fallback)
      await tx.unsafe(
        `WITH moved AS (DELETE FROM ${fallback.name} WHERE at >= ${from} AND at < ${to} RETURNING *)
          INSERT INTO ${name} SELECT * FROM moved`,
      );
    await tx.unsafe(`ALTER TABLE click_events ATTACH PARTITION ${name} FOR VALUES FROM (${from}) TO (${to})`);
  }
}

/** Drops every day partition wholly before `beforeMs`; how many events they held. */
async function dropExpired(tx: Queryable, beforeMs: number): Promise<number> {
  let dropped = 0;
  for (const p of await partitions(tx)) {
    if (!p.range || p.range.to > beforeMs) continue;
    const [counted] = await tx.unsafe(`SELECT COUNT(*) AS n FROM ${p.name}`);
    dropped += Number(counted?.n ?? 0);
    await tx.unsafe(`DROP TABLE ${p.name}`);
  }
  return dropped;
}

/**
 * Deletes the events before `beforeMs` left in partitions that are not wholly expired, `slice` rows
 * per statement (each its own transaction) found by a TID scan, so no statement runs long.
 */
async function deleteRest(db: Db, beforeMs: number, slice: number): Promise<number> {
  let deleted = 0;
  for (const p of await partitions(db)) {
    // Not yet started, or wholly expired: the latter are dropped whole, by this sweep or the next.
    if (p.range && (p.range.from >= beforeMs || p.range.to <= beforeMs)) continue;
    for (;;) {
      const gone = await query(
        db,
        `DELETE FROM ${p.name} WHERE ctid = ANY(ARRAY(SELECT ctid FROM ${p.name} WHERE at < $1 LIMIT $2))`,
        [beforeMs, slice],
      );
      deleted += gone.count;
      if (gone.count < slice) break;
    }
  }
  return deleted;
}

/**
 * The sweep: partitions made ahead of `nowMs`, events before `beforeMs` gone; how many went. A
 * sweep that finds another under way returns 0 and leaves it the work.
 */
export async function purgePartitionedEvents(
  db: Db,
  beforeMs: number,
  nowMs: number,
  slice: number = PURGE_SLICE,
): Promise<number> {
  // Two transactions: a drop kept waiting by a long read must not undo the partitions made ahead.
  const made = await underSweepLock(db, (tx) => makeAhead(tx, nowMs).then(() => true));
  if (made === undefined) return 0;
  const dropped = (await underSweepLock(db, (tx) => dropExpired(tx, beforeMs))) ?? 0;
  return dropped + (await deleteRest(db, beforeMs, slice));
}
