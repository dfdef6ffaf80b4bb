/**
 * One flush of the redirect (counts plus, with TRACKING=full, what `VisitBatch` carries) checked and
 * summed in memory the same way for both adapters, so each writes every row it touches once:
 * 10k identical clicks become one row per dimension and scope, not 70k upserts.
 */
import { type ClickEvent, DIMENSION_VALUE_MAX, EVENT_DIMENSIONS } from '../../core/analytics.ts';
import { DAY_MS, dayNumber } from '../../core/days.ts';
import type { ClickCount } from '../../core/entities.ts';
import { DIMENSION_CODE, EventTable } from '../../core/event-table.ts';
import type { VisitBatch } from '../../core/visit-batch.ts';

export interface CountEntry {
  linkId: number;
  /** Day number, or null for TRACKING=off: the link's totals only. */
  day: number | null;
  clicks: number;
  botHits: number;
}

export interface VisitorEntry {
  linkId: number;
  day: number;
  ofLink: number;
  ofAccount: number;
}

export interface BotEntry {
  linkId: number;
  day: number;
  kind: string;
  hits: number;
}

/** A batch that passed every check: plain data, so it can be posted to the writer thread as it is. */
export interface CheckedBatch {
  counts: CountEntry[];
  /** Each event's account is the one its link has as stored, not the caller's (dailyWrites). */
  events: EventTable;
  visitors: VisitorEntry[];
  bots: BotEntry[];
}

/** [id, day, clicks, bot hits, new visitors] of link_daily_clicks / account_daily_clicks. */
export type DayRow = [number, number, number, number, number];
/** [id, day, dimension, value, clicks] of link_daily_stats / account_daily_stats. */
export type StatRow = [number, number, string, string, number];

export interface DailyWrites {
  linkDays: DayRow[];
  accountDays: DayRow[];
  linkStats: StatRow[];
  accountStats: StatRow[];
  /** The events of known links: their rows in the batch's table, and each one's account as stored. */
  events: { table: EventTable; rows: number[]; accounts: number[] };
}

const DEVICES = new Set(['desktop', 'mobile', 'tablet', 'other']);
const SOURCES = new Set(['qr', 'link']);
const VISITOR = /^[0-9a-f]{16}$/;

function whole(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${what} is not a whole number >= 0: ${String(value)}`);
  }
  return value;
}

function text(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new RangeError(`${what} is not a string: ${String(value)}`);
  return value.length > DIMENSION_VALUE_MAX ? value.slice(0, DIMENSION_VALUE_MAX) : value;
}

function oneOf(value: unknown, allowed: ReadonlySet<string>, what: string): string {
  if (typeof value !== 'string' || !allowed.has(value)) {
    throw new RangeError(`${what} is not one of ${[...allowed].join(', ')}: ${String(value)}`);
  }
  return value;
}

function checkedCount(count: ClickCount): CountEntry {
  const linkId = whole(count.linkId, 'click count link');
  const what = `click count for link ${linkId}`;
  return {
    linkId,
    day: count.day === null ? null : dayNumber(count.day),
    clicks: whole(count.clicks, what),
    botHits: whole(count.botHits, what),
  };
}

/**
 * The events checked: numbers per event, each distinct string once. Values longer than
 * DIMENSION_VALUE_MAX are cut; the table handed in is left as it was.
 */
function checkedEvents(events: EventTable): EventTable {
  // Each distinct value checked once; per event only numbers and table look-ups, no text built
  // unless something is wrong (a flush holds tens of thousands, checked on the redirect's thread).
  const fits = (allowed: (value: unknown) => boolean) => events.values.map(allowed);
  const devices = fits((value) => typeof value === 'string' && DEVICES.has(value));
  const sources = fits((value) => typeof value === 'string' && SOURCES.has(value));
  const visitors = fits((value) => typeof value === 'string' && VISITOR.test(value));
  const isWhole = (n: number) => Number.isSafeInteger(n) && n >= 0;
  for (let i = 0; i < events.length; i++) {
    if (
      isWhole(events.linkId(i)) &&
      isWhole(events.accountId(i)) &&
      isWhole(events.at(i)) &&
      devices[events.code(i, DIMENSION_CODE.device)] &&
      sources[events.code(i, DIMENSION_CODE.source)] &&
      visitors[events.visitorCode(i)]
    )
      continue;
    const what = `event of link ${whole(events.linkId(i), 'event link')}`;
    whole(events.accountId(i), what);
    whole(events.at(i), `${what}: at`);
    oneOf(events.value(i, DIMENSION_CODE.device), DEVICES, `${what}: device`);
    oneOf(events.value(i, DIMENSION_CODE.source), SOURCES, `${what}: source`);
    throw new RangeError(`${what}: visitor is not 16 lower-case hex digits`);
  }
  const long = events.values.some((value, i) => text(value, `event value ${i}`) !== value);
  if (!long) return events;
  // Rare: a table of its own with the long values cut.
  const cut = new EventTable();
  for (let i = 0; i < events.length; i++) {
    const event = events.event(i);
    for (const dimension of EVENT_DIMENSIONS) {
      (event as unknown as Record<string, string>)[dimension] = text(event[dimension], dimension);
    }
    cut.push(event);
  }
  return cut;
}

/** A list of events as a table; numbers that are not numbers are refused before they are stored as such. */
function tableOf(events: VisitBatch['events']): EventTable {
  if (Array.isArray(events)) {
    for (const event of events as readonly ClickEvent[]) {
      for (const field of ['linkId', 'accountId', 'at'] as const) {
        if (typeof event[field] !== 'number') throw new RangeError(`event ${field} is not a number`);
      }
    }
  }
  return EventTable.of(events);
}

/**
 * Every entry checked before anything is written: a malformed one is a bug in the caller, and the
 * batch is refused whole (RangeError). Values longer than DIMENSION_VALUE_MAX are cut.
 */
export function checkedBatch(batch: readonly ClickCount[], visits?: VisitBatch): CheckedBatch {
  return {
    counts: batch.map(checkedCount),
    events: checkedEvents(tableOf(visits?.events ?? [])),
    visitors: (visits?.visitors ?? []).map((entry) => {
      const what = `new visitors of link ${entry.linkId}`;
      whole(entry.accountId, what);
      return {
        linkId: whole(entry.linkId, what),
        day: dayNumber(entry.day),
        ofLink: whole(entry.ofLink, what),
        ofAccount: whole(entry.ofAccount, what),
      };
    }),
    bots: (visits?.bots ?? []).map((entry) => {
      const what = `bot hits of link ${entry.linkId}`;
      return {
        linkId: whole(entry.linkId, what),
        day: dayNumber(entry.day),
        kind: text(entry.kind, what),
        hits: whole(entry.hits, what),
      };
    }),
  };
}

export function isEmpty(batch: CheckedBatch): boolean {
  return (
    batch.counts.length === 0 &&
    batch.events.length === 0 &&
    batch.visitors.length === 0 &&
    batch.bots.length === 0
  );
}

/**
 * What each link named anywhere in the batch gains on its own row: [clicks, bot hits, new
 * visitors], in ascending id order (concurrent flushes then lock rows in the same order). A link
 * named only by events or bot kinds is listed with zeros, so its account is looked up all the same.
 */
export function linkTotals(batch: CheckedBatch): Array<[number, [number, number, number]]> {
  const totals = new Map<number, [number, number, number]>();
  const at = (linkId: number) => {
    let total = totals.get(linkId);
    if (!total) {
      total = [0, 0, 0];
      totals.set(linkId, total);
    }
    return total;
  };
  for (const { linkId, clicks, botHits } of batch.counts) {
    const total = at(linkId);
    total[0] += clicks;
    total[1] += botHits;
  }
  for (const { linkId, ofLink } of batch.visitors) at(linkId)[2] += ofLink;
  for (let i = 0; i < batch.events.length; i++) at(batch.events.linkId(i));
  for (const { linkId } of batch.bots) at(linkId);
  return [...totals].sort((a, b) => a[0] - b[0]);
}

class Sums<Row extends unknown[]> {
  readonly rows = new Map<string, Row>();
  add(key: string, make: () => Row, index: number, amount: number): void {
    const row = this.rows.get(key);
    if (row) (row[index] as number) += amount;
    else {
      const made = make();
      (made[index] as number) = amount;
      this.rows.set(key, made);
    }
  }
  sorted(): Row[] {
    return [...this.rows.values()].sort(compareRows);
  }
}

/** Clicks per dimension and value of one id's day. */
type Tally = Map<string, Map<string, number>>;

function bump(tally: Tally, dim: string, value: string, n: number): void {
  let values = tally.get(dim);
  if (!values) {
    values = new Map();
    tally.set(dim, values);
  }
  values.set(value, (values.get(value) ?? 0) + n);
}

/** The daily stat rows of one scope, summed in nested maps: no key is built per click. */
class StatTally {
  readonly #days = new Map<number, Map<number, Tally>>();
  of(id: number, dayNo: number): Tally {
    let days = this.#days.get(id);
    if (!days) {
      days = new Map();
      this.#days.set(id, days);
    }
    let tally = days.get(dayNo);
    if (!tally) {
      tally = new Map();
      days.set(dayNo, tally);
    }
    return tally;
  }
  *tallies(): Generator<[number, number, Tally]> {
    for (const [id, days] of this.#days) for (const [dayNo, tally] of days) yield [id, dayNo, tally];
  }
  rows(): StatRow[] {
    const rows: StatRow[] = [];
    for (const [id, dayNo, tally] of this.tallies())
      for (const [dim, values] of tally)
        for (const [value, n] of values) rows.push([id, dayNo, dim, value, n]);
    return rows.sort(compareRows);
  }
}

function compareRows(a: unknown[], b: unknown[]): number {
  for (let i = 0; i < 4; i++) {
    const [x, y] = [a[i], b[i]];
    if (x === y || x === undefined) continue;
    return (x as number | string) < (y as number | string) ? -1 : 1;
  }
  return 0;
}

/**
 * The daily rows of both scopes and the events, for the links `accountOf` knows (the others are
 * unknown and skipped, like their counts). Counts without a day (TRACKING=off) add no daily row.
 */
export function dailyWrites(batch: CheckedBatch, accountOf: ReadonlyMap<number, number>): DailyWrites {
  const linkDays = new Sums<DayRow>();
  const accountDays = new Sums<DayRow>();
  const day = (scope: Sums<DayRow>, id: number, dayNo: number, index: 2 | 3 | 4, amount: number) => {
    if (amount > 0) scope.add(`${id}:${dayNo}`, () => [id, dayNo, 0, 0, 0], index, amount);
  };
  for (const { linkId, day: dayNo, clicks, botHits } of batch.counts) {
    const accountId = accountOf.get(linkId);
    if (accountId === undefined || dayNo === null) continue;
    for (const [id, scope] of [
      [linkId, linkDays],
      [accountId, accountDays],
    ] as const) {
      day(scope, id, dayNo, 2, clicks);
      day(scope, id, dayNo, 3, botHits);
    }
  }
  for (const { linkId, day: dayNo, ofLink, ofAccount } of batch.visitors) {
    const accountId = accountOf.get(linkId);
    if (accountId === undefined) continue;
    day(linkDays, linkId, dayNo, 4, ofLink);
    day(accountDays, accountId, dayNo, 4, ofAccount);
  }

  const linkStats = new StatTally();
  const table = batch.events;
  const events: DailyWrites['events'] = { table, rows: [], accounts: [] };
  for (let i = 0; i < table.length; i++) {
    const linkId = table.linkId(i);
    const accountId = accountOf.get(linkId);
    if (accountId === undefined) continue;
    events.rows.push(i);
    events.accounts.push(accountId);
    const tally = linkStats.of(linkId, Math.floor(table.at(i) / DAY_MS));
    for (const [k, dim] of EVENT_DIMENSIONS.entries()) bump(tally, dim, table.value(i, k), 1);
  }
  for (const { linkId, day: dayNo, kind, hits } of batch.bots) {
    if (accountOf.has(linkId) && hits > 0) bump(linkStats.of(linkId, dayNo), 'bot', kind, hits);
  }
  // An account's day is the sum of its links' days.
  const accountStats = new StatTally();
  for (const [linkId, dayNo, tally] of linkStats.tallies()) {
    const into = accountStats.of(accountOf.get(linkId) as number, dayNo);
    for (const [dim, values] of tally) for (const [value, n] of values) bump(into, dim, value, n);
  }
  return {
    linkDays: linkDays.sorted(),
    accountDays: accountDays.sorted(),
    linkStats: linkStats.rows(),
    accountStats: accountStats.rows(),
    events,
  };
}

/** The visitor id's 16 hex digits as the signed 64-bit integer the tables keep. */
export function visitorNumber(hex: string): bigint {
  return BigInt.asIntN(64, BigInt(`0x${hex}`));
}
