/** The A/B tests' scheduler on either dialect (adapters/sql/script.ts, docs/adr/046). */
import type { AbTestStore } from '../../core/ports/ab-test-store.ts';
import { LINK_COLUMNS, toLink } from './rows.ts';
import { q, rowsOf, type Script, type ScriptRunner } from './script.ts';

/**
 * Ended tests, each moved past its lease in the statement that picks it: on PostgreSQL the rows
 * another instance is claiming are skipped (FOR UPDATE SKIP LOCKED), on SQLite the writer's lock
 * already orders claims.
 */
function* claim(
  now: number,
  limit: number,
  leaseMs: number,
  skipLocked: boolean,
): Script<ReturnType<typeof toLink>[]> {
  const rows = yield q(
    `UPDATE links SET test_claimed_until = ?
     WHERE id IN (SELECT id FROM links WHERE test_ends_at IS NOT NULL AND test_ends_at <= ?
       AND deleted_at IS NULL AND (test_claimed_until IS NULL OR test_claimed_until <= ?)
       ORDER BY test_ends_at LIMIT ?${skipLocked ? ' FOR UPDATE SKIP LOCKED' : ''})
     RETURNING ${LINK_COLUMNS}`,
    now + leaseMs,
    now,
    now,
    limit,
  );
  return rows.map(toLink);
}

export function abTestStore(scripts: ScriptRunner, skipLocked: boolean): AbTestStore {
  return {
    claimEndedTests: (now, limit, leaseMs) => scripts.write(claim(now, limit, leaseMs, skipLocked)),
    async variantClicks(linkId, fromDay) {
      const rows = await scripts.read(
        rowsOf(
          `SELECT value, SUM(clicks) AS clicks FROM link_daily_stats
           WHERE link_id = ? AND day >= ? AND dimension = 'variant' GROUP BY value`,
          linkId,
          fromDay,
        ),
      );
      return new Map(rows.map((row) => [Number(row.value), Number(row.clicks)]));
    },
  };
}
