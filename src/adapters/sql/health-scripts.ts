/** Link health on either dialect (adapters/sql/script.ts, docs/adr/048). */
import type { Link } from '../../core/entities.ts';
import type { HealthStep } from '../../core/link-health.ts';
import type { HealthStore } from '../../core/ports/health-store.ts';
import type { LinkEventSink } from '../../core/ports/webhook-store.ts';
import { linkEvent } from './outbox-scripts.ts';
import { LINK_COLUMNS, mapFirst, toLink } from './rows.ts';
import { q, rowsOf, type Script, type ScriptRunner } from './script.ts';

/** Slots a round is cut into; a link's slot is its id times a prime, modulo this (also prime). */
const SLOTS = 10_007;

const LIVE = 'deleted_at IS NULL';

/**
 * Due links, each moved past its lease in the statement that picks it: on PostgreSQL rows another
 * instance is claiming are skipped, on SQLite the writer's lock orders claims.
 */
function* claim(now: number, limit: number, leaseMs: number, skipLocked: boolean): Script<Link[]> {
  const rows = yield q(
    `UPDATE links SET health_claimed_until = ?
     WHERE id IN (SELECT id FROM links WHERE ${LIVE} AND health_next_at IS NOT NULL AND health_next_at <= ?
       AND (health_claimed_until IS NULL OR health_claimed_until <= ?)
       ORDER BY health_next_at LIMIT ?${skipLocked ? ' FOR UPDATE SKIP LOCKED' : ''})
     RETURNING ${LINK_COLUMNS}`,
    now + leaseMs,
    now,
    now,
    limit,
  );
  return rows.map(toLink);
}

/** The check written if the link is still as read (its last change and last check), with its event. */
function* record(
  link: Link,
  { health, event }: HealthStep,
  nextAt: number,
  events: LinkEventSink | undefined,
): Script<Link | undefined> {
  const rows = yield q(
    `UPDATE links SET health_state = ?, health_checked_at = ?, health_code = ?, health_status = ?,
       health_failures = ?, health_since = ?, health_cause_code = ?, health_cause_status = ?,
       health_next_at = ?, health_claimed_until = NULL
     WHERE id = ? AND ${LIVE} AND COALESCE(updated_at, created_at) = ?
       AND health_checked_at IS NOT DISTINCT FROM ?
     RETURNING ${LINK_COLUMNS}`,
    health.state,
    health.checkedAt?.getTime() ?? null,
    health.code ?? '',
    health.status,
    health.failures,
    health.since?.getTime() ?? null,
    health.cause?.code ?? '',
    health.cause?.status ?? null,
    nextAt,
    link.id,
    link.updatedAt.getTime(),
    link.health.checkedAt?.getTime() ?? null,
  );
  const written = mapFirst(rows, toLink);
  if (written && event) yield* linkEvent(events, event, written);
  return written;
}

/** The workspace's digest of the day, unless one was taken that day; the row is held meanwhile. */
function* digest(workspaceId: number, day: string, through: number): Script<boolean> {
  const rows = yield q(
    `INSERT INTO link_health_digests (workspace_id, day, through_at) VALUES (?, ?, ?)
     ON CONFLICT (workspace_id) DO UPDATE SET day = excluded.day, through_at = excluded.through_at
       WHERE link_health_digests.day <> excluded.day
     RETURNING workspace_id`,
    workspaceId,
    day,
    through,
  );
  return rows.length > 0;
}

export function healthStore(scripts: ScriptRunner, skipLocked: boolean): HealthStore {
  return {
    async placeLinksForChecks(now, periodMs, limit) {
      const step = Math.max(1, Math.floor(periodMs / SLOTS));
      const rows = await scripts.write(
        rowsOf(
          `UPDATE links SET health_next_at = ? + ((id * 7919) % ${SLOTS}) * ?
           WHERE id IN (SELECT id FROM links WHERE ${LIVE} AND health_next_at IS NULL ORDER BY id LIMIT ?)
           RETURNING id`,
          now,
          step,
          limit,
        ),
      );
      return rows.length;
    },
    claimDueChecks: (now, limit, leaseMs) => scripts.write(claim(now, limit, leaseMs, skipLocked)),
    recordCheck: (link, step, nextAt, events) => scripts.write(record(link, step, nextAt, events)),
    async skipCheck(linkId, nextAt) {
      await scripts.write(
        rowsOf(
          'UPDATE links SET health_next_at = ?, health_claimed_until = NULL WHERE id = ?',
          nextAt,
          linkId,
        ),
      );
    },
    async brokenLinksPerWorkspace() {
      const rows = await scripts.read(
        rowsOf(
          `SELECT workspace_id, COUNT(*) AS n FROM links WHERE ${LIVE} AND health_state = 'broken'
           GROUP BY workspace_id`,
        ),
      );
      return new Map(rows.map((row) => [Number(row.workspace_id), Number(row.n)]));
    },
    async oldestDueCheck(now) {
      const rows = await scripts.read(
        rowsOf(
          `SELECT MIN(health_next_at) AS at FROM links
           WHERE ${LIVE} AND health_next_at IS NOT NULL AND health_next_at <= ?`,
          now,
        ),
      );
      const at = rows[0]?.at;
      return at === null || at === undefined ? undefined : Number(at);
    },
    async workspacesWithNewlyBroken() {
      const rows = await scripts.read(
        rowsOf(
          `SELECT l.workspace_id, COALESCE(MAX(d.through_at), 0) AS after FROM links l
           LEFT JOIN link_health_digests d ON d.workspace_id = l.workspace_id
           WHERE l.deleted_at IS NULL AND l.health_state = 'broken'
             AND l.health_since > COALESCE(d.through_at, 0)
           GROUP BY l.workspace_id`,
        ),
      );
      return rows.map((row) => ({ workspaceId: Number(row.workspace_id), after: Number(row.after) }));
    },
    async newlyBrokenLinks(workspaceId, after, limit) {
      const rows = await scripts.read(
        rowsOf(
          `SELECT ${LINK_COLUMNS} FROM links WHERE workspace_id = ? AND ${LIVE} AND health_state = 'broken'
             AND health_since > ? ORDER BY health_since, id LIMIT ?`,
          workspaceId,
          after,
          limit,
        ),
      );
      return rows.map(toLink);
    },
    claimHealthDigest: (workspaceId, day, through) => scripts.write(digest(workspaceId, day, through)),
    async healthMailOn(userId) {
      const rows = await scripts.read(rowsOf('SELECT health_mail FROM users WHERE id = ?', userId));
      const value = rows[0]?.health_mail;
      return value === undefined ? false : value === true || Number(value) === 1;
    },
    async setHealthMail(userId, on) {
      await scripts.write(
        rowsOf(`UPDATE users SET health_mail = ${on ? 'true' : 'false'} WHERE id = ?`, userId),
      );
    },
  };
}
