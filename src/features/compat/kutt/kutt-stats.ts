import type { BreakdownRow, StatsRange, StoredStats } from '../../../core/analytics/model.ts';
import { DAY_MS, HOUR_MS } from '../../../core/days.ts';
import type { CompatDeps } from '../compat-deps.ts';

/**
 * Kutt's link stats (server/queries/visit.queries.js) from Snip's: for the last day (24 hours), week
 * (7 days), month (30 days) and year (12 months), the views of each hour, day or month, oldest first,
 * and the browsers, systems, countries and referrers in Kutt's own names. Buckets are whole UTC
 * hours, days and calendar months, the current one last; the hours come from the raw visits, which
 * are kept at least a day (ANALYTICS_RETENTION_DAYS), the rest from the daily counts, kept as long
 * as the link.
 */

export interface KuttStat {
  name: string;
  value: number;
}

export interface KuttPeriod {
  stats: { browser: KuttStat[]; os: KuttStat[]; country: KuttStat[]; referrer: KuttStat[] };
  views: number[];
  total: number;
}

export interface KuttStats {
  lastYear: KuttPeriod;
  lastDay: KuttPeriod;
  lastMonth: KuttPeriod;
  lastWeek: KuttPeriod;
  updatedAt: string;
}

/** Kutt's browser and system families, each always listed (0 when none). */
const BROWSERS = ['chrome', 'edge', 'firefox', 'ie', 'opera', 'other', 'safari'] as const;
const SYSTEMS = ['android', 'ios', 'linux', 'macos', 'other', 'windows'] as const;

function browserOf(name: string): string {
  const family = name.toLowerCase();
  if (family.includes('edge')) return 'edge';
  if (family.includes('explorer') || family === 'ie') return 'ie';
  if (family.includes('firefox')) return 'firefox';
  if (family.includes('opera')) return 'opera';
  if (family.includes('chrom')) return 'chrome';
  if (family.includes('safari')) return 'safari';
  return 'other';
}

function systemOf(name: string): string {
  const family = name.toLowerCase().replace(/\s/g, '');
  if (family.includes('windows')) return 'windows';
  if (family.includes('macos') || family.includes('osx')) return 'macos';
  if (family === 'ios') return 'ios';
  if (family.includes('android')) return 'android';
  if (family.includes('linux')) return 'linux';
  return 'other';
}

/** Kutt stores a country in lower case, "unknown" when there is none. */
const countryOf = (code: string) => (code === 'ZZ' ? 'unknown' : code.toLowerCase());

/** Kutt keeps a referrer's host without "www.", its dots written "[dot]"; "direct" for none. */
const referrerOf = (host: string) =>
  host === 'direct' ? host : host.replace('www.', '').replace(/\./g, '[dot]');

/** Rows summed under Kutt's names, most first; `fixed` names are listed even at 0, in that order. */
function summed(
  rows: readonly BreakdownRow[],
  nameOf: (value: string) => string,
  fixed: readonly string[] = [],
) {
  const sums = new Map<string, number>(fixed.map((name) => [name, 0]));
  for (const row of rows) {
    const name = nameOf(row.value);
    sums.set(name, (sums.get(name) ?? 0) + row.clicks);
  }
  return [...sums].map(([name, value]) => ({ name, value })).sort((a, b) => b.value - a.value);
}

interface Period {
  range: StatsRange;
  buckets: number;
  /** The bucket of a series point's start. */
  bucketOf: (t: number) => number;
}

function periods(now: number): Record<'lastDay' | 'lastWeek' | 'lastMonth' | 'lastYear', Period> {
  const hour = now - (now % HOUR_MS);
  const today = now - (now % DAY_MS);
  const date = new Date(today);
  const [year, month] = [date.getUTCFullYear(), date.getUTCMonth()];
  const firstMonth = Date.UTC(year, month - 11, 1);
  const monthIndex = (t: number) => {
    const day = new Date(t);
    return (day.getUTCFullYear() - year) * 12 + day.getUTCMonth() - month + 11;
  };
  const days = (count: number): Period => ({
    range: { from: today - (count - 1) * DAY_MS, to: today + DAY_MS, interval: 'day' },
    buckets: count,
    bucketOf: (t) => (t - (today - (count - 1) * DAY_MS)) / DAY_MS,
  });
  return {
    lastDay: {
      range: { from: hour - 23 * HOUR_MS, to: hour + HOUR_MS, interval: 'hour' },
      buckets: 24,
      bucketOf: (t) => (t - (hour - 23 * HOUR_MS)) / HOUR_MS,
    },
    lastWeek: days(7),
    lastMonth: days(30),
    lastYear: {
      range: { from: firstMonth, to: today + DAY_MS, interval: 'day' },
      buckets: 12,
      bucketOf: monthIndex,
    },
  };
}

function kuttPeriod(stored: StoredStats, period: Period): KuttPeriod {
  const views: number[] = new Array(period.buckets).fill(0);
  for (const point of stored.series) {
    const index = period.bucketOf(point.t);
    if (index >= 0 && index < views.length) views[index] = (views[index] ?? 0) + point.clicks;
  }
  const { breakdowns } = stored;
  return {
    stats: {
      browser: summed(breakdowns.browser, browserOf, BROWSERS),
      os: summed(breakdowns.os, systemOf, SYSTEMS),
      country: summed(breakdowns.country, countryOf),
      referrer: summed(breakdowns.referrer, referrerOf),
    },
    views,
    total: stored.totals.clicks,
  };
}

/** The four periods of one link's human visits, as Kutt answers them. */
export async function kuttStats(store: CompatDeps['store'], linkId: number, now: number): Promise<KuttStats> {
  const { lastDay, lastWeek, lastMonth, lastYear } = periods(now);
  const read = async (period: Period) => kuttPeriod(await store.stats({ linkId }, period.range), period);
  const [day, week, month, year] = await Promise.all([lastDay, lastWeek, lastMonth, lastYear].map(read));
  if (!day || !week || !month || !year) throw new Error('a stats period went missing');
  return {
    lastYear: year,
    lastDay: day,
    lastMonth: month,
    lastWeek: week,
    updatedAt: new Date(now).toISOString(),
  };
}
