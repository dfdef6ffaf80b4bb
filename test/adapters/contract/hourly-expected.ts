/**
 * What an hourly stats answer must be, built from the click events themselves (docs/adr/041), and
 * the flushes a collector would hand over for them: counts, and first sightings with their hour.
 */
import {
  type BotKindCount,
  type BreakdownRow,
  type ClickEvent,
  DIMENSIONS,
  type Dimension,
  type NewVisitors,
  type StoredStats,
} from '../../../src/core/analytics/model.ts';
import type { VisitBatch } from '../../../src/core/analytics/visit-batch.ts';
import { DAY_MS, HOUR_MS } from '../../../src/core/days.ts';
import type { ClickCount } from '../../../src/core/entities.ts';

const dayText = (at: number) => new Date(at).toISOString().slice(0, 10);

export type Scope = { linkId: number } | { workspaceId: number };
const inScope = (scope: Scope, event: ClickEvent) =>
  'linkId' in scope ? event.linkId === scope.linkId : event.workspaceId === scope.workspaceId;

/** The events in flushes of `size`, oldest first, each with its counts and first sightings. */
export function flushes(
  events: readonly ClickEvent[],
  size: number,
): Array<{ counts: ClickCount[]; visits: VisitBatch }> {
  const sorted = events.toSorted((x, y) => x.at - y.at);
  const seen = new Set<string>();
  const out: Array<{ counts: ClickCount[]; visits: VisitBatch }> = [];
  for (let start = 0; start < sorted.length; start += size) {
    const batch = sorted.slice(start, start + size);
    const counts = new Map<string, ClickCount>();
    const visitors = new Map<string, NewVisitors>();
    for (const event of batch) {
      const day = dayText(event.at);
      const count = counts.get(`${event.linkId}:${day}`) ?? {
        linkId: event.linkId,
        day,
        clicks: 0,
        botHits: 0,
      };
      count.clicks += 1;
      counts.set(`${event.linkId}:${day}`, count);
      const ofLink = !seen.has(`l${event.linkId}:${day}:${event.visitor}`);
      const ofWorkspace = !seen.has(`w${event.workspaceId}:${day}:${event.visitor}`);
      seen
        .add(`l${event.linkId}:${day}:${event.visitor}`)
        .add(`w${event.workspaceId}:${day}:${event.visitor}`);
      if (!ofLink && !ofWorkspace) continue;
      const hour = new Date(event.at).getUTCHours();
      const key = `${event.linkId}:${day}:${hour}`;
      const entry = visitors.get(key) ?? {
        linkId: event.linkId,
        workspaceId: event.workspaceId,
        day,
        hour,
        ofLink: 0,
        ofWorkspace: 0,
      };
      entry.ofLink += ofLink ? 1 : 0;
      entry.ofWorkspace += ofWorkspace ? 1 : 0;
      visitors.set(key, entry);
    }
    out.push({
      counts: [...counts.values()],
      visits: { events: batch, visitors: [...visitors.values()], bots: [] },
    });
  }
  return out;
}

function sorted(counts: Map<string, number>): BreakdownRow[] {
  return [...counts]
    .map(([value, clicks]) => ({ value, clicks }))
    .sort((a, b) => b.clicks - a.clicks || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
}

/**
 * The hourly answer for [from, to): clicks and breakdowns of the events in it; each visitor of a
 * day counted once, in the hour of its first event that day in the scope; bots of the whole days
 * the range touches.
 */
export function expectedHourly(
  events: readonly ClickEvent[],
  bots: readonly BotKindCount[],
  scope: Scope,
  from: number,
  to: number,
  /** Each link's long URL: the answer's clicks per URL (the UTM breakdowns). */
  urlOf: ReadonlyMap<number, string>,
): StoredStats {
  const mine = events.filter((event) => inScope(scope, event));
  const firsts = new Map<string, number>();
  for (const event of mine) {
    const key = `${dayText(event.at)}:${event.visitor}`;
    firsts.set(key, Math.min(firsts.get(key) ?? Number.POSITIVE_INFINITY, event.at));
  }
  const hours = new Map<number, { t: number; clicks: number; uniqueVisitors: number }>();
  const bucket = (at: number) => {
    const t = at - (at % HOUR_MS);
    const found = hours.get(t) ?? { t, clicks: 0, uniqueVisitors: 0 };
    hours.set(t, found);
    return found;
  };
  const inRange = mine.filter((event) => event.at >= from && event.at < to);
  for (const event of inRange) bucket(event.at).clicks += 1;
  for (const at of firsts.values()) if (at >= from && at < to) bucket(at).uniqueVisitors += 1;
  const breakdowns = Object.fromEntries(
    DIMENSIONS.map((dim) => {
      const counts = new Map<string, number>();
      if (dim !== 'bot')
        for (const event of inRange) {
          const value = event[dim] ?? '';
          if (dim !== 'variant' || value !== '') counts.set(value, (counts.get(value) ?? 0) + 1);
        }
      return [dim, sorted(counts)];
    }),
  ) as Record<Dimension, BreakdownRow[]>;
  const [firstDay, endDay] = [Math.floor(from / DAY_MS), Math.ceil(to / DAY_MS)];
  const botCounts = new Map<string, number>();
  let botHits = 0;
  for (const bot of bots) {
    const day = Date.parse(bot.day) / DAY_MS;
    const linkOk =
      'linkId' in scope ? bot.linkId === scope.linkId : mine.some((e) => e.linkId === bot.linkId);
    if (!linkOk || day < firstDay || day >= endDay) continue;
    botCounts.set(bot.kind, (botCounts.get(bot.kind) ?? 0) + bot.hits);
    botHits += bot.hits;
  }
  breakdowns.bot = sorted(botCounts);
  const series = [...hours.values()].sort((a, b) => a.t - b.t);
  return {
    totals: {
      clicks: inRange.length,
      uniqueVisitors: series.reduce((sum, hour) => sum + hour.uniqueVisitors, 0),
      botHits,
      qrScans: inRange.filter((event) => event.source === 'qr').length,
    },
    series,
    breakdowns,
    urls: sorted(countBy(inRange, (event) => urlOf.get(event.linkId) ?? '')),
  };
}

function countBy<T>(items: readonly T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}
