import { invalidData } from './shlink-problems.ts';

/**
 * The Shlink API reads its query strings and bodies itself, field by field, so that a value of
 * the wrong type or shape is Shlink's 400 `invalid-data` naming that field in `invalidElements`,
 * never a validation message of Snip's. Query values arrive as strings (a repeated one, or one
 * given as a list, as a list).
 */

/** A value that was given and is not valid. */
export const BAD = Symbol('invalid');
export type Read<T> = T | undefined | typeof BAD;

export type Fields = Record<string, unknown>;

/** Collects the invalid fields of one request; Shlink names them all at once. */
export class Invalid {
  readonly elements: string[] = [];

  /** The value read, or undefined once the field is noted as invalid. */
  take<T>(name: string, value: T | typeof BAD): T | undefined {
    if (value !== BAD) return value;
    this.elements.push(name);
    return undefined;
  }

  note(name: string): void {
    this.elements.push(name);
  }

  /** Throws Shlink's invalid-data when any field was invalid. */
  done(): void {
    if (this.elements.length > 0) throw invalidData(this.elements);
  }
}

/** One query value: the last of repeated ones, as PHP reads `?a=1&a=2`. */
export function queryText(query: Fields, name: string): Read<string> {
  const value = query[name];
  const last = Array.isArray(value) ? value.at(-1) : value;
  if (last === undefined) return undefined;
  return typeof last === 'string' ? last : BAD;
}

/**
 * A list from `name[]=a&name[]=b` (Shlink's form), `name[0]=a` (PHP's) or `name=a`, folded into
 * `name` by list-params.ts; empty entries dropped.
 */
export function queryList(query: Fields, name: string): Read<string[]> {
  const values = [query[name]].flat().filter((value) => value !== undefined);
  if (values.some((value) => typeof value !== 'string')) return BAD;
  return (values as string[]).filter((value) => value.trim() !== '');
}

/** `true`/`false` as a query or form carries them (and 1/0); booleans themselves in JSON. */
export function flag(value: unknown): Read<boolean> {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0' || value === '') return false;
  return BAD;
}

/** A whole number from 1 up, as JSON number or digits. */
export function positiveInteger(value: unknown): Read<number> {
  if (value === undefined) return undefined;
  const number = typeof value === 'string' && /^\d{1,15}$/.test(value.trim()) ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) && number >= 1 ? number : BAD;
}

/** A string field of a body; null counts as given-and-empty where Shlink lets null clear it. */
export function bodyText(body: Fields, name: string): Read<string | null> {
  const value = body[name];
  if (value === undefined || value === null || typeof value === 'string') return value;
  return BAD;
}

/** A list of strings in a body (`tags`, or `tags[]` from a form). */
export function bodyList(body: Fields, name: string): Read<string[]> {
  const value = body[name] ?? body[`${name}[]`];
  if (value === undefined) return undefined;
  const list = Array.isArray(value) ? value : [value];
  return list.every((item) => typeof item === 'string') ? (list as string[]) : BAD;
}

const ISO_DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?(?:\s*(Z|[+-]\d{2}(?::?\d{2})?)|\s(\d{2}:?\d{2}))?$/i;

/** An offset in minutes east of UTC: Z, ±HH, ±HHMM or ±HH:MM. */
function offsetMinutes(zone: string): number | undefined {
  if (zone.toUpperCase() === 'Z') return 0;
  const match = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone);
  if (!match) return undefined;
  const hours = Number(match[2]);
  const minutes = Number(match[3] ?? 0);
  if (hours > 23 || minutes > 59) return undefined;
  return (match[1] === '-' ? -1 : 1) * (hours * 60 + minutes);
}

/**
 * An ISO 8601 date or date-time, in epoch ms: `2025-01-31`, `2025-01-31T10:00`, with seconds,
 * fractions and an offset (Z, +02:00, +0200), UTC when none. An offset whose `+` arrived as a
 * space (an unencoded query) still reads. Anything else, or a day that does not exist, is invalid.
 */
export function isoDate(text: string): number | undefined {
  const match = ISO_DATE.exec(text.trim());
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const millis = Number((match[7] ?? '').padEnd(3, '0').slice(0, 3));
  const at = new Date(0);
  at.setUTCFullYear(year, month - 1, day);
  at.setUTCHours(hour, minute, second, millis);
  if (at.getUTCMonth() !== month - 1 || at.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) {
    return undefined;
  }
  const offset = match[8] ? offsetMinutes(match[8]) : match[9] ? offsetMinutes(`+${match[9]}`) : 0;
  return offset === undefined ? undefined : at.getTime() - offset * 60_000;
}

/** A date field: absent, null (where it clears), or a valid ISO 8601 string. */
export function dateField(value: unknown): Read<number | null> {
  if (value === undefined || value === null) return value;
  if (typeof value !== 'string') return BAD;
  if (value.trim() === '') return undefined;
  return isoDate(value) ?? BAD;
}

/** A date in the query (startDate, endDate): absent or empty, or a valid ISO 8601 string. */
export function queryDate(query: Fields, name: string): Read<number> {
  const text = queryText(query, name);
  if (text === BAD) return BAD;
  if (text === undefined || text.trim() === '') return undefined;
  return isoDate(text) ?? BAD;
}

/** Epoch ms as Shlink writes dates (PHP's ATOM format): `2025-01-31T10:00:00+00:00`. */
export function atomDate(at: number | string): string {
  return `${new Date(at).toISOString().slice(0, 19)}+00:00`;
}
