/** The click counters on PostgreSQL: batched counts from the redirect and the daily history. */

import { dayNumber, dayText } from '../../core/days.ts';
import type { ClickCount, DailyClicks } from '../../core/entities.ts';
import type { ClickStore } from '../../core/ports/store.ts';
import { type Db, query, transaction } from './client.ts';

// Three statements per batch, however many entries: each takes its rows as parallel arrays.
// Deleted links are counted too (no deleted_at filter); RETURNING hands over each link's account
// for the account's history, and a link missing from it is unknown.
const COUNT_ON_LINKS = `UPDATE links SET clicks = links.clicks + v.clicks, bot_hits = links.bot_hits + v.bot_hits
  FROM unnest($1::bigint[], $2::bigint[], $3::bigint[]) AS v (id, clicks, bot_hits)
  WHERE links.id = v.id RETURNING links.id, links.account_id`;
const ADD_LINK_DAYS = `INSERT INTO link_daily_clicks (link_id, day, clicks)
  SELECT * FROM unnest($1::bigint[], $2::integer[], $3::bigint[])
  ON CONFLICT (link_id, day) DO UPDATE SET clicks = link_daily_clicks.clicks + excluded.clicks`;
const ADD_ACCOUNT_DAYS = `INSERT INTO account_daily_clicks (account_id, day, clicks)
  SELECT * FROM unnest($1::bigint[], $2::integer[], $3::bigint[])
  ON CONFLICT (account_id, day) DO UPDATE SET clicks = account_daily_clicks.clicks + excluded.clicks`;
export const DAYS_OF_LINK = `SELECT day, clicks FROM link_daily_clicks
  WHERE link_id = $1 AND day BETWEEN $2 AND $3 ORDER BY day`;
export const DAYS_OF_ACCOUNT = `SELECT day, clicks FROM account_daily_clicks
  WHERE account_id = $1 AND day BETWEEN $2 AND $3 ORDER BY day`;

/** deadlock_detected, serialization_failure: the transaction was rolled back whole, so it can run again. */
const RETRYABLE = new Set(['40P01', '40001']);
const FLUSH_ATTEMPTS = 3;

interface Entry {
  linkId: number;
  day: number;
  clicks: number;
  botHits: number;
}

/** A batch summed so that each statement touches each row once (ON CONFLICT DO UPDATE demands it). */
interface Totals {
  /** link id → [clicks, bot hits], in ascending id order. */
  links: Map<number, [number, number]>;
  /** human clicks per link and day, `${linkId}:${day}` → [linkId, day, clicks]. */
  linkDays: Map<string, [number, number, number]>;
}

export function postgresClickStore(db: Db): ClickStore {
  const daily = async (sql: string, id: number, fromDay: string, toDay: string): Promise<DailyClicks[]> => {
    const rows = await query(db, sql, [id, dayNumber(fromDay), dayNumber(toDay)]);
    return rows.map((row) => ({ day: dayText(row.day as number), clicks: row.clicks as number }));
  };

  const write = (totals: Totals) =>
    transaction(db, async (tx) => {
      const links = [...totals.links];
      const counted = await query(tx, COUNT_ON_LINKS, [
        links.map(([id]) => id),
        links.map(([, [clicks]]) => clicks),
        links.map(([, [, botHits]]) => botHits),
      ]);
      // An unknown link is skipped rather than thrown, so it cannot lose the rest of the batch.
      const accountOf = new Map(counted.map((row) => [row.id as number, row.account_id as number]));
      const linkDays = [...totals.linkDays.values()].filter(([linkId]) => accountOf.has(linkId));
      if (linkDays.length === 0) return;
      const accountDays = new Map<string, [number, number, number]>();
      for (const [linkId, day, clicks] of linkDays) {
        const accountId = accountOf.get(linkId) as number;
        const key = `${accountId}:${day}`;
        const sum = accountDays.get(key);
        if (sum) sum[2] += clicks;
        else accountDays.set(key, [accountId, day, clicks]);
      }
      await query(tx, ADD_LINK_DAYS, columns(linkDays));
      const byAccount = [...accountDays.values()].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      await query(tx, ADD_ACCOUNT_DAYS, columns(byAccount));
    });

  return {
    async addClicks(batch) {
      if (batch.length === 0) return;
      // Checked before the transaction: a malformed entry is a bug in the caller, refused whole.
      const totals = summed(batch.map(checked));
      if (totals.links.size === 0) return;
      // Two instances flushing overlapping links can deadlock on row locks (the join decides the
      // order rows are locked in); PostgreSQL then aborts one, which is simply run again.
      for (let attempt = 1; ; attempt++) {
        try {
          await write(totals);
          return;
        } catch (error) {
          const code = (error as { code?: unknown }).code;
          if (attempt >= FLUSH_ATTEMPTS || typeof code !== 'string' || !RETRYABLE.has(code)) throw error;
        }
      }
    },

    async dailyClicksOfLink(linkId, fromDay, toDay) {
      return daily(DAYS_OF_LINK, linkId, fromDay, toDay);
    },

    async dailyClicksOfAccount(accountId, fromDay, toDay) {
      return daily(DAYS_OF_ACCOUNT, accountId, fromDay, toDay);
    },
  };
}

function summed(entries: readonly Entry[]): Totals {
  const links = new Map<number, [number, number]>();
  const linkDays = new Map<string, [number, number, number]>();
  // Ascending ids and days: concurrent flushes then mostly lock rows in the same order.
  const sorted = entries.toSorted((a, b) => a.linkId - b.linkId || a.day - b.day);
  for (const { linkId, day, clicks, botHits } of sorted) {
    if (clicks === 0 && botHits === 0) continue;
    const total = links.get(linkId);
    if (total) {
      total[0] += clicks;
      total[1] += botHits;
    } else links.set(linkId, [clicks, botHits]);
    if (clicks === 0) continue;
    const key = `${linkId}:${day}`;
    const sum = linkDays.get(key);
    if (sum) sum[2] += clicks;
    else linkDays.set(key, [linkId, day, clicks]);
  }
  return { links, linkDays };
}

/** Rows [a, b, c] as the three parallel arrays unnest takes. */
function columns(rows: readonly [number, number, number][]): [number[], number[], number[]] {
  return [rows.map((row) => row[0]), rows.map((row) => row[1]), rows.map((row) => row[2])];
}

function checked(count: ClickCount): Entry {
  for (const value of [count.linkId, count.clicks, count.botHits]) {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new RangeError(`click count for link ${count.linkId} is not a whole number >= 0: ${value}`);
    }
  }
  return { linkId: count.linkId, day: dayNumber(count.day), clicks: count.clicks, botHits: count.botHits };
}
