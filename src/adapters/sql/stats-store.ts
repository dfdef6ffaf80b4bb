/** Visit analytics read back on either dialect (stats-queries.ts), and the purge of old events. */

import type { StatsRange, StatsScope, StoredStats } from '../../core/analytics/model.ts';
import { DAY_MS } from '../../core/days.ts';
import type { StatsStore } from '../../core/ports/store.ts';
import { q, type Script, type ScriptRunner } from './script.ts';
import { HOURLY_SQL, hourlyParams } from './stats-hourly.ts';
import { checkedQuery, dailyStats, hourlyStats, touchedDays } from './stats-queries.ts';

/** The stats of a scope and range; SQLite's reader threads run it too (readers.ts). */
export function* statsOf(scope: StatsScope, range: StatsRange): Script<StoredStats> {
  const { sql, id } = checkedQuery(scope, range);
  if (range.interval === 'day') {
    const days = [id, range.from / DAY_MS, range.to / DAY_MS];
    const series = yield q(sql.series, ...days);
    return dailyStats(series, yield q(sql.breakdowns, ...days));
  }
  const days = [id, ...touchedDays(range)];
  const rows = yield q(
    HOURLY_SQL['linkId' in scope ? 'link' : 'workspace'],
    ...hourlyParams(id, range.from, range.to),
  );
  const bots = yield q(sql.bots, ...days);
  const [botHits] = yield q(sql.botHits, ...days);
  return hourlyStats(rows, bots, Number(botHits?.bot_hits ?? 0));
}

/**
 * Where a dialect runs the stats and the purge. The purge is each dialect's own (docs/adr/042):
 * PostgreSQL drops day partitions whole (postgres/event-partitions.ts), SQLite deletes in slices on
 * the click writer's thread (sqlite/click-writer.ts).
 */
export interface StatsRuns {
  stats(scope: StatsScope, range: StatsRange): Promise<StoredStats>;
  purge(beforeMs: number, nowMs: number): Promise<number>;
}

/** The stats as scripts on `runner`, on its own connections (PostgreSQL). */
export function scriptedStats(runner: ScriptRunner): Pick<StatsRuns, 'stats'> {
  return { stats: (scope, range) => runner.read(statsOf(scope, range)) };
}

export function statsStore(runs: StatsRuns): StatsStore {
  return {
    async stats(scope, range) {
      // Refused here, as a RangeError, before the read goes to another thread.
      checkedQuery(scope, range);
      return runs.stats(scope, range);
    },

    async purgeEvents(beforeMs, nowMs = Date.now()) {
      for (const time of [beforeMs, nowMs])
        if (!Number.isSafeInteger(time)) throw new RangeError(`not a time in epoch ms: ${time}`);
      return runs.purge(beforeMs, nowMs);
    },
  };
}
