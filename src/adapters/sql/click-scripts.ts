/**
 * The click counters on either dialect: the daily history and the top links read as scripts; the
 * batched counts and visits from the redirect go to the dialect's own flush (write-clicks.ts).
 */

import { dayNumber, dayText } from '../../core/days.ts';
import type { DailyClicks } from '../../core/entities.ts';
import type { ClickStore, LinkClicks } from '../../core/ports/store.ts';
import { type CheckedBatch, checkedBatch, isEmpty } from './flush-batch.ts';
import { q, type Script, type ScriptRunner } from './script.ts';
import { linkClicksOf, TOP_LINKS_OF_ACCOUNT, topLinksParams } from './top-links.ts';

// A day may hold bot hits only; the human history lists days with clicks.
export const DAYS_OF_LINK = `SELECT day, clicks FROM link_daily_clicks
  WHERE link_id = ? AND day BETWEEN ? AND ? AND clicks > 0 ORDER BY day`;
export const DAYS_OF_ACCOUNT = `SELECT day, clicks FROM workspace_daily_clicks
  WHERE workspace_id = ? AND day BETWEEN ? AND ? AND clicks > 0 ORDER BY day`;

function* dailyClicks(sql: string, id: number, fromDay: string, toDay: string): Script<DailyClicks[]> {
  const rows = yield q(sql, id, dayNumber(fromDay), dayNumber(toDay));
  return rows.map((row) => ({ day: dayText(Number(row.day)), clicks: Number(row.clicks) }));
}

function* topLinks(workspaceId: number, fromDay: string, toDay: string, limit: number): Script<LinkClicks[]> {
  const rows = yield q(TOP_LINKS_OF_ACCOUNT, ...topLinksParams(workspaceId, fromDay, toDay, limit));
  return rows.map(linkClicksOf);
}

/**
 * `write` flushes a checked batch the dialect's way: SQLite's on the click writer's thread
 * (click-writer.ts), PostgreSQL's in one transaction of a fixed number of statements.
 */
export function clickStore(runner: ScriptRunner, write: (batch: CheckedBatch) => Promise<void>): ClickStore {
  return {
    async addClicks(batch, visits) {
      // Checked before the transaction: a malformed entry is a bug in the caller, refused whole.
      const checked = checkedBatch(batch, visits);
      if (!isEmpty(checked)) await write(checked);
    },
    dailyClicksOfLink: (linkId, fromDay, toDay) =>
      runner.read(dailyClicks(DAYS_OF_LINK, linkId, fromDay, toDay)),
    dailyClicksOfWorkspace: (workspaceId, fromDay, toDay) =>
      runner.read(dailyClicks(DAYS_OF_ACCOUNT, workspaceId, fromDay, toDay)),
    topLinksOfWorkspace: (workspaceId, fromDay, toDay, limit) =>
      runner.read(topLinks(workspaceId, fromDay, toDay, limit)),
  };
}
