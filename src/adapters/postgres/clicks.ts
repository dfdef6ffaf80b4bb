/** The click counters on PostgreSQL: batched counts and visits from the redirect, and the daily history. */

import { dayNumber, dayText } from '../../core/days.ts';
import type { DailyClicks } from '../../core/entities.ts';
import type { ClickStore } from '../../core/ports/store.ts';
import { checkedBatch, isEmpty } from '../sql/flush-batch.ts';
import { linkClicksOf, TOP_LINKS_OF_ACCOUNT, topLinksParams } from '../sql/top-links.ts';
import type { Db } from './client.ts';
import { numbered, query } from './client.ts';
import { writeClicks } from './write-clicks.ts';

// A day may hold bot hits only; the human history lists days with clicks.
export const DAYS_OF_LINK = `SELECT day, clicks FROM link_daily_clicks
  WHERE link_id = $1 AND day BETWEEN $2 AND $3 AND clicks > 0 ORDER BY day`;
export const DAYS_OF_ACCOUNT = `SELECT day, clicks FROM account_daily_clicks
  WHERE account_id = $1 AND day BETWEEN $2 AND $3 AND clicks > 0 ORDER BY day`;

const TOP_LINKS = numbered(TOP_LINKS_OF_ACCOUNT);

/** deadlock_detected, serialization_failure: the transaction was rolled back whole, so it can run again. */
const RETRYABLE = new Set(['40P01', '40001']);
const FLUSH_ATTEMPTS = 8;

/** A short random wait before running a rolled-back flush again, longer each time, so the two part ways. */
const backOff = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));

export function postgresClickStore(db: Db): ClickStore {
  const daily = async (sql: string, id: number, fromDay: string, toDay: string): Promise<DailyClicks[]> => {
    const rows = await query(db, sql, [id, dayNumber(fromDay), dayNumber(toDay)]);
    return rows.map((row) => ({ day: dayText(row.day as number), clicks: row.clicks as number }));
  };

  return {
    async addClicks(batch, visits) {
      // Checked before the transaction: a malformed entry is a bug in the caller, refused whole.
      const checked = checkedBatch(batch, visits);
      if (isEmpty(checked)) return;
      // Two instances flushing overlapping links can deadlock on row locks (the join decides the
      // order rows are locked in); PostgreSQL then aborts one, which is simply run again.
      for (let attempt = 1; ; attempt++) {
        try {
          await writeClicks(db, checked);
          return;
        } catch (error) {
          const code = (error as { code?: unknown }).code;
          if (attempt >= FLUSH_ATTEMPTS || typeof code !== 'string' || !RETRYABLE.has(code)) throw error;
          await backOff(attempt);
        }
      }
    },

    async dailyClicksOfLink(linkId, fromDay, toDay) {
      return daily(DAYS_OF_LINK, linkId, fromDay, toDay);
    },

    async dailyClicksOfWorkspace(workspaceId, fromDay, toDay) {
      return daily(DAYS_OF_ACCOUNT, workspaceId, fromDay, toDay);
    },

    async topLinksOfWorkspace(workspaceId, fromDay, toDay, limit) {
      const rows = await query(db, TOP_LINKS, topLinksParams(workspaceId, fromDay, toDay, limit));
      return rows.map(linkClicksOf);
    },
  };
}
