import { API_KEY_COLUMNS, JOINED_PLAN_COLUMNS } from './rows.ts';

/** A key's owner: the key, its workspace and plan, its maker's role and suspension. */
const KEY_OWNER = `SELECT k.id AS key_id, k.hash, k.prefix, k.revoked_at, k.account_id, k.scopes, k.created_by, m.role,
      a.suspended_at AS workspace_suspended_at, u.suspended_at AS maker_suspended_at, ${JOINED_PLAN_COLUMNS}
    FROM api_keys k JOIN workspaces a ON a.id = k.account_id JOIN plans p ON p.id = a.plan_id
      LEFT JOIN memberships m ON m.workspace_id = k.account_id AND m.user_id = k.created_by
      LEFT JOIN users u ON u.id = k.created_by`;

/**
 * The KeyStore's statements, one text for both dialects: `?` placeholders, which the PostgreSQL
 * adapter numbers. `main` is an integer (1 or 0) in both schemas for that reason.
 */
export const KEY_SQL = {
  // The maker's role now, so a key never does more than its maker may (core/authorization.ts).
  // A suspended workspace or maker (docs/api.md §13) makes the key answer 303.
  byHash: `${KEY_OWNER} WHERE k.hash = ?`,
  // The same owner found by its workspace's live main key (a password acting as the workspace).
  mainOwner: `${KEY_OWNER} WHERE k.account_id = ? AND k.revoked_at IS NULL AND k.main = 1`,
  revokeMain: 'UPDATE api_keys SET revoked_at = ? WHERE account_id = ? AND revoked_at IS NULL AND main = 1',
  insert: `INSERT INTO api_keys (account_id, name, prefix, hash, scopes, main, created_by, created_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING ${API_KEY_COLUMNS}`,
  main: `SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE account_id = ? AND revoked_at IS NULL AND main = 1`,
  live: `SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE account_id = ? AND revoked_at IS NULL
    ORDER BY main DESC, id DESC`,
  revoke: `UPDATE api_keys SET revoked_at = ?
    WHERE account_id = ? AND id = ? AND revoked_at IS NULL AND main = 0 RETURNING id`,
  // The cap on live keys, taken in the insert's transaction like the link quota.
  takeSlot:
    'UPDATE workspaces SET key_count = key_count + 1 WHERE id = ? AND key_count < ? RETURNING key_count',
  addSlot: 'UPDATE workspaces SET key_count = key_count + 1 WHERE id = ?',
  freeSlot: 'UPDATE workspaces SET key_count = key_count - 1 WHERE id = ?',
  touch: 'UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)',
} as const;

export const MAIN_KEY_NAME = 'API Access';
