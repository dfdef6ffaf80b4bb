/**
 * The hourly rollup's rows of a checked flush (docs/adr/041), summed from the per-hour tallies of
 * the link's events that flush-rows.ts makes once for both the daily and the hourly rows.
 */

import { EVENT_DIMENSIONS } from '../../core/analytics/model.ts';
import { DAY_MS, HOUR_MS } from '../../core/days.ts';
import type { CheckedBatch } from './flush-batch.ts';
import { addTally, StatTally, Sums } from './flush-tally.ts';

/** [id, hour, clicks, new visitors] of link_hourly_clicks / workspace_hourly_clicks. */
export type HourRow = [number, number, number, number];
/** [id, hour, dimension, value, clicks] of link_hourly_stats / workspace_hourly_stats. */
export type HourStatRow = [number, number, string, string, number];

export interface HourlyWrites {
  linkHours: HourRow[];
  workspaceHours: HourRow[];
  linkStats: HourStatRow[];
  workspaceStats: HourStatRow[];
}

const HOURS_A_DAY = DAY_MS / HOUR_MS;
/** Every event has a value of the first dimension: the sum of its values is the events' count. */
const COUNTED = EVENT_DIMENSIONS[0];

/**
 * The rollup rows: clicks per hour are the events of the hour; visitors are the first sightings,
 * counted in the hour the collector saw them first (NewVisitors.hour) or, when it does not say,
 * in the hour of the link's earliest event that day in the batch (else the batch's own time).
 * `linkHours` holds each known link's events per (link id, hour number).
 */
export function hourlyWrites(
  batch: CheckedBatch,
  accountOf: ReadonlyMap<number, number>,
  linkHours: StatTally,
): HourlyWrites {
  const links = new Sums<HourRow>();
  const workspaces = new Sums<HourRow>();
  const add = (scope: Sums<HourRow>, id: number, hour: number, index: 2 | 3, amount: number) => {
    if (amount > 0) scope.add(`${id}:${hour}`, () => [id, hour, 0, 0], index, amount);
  };
  const workspaceStats = new StatTally();
  const earliest = new Map<string, number>();
  for (const [linkId, hour, tally] of linkHours.tallies()) {
    const workspaceId = accountOf.get(linkId) as number;
    let clicks = 0;
    for (const n of tally.get(COUNTED)?.values() ?? []) clicks += n;
    add(links, linkId, hour, 2, clicks);
    add(workspaces, workspaceId, hour, 2, clicks);
    const day = `${linkId}:${Math.floor(hour / HOURS_A_DAY)}`;
    if (hour < (earliest.get(day) ?? Number.POSITIVE_INFINITY)) earliest.set(day, hour);
    addTally(workspaceStats.of(workspaceId, hour), tally);
  }
  for (const { linkId, day, hour, ofLink, ofWorkspace } of batch.visitors) {
    const workspaceId = accountOf.get(linkId);
    if (workspaceId === undefined) continue;
    const at =
      hour !== null
        ? day * HOURS_A_DAY + hour
        : (earliest.get(`${linkId}:${day}`) ??
          Math.floor(Math.min(Math.max(batch.at, day * DAY_MS), (day + 1) * DAY_MS - 1) / HOUR_MS));
    add(links, linkId, at, 3, ofLink);
    add(workspaces, workspaceId, at, 3, ofWorkspace);
  }
  return {
    linkHours: links.sorted(),
    workspaceHours: workspaces.sorted(),
    linkStats: linkHours.rows(),
    workspaceStats: workspaceStats.rows(),
  };
}
