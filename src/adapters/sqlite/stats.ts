/** Visit analytics read back on SQLite (sql/stats-queries.ts); the purge goes to the click writer. */

import type { StatsRange, StatsScope, StoredStats } from '../../core/analytics/model.ts';
import { DAY_MS } from '../../core/days.ts';
import type { StatsStore } from '../../core/ports/store.ts';
import { checkedQuery, dailyStats, hourlyStats, touchedDays } from '../sql/stats-queries.ts';
import type { Connection } from './connection.ts';

/** The stats of a scope and range, read on this connection's thread (a reader thread's: readers.ts). */
export function readStats(conn: Connection, scope: StatsScope, range: StatsRange): StoredStats {
  const { sql, id } = checkedQuery(scope, range);
  if (range.interval === 'day') {
    const days = [id, range.from / DAY_MS, range.to / DAY_MS];
    return dailyStats(conn.stmt(sql.series).all(...days), conn.stmt(sql.breakdowns).all(...days));
  }
  const days = [id, ...touchedDays(range)];
  const botHits = conn.stmt(sql.botHits).get(...days)?.bot_hits;
  return hourlyStats(
    conn.stmt(sql.hourly).all(id, range.from, range.to),
    conn.stmt(sql.bots).all(...days),
    Number(botHits ?? 0),
  );
}

export function sqliteStatsStore(
  readers: Pick<StatsStore, 'stats'>,
  purge: (beforeMs: number) => Promise<number>,
): StatsStore {
  return {
    async stats(scope, range) {
      // Refused here, as a RangeError, before the read goes to another thread.
      checkedQuery(scope, range);
      return readers.stats(scope, range);
    },

    async purgeEvents(beforeMs) {
      if (!Number.isSafeInteger(beforeMs)) throw new RangeError(`not a time in epoch ms: ${beforeMs}`);
      return purge(beforeMs);
    },
  };
}
