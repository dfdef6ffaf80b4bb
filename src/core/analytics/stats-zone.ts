import { DAY_MS, HOUR_MS } from '../days.ts';
import { DEFAULT_TIME_ZONE, offsetAt } from '../time-zone.ts';

/**
 * Days and hours of a stats answer in a time zone (docs/api.md §19, docs/adr/044). A zone's day
 * runs from one local midnight to the next, 23, 24 or 25 hours; its hours are the UTC hours shifted
 * by the sub-hour part of its offset (Asia/Kolkata's start at :30), so a day of 25 hours has 25.
 * The store is handed the offsets in effect over a range as segments and counts an event on the
 * day `floor((at + offset) / DAY_MS)`: the local date as a day number.
 */

export const isUtc = (zone: string | undefined) => zone === undefined || zone === DEFAULT_TIME_ZONE;

/** The offset (ms) in effect from `from` on, until the next segment. */
export interface OffsetSegment {
  from: number;
  offset: number;
}

const MINUTE_MS = 60_000;

/** The local date of an instant, as days since 1970-01-01. */
export function localDay(ms: number, zone: string): number {
  return isUtc(zone) ? Math.floor(ms / DAY_MS) : Math.floor((ms + offsetAt(ms, zone)) / DAY_MS);
}

/** The first instant of a local date (its midnight, or the end of a gap that swallows midnight). */
export function dayStartIn(day: number, zone: string): number {
  const wall = day * DAY_MS;
  if (isUtc(zone)) return wall;
  // The midnight read with the offsets before and after it; the earliest that is that day.
  const readings = [wall - offsetAt(wall - DAY_MS, zone), wall - offsetAt(wall + DAY_MS, zone)];
  const ofDay = readings.filter((at) => localDay(at, zone) === day);
  if (ofDay.length > 0) return Math.min(...ofDay);
  // Midnight falls in a gap: the day starts where the gap ends, the later reading moved on.
  let at = Math.max(...readings);
  while (localDay(at, zone) < day) at += 15 * MINUTE_MS;
  return at;
}

/** The sub-hour part of the zone's offset at an instant: where its hours start past UTC's. */
export function hourShift(ms: number, zone: string): number {
  if (isUtc(zone)) return 0;
  return ((offsetAt(ms, zone) % HOUR_MS) + HOUR_MS) % HOUR_MS;
}

/** The offsets in effect over [from, to): one segment per change, found to the minute. */
export function offsetSegments(from: number, to: number, zone: string): OffsetSegment[] {
  const segments: OffsetSegment[] = [{ from, offset: isUtc(zone) ? 0 : offsetAt(from, zone) }];
  if (isUtc(zone)) return segments;
  for (let probe = from + DAY_MS / 4; probe < to + DAY_MS / 4; probe += DAY_MS / 4) {
    const end = Math.min(probe, to);
    const last = segments.at(-1) as OffsetSegment;
    if (offsetAt(end, zone) === last.offset) continue;
    // The change lies in (end - 6 h, end]: halve the interval down to a minute.
    let [lo, hi] = [end - DAY_MS / 4, end];
    while (hi - lo > MINUTE_MS) {
      const mid = lo + Math.floor((hi - lo) / 2 / MINUTE_MS) * MINUTE_MS;
      if (offsetAt(mid, zone) === last.offset) lo = mid;
      else hi = mid;
    }
    segments.push({ from: hi, offset: offsetAt(hi, zone) });
  }
  return segments;
}

/** The start of every bucket of [from, to): zone days, or hours (every HOUR_MS from `from`). */
export function bucketStarts(from: number, to: number, interval: 'hour' | 'day', zone: string): number[] {
  const starts: number[] = [];
  if (interval === 'hour') {
    for (let t = from; t < to; t += HOUR_MS) starts.push(t);
    return starts;
  }
  for (let day = localDay(from, zone); ; day++) {
    const start = dayStartIn(day, zone);
    if (start >= to) break;
    starts.push(start);
  }
  return starts;
}

const pad = (n: number) => String(Math.abs(n)).padStart(2, '0');

/** RFC 3339 in the zone's offset at that instant, whole seconds: `2026-03-29T00:00:00+01:00`. */
export function rfc3339In(ms: number, zone: string | undefined): string {
  if (isUtc(zone)) return `${new Date(ms).toISOString().slice(0, 19)}Z`;
  const offset = offsetAt(ms, zone as string);
  const wall = new Date(ms + offset).toISOString().slice(0, 19);
  const minutes = Math.round(offset / MINUTE_MS);
  const sign = minutes < 0 ? '-' : '+';
  return `${wall}${sign}${pad(Math.trunc(minutes / 60))}:${pad(minutes % 60)}`;
}
