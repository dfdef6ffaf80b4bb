/**
 * A flush written on PostgreSQL in one transaction, a fixed number of statements however many
 * entries: each statement takes its rows as parallel arrays (unnest). The batch arrives checked and
 * is summed first (sql/flush-rows.ts), so each ON CONFLICT DO UPDATE meets each row once.
 */

import { EVENT_DIMENSIONS } from '../../core/analytics/model.ts';
import type { CheckedBatch } from '../sql/flush-batch.ts';
import type { HourlyWrites, HourRow, HourStatRow } from '../sql/flush-hourly.ts';
import { type DayRow, dailyWrites, linkTotals, type StatRow, visitorNumber } from '../sql/flush-rows.ts';
import { writeEvents as writeOutboxEvents } from '../sql/outbox-scripts.ts';
import { type Db, type Param, query, transaction } from './client.ts';
import { runIn } from './run-script.ts';

// Deleted links are counted too (no deleted_at filter); RETURNING hands over each link's account,
// and a link missing from it is unknown. The latest click only moves forward (GREATEST skips a
// NULL: bot hits alone leave it).
const COUNT_ON_LINKS = `UPDATE links SET clicks = links.clicks + v.clicks, bot_hits = links.bot_hits + v.bot_hits,
  unique_visitors = links.unique_visitors + v.visitors,
  last_clicked_at = GREATEST(links.last_clicked_at, v.last_at)
  FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[], $5::bigint[])
    AS v (id, clicks, bot_hits, visitors, last_at)
  WHERE links.id = v.id RETURNING links.id, links.workspace_id`;
const ACCOUNTS_OF_LINKS = 'SELECT id, workspace_id FROM links WHERE id = ANY($1::bigint[])';

const addDays = (table: 'link' | 'workspace') => `INSERT INTO ${table}_daily_clicks
  (${table}_id, day, clicks, bot_hits, visitors)
  SELECT * FROM unnest($1::bigint[], $2::integer[], $3::bigint[], $4::bigint[], $5::bigint[])
  ON CONFLICT (${table}_id, day) DO UPDATE SET clicks = ${table}_daily_clicks.clicks + excluded.clicks,
  bot_hits = ${table}_daily_clicks.bot_hits + excluded.bot_hits,
  visitors = ${table}_daily_clicks.visitors + excluded.visitors`;
const addStats = (table: 'link' | 'workspace') => `INSERT INTO ${table}_daily_stats
  (${table}_id, day, dimension, value, clicks)
  SELECT * FROM unnest($1::bigint[], $2::integer[], $3::text[], $4::text[], $5::bigint[])
  ON CONFLICT (${table}_id, day, dimension, value)
  DO UPDATE SET clicks = ${table}_daily_stats.clicks + excluded.clicks`;
const addHours = (table: 'link' | 'workspace') => `INSERT INTO ${table}_hourly_clicks
  (${table}_id, hour, clicks, visitors)
  SELECT * FROM unnest($1::bigint[], $2::integer[], $3::bigint[], $4::bigint[])
  ON CONFLICT (${table}_id, hour) DO UPDATE SET clicks = ${table}_hourly_clicks.clicks + excluded.clicks,
  visitors = ${table}_hourly_clicks.visitors + excluded.visitors`;
const addHourStats = (table: 'link' | 'workspace') => `INSERT INTO ${table}_hourly_stats
  (${table}_id, hour, dimension, value, clicks)
  SELECT * FROM unnest($1::bigint[], $2::integer[], $3::text[], $4::text[], $5::bigint[])
  ON CONFLICT (${table}_id, hour, dimension, value)
  DO UPDATE SET clicks = ${table}_hourly_stats.clicks + excluded.clicks`;
const ADD_LINK_DAYS = addDays('link');
const ADD_ACCOUNT_DAYS = addDays('workspace');
const ADD_LINK_STATS = addStats('link');
const ADD_ACCOUNT_STATS = addStats('workspace');
/** The hourly rollup's four statements, in the order of the daily ones (docs/adr/041). */
const HOURLY: Array<[keyof HourlyWrites, string, number]> = [
  ['linkHours', addHours('link'), 4],
  ['workspaceHours', addHours('workspace'), 4],
  ['linkStats', addHourStats('link'), 5],
  ['workspaceStats', addHourStats('workspace'), 5],
];
// One statement for the batch's events; the visitor ids travel as decimal text (a JS number cannot
// hold 64 bits) and become BIGINT here.
const INSERT_EVENTS = `INSERT INTO click_events
  (link_id, workspace_id, at, visitor, referrer, country, device, os, browser, language, source, variant)
  SELECT link_id, workspace_id, at, visitor::bigint, referrer, country, device, os, browser, language, source, variant
  FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::text[],
    $8::text[], $9::text[], $10::text[], $11::text[], $12::text[])
  AS v (link_id, workspace_id, at, visitor, referrer, country, device, os, browser, language, source, variant)`;

/** Rows as the parallel arrays unnest takes. */
function columns(rows: readonly (DayRow | StatRow | HourRow | HourStatRow)[], width: number): Param[] {
  return Array.from({ length: width }, (_, i) => rows.map((row) => row[i] as string | number));
}

export function writeClicks(db: Db, batch: CheckedBatch): Promise<void> {
  return transaction(db, async (tx) => {
    const totals = linkTotals(batch);
    const counted = totals.filter(([, [clicks, botHits, visitors]]) => clicks + botHits + visitors > 0);
    const named = totals.filter(([, [clicks, botHits, visitors]]) => clicks + botHits + visitors === 0);
    const found = [
      ...(counted.length === 0
        ? []
        : await query(tx, COUNT_ON_LINKS, [
            counted.map(([id]) => id),
            counted.map(([, [clicks]]) => clicks),
            counted.map(([, [, botHits]]) => botHits),
            counted.map(([, [, , visitors]]) => visitors),
            counted.map(([, [, , , lastAt]]) => lastAt),
          ])),
      ...(named.length === 0 ? [] : await query(tx, ACCOUNTS_OF_LINKS, [named.map(([id]) => id)])),
    ];
    // An unknown link is skipped rather than thrown, so it cannot lose the rest of the batch.
    const accountOf = new Map(found.map((row) => [row.id as number, row.workspace_id as number]));
    const writes = dailyWrites(batch, accountOf);
    if (writes.linkDays.length > 0) await query(tx, ADD_LINK_DAYS, columns(writes.linkDays, 5));
    if (writes.workspaceDays.length > 0) await query(tx, ADD_ACCOUNT_DAYS, columns(writes.workspaceDays, 5));
    if (writes.linkStats.length > 0) await query(tx, ADD_LINK_STATS, columns(writes.linkStats, 5));
    if (writes.workspaceStats.length > 0)
      await query(tx, ADD_ACCOUNT_STATS, columns(writes.workspaceStats, 5));
    for (const [part, text, width] of HOURLY) {
      const rows = writes.hourly[part];
      if (rows.length > 0) await query(tx, text, columns(rows, width));
    }
    const { table, rows, accounts } = writes.events;
    if (rows.length > 0) {
      await query(tx, INSERT_EVENTS, [
        rows.map((i) => table.linkId(i)),
        accounts,
        rows.map((i) => table.at(i)),
        rows.map((i) => visitorNumber(table.values[table.visitorCode(i)] as string).toString()),
        ...EVENT_DIMENSIONS.map((_, k) => rows.map((i) => table.value(i, k))),
      ]);
    }
    if (batch.notices) await runIn(tx, writeOutboxEvents(batch.notices.events, batch.notices.stream));
  });
}

/** deadlock_detected, serialization_failure: the transaction was rolled back whole, so it can run again. */
const RETRYABLE = new Set(['40P01', '40001']);
const FLUSH_ATTEMPTS = 8;

/** A short random wait before running a rolled-back flush again, longer each time, so the two part ways. */
const backOff = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));

/**
 * A PostgreSQL flush, run again when rolled back: two instances flushing overlapping links can
 * deadlock on row locks (the join decides the order rows are locked in); PostgreSQL then aborts
 * one, which is simply run again. SQLite's single writer thread never meets this.
 */
export function rerunWhenRolledBack(
  flush: (batch: CheckedBatch) => Promise<void>,
): (batch: CheckedBatch) => Promise<void> {
  return async (batch) => {
    for (let attempt = 1; ; attempt++) {
      try {
        await flush(batch);
        return;
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if (attempt >= FLUSH_ATTEMPTS || typeof code !== 'string' || !RETRYABLE.has(code)) throw error;
        await backOff(attempt);
      }
    }
  };
}
