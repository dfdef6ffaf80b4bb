/**
 * The stats answer (StatsStore.stats) in SQL both adapters run, written with `?` placeholders
 * (PostgreSQL numbers them), and its rows turned into a StoredStats the same way on both.
 *
 * Daily answers read only the per-day tables; hourly answers read click_events over the range in
 * one statement: the range is read once into a materialized CTE, which each breakdown then scans
 * in memory, instead of eight trips through the index.
 */
import {
  type BreakdownRow,
  DIMENSIONS,
  type Dimension,
  EVENT_DIMENSIONS,
  type StatsRange,
  type StatsScope,
  type StoredStats,
} from '../../core/analytics/model.ts';
import { DAY_MS, HOUR_MS } from '../../core/days.ts';
import type { Row } from './rows.ts';

export interface ScopeSql {
  /** link_daily_clicks or workspace_daily_clicks. */
  days: string;
  /** Daily series and totals: day, clicks, visitors, bot_hits over [day, day). */
  series: string;
  /** Daily breakdowns: dimension, value, clicks summed over [day, day). */
  breakdowns: string;
  /** The `bot` breakdown over [day, day), for hourly answers (bots are not events). */
  bots: string;
  /** Bot hits over [day, day), for hourly answers. */
  botHits: string;
  /** Hourly: (dimension, value, clicks, visitors) rows over [at, at), see `hourlyRows`. */
  hourly: string;
  /**
   * Daily clicks per long URL of the clicked links over [day, day), for the UTM breakdowns: only
   * URLs that may carry a UTM parameter, so a workspace's links without one cost no probe of
   * link_daily_clicks.
   */
  urls: string;
}

/** Clicks per long URL of the events of `e` (a CTE with link_id). */
export const URL_PART = `SELECT 'url', l.long_url, COUNT(*), 0 FROM e JOIN links l ON l.id = e.link_id GROUP BY l.long_url`;

function scopeSql(scope: 'link' | 'workspace'): ScopeSql {
  const id = `${scope}_id`;
  const days = `${scope}_daily_clicks`;
  const stats = `${scope}_daily_stats`;
  const inDays = `${id} = ? AND day >= ? AND day < ?`;
  const hourlyParts = [
    `SELECT 'hour' AS dimension, CAST(at / ${HOUR_MS} AS TEXT) AS value, COUNT(*) AS clicks,
       COUNT(DISTINCT visitor) AS visitors FROM e GROUP BY at / ${HOUR_MS}`,
    // Unique visitors of a range are summed per day (an id lives one day): distinct (day, id) pairs.
    `SELECT 'visitors', '', COUNT(*), 0 FROM (SELECT DISTINCT at / ${DAY_MS} AS day, visitor FROM e) AS d`,
    ...EVENT_DIMENSIONS.map((dim) => `SELECT '${dim}', ${dim}, COUNT(*), 0 FROM e GROUP BY ${dim}`),
    URL_PART,
  ];
  const urlsOf =
    scope === 'link'
      ? `FROM link_daily_clicks d JOIN links l ON l.id = d.link_id WHERE d.link_id = ?`
      : `FROM links l JOIN link_daily_clicks d ON d.link_id = l.id WHERE l.workspace_id = ?`;
  return {
    days,
    series: `SELECT day, clicks, visitors, bot_hits FROM ${days}
      WHERE ${inDays} AND (clicks > 0 OR bot_hits > 0) ORDER BY day`,
    breakdowns: `SELECT dimension, value, SUM(clicks) AS clicks FROM ${stats}
      WHERE ${inDays} GROUP BY dimension, value`,
    bots: `SELECT value, SUM(clicks) AS clicks FROM ${stats}
      WHERE ${inDays} AND dimension = 'bot' GROUP BY value`,
    botHits: `SELECT COALESCE(SUM(bot_hits), 0) AS bot_hits FROM ${days} WHERE ${inDays}`,
    hourly: `WITH e AS MATERIALIZED (
        SELECT link_id, at, visitor, ${EVENT_DIMENSIONS.join(', ')} FROM click_events
        WHERE ${id} = ? AND at >= ? AND at < ?)
      ${hourlyParts.join('\n      UNION ALL ')}`,
    urls: `SELECT l.long_url AS value, SUM(d.clicks) AS clicks ${urlsOf}
      AND d.day >= ? AND d.day < ? AND d.clicks > 0 AND l.long_url LIKE '%utm%' GROUP BY l.long_url`,
  };
}

export const STATS_SQL = { link: scopeSql('link'), workspace: scopeSql('workspace') } as const;

/** The events older than a time, in slices, so a purge never holds the write lock for long. */
export const PURGE_SLICE = 10_000;

/** Which SQL and id a scope reads; RangeError for a malformed scope or range. */
export function checkedQuery(scope: StatsScope, range: StatsRange): { sql: ScopeSql; id: number } {
  const [kind, id] =
    'linkId' in scope ? (['link', scope.linkId] as const) : (['workspace', scope.workspaceId] as const);
  if (!Number.isSafeInteger(id) || id < 0) throw new RangeError(`not a ${kind} id: ${String(id)}`);
  const unit = range.interval === 'hour' ? HOUR_MS : range.interval === 'day' ? DAY_MS : 0;
  if (unit === 0) throw new RangeError(`not a stats interval: ${String(range.interval)}`);
  // A zone's days and hours start where its offset puts them: on a quarter hour at least.
  const step = range.zone === undefined || range.zone === 'UTC' ? unit : 15 * 60_000;
  for (const edge of [range.from, range.to]) {
    if (!Number.isSafeInteger(edge) || edge % step !== 0) {
      throw new RangeError(`stats range edge ${String(edge)} is not a whole ${range.interval} in epoch ms`);
    }
  }
  if (range.to < range.from) throw new RangeError('stats range ends before it starts');
  return { sql: STATS_SQL[kind], id };
}

/** The days a range touches, as [first, end) day numbers: an hour range's partial days count whole. */
export function touchedDays(range: StatsRange): [number, number] {
  return [Math.floor(range.from / DAY_MS), Math.ceil(range.to / DAY_MS)];
}

function emptyBreakdowns(): Record<Dimension, BreakdownRow[]> {
  return Object.fromEntries(DIMENSIONS.map((dim) => [dim, []])) as unknown as Record<
    Dimension,
    BreakdownRow[]
  >;
}

/** Clicks first, then value by code unit: the same order whatever the database's collation. */
export function sortBreakdown(rows: BreakdownRow[]): BreakdownRow[] {
  return rows.sort((a, b) => b.clicks - a.clicks || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
}

export function breakdownsFrom(rows: readonly Row[]): Record<Dimension, BreakdownRow[]> {
  const breakdowns = emptyBreakdowns();
  for (const row of rows) {
    const list = breakdowns[row.dimension as Dimension];
    // Events of links without an A/B test have the variant '': no variant at all.
    if (list && !(row.dimension === 'variant' && row.value === ''))
      list.push({ value: row.value as string, clicks: Number(row.clicks) });
  }
  for (const dim of DIMENSIONS) sortBreakdown(breakdowns[dim]);
  return breakdowns;
}

export const qrScans = (breakdowns: Record<Dimension, BreakdownRow[]>) =>
  breakdowns.source.find((row) => row.value === 'qr')?.clicks ?? 0;

const urlRows = (rows: readonly Row[]): BreakdownRow[] =>
  sortBreakdown(rows.map((row) => ({ value: String(row.value), clicks: Number(row.clicks) })));

/** A daily answer from the `series`, `breakdowns` and `urls` rows. */
export function dailyStats(
  seriesRows: readonly Row[],
  breakdownRows: readonly Row[],
  urls: readonly Row[] = [],
): StoredStats {
  const totals = { clicks: 0, uniqueVisitors: 0, botHits: 0, qrScans: 0 };
  const series = seriesRows.map((row) => {
    const [clicks, uniqueVisitors] = [Number(row.clicks), Number(row.visitors)];
    totals.clicks += clicks;
    totals.uniqueVisitors += uniqueVisitors;
    totals.botHits += Number(row.bot_hits);
    return { t: Number(row.day) * DAY_MS, clicks, uniqueVisitors };
  });
  const breakdowns = breakdownsFrom(breakdownRows);
  totals.qrScans = qrScans(breakdowns);
  return { totals, series, breakdowns, urls: urlRows(urls) };
}

/**
 * An hourly answer from the `hourly` rows, plus bot hits and their kinds from the daily tables over
 * the days the range touches: bots are never events, so an hour range reports its whole days' bots.
 */
export function hourlyStats(rows: readonly Row[], botRows: readonly Row[], botHits: number): StoredStats {
  const series: StoredStats['series'] = [];
  let uniqueVisitors = 0;
  const rest: Row[] = [];
  const urls: Row[] = [];
  for (const row of rows) {
    if (row.dimension === 'url') urls.push(row);
    else if (row.dimension === 'hour') {
      series.push({
        t: Number(row.value) * HOUR_MS,
        clicks: Number(row.clicks),
        uniqueVisitors: Number(row.visitors),
      });
    } else if (row.dimension === 'visitors') uniqueVisitors = Number(row.clicks);
    else rest.push(row);
  }
  series.sort((a, b) => a.t - b.t);
  const breakdowns = breakdownsFrom(rest);
  breakdowns.bot = sortBreakdown(
    botRows.map((row) => ({ value: row.value as string, clicks: Number(row.clicks) })),
  );
  const clicks = series.reduce((sum, bucket) => sum + bucket.clicks, 0);
  return {
    totals: { clicks, uniqueVisitors, botHits, qrScans: qrScans(breakdowns) },
    series,
    breakdowns,
    urls: urlRows(urls),
  };
}
