/**
 * Kutt's `expire_in`: a duration as Kutt reads it ("2 minutes", "1h", "3 days", "1.5 weeks"; a bare
 * number is milliseconds), at least one minute, turned into the instant it ends. Read here rather
 * than with a library so that every value Kutt takes is taken and nothing else.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const UNITS: ReadonlyArray<[RegExp, number]> = [
  [/^(milliseconds?|msecs?|ms)$/, 1],
  [/^(seconds?|secs?|s)$/, 1000],
  [/^(minutes?|mins?|m)$/, MINUTE],
  [/^(hours?|hrs?|h)$/, HOUR],
  [/^(days?|d)$/, DAY],
  [/^(weeks?|w)$/, 7 * DAY],
  [/^(years?|yrs?|y)$/, 365.25 * DAY],
];

const DURATION = /^(-?(?:\d+)?\.?\d+) *([a-z]*)$/i;
/** The latest instant an expiry may name: the last day RFC 3339's four-digit years reach. */
const LATEST = Date.UTC(9999, 11, 31);

/** Milliseconds, or NaN for what Kutt does not read as a duration. */
export function durationMs(text: string): number {
  if (text.length > 100) return Number.NaN;
  const match = DURATION.exec(text);
  if (!match) return Number.NaN;
  const unitText = (match[2] ?? '').toLowerCase();
  const unit = unitText === '' ? 1 : UNITS.find(([pattern]) => pattern.test(unitText))?.[1];
  return unit === undefined ? Number.NaN : Number.parseFloat(match[1] ?? '') * unit;
}

export type Expiry = { at: string } | { refused: string };

/** The instant `expire_in` names from `now`, or Kutt's reason for refusing it. */
export function expiryOf(text: string, now: number): Expiry {
  const ms = durationMs(text.trim());
  // Kutt takes any non-zero number first (so "-1m" is "too short", "0m" "invalid").
  if (Number.isNaN(ms) || ms === 0 || now + ms > LATEST) {
    return { refused: 'Expire format is invalid. Valid examples: 1m, 8h, 42 days.' };
  }
  if (ms < MINUTE) return { refused: 'Expire time should be more than 1 minute.' };
  return { at: new Date(now + ms).toISOString() };
}
