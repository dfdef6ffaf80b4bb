/** Visit analytics read back on PostgreSQL (sql/stats-queries.ts), and the purge of old events. */

import { DAY_MS } from '../../core/days.ts';
import type { StatsStore } from '../../core/ports/store.ts';
import { checkedQuery, dailyStats, hourlyStats, type ScopeSql, touchedDays } from '../sql/stats-queries.ts';
import { type Db, numbered, query } from './client.ts';

const PURGE_EVENTS = 'DELETE FROM click_events WHERE at < $1';

/** The shared statements, numbered `$1…` once per scope. */
const numberedSql = new Map<ScopeSql, Record<keyof ScopeSql, string>>();
function pg(sql: ScopeSql): Record<keyof ScopeSql, string> {
  let found = numberedSql.get(sql);
  if (!found) {
    found = Object.fromEntries(Object.entries(sql).map(([key, text]) => [key, numbered(text)])) as Record<
      keyof ScopeSql,
      string
    >;
    numberedSql.set(sql, found);
  }
  return found;
}

export function postgresStatsStore(db: Db): StatsStore {
  return {
    async stats(scope, range) {
      const checked = checkedQuery(scope, range);
      const sql = pg(checked.sql);
      const { id } = checked;
      if (range.interval === 'day') {
        const days = [id, range.from / DAY_MS, range.to / DAY_MS];
        const [series, breakdowns] = await Promise.all([
          query(db, sql.series, days),
          query(db, sql.breakdowns, days),
        ]);
        return dailyStats(series, breakdowns);
      }
      const days = [id, ...touchedDays(range)];
      const [rows, bots, botHits] = await Promise.all([
        query(db, sql.hourly, [id, range.from, range.to]),
        query(db, sql.bots, days),
        query(db, sql.botHits, days),
      ]);
      return hourlyStats(rows, bots, Number(botHits[0]?.bot_hits ?? 0));
    },

    async purgeEvents(beforeMs) {
      if (!Number.isSafeInteger(beforeMs)) throw new RangeError(`not a time in epoch ms: ${beforeMs}`);
      return (await query(db, PURGE_EVENTS, [beforeMs])).count;
    },
  };
}
