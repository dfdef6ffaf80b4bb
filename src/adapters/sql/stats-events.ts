/**
 * Stats read from the raw events (docs/api.md §19, docs/adr/044): a filtered answer, or days of a
 * zone other than UTC. One statement as the hourly answer's: the range's events that pass the
 * filter are read once into a materialized CTE, each carrying its bucket, and every part of the
 * answer scans that. Plain SELECTs on click_events' columns, so a partitioned table reads the same.
 * Bots are never events: an unfiltered zoned answer counts the bots of the UTC days it touches, a
 * filtered one none (a bot hit has no country, referrer or link facts to filter on).
 */
import {
  EVENT_DIMENSIONS,
  type EventFilter,
  keepsAll,
  type StatsRange,
  type StoredStats,
} from '../../core/analytics/model.ts';
import { hourShift, isUtc, offsetSegments } from '../../core/analytics/stats-zone.ts';
import { UTM_FIELDS, utmOf } from '../../core/analytics/utm.ts';
import { DAY_MS, HOUR_MS } from '../../core/days.ts';
import type { Row } from './rows.ts';
import { type Param, q, type Script } from './script.ts';
import { breakdownsFrom, qrScans, URL_PART } from './stats-queries.ts';

type Kind = 'link' | 'workspace';

/** The bucket of an event: zone hours (shifted UTC hours) or the local day number. */
function bucketOf(range: StatsRange): { sql: string; params: Param[]; t: (n: number) => number } {
  const zone = range.zone ?? 'UTC';
  if (range.interval === 'hour') {
    const shift = hourShift(range.from, zone);
    return { sql: `(at - CAST(? AS BIGINT)) / ${HOUR_MS}`, params: [shift], t: (n) => n * HOUR_MS + shift };
  }
  const segments = offsetSegments(range.from, range.to, zone);
  const params: Param[] = [];
  let offset = 'CAST(? AS BIGINT)';
  if (segments.length > 1) {
    const whens = segments.slice(1).map((segment, k) => {
      params.push(segment.from, (segments[k] as { offset: number }).offset);
      return 'WHEN at < ? THEN CAST(? AS BIGINT)';
    });
    offset = `CASE ${whens.join(' ')} ELSE CAST(? AS BIGINT) END`;
  }
  params.push((segments.at(-1) as { offset: number }).offset);
  return { sql: `(at + ${offset}) / ${DAY_MS}`, params, t: (n) => n * DAY_MS };
}

const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The WHERE conditions of a filter past the scope and range, with their parameters. */
function conditionsOf(filter: EventFilter, workspaceOf: Param, linkIds: number[] | undefined) {
  const where: string[] = [];
  const params: Param[] = [];
  for (const dim of EVENT_DIMENSIONS) {
    const value = filter.equal[dim];
    if (value === undefined) continue;
    where.push(`${dim} = ?`);
    params.push(value);
  }
  const source = filter.referrerSource;
  if (source) {
    const any = [
      ...source.exact.map((host) => {
        params.push(host);
        return 'referrer = ?';
      }),
      ...source.prefixes.map((prefix) => {
        params.push(`${likeEscaped(prefix)}_%`);
        return "referrer LIKE ? ESCAPE '\\'";
      }),
    ];
    where.push(`(${any.join(' OR ') || '1 = 0'})`);
    for (const host of source.except) {
      where.push('referrer <> ?');
      params.push(host);
    }
  }
  if (filter.groupId !== undefined) {
    where.push('link_id IN (SELECT id FROM links WHERE workspace_id = ? AND group_id = ?)');
    params.push(workspaceOf, filter.groupId);
  }
  if (filter.domainId !== undefined) {
    where.push('link_id IN (SELECT id FROM links WHERE workspace_id = ? AND domain_id = ?)');
    params.push(workspaceOf, filter.domainId);
  }
  if (filter.tag !== undefined) {
    where.push('link_id IN (SELECT link_id FROM link_tags WHERE tag = ?)');
    params.push(filter.tag);
  }
  if (linkIds) {
    where.push(linkIds.length > 0 ? `link_id IN (${linkIds.map(() => '?').join(', ')})` : '1 = 0');
    params.push(...linkIds);
  }
  return { where, params };
}

/** The links whose long URL carries every UTM value asked for (read from the URLs, not stored). */
function* linksWithUtm(kind: Kind, id: number, utm: EventFilter['utm']): Script<number[]> {
  const [field] = UTM_FIELDS.filter((name) => utm[name] !== undefined);
  const rows: Row[] =
    kind === 'link'
      ? yield q('SELECT id, long_url FROM links WHERE id = ?', id)
      : yield q(
          "SELECT id, long_url FROM links WHERE workspace_id = ? AND long_url LIKE ? ESCAPE '\\'",
          id,
          `%${likeEscaped(`${field}=`)}%`,
        );
  return rows
    .filter((row) => {
      const found = utmOf(String(row.long_url));
      return UTM_FIELDS.every((name) => utm[name] === undefined || found[name] === utm[name]);
    })
    .map((row) => Number(row.id));
}

/** The answer of a scope and range read from its events through `filter`. */
export function* eventStats(
  kind: Kind,
  id: number,
  range: StatsRange,
  filter: EventFilter | undefined,
  days: { bots: string; botHits: string },
): Script<StoredStats> {
  const given = filter ?? { equal: {}, utm: {} };
  const linkIds = Object.keys(given.utm).length > 0 ? yield* linksWithUtm(kind, id, given.utm) : undefined;
  const bucket = bucketOf(range);
  const { where, params } = conditionsOf(given, id, linkIds);
  const parts = [
    `SELECT 'bucket' AS dimension, CAST(b AS TEXT) AS value, COUNT(*) AS clicks,
       COUNT(DISTINCT visitor) AS visitors FROM e GROUP BY b`,
    `SELECT 'visitors', '', COUNT(*), 0 FROM (SELECT DISTINCT at / ${DAY_MS} AS day, visitor FROM e) AS d`,
    ...EVENT_DIMENSIONS.map((dim) => `SELECT '${dim}', ${dim}, COUNT(*), 0 FROM e GROUP BY ${dim}`),
    URL_PART,
  ];
  const sql = `WITH e AS MATERIALIZED (
      SELECT link_id, at, visitor, ${EVENT_DIMENSIONS.join(', ')}, ${bucket.sql} AS b FROM click_events
      WHERE ${[`${kind}_id = ?`, 'at >= ?', 'at < ?', ...where].join(' AND ')})
    ${parts.join('\n    UNION ALL ')}`;
  const rows: Row[] = yield q(sql, ...bucket.params, id, range.from, range.to, ...params);
  const series: StoredStats['series'] = [];
  const urls: StoredStats['urls'] = [];
  const rest: Row[] = [];
  let uniqueVisitors = 0;
  for (const row of rows) {
    const clicks = Number(row.clicks);
    if (row.dimension === 'bucket') {
      series.push({ t: bucket.t(Number(row.value)), clicks, uniqueVisitors: Number(row.visitors) });
    } else if (row.dimension === 'visitors') uniqueVisitors = clicks;
    else if (row.dimension === 'url') urls.push({ value: String(row.value), clicks });
    else rest.push(row);
  }
  series.sort((a, b) => a.t - b.t);
  const breakdowns = breakdownsFrom(rest);
  let botHits = 0;
  if (keepsAll(filter)) {
    const touched = [id, Math.floor(range.from / DAY_MS), Math.ceil(range.to / DAY_MS)];
    const bots: Row[] = yield q(days.bots, ...touched);
    breakdowns.bot = bots
      .map((row) => ({ value: String(row.value), clicks: Number(row.clicks) }))
      .sort((a, b) => b.clicks - a.clicks || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
    const [hits] = yield q(days.botHits, ...touched);
    botHits = Number(hits?.bot_hits ?? 0);
  }
  const clicks = series.reduce((sum, point) => sum + point.clicks, 0);
  return {
    totals: { clicks, uniqueVisitors, botHits, qrScans: qrScans(breakdowns) },
    series,
    breakdowns,
    urls,
  };
}

/** Whether a range and filter are answered from the events rather than the daily aggregates. */
export const readsEvents = (range: StatsRange, filter: EventFilter | undefined) =>
  range.interval === 'hour' || !keepsAll(filter) || !isUtc(range.zone);
