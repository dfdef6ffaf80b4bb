/**
 * A checked flush summed in memory the same way for both adapters, so each writes every row it
 * touches once: 10k identical clicks become one row per dimension and scope, not 70k upserts.
 */

import type { EventTable } from '../../core/analytics/event-table.ts';
import { DAY_MS } from '../../core/days.ts';
import type { CheckedBatch } from './flush-batch.ts';
import { type HourlyWrites, hourlyWrites } from './flush-hourly.ts';
import { compareStatRows, countEvents, mergeSorted, type StatRow, Sums, summedRows } from './flush-tally.ts';

/** [id, day, clicks, bot hits, new visitors] of link_daily_clicks / workspace_daily_clicks. */
export type DayRow = [number, number, number, number, number];
export type { StatRow };

export interface DailyWrites {
  linkDays: DayRow[];
  workspaceDays: DayRow[];
  linkStats: StatRow[];
  workspaceStats: StatRow[];
  /** The events of known links: their rows in the batch's table, and each one's account as stored. */
  events: { table: EventTable; rows: number[]; accounts: number[] };
  /** The hourly rollup's rows of both scopes (flush-hourly.ts). */
  hourly: HourlyWrites;
}

/** What a link gains on its own row: clicks, bot hits, new visitors, and its latest click (or null). */
export type LinkTotal = [number, number, number, number | null];

/**
 * The time of a link's latest click in a batch: its latest event's when the batch carries its
 * events (TRACKING=full), else the time the batch was handed over, kept within the day its clicks
 * were counted on (a count a failed write carried past midnight stays on its day).
 */
function countedUntil(batchAt: number, day: number | null): number {
  if (day === null) return batchAt;
  return Math.min(Math.max(batchAt, day * DAY_MS), (day + 1) * DAY_MS - 1);
}

/**
 * What each link named anywhere in the batch gains on its own row (LinkTotal), in ascending id
 * order (concurrent flushes then lock rows in the same order). A link named only by events or bot
 * kinds is listed with zeros, so its account is looked up all the same. Only human clicks move the
 * latest click: a link with bot hits alone keeps it.
 */
export function linkTotals(batch: CheckedBatch): Array<[number, LinkTotal]> {
  // [clicks, bot hits, new visitors, latest bound of its counts, latest event]; -1: none.
  const totals = new Map<number, [number, number, number, number, number]>();
  const at = (linkId: number) => {
    let total = totals.get(linkId);
    if (!total) {
      total = [0, 0, 0, -1, -1];
      totals.set(linkId, total);
    }
    return total;
  };
  for (const { linkId, day, clicks, botHits } of batch.counts) {
    const total = at(linkId);
    total[0] += clicks;
    total[1] += botHits;
    if (clicks > 0) total[3] = Math.max(total[3], countedUntil(batch.at, day));
  }
  for (const { linkId, ofLink } of batch.visitors) at(linkId)[2] += ofLink;
  const events = batch.events;
  for (let i = 0; i < events.length; i++) {
    const total = at(events.linkId(i));
    const clickedAt = events.at(i);
    if (clickedAt > total[4]) total[4] = clickedAt;
  }
  for (const { linkId } of batch.bots) at(linkId);
  return [...totals]
    .sort((a, b) => a[0] - b[0])
    .map(([id, [clicks, botHits, visitors, bound, latest]]) => [
      id,
      [clicks, botHits, visitors, clicks === 0 ? null : latest >= 0 ? latest : bound],
    ]);
}

/**
 * The daily rows of both scopes and the events, for the links `accountOf` knows (the others are
 * unknown and skipped, like their counts). Counts without a day (TRACKING=off) add no daily row.
 */
export function dailyWrites(batch: CheckedBatch, accountOf: ReadonlyMap<number, number>): DailyWrites {
  const linkDays = new Sums<DayRow>();
  const workspaceDays = new Sums<DayRow>();
  for (const { linkId, day, clicks, botHits } of batch.counts) {
    const workspaceId = accountOf.get(linkId);
    if (workspaceId === undefined || day === null || clicks + botHits === 0) continue;
    linkDays.add([linkId, day, clicks, botHits, 0]);
    workspaceDays.add([workspaceId, day, clicks, botHits, 0]);
  }
  for (const { linkId, day, ofLink, ofWorkspace } of batch.visitors) {
    const workspaceId = accountOf.get(linkId);
    if (workspaceId === undefined) continue;
    if (ofLink > 0) linkDays.add([linkId, day, 0, 0, ofLink]);
    if (ofWorkspace > 0) workspaceDays.add([workspaceId, day, 0, 0, ofWorkspace]);
  }

  // Events are counted per link and hour once; a day's stats are the sum of its hours'.
  const table = batch.events;
  const events: DailyWrites['events'] = { table, rows: [], accounts: [] };
  for (let i = 0; i < table.length; i++) {
    const workspaceId = accountOf.get(table.linkId(i));
    if (workspaceId === undefined) continue;
    events.rows.push(i);
    events.accounts.push(workspaceId);
  }
  const counts = countEvents(table, events.rows, events.accounts);
  // Bot hits are not events: their rows join the days' (an account's day is the sum of its links').
  const linkBots: StatRow[] = [];
  for (const { linkId, day, kind, hits } of batch.bots) {
    const workspaceId = accountOf.get(linkId);
    if (workspaceId === undefined || hits === 0) continue;
    linkBots.push([linkId, day, 'bot', kind, hits]);
    counts.workspaceDayStats.addBot(workspaceId, day, kind, hits);
  }
  return {
    linkDays: linkDays.sorted(),
    workspaceDays: workspaceDays.sorted(),
    linkStats: mergeSorted(counts.linkDayStats, summedRows(linkBots), compareStatRows),
    workspaceStats: counts.workspaceDayStats.rows(table.values),
    events,
    hourly: hourlyWrites(batch, accountOf, counts),
  };
}

/** The visitor id's 16 hex digits as the signed 64-bit integer the tables keep. */
export function visitorNumber(hex: string): bigint {
  return BigInt.asIntN(64, BigInt(`0x${hex}`));
}
