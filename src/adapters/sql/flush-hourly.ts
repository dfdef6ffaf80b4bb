/**
 * The hourly rollup's rows of a checked flush (docs/adr/041), from the per-hour counts of the links'
 * events that flush-tally.ts makes once for both the daily and the hourly rows.
 */

import type { EventTable } from '../../core/analytics/event-table.ts';
import { DAY_MS, HOUR_MS } from '../../core/days.ts';
import type { CheckedBatch } from './flush-batch.ts';
import { type EventCounts, HOURS_A_DAY, type StatRow, Sums } from './flush-tally.ts';

/** [id, hour, clicks, new visitors] of link_hourly_clicks / workspace_hourly_clicks. */
export type HourRow = [number, number, number, number];
/** [id, hour, dimension, value, clicks] of link_hourly_stats / workspace_hourly_stats. */
export type HourStatRow = StatRow;

export interface HourlyWrites {
  linkHours: HourRow[];
  workspaceHours: HourRow[];
  linkStats: HourStatRow[];
  workspaceStats: HourStatRow[];
}

/**
 * The rollup rows: clicks per hour are the events of the hour; visitors are the first sightings,
 * counted in the hour the collector saw them first (NewVisitors.hour) or, when it does not say,
 * in the hour of the link's earliest event that day in the batch (else the batch's own time).
 */
export function hourlyWrites(
  batch: CheckedBatch,
  accountOf: ReadonlyMap<number, number>,
  counts: EventCounts,
): HourlyWrites {
  const links = new Sums<HourRow>();
  const workspaces = new Sums<HourRow>();
  for (const [linkId, hour, clicks] of counts.linkHourClicks) {
    links.add([linkId, hour, clicks, 0]);
    workspaces.add([accountOf.get(linkId) as number, hour, clicks, 0]);
  }
  // Only an entry without its hour (older callers) needs the links' earliest hours.
  const earliest = batch.visitors.some(({ hour }) => hour === null) ? earliestHours(batch.events) : undefined;
  for (const { linkId, day, hour, ofLink, ofWorkspace } of batch.visitors) {
    const workspaceId = accountOf.get(linkId);
    if (workspaceId === undefined) continue;
    const at =
      hour !== null
        ? day * HOURS_A_DAY + hour
        : (earliest?.get(`${linkId}:${day}`) ??
          Math.floor(Math.min(Math.max(batch.at, day * DAY_MS), (day + 1) * DAY_MS - 1) / HOUR_MS));
    if (ofLink > 0) links.add([linkId, at, 0, ofLink]);
    if (ofWorkspace > 0) workspaces.add([workspaceId, at, 0, ofWorkspace]);
  }
  return {
    linkHours: links.sorted(),
    workspaceHours: workspaces.sorted(),
    linkStats: counts.linkHourStats,
    workspaceStats: counts.workspaceHourStats.rows(batch.events.values),
  };
}

/** The earliest hour with an event of each link and day ("link:day"), of every link in the table. */
function earliestHours(table: EventTable): Map<string, number> {
  const earliest = new Map<string, number>();
  for (let i = 0; i < table.length; i++) {
    const hour = Math.floor(table.at(i) / HOUR_MS);
    const key = `${table.linkId(i)}:${Math.floor(hour / HOURS_A_DAY)}`;
    if (hour < (earliest.get(key) ?? Number.POSITIVE_INFINITY)) earliest.set(key, hour);
  }
  return earliest;
}
