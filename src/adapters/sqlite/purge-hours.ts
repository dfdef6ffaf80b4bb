/**
 * SQLite's purge of the hourly rollup's hours that ended before a time, on the click writer's
 * thread with the events' purge (docs/adr/041): id by id along each table's primary key (a skip
 * scan, no index on `hour` to keep up per write), one short transaction per id. The sweep asks
 * hourly and its time moves once a day, so a time already purged on this connection is skipped.
 */
import { HOURLY_TABLES, hoursBefore } from '../sql/stats-hourly.ts';
import type { Connection } from './connection.ts';

const purgedBefore = new WeakMap<Connection, number>();

export function purgeHours(conn: Connection, beforeMs: number): void {
  const hour = hoursBefore(beforeMs);
  if ((purgedBefore.get(conn) ?? Number.NEGATIVE_INFINITY) >= hour) return;
  for (const [table, id] of HOURLY_TABLES) {
    const next = `SELECT ${id} AS id FROM ${table} WHERE ${id} > ? ORDER BY ${id} LIMIT 1`;
    const purge = `DELETE FROM ${table} WHERE ${id} = ? AND hour < ?`;
    for (let at = -1; ; ) {
      const row = conn.stmt(next).get(at) as { id: number } | undefined;
      if (row === undefined) break;
      at = Number(row.id);
      conn.transaction(() => conn.stmt(purge).run(at, hour));
    }
  }
  purgedBefore.set(conn, hour);
}

/**
 * Whether a purge could find anything: an event or an hour of the rollup at all (a look at each
 * table's first row). A store that never counted a click answers false, and its server's hourly
 * sweep then does not start the click writer's thread (~40 MB) to find nothing (docs/adr/053).
 */
export function mayPurge(conn: Connection): boolean {
  for (const table of ['click_events', ...HOURLY_TABLES.map(([name]) => name)]) {
    if (conn.stmt(`SELECT 1 AS one FROM ${table} LIMIT 1`).get() !== undefined) return true;
  }
  return false;
}
