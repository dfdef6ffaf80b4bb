/**
 * One flush of the redirect (counts plus, with TRACKING=full, what `VisitBatch` carries) checked the
 * same way for both adapters before anything is written; flush-rows.ts sums it into rows.
 */

import { DIMENSION_CODE, EventTable } from '../../core/analytics/event-table.ts';
import { type ClickEvent, DIMENSION_VALUE_MAX, EVENT_DIMENSIONS } from '../../core/analytics/model.ts';
import type { VisitBatch } from '../../core/analytics/visit-batch.ts';
import { dayNumber } from '../../core/days.ts';
import type { ClickCount } from '../../core/entities.ts';
import type { ClickNotices } from '../../core/ports/webhook-store.ts';

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
  /** Hour of the day (0–23) of the first sightings, or null: the link's earliest event's that day. */
  hour: number | null;
  ofLink: number;
  ofWorkspace: number;
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
  /** Click events for webhooks, written in the same transaction; plain data too. */
  notices: ClickNotices | undefined;
  /** When the store was handed the batch (epoch ms): no click of its counts is later than this. */
  at: number;
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

function hourOfDay(value: unknown, what: string): number {
  const hour = whole(value, `${what}: hour`);
  if (hour > 23) throw new RangeError(`${what}: hour ${hour} is not 0 to 23`);
  return hour;
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

function checkedCount(count: ClickCount, dayOf: (day: string) => number): CountEntry {
  const linkId = whole(count.linkId, 'click count link');
  const what = `click count for link ${linkId}`;
  return {
    linkId,
    day: count.day === null ? null : dayOf(count.day),
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
      isWhole(events.workspaceId(i)) &&
      isWhole(events.at(i)) &&
      devices[events.code(i, DIMENSION_CODE.device)] &&
      sources[events.code(i, DIMENSION_CODE.source)] &&
      visitors[events.visitorCode(i)]
    )
      continue;
    const what = `event of link ${whole(events.linkId(i), 'event link')}`;
    whole(events.workspaceId(i), what);
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

/** dayNumber once per distinct day text of a batch (its entries name one or two days, a link each). */
function daysOf(): (day: string) => number {
  const days = new Map<string, number>();
  return (day) => {
    let number = days.get(day);
    if (number === undefined) {
      number = dayNumber(day);
      days.set(day, number);
    }
    return number;
  };
}

/** A list of events as a table; numbers that are not numbers are refused before they are stored as such. */
function tableOf(events: VisitBatch['events']): EventTable {
  if (Array.isArray(events)) {
    for (const event of events as readonly ClickEvent[]) {
      for (const field of ['linkId', 'workspaceId', 'at'] as const) {
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
export function checkedBatch(
  batch: readonly ClickCount[],
  visits?: VisitBatch,
  at = Date.now(),
): CheckedBatch {
  const dayOf = daysOf();
  return {
    counts: batch.map((count) => checkedCount(count, dayOf)),
    events: checkedEvents(tableOf(visits?.events ?? [])),
    visitors: (visits?.visitors ?? []).map((entry) => {
      const what = `new visitors of link ${entry.linkId}`;
      whole(entry.workspaceId, what);
      return {
        linkId: whole(entry.linkId, what),
        day: dayOf(entry.day),
        hour: entry.hour === undefined ? null : hourOfDay(entry.hour, what),
        ofLink: whole(entry.ofLink, what),
        ofWorkspace: whole(entry.ofWorkspace, what),
      };
    }),
    bots: (visits?.bots ?? []).map((entry) => {
      const what = `bot hits of link ${entry.linkId}`;
      return {
        linkId: whole(entry.linkId, what),
        day: dayOf(entry.day),
        kind: text(entry.kind, what),
        hits: whole(entry.hits, what),
      };
    }),
    notices: checkedNotices(visits?.notices),
    at,
  };
}

/** Click events as plain objects of the right types (they cross to the writer's thread). */
function checkedNotices(notices: ClickNotices | undefined): ClickNotices | undefined {
  if (!notices || notices.events.length === 0) return undefined;
  const events = notices.events.map((event) => {
    if (typeof event.id !== 'string' || typeof event.type !== 'string' || typeof event.body !== 'string')
      throw new RangeError('a click event is not id, type and body as text');
    return {
      id: event.id,
      workspaceId: whole(event.workspaceId, 'click event workspace'),
      type: event.type,
      body: event.body,
      at: whole(event.at, 'click event time'),
    };
  });
  return { events, stream: notices.stream === true };
}

export function isEmpty(batch: CheckedBatch): boolean {
  return (
    batch.notices === undefined &&
    batch.counts.length === 0 &&
    batch.events.length === 0 &&
    batch.visitors.length === 0 &&
    batch.bots.length === 0
  );
}
