import { DAY_MS, HOUR_MS } from '../days.ts';
import { DEFAULT_TIME_ZONE } from '../time-zone.ts';
import type { ConversionFigures } from './conversion-figures.ts';
import {
  DERIVED_KEYS,
  type DerivedDimension,
  type DerivedKey,
  derivedBreakdowns,
} from './derived-breakdowns.ts';
import {
  type BreakdownRow,
  DIMENSIONS,
  type Dimension,
  type StatsInterval,
  type StatsRange,
  type StoredStats,
} from './model.ts';
import { bucketStarts, dayStartIn, hourShift, isUtc, localDay, rfc3339In } from './stats-zone.ts';

/**
 * The stats answer (docs/api.md §9.4): which range a query asks for, and the store's numbers shaped
 * as the API, the dashboard and the CLI show them. Pure: no store, no HTTP.
 */

/** The default range: the last 30 UTC days, today included. */
export const DEFAULT_RANGE_DAYS = 30;
/** The longest range one query may ask for. */
export const MAX_RANGE_DAYS = 366;
/** Rows a breakdown lists before the rest is summed into `other`. */
export const TOP_ROWS = 50;

const DAY_ONLY = /^\d{4}-\d{2}-\d{2}$/;
// RFC 3339: a date, a time (hours 00-23), an offset (Z or ±hh:mm); fractions of a second allowed.
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt ]([01]\d|2[0-3]):\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;
const LATEST_MS = Date.UTC(9999, 11, 31);

export interface StatsQueryInput {
  from?: unknown;
  to?: unknown;
  interval?: unknown;
}

export type ParsedRange =
  | { kind: 'ok'; range: StatsRange }
  | { kind: 'invalid'; field: 'from' | 'to' | 'interval'; reason: string };

export interface RangeOptions {
  now: number;
  /** ANALYTICS_RETENTION_DAYS: hourly answers need raw events, which are kept this long. */
  retentionDays: number;
  /** The zone whose days and hours the range is in; UTC when absent. */
  zone?: string;
}

const invalid = (field: 'from' | 'to' | 'interval', reason: string): ParsedRange => ({
  kind: 'invalid',
  field,
  reason,
});
const floorTo = (ms: number, step: number) => ms - (((ms % step) + step) % step);

/** The start of a calendar day; NaN for one that is not (Date.parse rolls 2023-02-30 over). */
function dayStart(day: string): number {
  const ms = Date.parse(`${day}T00:00:00Z`);
  return Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 10) === day ? ms : Number.NaN;
}

/** A time as given: a day (its number) or an RFC 3339 date-time (its instant). */
function instant(value: unknown): { day: number } | { at: number } | undefined {
  if (typeof value !== 'string' || value.length > 40) return undefined;
  if (DAY_ONLY.test(value)) {
    const ms = dayStart(value);
    return Number.isFinite(ms) && ms >= 0 && ms <= LATEST_MS ? { day: ms / DAY_MS } : undefined;
  }
  const dateTime = DATE_TIME.exec(value);
  // The day of a date-time must be a calendar day too: Date.parse takes 2026-02-30T10:00:00Z.
  if (!dateTime || !Number.isFinite(dayStart(dateTime[1] ?? ''))) return undefined;
  const ms = Date.parse(value.toUpperCase().replace(' ', 'T'));
  return Number.isFinite(ms) && ms >= 0 && ms <= LATEST_MS ? { at: ms } : undefined;
}

/**
 * The range a query asks for: whole buckets of the zone (UTC by default), `from` rounded down and
 * `to` up (a day given as `to` includes that day; a day is the zone's, 23 to 25 hours). Refused: a
 * time that is not a day nor an RFC 3339 date-time, `from` after `to`, more than MAX_RANGE_DAYS,
 * and hours older than the retention (their events are gone).
 */
export function parseStatsRange(query: StatsQueryInput, options: RangeOptions): ParsedRange {
  const interval = query.interval === undefined ? 'day' : query.interval;
  if (interval !== 'day' && interval !== 'hour') return invalid('interval', 'interval is hour or day');
  const zone = options.zone ?? 'UTC';
  const shift = hourShift(options.now, zone);
  const floor = (at: number) =>
    interval === 'hour' ? floorTo(at - shift, HOUR_MS) + shift : dayStartIn(localDay(at, zone), zone);
  const ceil = (at: number) => {
    const down = floor(at);
    return down === at ? at : interval === 'hour' ? down + HOUR_MS : dayStartIn(localDay(at, zone) + 1, zone);
  };
  let to = dayStartIn(localDay(options.now, zone) + 1, zone);
  if (query.to !== undefined) {
    const given = instant(query.to);
    if (given === undefined) return invalid('to', 'to is a day (YYYY-MM-DD) or an RFC 3339 date-time');
    to = 'day' in given ? dayStartIn(given.day + 1, zone) : ceil(given.at);
  }
  // The default start keeps the default length whole buckets, whatever `to` was rounded to.
  let from =
    interval === 'hour'
      ? to - DEFAULT_RANGE_DAYS * DAY_MS
      : dayStartIn(localDay(to, zone) - DEFAULT_RANGE_DAYS, zone);
  if (query.from !== undefined) {
    const given = instant(query.from);
    if (given === undefined) return invalid('from', 'from is a day (YYYY-MM-DD) or an RFC 3339 date-time');
    from = 'day' in given ? dayStartIn(given.day, zone) : floor(given.at);
  }
  if (from >= to) return invalid('from', 'from must be before to');
  if (localDay(to - 1, zone) - localDay(from, zone) >= MAX_RANGE_DAYS)
    return invalid('to', `a range spans at most ${MAX_RANGE_DAYS} days`);
  if (interval === 'hour' && from < floorTo(options.now, DAY_MS) - options.retentionDays * DAY_MS) {
    return invalid('interval', `hourly stats reach back ${options.retentionDays} days; ask for interval=day`);
  }
  const range: StatsRange = { from: Math.max(from, 0), to, interval };
  return { kind: 'ok', range: isUtc(zone) ? range : { ...range, zone } };
}

/** The answer's name of each breakdown. */
export const BREAKDOWN_KEYS = {
  referrer: 'referrers',
  country: 'countries',
  device: 'devices',
  os: 'os',
  browser: 'browsers',
  language: 'languages',
  source: 'sources',
  variant: 'variants',
  bot: 'bots',
} as const satisfies Record<Dimension, string>;

export type BreakdownKey = (typeof BREAKDOWN_KEYS)[Dimension] | DerivedKey;

export interface StatsAnswer {
  from: string;
  to: string;
  interval: StatsInterval;
  /** The zone whose days and hours the buckets are. */
  timezone: string;
  totals: { clicks: number; unique_visitors: number; bot_hits: number; qr_scans: number };
  /** Every bucket of the range, oldest first, empty ones as 0. */
  series: Array<{ t: string; clicks: number; unique_visitors: number }>;
  /** Leads, sales and revenue (docs/api.md §20), once read beside the clicks. */
  conversions?: ConversionFigures;
  referrers: BreakdownRow[];
  countries: BreakdownRow[];
  devices: BreakdownRow[];
  os: BreakdownRow[];
  browsers: BreakdownRow[];
  languages: BreakdownRow[];
  sources: BreakdownRow[];
  /** Clicks per A/B test variant ('1' to '4'); [] for links that never had a test. */
  variants: BreakdownRow[];
  bots: BreakdownRow[];
  referrer_sources: BreakdownRow[];
  utm_sources: BreakdownRow[];
  utm_mediums: BreakdownRow[];
  utm_campaigns: BreakdownRow[];
  /** Set when the answer read raw events and the range starts before the oldest kept. */
  retained_from?: string;
  /** With `compare=previous`: the same figures for the period of equal length just before. */
  previous?: Omit<StatsAnswer, 'previous'>;
}

/** RFC 3339 UTC, whole seconds. */
export const rfc3339 = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;

const OTHER = 'other';
const byClicks = (a: BreakdownRow, b: BreakdownRow) =>
  b.clicks - a.clicks || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0);

/**
 * The top rows by clicks, the rest summed into one `other` row (only when there is a rest). A value
 * that is itself `other` (a device type, a host named so) joins the rest then, so no value is listed
 * twice.
 */
export function topRows(rows: readonly BreakdownRow[], top = TOP_ROWS): BreakdownRow[] {
  if (rows.length <= top) return rows.toSorted(byClicks);
  const named = rows.filter((row) => row.value !== OTHER).toSorted(byClicks);
  const rest = [...named.slice(top), ...rows.filter((row) => row.value === OTHER)];
  return [...named.slice(0, top), { value: OTHER, clicks: rest.reduce((sum, row) => sum + row.clicks, 0) }];
}

export function statsAnswer(stored: StoredStats, range: StatsRange): StatsAnswer {
  const zone = range.zone ?? DEFAULT_TIME_ZONE;
  // Zoned days come back keyed by their local midnight read as UTC (StoredStats.series).
  const key = (start: number) =>
    range.interval === 'day' && !isUtc(zone) ? localDay(start, zone) * DAY_MS : start;
  const byStart = new Map(stored.series.map((point) => [point.t, point]));
  const series = bucketStarts(range.from, range.to, range.interval, zone).map((start) => {
    const point = byStart.get(key(start));
    return {
      t: rfc3339In(start, zone),
      clicks: point?.clicks ?? 0,
      unique_visitors: point?.uniqueVisitors ?? 0,
    };
  });
  const breakdowns = Object.fromEntries(
    DIMENSIONS.map((dimension) => [BREAKDOWN_KEYS[dimension], topRows(stored.breakdowns[dimension] ?? [])]),
  ) as Record<(typeof BREAKDOWN_KEYS)[Dimension], BreakdownRow[]>;
  const derived = derivedBreakdowns(stored.breakdowns.referrer ?? [], stored.urls ?? []);
  return {
    from: rfc3339In(range.from, zone),
    to: rfc3339In(range.to, zone),
    interval: range.interval,
    timezone: zone,
    totals: {
      clicks: stored.totals.clicks,
      unique_visitors: stored.totals.uniqueVisitors,
      bot_hits: stored.totals.botHits,
      qr_scans: stored.totals.qrScans,
    },
    series,
    ...breakdowns,
    ...(Object.fromEntries(
      Object.entries(DERIVED_KEYS).map(([dimension, name]) => [
        name,
        topRows(derived[dimension as DerivedDimension]),
      ]),
    ) as Record<DerivedKey, BreakdownRow[]>),
  };
}
