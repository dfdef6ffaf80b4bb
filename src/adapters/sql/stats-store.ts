/** Visit analytics read back on either dialect (stats-queries.ts), and the purge of old events. */

import {
  type EventFilter,
  keepsAll,
  type StatsRange,
  type StatsScope,
  type StoredStats,
} from '../../core/analytics/model.ts';
import { isUtc } from '../../core/analytics/stats-zone.ts';
import { DAY_MS } from '../../core/days.ts';
import type { StatsStore } from '../../core/ports/store.ts';
import { q, type Script, type ScriptRunner } from './script.ts';
import { eventStats } from './stats-events.ts';
import { HOURLY_SQL, hourlyParams } from './stats-hourly.ts';
import { checkedQuery, dailyStats, hourlyStats, touchedDays } from './stats-queries.ts';

/**
 * The stats of a scope and range; SQLite's reader threads run it too (readers.ts). Unfiltered UTC
 * days read the daily aggregates, unfiltered UTC hours the events as ever; a filter or a zone's
 * days read the events through stats-events.ts.
 */
export function* statsOf(scope: StatsScope, range: StatsRange, filter?: EventFilter): Script<StoredStats> {
  const { sql, id } = checkedQuery(scope, range);
  if (!keepsAll(filter) || !isUtc(range.zone)) {
    return yield* eventStats('linkId' in scope ? 'link' : 'workspace', id, range, filter, sql);
  }
  if (range.interval === 'day') {
    const days = [id, range.from / DAY_MS, range.to / DAY_MS];
    const series = yield q(sql.series, ...days);
    const breakdowns = yield q(sql.breakdowns, ...days);
    return dailyStats(series, breakdowns, yield q(sql.urls, ...days));
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
  stats(scope: StatsScope, range: StatsRange, filter?: EventFilter): Promise<StoredStats>;
  purge(beforeMs: number, nowMs: number): Promise<number>;
}

/** The stats as scripts on `runner`, on its own connections (PostgreSQL). */
export function scriptedStats(runner: ScriptRunner): Pick<StatsRuns, 'stats'> {
  return { stats: (scope, range, filter) => runner.read(statsOf(scope, range, filter)) };
}

export function statsStore(runs: StatsRuns): StatsStore {
  return {
    async stats(scope, range, filter) {
      // Refused here, as a RangeError, before the read goes to another thread.
      checkedQuery(scope, range);
      return runs.stats(scope, range, filter);
    },

    async purgeEvents(beforeMs, nowMs = Date.now()) {
      for (const time of [beforeMs, nowMs])
        if (!Number.isSafeInteger(time)) throw new RangeError(`not a time in epoch ms: ${time}`);
      return runs.purge(beforeMs, nowMs);
    },
  };
}
