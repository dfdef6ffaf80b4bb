/**
 * UTC days: 'YYYY-MM-DD' at the ports, whole days since 1970-01-01 in the tables (small keys,
 * and a range is a plain BETWEEN on integers).
 */

export const DAY_MS = 86_400_000;
export const HOUR_MS = 3_600_000;
const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Days since 1970-01-01 UTC; RangeError for anything but a real calendar day as YYYY-MM-DD. */
export function dayNumber(day: string): number {
  const match = typeof day === 'string' ? DAY_PATTERN.exec(day) : null;
  if (!match) throw new RangeError(`not a YYYY-MM-DD day: ${String(day)}`);
  const [year, month, date] = [Number(match[1]), Number(match[2]), Number(match[3])];
  // setUTCFullYear, unlike Date.UTC, keeps years 0-99 as they are.
  const ms = new Date(0).setUTCFullYear(year, month - 1, date);
  // Out-of-range parts roll over (2023-02-29 becomes March 1st); the round trip refuses them.
  if (dayText(ms / DAY_MS) !== day) throw new RangeError(`not a calendar day: ${day}`);
  return ms / DAY_MS;
}

/** 'YYYY-MM-DD' of a day number; RangeError when it is not a whole day of years 0000-9999. */
export function dayText(days: number): string {
  const date = Number.isSafeInteger(days) ? new Date(days * DAY_MS) : undefined;
  const year = date?.getUTCFullYear();
  if (!date || year === undefined || !(year >= 0 && year <= 9999)) {
    throw new RangeError(`not a day number in years 0000-9999: ${days}`);
  }
  return date.toISOString().slice(0, 10);
}
