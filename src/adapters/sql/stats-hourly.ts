/**
 * Unfiltered hourly answers from the hourly rollup (docs/adr/041), in the row shape of the raw
 * read (stats-queries.ts `hourly`), so `hourlyStats` turns either into the same StoredStats:
 * ('hour', hour number, clicks, visitors) per hour, one ('visitors', '', unique visitors) row, and
 * (dimension, value, clicks) per breakdown row. Bots still come from the daily tables.
 */
import { HOUR_MS } from '../../core/days.ts';
import { q, type Script } from './script.ts';

function scopeSql(scope: 'link' | 'workspace'): string {
  const inHours = `${scope}_id = ? AND hour >= ? AND hour < ?`;
  // A range's unique visitors are the first sightings of its hours (each counted in one hour of
  // its day), so a range of whole days says what the daily tables say.
  return `SELECT 'hour' AS dimension, CAST(hour AS TEXT) AS value, clicks, visitors
      FROM ${scope}_hourly_clicks WHERE ${inHours} AND (clicks > 0 OR visitors > 0)
    UNION ALL SELECT 'visitors', '', COALESCE(SUM(visitors), 0), 0 FROM ${scope}_hourly_clicks WHERE ${inHours}
    UNION ALL SELECT dimension, value, SUM(clicks), 0 FROM ${scope}_hourly_stats WHERE ${inHours}
      GROUP BY dimension, value
    UNION ALL SELECT 'url', l.long_url, SUM(h.clicks), 0 ${urlsOf[scope]}
      AND h.hour >= ? AND h.hour < ? AND h.clicks > 0 GROUP BY l.long_url`;
}

/** Clicks per long URL (the UTM breakdowns, docs/adr/044), as the daily answer reads them per day. */
const urlsOf = {
  link: 'FROM link_hourly_clicks h JOIN links l ON l.id = h.link_id WHERE h.link_id = ?',
  workspace: 'FROM links l JOIN link_hourly_clicks h ON h.link_id = l.id WHERE l.workspace_id = ?',
} as const;

export const HOURLY_SQL = { link: scopeSql('link'), workspace: scopeSql('workspace') } as const;

/** The statement's parameters: the id and the range as hour numbers, once for each of its four parts. */
export function hourlyParams(id: number, from: number, to: number): number[] {
  const range = [id, from / HOUR_MS, to / HOUR_MS];
  return [...range, ...range, ...range, ...range];
}

/** The rollup tables, and the id column each is keyed by first. */
export const HOURLY_TABLES = [
  ['link_hourly_clicks', 'link_id'],
  ['link_hourly_stats', 'link_id'],
  ['workspace_hourly_clicks', 'workspace_id'],
  ['workspace_hourly_stats', 'workspace_id'],
] as const;

/** The first whole hour at or after a time: every hour before it ended by then. */
export const hoursBefore = (beforeMs: number) => Math.floor(beforeMs / HOUR_MS);

/**
 * PostgreSQL's purge of the rollup's hours that ended before a time, with the raw events'
 * (docs/adr/041): each table's BRIN index on `hour` finds them. SQLite's is sqlite/purge-hours.ts.
 */
export function* purgeHours(beforeMs: number): Script<void> {
  for (const [table] of HOURLY_TABLES) yield q(`DELETE FROM ${table} WHERE hour < ?`, hoursBefore(beforeMs));
}
