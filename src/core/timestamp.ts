import { formatOf } from './time-zone.ts';

/** `timestamps` of the envelope: `YYYY/MM/DD HH:MM:SS` in the configured IANA zone (docs/api.md §2.2). */

// Every answer of a busy second carries the same text: format it once per second and zone.
let last = { second: Number.NaN, timeZone: '', text: '' };

/** Throws a RangeError for an unknown zone, which is how configuration validates TIMESTAMP_TZ. */
export function formatTimestamp(date: Date, timeZone: string): string {
  const second = Math.floor(date.getTime() / 1000);
  if (second === last.second && timeZone === last.timeZone) return last.text;
  const text = formatParts(date, timeZone);
  last = { second, timeZone, text };
  return text;
}

function formatParts(date: Date, timeZone: string): string {
  const parts: Record<string, string> = {};
  for (const part of formatOf(timeZone).formatToParts(date)) parts[part.type] = part.value;
  return `${parts.year}/${parts.month}/${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}
