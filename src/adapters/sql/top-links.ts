/**
 * ClickStore.topLinksOfWorkspace in SQL both adapters run (`?` placeholders, numbered for
 * PostgreSQL): the daily history of the account's live links summed over the days, most first.
 */
import { dayNumber } from '../../core/days.ts';
import type { LinkClicks } from '../../core/ports/store.ts';
import type { Row } from './rows.ts';

export const TOP_LINKS_OF_ACCOUNT = `SELECT l.id, l.domain_id, l.code, l.title, SUM(d.clicks) AS range_clicks
  FROM links l JOIN link_daily_clicks d ON d.link_id = l.id
  WHERE l.workspace_id = ? AND l.deleted_at IS NULL AND d.day BETWEEN ? AND ?
  GROUP BY l.id, l.domain_id, l.code, l.title
  HAVING SUM(d.clicks) > 0
  ORDER BY range_clicks DESC, l.id DESC
  LIMIT ?`;

/** The statement's parameters; RangeError for a limit that is not a positive whole number. */
export function topLinksParams(workspaceId: number, fromDay: string, toDay: string, limit: number): number[] {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`not a number of links: ${limit}`);
  return [workspaceId, dayNumber(fromDay), dayNumber(toDay), limit];
}

export function linkClicksOf(row: Row): LinkClicks {
  return {
    linkId: Number(row.id),
    domainId: Number(row.domain_id ?? 0),
    code: String(row.code),
    title: String(row.title ?? ''),
    // PostgreSQL sums a bigint column as numeric, which arrives as text.
    clicks: Number(row.range_clicks),
  };
}
