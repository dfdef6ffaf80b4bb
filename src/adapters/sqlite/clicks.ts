/** The click counters on SQLite: batched counts and visits from the redirect, and the daily history. */

import { dayNumber, dayText } from '../../core/days.ts';
import type { DailyClicks } from '../../core/entities.ts';
import type { ClickStore } from '../../core/ports/store.ts';
import { type CheckedBatch, checkedBatch, isEmpty } from '../sql/flush-batch.ts';
import { linkClicksOf, TOP_LINKS_OF_ACCOUNT, topLinksParams } from '../sql/top-links.ts';
import type { Connection } from './connection.ts';

// A day may hold bot hits only; the human history lists days with clicks.
export const DAYS_OF_LINK = `SELECT day, clicks FROM link_daily_clicks
  WHERE link_id = ? AND day BETWEEN ? AND ? AND clicks > 0 ORDER BY day`;
export const DAYS_OF_ACCOUNT = `SELECT day, clicks FROM account_daily_clicks
  WHERE account_id = ? AND day BETWEEN ? AND ? AND clicks > 0 ORDER BY day`;

/** `write` takes a checked batch: in another thread for a file, in place for :memory: (click-writer.ts). */
export function sqliteClickStore(
  conn: Connection,
  write: (batch: CheckedBatch) => Promise<void>,
): ClickStore {
  const daily = (sql: string, id: number, fromDay: string, toDay: string): DailyClicks[] =>
    conn
      .stmt(sql)
      .all(id, dayNumber(fromDay), dayNumber(toDay))
      .map((row) => ({ day: dayText(row.day as number), clicks: row.clicks as number }));

  return {
    async addClicks(batch, visits) {
      // Checked before the transaction: a malformed entry is a bug in the caller, refused whole.
      const checked = checkedBatch(batch, visits);
      if (!isEmpty(checked)) await write(checked);
    },

    async dailyClicksOfLink(linkId, fromDay, toDay) {
      return daily(DAYS_OF_LINK, linkId, fromDay, toDay);
    },

    async dailyClicksOfWorkspace(workspaceId, fromDay, toDay) {
      return daily(DAYS_OF_ACCOUNT, workspaceId, fromDay, toDay);
    },

    async topLinksOfWorkspace(workspaceId, fromDay, toDay, limit) {
      const params = topLinksParams(workspaceId, fromDay, toDay, limit);
      return conn
        .stmt(TOP_LINKS_OF_ACCOUNT)
        .all(...params)
        .map(linkClicksOf);
    },
  };
}
