/**
 * Visit analytics (docs/api.md §9): what one human click leaves behind, and the stats the store
 * answers from it. Nothing here names a person: no address, no user agent, no full referrer URL;
 * the visitor is a keyed hash whose key lives one UTC day, in memory and Redis only (docs/adr/018).
 */

/** How much a click records: `full` (default), `minimal` (counts and days only), `off` (the total only). */
export type Tracking = 'full' | 'minimal' | 'off';

export type DeviceType = 'desktop' | 'mobile' | 'tablet' | 'other';
export type VisitSource = 'qr' | 'link';

/** The dimensions a click event carries. */
export const EVENT_DIMENSIONS = [
  'referrer',
  'country',
  'device',
  'os',
  'browser',
  'language',
  'source',
  // Last: a click of a link without an A/B test has '' here, which adds no breakdown row.
  'variant',
] as const;
/** The breakdowns of a stats answer, in the order it lists them; `bot` counts bot hits by kind. */
export const DIMENSIONS = [...EVENT_DIMENSIONS, 'bot'] as const;
export type Dimension = (typeof DIMENSIONS)[number];

/** Longest value kept for a dimension; longer values are cut (a referrer host is at most 253). */
export const DIMENSION_VALUE_MAX = 253;

/** One human click as stored: a raw event, kept ANALYTICS_RETENTION_DAYS (docs/api.md §9.2). */
export interface ClickEvent {
  linkId: number;
  workspaceId: number;
  /** Epoch ms (UTC). */
  at: number;
  /** Host of the Referer, lower case; `direct` when none (or not a URL). */
  referrer: string;
  /** ISO 3166-1 alpha-2; `ZZ` when unknown. */
  country: string;
  device: DeviceType;
  /** OS family (`Windows`, `iOS`, `Android`, …); `Other` when unknown. */
  os: string;
  /** Browser family (`Chrome`, `Firefox`, …); `Other` when unknown. */
  browser: string;
  /** Primary subtag of the first Accept-Language entry, lower case; `unknown` when none. */
  language: string;
  source: VisitSource;
  /** The A/B test's variant the click was sent to, '1' to '4'; '' or absent: the link had no test. */
  variant?: string;
  /**
   * HMAC-SHA256(secret of the event's UTC day, address + user agent), first 8 bytes as 16 hex digits.
   * Once the day's secret is gone it cannot be recomputed from anyone's address.
   */
  visitor: string;
}

/**
 * First sightings of visitors in one batch, as counted by the shared visitor sets (memory or
 * Redis): each adds to a day's unique visitors of a link or of an account.
 */
export interface NewVisitors {
  linkId: number;
  workspaceId: number;
  /** UTC day, YYYY-MM-DD. */
  day: string;
  /**
   * The UTC hour of that day (0–23) these visitors were first seen in, for the hourly rollup; when
   * absent, the hour of the link's earliest event of that day in the same batch (docs/adr/041).
   */
  hour?: number;
  /** Visitors first seen today on this link. */
  ofLink: number;
  /** Visitors first seen today on any link of the account. */
  ofWorkspace: number;
}

/** Bot hits of one link and day by kind (`crawler name`, `prefetch`, `head`, `no-agent`). */
export interface BotKindCount {
  linkId: number;
  day: string;
  kind: string;
  hits: number;
}

export type StatsInterval = 'hour' | 'day';

/**
 * A stats range: whole hours or whole days of `zone` (UTC when absent), `from` inclusive, `to`
 * exclusive, epoch ms. A zone's day may last 23 or 25 hours (core/analytics/stats-zone.ts).
 */
export interface StatsRange {
  from: number;
  to: number;
  interval: StatsInterval;
  /** An IANA zone; absent or `UTC`: UTC days, read from the daily aggregates when unfiltered. */
  zone?: string;
}

/**
 * What a filtered answer keeps (docs/api.md §19): every part given holds. Event columns compare
 * equal; a referrer source matches its hosts (referrer-sources.ts); UTM values are read from each
 * link's long URL; group, tag and domain name the link's (ids resolved by the caller).
 */
export interface EventFilter {
  equal: Partial<Record<(typeof EVENT_DIMENSIONS)[number], string>>;
  referrerSource?: { exact: string[]; prefixes: string[]; except: string[] };
  utm: Partial<Record<'utm_source' | 'utm_medium' | 'utm_campaign', string>>;
  groupId?: number;
  tag?: string;
  domainId?: number;
}

/** The part of a filter that keeps links (a group, a tag, a domain) rather than visits. */
export type LinkFilter = Pick<EventFilter, 'groupId' | 'tag' | 'domainId'>;

/** Whether a filter keeps every event (the answer can then come from the daily aggregates). */
export function keepsAll(filter: EventFilter | undefined): boolean {
  if (!filter) return true;
  const { equal, referrerSource, utm, groupId, tag, domainId } = filter;
  return (
    Object.keys(equal).length === 0 &&
    Object.keys(utm).length === 0 &&
    referrerSource === undefined &&
    groupId === undefined &&
    tag === undefined &&
    domainId === undefined
  );
}

export type StatsScope = { linkId: number } | { workspaceId: number };

export interface BreakdownRow {
  value: string;
  clicks: number;
}

/** The store's answer for a scope and range; breakdowns complete and sorted, clicks then value. */
export interface StoredStats {
  totals: { clicks: number; uniqueVisitors: number; botHits: number; qrScans: number };
  /**
   * Buckets with clicks or bot hits only, oldest first; `t` is the bucket's start, epoch ms — for
   * days of a zone other than UTC, the local midnight read as if it were UTC (the day number times
   * DAY_MS), which the answer maps to the instant.
   */
  series: Array<{ t: number; clicks: number; uniqueVisitors: number }>;
  breakdowns: Record<Dimension, BreakdownRow[]>;
  /**
   * Human clicks per long URL of the clicked links, at least of those whose URL may carry a UTM
   * parameter: the UTM breakdowns are read from these.
   */
  urls: BreakdownRow[];
}
