/**
 * Sums a flush is added up in before anything is written (flush-rows.ts, flush-hourly.ts). A flush
 * of the long tail names tens of thousands of links once each, so nothing here makes a map, a key
 * text or a sort per link: the events are walked once in (link, hour) order and each link's hours
 * and days become rows as they end (docs/adr/053).
 */

import type { EventTable } from '../../core/analytics/event-table.ts';
import { EVENT_DIMENSIONS } from '../../core/analytics/model.ts';
import { DAY_MS, HOUR_MS } from '../../core/days.ts';

/** [id, bucket (day or hour number), dimension, value, clicks] of the *_daily_stats and *_hourly_stats tables. */
export type StatRow = [number, number, string, string, number];

const DIMS = EVENT_DIMENSIONS.length;
/** The variant is the last dimension (docs/adr/046): a click of a link without a test adds no row for it. */
const VARIANT = DIMS - 1;
export const HOURS_A_DAY = DAY_MS / HOUR_MS;

/** Texts as `<` orders them (UTF-16 code units), as Array.prototype.sort does by default. */
export const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Dimension indexes in the order of their names: the order a bucket's rows are written in. */
const BY_NAME = [...EVENT_DIMENSIONS.keys()].sort((a, b) =>
  compareText(EVENT_DIMENSIONS[a] as string, EVENT_DIMENSIONS[b] as string),
);
const RANK: number[] = [];
for (const [rank, k] of BY_NAME.entries()) RANK[k] = rank;

/** Rows in key order: id, bucket, dimension, value. Concurrent flushes then lock rows alike. */
export function compareStatRows(a: StatRow, b: StatRow): number {
  return a[0] - b[0] || a[1] - b[1] || compareText(a[2], b[2]) || compareText(a[3], b[3]);
}

/** One dimension's value of a flush's table as one number: the value's code, then the dimension. */
const keyOf = (code: number, k: number) => code * DIMS + k;
const dimensionOf = (key: number) => key % DIMS;
const codeOf = (key: number) => (key - (key % DIMS)) / DIMS;

/** The row of a key's clicks in an id's bucket, over the values of the table the key was made of. */
const statRow = (
  id: number,
  bucket: number,
  key: number,
  values: readonly string[],
  clicks: number,
): StatRow => [
  id,
  bucket,
  EVENT_DIMENSIONS[dimensionOf(key)] as string,
  values[codeOf(key)] as string,
  clicks,
];

/** Keys in row order (dimension by name, then value), over the table's values. */
const keyOrder = (values: readonly string[]) => (a: number, b: number) =>
  (RANK[dimensionOf(a)] as number) - (RANK[dimensionOf(b)] as number) ||
  compareText(values[codeOf(a)] as string, values[codeOf(b)] as string);

/**
 * Number rows: an id, a bucket, then counts. Collected as they come (one of the same id and bucket
 * as the last is added into it: a workspace's links follow each other), sorted and added up once.
 */
export class Sums<Row extends number[]> {
  readonly #rows: Row[] = [];
  add(row: Row): void {
    addOrAppend(this.#rows, row);
  }
  /** The rows in (id, bucket) order, those of one id and bucket added into one. */
  sorted(): Row[] {
    const summed: Row[] = [];
    const byIdAndBucket = (a: Row, b: Row) =>
      (a[0] as number) - (b[0] as number) || (a[1] as number) - (b[1] as number);
    for (const row of this.#rows.sort(byIdAndBucket)) addOrAppend(summed, row);
    return summed;
  }
}

/** Adds `row`'s counts into the last of `rows` when both are of one id and bucket, else appends it. */
function addOrAppend<Row extends number[]>(rows: Row[], row: Row): void {
  const last = rows[rows.length - 1];
  if (last === undefined || last[0] !== row[0] || last[1] !== row[1]) rows.push(row);
  else for (let c = 2; c < row.length; c++) (last[c] as number) += row[c] as number;
}

/** Clicks per value key of each id and bucket, for the few ids of a flush (its workspaces). */
export class KeyTally {
  readonly #ids = new Map<number, Map<number, Map<number, number>>>();
  #lastId = Number.NaN;
  #lastBucket = Number.NaN;
  #last: Map<number, number> | undefined;
  readonly #bots: StatRow[] = [];

  add(id: number, bucket: number, key: number, n: number): void {
    let keys = this.#last;
    if (keys === undefined || id !== this.#lastId || bucket !== this.#lastBucket) {
      let buckets = this.#ids.get(id);
      if (!buckets) {
        buckets = new Map();
        this.#ids.set(id, buckets);
      }
      keys = buckets.get(bucket);
      if (!keys) {
        keys = new Map();
        buckets.set(bucket, keys);
      }
      [this.#lastId, this.#lastBucket, this.#last] = [id, bucket, keys];
    }
    keys.set(key, (keys.get(key) ?? 0) + n);
  }

  /** Bot hits of a kind (a day's only: bots are not events). */
  addBot(id: number, bucket: number, kind: string, hits: number): void {
    this.#bots.push([id, bucket, 'bot', kind, hits]);
  }

  /** The rows in key order, over the values of the table the keys were made of. */
  rows(values: readonly string[]): StatRow[] {
    const rows: StatRow[] = [];
    const order = keyOrder(values);
    for (const id of [...this.#ids.keys()].sort((a, b) => a - b)) {
      const buckets = this.#ids.get(id) as Map<number, Map<number, number>>;
      for (const bucket of [...buckets.keys()].sort((a, b) => a - b)) {
        const keys = buckets.get(bucket) as Map<number, number>;
        for (const key of [...keys.keys()].sort(order))
          rows.push(statRow(id, bucket, key, values, keys.get(key) as number));
      }
    }
    return mergeSorted(rows, summedRows(this.#bots), compareStatRows);
  }
}

/** Rows in key order, those of one key added into one. */
export function summedRows(rows: StatRow[]): StatRow[] {
  const summed: StatRow[] = [];
  for (const row of rows.sort(compareStatRows)) {
    const last = summed[summed.length - 1];
    if (last !== undefined && compareStatRows(last, row) === 0) last[4] += row[4];
    else summed.push(row);
  }
  return summed;
}

/** What one walk over a flush's events of known links counts. */
export interface EventCounts {
  /** Per link, hour, dimension and value, in key order. */
  linkHourStats: StatRow[];
  /** Per link, day, dimension and value, in key order: the sum of the day's hours. */
  linkDayStats: StatRow[];
  /** [link, hour, clicks] of every link and hour with events, in order. */
  linkHourClicks: Array<[number, number, number]>;
  /** The same per workspace (each event's account as stored). */
  workspaceHourStats: KeyTally;
  workspaceDayStats: KeyTally;
}

/**
 * Counts the events `rows` of the table (each of the workspace in `accounts` at its place) by link,
 * hour and day, dimension and value: one sort of the event indexes by (link, hour), then each
 * hour's and day's rows are written as the walk leaves it.
 */
export function countEvents(
  table: EventTable,
  rows: readonly number[],
  accounts: readonly number[],
): EventCounts {
  const counts: EventCounts = {
    linkHourStats: [],
    linkDayStats: [],
    linkHourClicks: [],
    workspaceHourStats: new KeyTally(),
    workspaceDayStats: new KeyTally(),
  };
  const n = rows.length;
  const links = new Float64Array(n);
  const hours = new Float64Array(n);
  const order = new Uint32Array(n);
  for (let j = 0; j < n; j++) {
    const i = rows[j] as number;
    links[j] = table.linkId(i);
    hours[j] = Math.floor(table.at(i) / HOUR_MS);
    order[j] = j;
  }
  order.sort(
    (a, b) => (links[a] as number) - (links[b] as number) || (hours[a] as number) - (hours[b] as number),
  );

  const { values } = table;
  const sortKeys = keyOrder(values);
  const hour = new Map<number, number>();
  const day = new Map<number, number>();
  const emit = (into: StatRow[], link: number, bucket: number, keys: number[], of: Map<number, number>) => {
    for (const key of keys) into.push(statRow(link, bucket, key, values, of.get(key) as number));
  };
  for (let start = 0; start < n; ) {
    const first = order[start] as number;
    const link = links[first] as number;
    const account = accounts[first] as number;
    const dayNo = Math.floor((hours[first] as number) / HOURS_A_DAY);
    // The day's hours: [start, dayEnd) of the order.
    let dayEnd = start + 1;
    while (dayEnd < n) {
      const j = order[dayEnd] as number;
      if (links[j] !== link || Math.floor((hours[j] as number) / HOURS_A_DAY) !== dayNo) break;
      dayEnd++;
    }
    day.clear();
    let hoursOfDay = 0;
    for (let from = start; from < dayEnd; hoursOfDay++) {
      const hourNo = hours[order[from] as number] as number;
      let to = from + 1;
      while (to < dayEnd && hours[order[to] as number] === hourNo) to++;
      hour.clear();
      for (let j = from; j < to; j++) {
        const i = rows[order[j] as number] as number;
        for (let k = 0; k < DIMS; k++) {
          const code = table.code(i, k);
          if (k === VARIANT && values[code] === '') continue;
          const key = keyOf(code, k);
          hour.set(key, (hour.get(key) ?? 0) + 1);
        }
      }
      const keys = [...hour.keys()].sort(sortKeys);
      emit(counts.linkHourStats, link, hourNo, keys, hour);
      counts.linkHourClicks.push([link, hourNo, to - from]);
      // A day of one hour (the common case) has that hour's rows.
      const wholeDay = from === start && to === dayEnd;
      for (const key of keys) {
        const clicks = hour.get(key) as number;
        counts.workspaceHourStats.add(account, hourNo, key, clicks);
        counts.workspaceDayStats.add(account, dayNo, key, clicks);
        if (!wholeDay) day.set(key, (day.get(key) ?? 0) + clicks);
      }
      if (wholeDay) emit(counts.linkDayStats, link, dayNo, keys, hour);
      from = to;
    }
    if (hoursOfDay > 1) emit(counts.linkDayStats, link, dayNo, [...day.keys()].sort(sortKeys), day);
    start = dayEnd;
  }
  return counts;
}

/** Two lists in `compare`'s order as one, in that order. */
export function mergeSorted<T>(a: readonly T[], b: readonly T[], compare: (x: T, y: T) => number): T[] {
  if (b.length === 0) return a as T[];
  if (a.length === 0) return b as T[];
  const merged: T[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length)
    merged.push(compare(a[i] as T, b[j] as T) <= 0 ? (a[i++] as T) : (b[j++] as T));
  while (i < a.length) merged.push(a[i++] as T);
  while (j < b.length) merged.push(b[j++] as T);
  return merged;
}
