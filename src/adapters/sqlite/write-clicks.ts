/**
 * A flush written on SQLite in one transaction; runs in the click writer's thread (click-writer.ts),
 * or in place for :memory:. The batch arrives checked (sql/flush-batch.ts).
 */

import { EVENT_DIMENSIONS } from '../../core/analytics/model.ts';
import type { CheckedBatch } from '../sql/flush-batch.ts';
import { type DailyWrites, dailyWrites, linkTotals, visitorNumber } from '../sql/flush-rows.ts';
import { writeEvents as writeOutboxEvents } from '../sql/outbox-scripts.ts';
import type { Connection } from './connection.ts';
import { purgeHours } from './purge-hours.ts';
import { runNow } from './run-script.ts';

// Every statement of a flush is `OR ROLLBACK`: a constraint it breaks (a bug, the batch is checked)
// ends the whole transaction, as the error thrown out of it would anyway. Without it SQLite opens a
// statement journal for each multi-row or upsert statement, copying every page the statement touches
// that the flush had dirtied already (to a temporary file once past 64 KiB): ~20% of this thread's
// CPU per click on a hot set, 5-8% on the long tail (docs/adr/053).
//
// Deleted links are counted too (no deleted_at filter); RETURNING hands over the account for the
// account's rows, and no row means the link is unknown. The latest click only moves forward (a
// late batch never takes it back) and stays as it is for a NULL: bot hits alone.
const COUNT_ON_LINK = `UPDATE OR ROLLBACK links SET clicks = clicks + ?1, bot_hits = bot_hits + ?2,
  unique_visitors = unique_visitors + ?3, last_clicked_at = coalesce(max(last_clicked_at, ?4), ?4, last_clicked_at)
  WHERE id = ?5 RETURNING workspace_id`;
const ACCOUNT_OF_LINK = 'SELECT workspace_id FROM links WHERE id = ?';

const addDay = (table: 'link' | 'workspace') => `INSERT OR ROLLBACK INTO ${table}_daily_clicks
  (${table}_id, day, clicks, bot_hits, visitors) VALUES (?, ?, ?, ?, ?)
  ON CONFLICT (${table}_id, day) DO UPDATE SET clicks = clicks + excluded.clicks,
  bot_hits = bot_hits + excluded.bot_hits, visitors = visitors + excluded.visitors`;
const addStat = (table: 'link' | 'workspace') => `INSERT OR ROLLBACK INTO ${table}_daily_stats
  (${table}_id, day, dimension, value, clicks) VALUES (?, ?, ?, ?, ?)
  ON CONFLICT (${table}_id, day, dimension, value) DO UPDATE SET clicks = clicks + excluded.clicks`;

const addHour = (table: 'link' | 'workspace') => `INSERT OR ROLLBACK INTO ${table}_hourly_clicks
  (${table}_id, hour, clicks, visitors) VALUES (?, ?, ?, ?)
  ON CONFLICT (${table}_id, hour) DO UPDATE SET clicks = clicks + excluded.clicks,
  visitors = visitors + excluded.visitors`;
const addHourStat = (table: 'link' | 'workspace') => `INSERT OR ROLLBACK INTO ${table}_hourly_stats
  (${table}_id, hour, dimension, value, clicks) VALUES (?, ?, ?, ?, ?)
  ON CONFLICT (${table}_id, hour, dimension, value) DO UPDATE SET clicks = clicks + excluded.clicks`;

const EVENT_COLUMNS = `link_id, workspace_id, at, ${EVENT_DIMENSIONS.join(', ')}, visitor`;
/** Events per INSERT: 64 rows of 12 values, well below SQLite's limit of bound values. */
const EVENT_ROWS = 64;
const EVENT_ROW = `(${Array(EVENT_DIMENSIONS.length + 4)
  .fill('?')
  .join(', ')})`;
const insertEvents = (rows: number) =>
  `INSERT OR ROLLBACK INTO click_events (${EVENT_COLUMNS}) VALUES ${Array(rows).fill(EVENT_ROW).join(', ')}`;
const INSERT_EVENT_ROWS = insertEvents(EVENT_ROWS);
const INSERT_EVENT = insertEvents(1);
const ADD_LINK_DAY = addDay('link');
const ADD_ACCOUNT_DAY = addDay('workspace');
const ADD_LINK_STAT = addStat('link');
const ADD_ACCOUNT_STAT = addStat('workspace');
const ADD_LINK_HOUR = addHour('link');
const ADD_ACCOUNT_HOUR = addHour('workspace');
const ADD_LINK_HOUR_STAT = addHourStat('link');
const ADD_ACCOUNT_HOUR_STAT = addHourStat('workspace');

// The sweep goes account by account along click_events_account_at, exact and without an index on
// `at` alone, which cost a write per click event (docs/adr/022).
export const PURGE_EVENTS = `DELETE FROM click_events WHERE rowid IN
  (SELECT rowid FROM click_events WHERE workspace_id = ? AND at < ? LIMIT ?)`;
export const NEXT_EVENT_ACCOUNT =
  'SELECT workspace_id FROM click_events WHERE workspace_id > ? ORDER BY workspace_id LIMIT 1';

export function writeClicks(conn: Connection, batch: CheckedBatch): void {
  conn.transaction(() => {
    const accountOf = new Map<number, number>();
    for (const [linkId, [clicks, botHits, visitors, lastAt]] of linkTotals(batch)) {
      const row =
        clicks + botHits + visitors === 0
          ? conn.stmt(ACCOUNT_OF_LINK).get(linkId)
          : conn.stmt(COUNT_ON_LINK).get(clicks, botHits, visitors, lastAt, linkId);
      // An unknown link is skipped rather than thrown, so it cannot lose the rest of the batch.
      if (row !== undefined) accountOf.set(linkId, row.workspace_id as number);
    }
    const writes = dailyWrites(batch, accountOf);
    const { hourly } = writes;
    runRows(conn, ADD_LINK_DAY, writes.linkDays);
    runRows(conn, ADD_ACCOUNT_DAY, writes.workspaceDays);
    runRows(conn, ADD_LINK_STAT, writes.linkStats);
    runRows(conn, ADD_ACCOUNT_STAT, writes.workspaceStats);
    runRows(conn, ADD_LINK_HOUR, hourly.linkHours);
    runRows(conn, ADD_ACCOUNT_HOUR, hourly.workspaceHours);
    runRows(conn, ADD_LINK_HOUR_STAT, hourly.linkStats);
    runRows(conn, ADD_ACCOUNT_HOUR_STAT, hourly.workspaceStats);
    writeEvents(conn, writes.events);
    if (batch.notices) runNow(conn, writeOutboxEvents(batch.notices.events, batch.notices.stream));
  });
}

/** Runs one statement for each of its rows, looked up once (a tail flush has ~16 rows per link). */
function runRows(conn: Connection, sql: string, rows: ReadonlyArray<ReadonlyArray<number | string>>): void {
  if (rows.length === 0) return;
  const statement = conn.stmt(sql);
  for (const row of rows) statement.run(...row);
}

function writeEvents(conn: Connection, { table, rows, accounts }: DailyWrites['events']): void {
  // Each distinct visitor id made a number once, not once per event.
  const visitors = new Map<number, bigint>();
  const visitorOf = (i: number) => {
    const code = table.visitorCode(i);
    let visitor = visitors.get(code);
    if (visitor === undefined) {
      visitor = visitorNumber(table.values[code] as string);
      visitors.set(code, visitor);
    }
    return visitor;
  };
  const values: Array<number | string | bigint> = [];
  const add = (n: number) => {
    const i = rows[n] as number;
    values.push(table.linkId(i), accounts[n] as number, table.at(i));
    for (let k = 0; k < EVENT_DIMENSIONS.length; k++) values.push(table.value(i, k));
    values.push(visitorOf(i));
  };
  let n = 0;
  for (; n + EVENT_ROWS <= rows.length; n += EVENT_ROWS) {
    values.length = 0;
    for (let j = n; j < n + EVENT_ROWS; j++) add(j);
    conn.stmt(INSERT_EVENT_ROWS).run(...values);
  }
  for (; n < rows.length; n++) {
    values.length = 0;
    add(n);
    conn.stmt(INSERT_EVENT).run(...values);
  }
}

/** Workspaces a slice looks at at most, so one with many workspaces and few old events stays short. */
const ACCOUNTS_PER_SLICE = 500;

/** What one slice of the purge did, and the workspace the next one starts at (none: done). */
export interface PurgeSlice {
  purged: number;
  next?: number;
}

/**
 * One slice of the purge, in one short transaction: at most `slice` events older than `beforeMs`,
 * workspace by workspace from `from` on. The click writer's thread runs one slice per job
 * (click-writer.ts), so click batches posted meanwhile are written between slices.
 */
export function purgeSlice(conn: Connection, beforeMs: number, slice: number, from: number): PurgeSlice {
  const done = sliceOfEvents(conn, beforeMs, slice, from);
  // The hourly rollup is kept as long as the events (docs/adr/041): its hours go once they have.
  if (done.next === undefined) purgeHours(conn, beforeMs);
  return done;
}

function sliceOfEvents(conn: Connection, beforeMs: number, slice: number, from: number): PurgeSlice {
  return conn.transaction(() => {
    let left = slice;
    for (let account = from, seen = 0; ; seen++) {
      left -= Number(conn.stmt(PURGE_EVENTS).run(account, beforeMs, left).changes);
      if (left === 0 || seen === ACCOUNTS_PER_SLICE) return { purged: slice - left, next: account };
      // The next workspace with events, found by a seek past this one (a skip scan of the index).
      const next = conn.stmt(NEXT_EVENT_ACCOUNT).get(account) as { workspace_id: number } | undefined;
      if (next === undefined) return { purged: slice - left };
      account = Number(next.workspace_id);
    }
  });
}

/** The workspace a purge starts at: below every id. */
export const FIRST_ACCOUNT = -1;

/** Deletes events older than `beforeMs`, slice after slice, in place; how many went. */
export function purgeEvents(conn: Connection, beforeMs: number, slice: number): number {
  let purged = 0;
  for (let from: number | undefined = FIRST_ACCOUNT; from !== undefined; ) {
    const done = purgeSlice(conn, beforeMs, slice, from);
    purged += done.purged;
    from = done.next;
  }
  return purged;
}
