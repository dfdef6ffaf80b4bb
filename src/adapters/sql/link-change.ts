import type { LinkChange } from '../../core/entities.ts';
import { LINK_COLUMNS, previewText, rulesText, testValues, trackingValue } from './rows.ts';

/**
 * Statements of a link's change and its tags, one text for both dialects (`?` placeholders; the
 * PostgreSQL adapter numbers them).
 */
export const CHANGE_SQL = {
  liveId: 'SELECT id FROM links WHERE workspace_id = ? AND domain_id = ? AND code = ? AND deleted_at IS NULL',
  byId: `SELECT ${LINK_COLUMNS} FROM links WHERE id = ?`,
  liveByUrlHash: `SELECT ${LINK_COLUMNS} FROM links
    WHERE workspace_id = ? AND domain_id = ? AND url_hash = ? AND deleted_at IS NULL`,
  dropTags: 'DELETE FROM link_tags WHERE link_id = ?',
  addTag: 'INSERT INTO link_tags (link_id, tag) VALUES (?, ?)',
  perGroup: `SELECT group_id, COUNT(*) AS n FROM links
    WHERE workspace_id = ? AND deleted_at IS NULL AND group_id IS NOT NULL GROUP BY group_id`,
} as const;

/** The UPDATE of a change (its last placeholder is the link's id), and its values before the id. */
export function changeStatement(
  change: LinkChange,
  now: number,
): { sql: string; values: Array<string | number | null> } {
  const sets: string[] = ['updated_at = ?'];
  const values: Array<string | number | null> = [now];
  if (change.target) {
    sets.push('long_url = ?', 'normalized_url = ?', 'url_hash = ?');
    values.push(change.target.longUrl, change.target.normalizedUrl, change.target.urlHash);
  }
  if (change.title !== undefined) {
    sets.push('title = ?');
    values.push(change.title);
  }
  // A literal, not a parameter: the column is an INTEGER on SQLite and a BOOLEAN on PostgreSQL.
  if (change.archived !== undefined) sets.push(change.archived ? 'archived = TRUE' : 'archived = FALSE');
  if (change.publicStats !== undefined)
    sets.push(change.publicStats ? 'public_stats = 1' : 'public_stats = 0');
  if (change.groupId !== undefined) {
    sets.push('group_id = ?');
    values.push(change.groupId);
  }
  const guards = change.guards ?? {};
  if (guards.expiresAt !== undefined) {
    sets.push('expires_at = ?');
    values.push(guards.expiresAt?.getTime() ?? null);
  }
  if (guards.maxClicks !== undefined) {
    // A limit set where there was none starts from the clicks counted so far (the SET sees the old row).
    sets.push('max_clicks = ?', 'limit_used = CASE WHEN max_clicks IS NULL THEN clicks ELSE limit_used END');
    values.push(guards.maxClicks);
  }
  if (guards.passwordHash !== undefined) {
    sets.push('password_hash = ?');
    values.push(guards.passwordHash);
  }
  if (guards.rules !== undefined) {
    sets.push('rules = ?');
    values.push(rulesText(guards.rules));
  }
  if (guards.forwardQuery !== undefined) {
    sets.push('forward_query = ?');
    values.push(guards.forwardQuery ? 1 : 0);
  }
  if (guards.preview !== undefined) {
    sets.push('preview = ?');
    values.push(previewText(guards.preview));
  }
  if (guards.trackConversions !== undefined) {
    sets.push('track_conversions = ?');
    values.push(trackingValue(guards.trackConversions));
  }
  if (guards.test !== undefined) {
    // A test set or removed frees any lease on the old one (docs/adr/046).
    sets.push('variants = ?', 'test_started_at = ?', 'test_ends_at = ?', 'test_claimed_until = NULL');
    values.push(...testValues(guards.test));
  }
  if (change.target || guards.rules !== undefined || guards.test !== undefined) {
    // New targets are unknown until checked, and checked at the scheduler's next look (docs/adr/048).
    sets.push(
      "health_state = 'unknown'",
      'health_checked_at = NULL',
      'health_code = NULL',
      'health_status = NULL',
      'health_failures = 0',
      'health_since = NULL',
      'health_cause_code = NULL',
      'health_cause_status = NULL',
      'health_next_at = ?',
      'health_claimed_until = NULL',
    );
    values.push(now);
  }
  return { sql: `UPDATE links SET ${sets.join(', ')} WHERE id = ?`, values };
}

/** Rows of (link id, tag) into the map tagsOf answers: each link's tags, sorted. */
export function tagMap(rows: ReadonlyArray<Record<string, unknown>>): Map<number, string[]> {
  const tags = new Map<number, string[]>();
  for (const row of rows) {
    const id = row.link_id as number;
    const list = tags.get(id) ?? [];
    list.push(row.tag as string);
    tags.set(id, list);
  }
  for (const list of tags.values()) list.sort();
  return tags;
}

/** Rows of (group id, count) into a map. */
export function countMap(rows: ReadonlyArray<Record<string, unknown>>): Map<number, number> {
  return new Map(rows.map((row) => [row.group_id as number, Number(row.n)]));
}
