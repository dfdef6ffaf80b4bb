/** The click counters on SQLite: batched counts from the redirect and the daily history. */

import { dayNumber, dayText } from '../../core/days.ts';
import type { ClickCount, DailyClicks } from '../../core/entities.ts';
import type { ClickStore } from '../../core/ports/store.ts';
import type { Connection } from './connection.ts';

// Deleted links are counted too (no deleted_at filter); RETURNING hands over the account for the
// account's history, and no row means the link is unknown.
const COUNT_ON_LINK = `UPDATE links SET clicks = clicks + ?, bot_hits = bot_hits + ?
  WHERE id = ? RETURNING account_id`;
const ADD_LINK_DAY = `INSERT INTO link_daily_clicks (link_id, day, clicks) VALUES (?, ?, ?)
  ON CONFLICT (link_id, day) DO UPDATE SET clicks = link_daily_clicks.clicks + excluded.clicks`;
const ADD_ACCOUNT_DAY = `INSERT INTO account_daily_clicks (account_id, day, clicks) VALUES (?, ?, ?)
  ON CONFLICT (account_id, day) DO UPDATE SET clicks = account_daily_clicks.clicks + excluded.clicks`;
export const DAYS_OF_LINK = `SELECT day, clicks FROM link_daily_clicks
  WHERE link_id = ? AND day BETWEEN ? AND ? ORDER BY day`;
export const DAYS_OF_ACCOUNT = `SELECT day, clicks FROM account_daily_clicks
  WHERE account_id = ? AND day BETWEEN ? AND ? ORDER BY day`;

export interface Entry {
  linkId: number;
  day: number;
  clicks: number;
  botHits: number;
}

/** One transaction for the entries; runs in the click writer's thread (click-writer.ts). */
export function writeClicks(conn: Connection, entries: readonly Entry[]): void {
  conn.transaction(() => {
    // Summed per account and day first: one upsert per account, not one per clicked link.
    const accountDays = new Map<string, { accountId: number; day: number; clicks: number }>();
    for (const { linkId, day, clicks, botHits } of entries) {
      if (clicks === 0 && botHits === 0) continue;
      const row = conn.stmt(COUNT_ON_LINK).get(clicks, botHits, linkId);
      // An unknown link is skipped rather than thrown, so it cannot lose the rest of the batch.
      if (row === undefined || clicks === 0) continue;
      conn.stmt(ADD_LINK_DAY).run(linkId, day, clicks);
      const accountId = row.account_id as number;
      const key = `${accountId}:${day}`;
      const sum = accountDays.get(key);
      if (sum) sum.clicks += clicks;
      else accountDays.set(key, { accountId, day, clicks });
    }
    for (const { accountId, day, clicks } of accountDays.values()) {
      conn.stmt(ADD_ACCOUNT_DAY).run(accountId, day, clicks);
    }
  });
}

/** `write` takes the checked entries of one batch: in another thread for a file, in place for :memory:. */
export function sqliteClickStore(conn: Connection, write: (entries: Entry[]) => Promise<void>): ClickStore {
  const daily = (sql: string, id: number, fromDay: string, toDay: string): DailyClicks[] =>
    conn
      .stmt(sql)
      .all(id, dayNumber(fromDay), dayNumber(toDay))
      .map((row) => ({ day: dayText(row.day as number), clicks: row.clicks as number }));

  return {
    async addClicks(batch) {
      if (batch.length === 0) return;
      // Checked before the transaction: a malformed entry is a bug in the caller, refused whole.
      await write(batch.map(checked));
    },

    async dailyClicksOfLink(linkId, fromDay, toDay) {
      return daily(DAYS_OF_LINK, linkId, fromDay, toDay);
    },

    async dailyClicksOfAccount(accountId, fromDay, toDay) {
      return daily(DAYS_OF_ACCOUNT, accountId, fromDay, toDay);
    },
  };
}

function checked(count: ClickCount): Entry {
  for (const value of [count.linkId, count.clicks, count.botHits]) {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new RangeError(`click count for link ${count.linkId} is not a whole number >= 0: ${value}`);
    }
  }
  return { linkId: count.linkId, day: dayNumber(count.day), clicks: count.clicks, botHits: count.botHits };
}
