/** `timestamps` of the envelope: `YYYY/MM/DD HH:MM:SS` in the configured IANA zone (docs/api.md §2.2). */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

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
  for (const part of formatterFor(timeZone).formatToParts(date)) parts[part.type] = part.value;
  return `${parts.year}/${parts.month}/${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}
