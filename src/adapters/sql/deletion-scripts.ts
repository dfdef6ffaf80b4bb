/** An operator's deletion of a workspace or a user (docs/api.md §13) on either dialect (adapters/sql/script.ts). */
import type { DeleteResult } from '../../core/ports/abuse-store.ts';
import { lockWorkspace, q, type Script, type ScriptRunner } from './script.ts';

/**
 * Empties a workspace for good: its links deleted (their codes stay issued), its keys revoked, its
 * members and pending invitations gone, and the workspace itself kept suspended ("deleted") so its
 * address is never given out again and nothing of it answers.
 */
function* emptyWorkspace(id: number, now: number): Script<void> {
  yield lockWorkspace(id);
  yield q('UPDATE links SET deleted_at = ? WHERE workspace_id = ? AND deleted_at IS NULL', now, id);
  yield q('UPDATE api_keys SET revoked_at = ? WHERE workspace_id = ? AND revoked_at IS NULL', now, id);
  yield q(
    'UPDATE invitations SET revoked_at = ? WHERE workspace_id = ? AND accepted_at IS NULL AND revoked_at IS NULL',
    now,
    id,
  );
  yield q('DELETE FROM memberships WHERE workspace_id = ?', id);
  yield* deleteHourlyRollup(id);
  // Its webhook endpoints go with what they heard of (docs/api.md §14).
  yield q(
    'DELETE FROM webhook_deliveries WHERE endpoint_id IN (SELECT id FROM webhook_endpoints WHERE workspace_id = ?)',
    id,
  );
  yield q('DELETE FROM webhook_endpoints WHERE workspace_id = ?', id);
  yield q('UPDATE webhook_state SET version = version + 1 WHERE id = 1');
  yield q(
    `UPDATE workspaces SET link_count = 0, key_count = 0, default_domain = NULL, suspended_at = ?,
       suspended_reason = 'deleted' WHERE id = ?`,
    now,
    id,
  );
  yield q('UPDATE abuse_state SET takedowns_version = takedowns_version + 1 WHERE id = 1');
}

/**
 * The hourly rollup of the workspace and its links goes with it (docs/adr/041): nothing of it
 * answers any more, and those rows are a copy of its raw events kept for speed alone.
 */
function* deleteHourlyRollup(id: number): Script<void> {
  yield q('DELETE FROM workspace_hourly_clicks WHERE workspace_id = ?', id);
  yield q('DELETE FROM workspace_hourly_stats WHERE workspace_id = ?', id);
  for (const table of ['link_hourly_clicks', 'link_hourly_stats']) {
    yield q(`DELETE FROM ${table} WHERE link_id IN (SELECT id FROM links WHERE workspace_id = ?)`, id);
  }
}

function* deleteWorkspace(id: number, now: number): Script<DeleteResult> {
  const [row] = yield q('SELECT personal_of FROM workspaces WHERE id = ?', id);
  if (!row) return 'not-found';
  // A user without their personal workspace would have nowhere to land: delete the user instead.
  if (row.personal_of !== null) return 'personal';
  yield* emptyWorkspace(id, now);
  return 'deleted';
}

function* deleteUser(id: number, now: number): Script<DeleteResult> {
  const [user] = yield q('SELECT id FROM users WHERE id = ?', id);
  if (!user) return 'not-found';
  // A team workspace whose only owner this is would be left without one.
  const orphaned = yield q(
    `SELECT m.workspace_id FROM memberships m JOIN workspaces w ON w.id = m.workspace_id
     WHERE m.user_id = ? AND m.role = 'owner' AND w.personal_of IS NULL
       AND NOT EXISTS (SELECT 1 FROM memberships o WHERE o.workspace_id = m.workspace_id
                       AND o.role = 'owner' AND o.user_id <> m.user_id)`,
    id,
  );
  if (orphaned.length > 0) return 'last-owner';
  for (const personal of yield q('SELECT id FROM workspaces WHERE personal_of = ?', id)) {
    yield* emptyWorkspace(Number(personal.id), now);
  }
  // Their keys in other workspaces go, and give those workspaces their places back.
  const revoked = yield q(
    'UPDATE api_keys SET revoked_at = ? WHERE created_by = ? AND revoked_at IS NULL RETURNING workspace_id',
    now,
    id,
  );
  for (const key of revoked) {
    yield q(
      'UPDATE workspaces SET key_count = key_count - 1 WHERE id = ? AND key_count > 0',
      Number(key.workspace_id),
    );
  }
  // The invitations they made lose their maker's power with them (as on removal from a workspace).
  yield q(
    'UPDATE invitations SET revoked_at = ? WHERE invited_by = ? AND accepted_at IS NULL AND revoked_at IS NULL',
    now,
    id,
  );
  yield q('DELETE FROM memberships WHERE user_id = ?', id);
  yield q('DELETE FROM sessions WHERE user_id = ?', id);
  yield q('DELETE FROM user_identities WHERE user_id = ?', id);
  yield q('DELETE FROM user_tokens WHERE user_id = ?', id);
  yield q('DELETE FROM email_changes WHERE user_id = ?', id);
  yield q('DELETE FROM recovery_codes WHERE user_id = ?', id);
  // The row stays (the audit log and reports name it); nothing of the person does.
  yield q(
    `UPDATE users SET email = ?, password_hash = NULL, operator = false, suspended_at = ?,
       totp_secret = NULL, totp_last_step = NULL WHERE id = ?`,
    `deleted-${id}@deleted.invalid`,
    now,
    id,
  );
  yield q('UPDATE abuse_state SET takedowns_version = takedowns_version + 1 WHERE id = 1');
  return 'deleted';
}

export function deletionStore({ write }: ScriptRunner) {
  return {
    deleteWorkspace: (id: number) => write(deleteWorkspace(id, Date.now())),
    deleteUser: (id: number) => write(deleteUser(id, Date.now())),
  };
}
