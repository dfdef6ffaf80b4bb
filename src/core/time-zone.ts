/**
 * A workspace's time zone (docs/api.md §18): an IANA name the pages enter and show dates in. The
 * zones are the ones this runtime knows (Intl), plus `UTC`, which Intl lists under no name of its own.
 */

export const DEFAULT_TIME_ZONE = 'UTC';

let zones: readonly string[] | undefined;

/** Every zone a workspace may have, sorted, `UTC` among them. */
export function timeZones(): readonly string[] {
  zones ??= [...new Set([...Intl.supportedValuesOf('timeZone'), DEFAULT_TIME_ZONE])].sort();
  return zones;
}

let known: ReadonlySet<string> | undefined;

// An IANA name as the database spells it: each part starts with a capital.
const IANA_NAME = /^[A-Z][A-Za-z0-9_+-]*(?:\/[A-Z][A-Za-z0-9_+-]*){0,2}$/;

/**
 * A zone of the list, or a current IANA name the runtime knows under an older one of the list
 * (Intl lists `Asia/Calcutta` and `Europe/Kiev`; people write `Asia/Kolkata` and `Europe/Kyiv`).
 * The same name in other letter cases is refused: a zone is stored as it is spelled.
 */
export function isTimeZone(value: unknown): value is string {
  known ??= new Set(timeZones());
  if (typeof value !== 'string') return false;
  if (known.has(value)) return true;
  if (!IANA_NAME.test(value)) return false;
  let canonical: string;
  try {
    canonical = new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    return false;
  }
  return known.has(canonical) && canonical.toLowerCase() !== value.toLowerCase();
}

/** A stored zone this runtime no longer knows is read as UTC rather than failing a page. */
export function zoneOrUtc(zone: string | undefined): string {
  return zone !== undefined && isTimeZone(zone) ? zone : DEFAULT_TIME_ZONE;
}

interface Wall {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** A zone's wall clock as parts (year … second, 24-hour), one formatter per zone for the process. */
export function formatOf(zone: string): Intl.DateTimeFormat {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formats.set(zone, format);
  }
  return format;
}

/** The wall clock of `zone` at the instant `ms`. */
function wallAt(ms: number, zone: string): Wall {
  const parts: Record<string, number> = {};
  for (const part of formatOf(zone).formatToParts(ms)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year ?? 1970,
    month: parts.month ?? 1,
    day: parts.day ?? 1,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  };
}

const asUtc = (w: Wall) => Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);

/** How far `zone`'s wall clock is ahead of UTC at the instant `ms`, whole seconds. */
export function offsetAt(ms: number, zone: string): number {
  const whole = Math.floor(ms / 1000) * 1000;
  return asUtc(wallAt(whole, zone)) - whole;
}

const DAY_MS = 86_400_000;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

const WALL_TEXT = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/;

/**
 * The instant a wall-clock time of `zone` names (`YYYY-MM-DDTHH:MM[:SS[.mmm]]`, as a
 * datetime-local input sends it); undefined for any other text or an impossible date. A time that
 * happens twice (clocks going back) is its earlier instant; a time that never happens (clocks
 * going forward) is the earlier of its two readings, with the offset after the change: 02:30 in a
 * gap from 02:00 to 03:00 is shown back as 01:30.
 */
export function instantInZone(text: string, zone: string): number | undefined {
  const match = WALL_TEXT.exec(text);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((n) => Number(n ?? 0));
  const wall: Wall = {
    year: year ?? 0,
    month: month ?? 0,
    day: day ?? 0,
    hour: hour ?? 0,
    minute: minute ?? 0,
    second: second ?? 0,
  };
  const guess = asUtc(wall);
  const back = new Date(guess);
  const impossible = back.getUTCMonth() !== wall.month - 1 || back.getUTCDate() !== wall.day;
  if (impossible || wall.hour > 23 || wall.minute > 59 || wall.second > 59) return undefined;
  const millis = Number((match[7] ?? '').padEnd(3, '0'));
  const offsets = new Set([offsetAt(guess - DAY_MS, zone), offsetAt(guess + DAY_MS, zone)]);
  const readings = [...offsets].map((offset) => guess - offset);
  const real = readings.filter((at) => asUtc(wallAt(at, zone)) === guess);
  return Math.min(...(real.length > 0 ? real : readings)) + millis;
}

/** The instant as a datetime-local value in `zone`: minutes, and seconds only when it has some. */
export function wallInputOf(date: Date, zone: string): string {
  if (zone === DEFAULT_TIME_ZONE) {
    const iso = date.toISOString();
    return iso.slice(17, 19) === '00' ? iso.slice(0, 16) : iso.slice(0, 19);
  }
  const w = wallAt(date.getTime(), zone);
  const minutes = `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}`;
  return w.second === 0 ? minutes : `${minutes}:${pad(w.second)}`;
}

/** The instant as people read it in `zone`: `2027-01-31 13:00 Europe/Paris`. */
export function wallTimeOf(date: Date, zone: string): string {
  return `${wallInputOf(date, zone).slice(0, 16).replace('T', ' ')} ${zone}`;
}

/** The day of the instant in `zone`, `YYYY-MM-DD`. */
export function wallDayOf(date: Date, zone: string): string {
  return wallInputOf(date, zone).slice(0, 10);
}
