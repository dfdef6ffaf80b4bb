/** KeyStore on either dialect: API keys by SHA-256, one live main key and up to ten in all per account. */
import type { ApiKeyInfo, KeyOwner, NewKey } from '../../core/entities.ts';
import type { AddKeyResult, KeyStore, KeyUse } from '../../core/ports/store.ts';
import { MAX_KEYS_PER_ACCOUNT, SCOPES } from '../../core/scopes.ts';
import { API_KEY_COLUMNS, JOINED_PLAN_COLUMNS, mapFirst, toApiKeyInfo, toKeyOwner } from './rows.ts';
import { type Param, q, type Script, type ScriptRunner } from './script.ts';
import { UNIQUE, violates } from './unique.ts';

export const MAIN_KEY_NAME = 'API Access';

/** A key's owner: the key, its workspace and plan, its maker's role and suspension. */
const KEY_OWNER = `SELECT k.id AS key_id, k.hash, k.prefix, k.revoked_at, k.workspace_id, k.scopes, k.created_by, m.role,
      a.suspended_at AS workspace_suspended_at, u.suspended_at AS maker_suspended_at, ${JOINED_PLAN_COLUMNS}
    FROM api_keys k JOIN workspaces a ON a.id = k.workspace_id JOIN plans p ON p.id = a.plan_id
      LEFT JOIN memberships m ON m.workspace_id = k.workspace_id AND m.user_id = k.created_by
      LEFT JOIN users u ON u.id = k.created_by`;

const KEYS = `SELECT ${API_KEY_COLUMNS} FROM api_keys`;

// `main` is an integer (1 or 0) in both schemas, so one text serves both dialects.
const INSERT_KEY = `INSERT INTO api_keys (workspace_id, name, prefix, hash, scopes, main, created_by, created_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING ${API_KEY_COLUMNS}`;
const ADD_SLOT = 'UPDATE workspaces SET key_count = key_count + 1 WHERE id = ?';

/**
 * Two rotations of one account at once on PostgreSQL queue on the workspace's row (rotate); a
 * rotation that still meets api_keys_one_main (a key made another way at that moment) runs again,
 * revoking that key: the later rotation wins, as with SQLite's serialised writers.
 */
const ROTATE_ATTEMPTS = 5;

// The maker's role now, so a key never does more than its maker may (core/authorization.ts).
// A suspended workspace or maker (docs/api.md §13) makes the key answer 303.
function* ownerByHash(hash: Buffer): Script<KeyOwner | undefined> {
  return mapFirst(yield q(`${KEY_OWNER} WHERE k.hash = ?`, hash), toKeyOwner);
}

// The same owner found by its workspace's live main key (a password acting as the workspace).
function* mainKeyOwner(workspaceId: number): Script<KeyOwner | undefined> {
  const sql = `${KEY_OWNER} WHERE k.workspace_id = ? AND k.revoked_at IS NULL AND k.main = 1`;
  return mapFirst(yield q(sql, workspaceId), toKeyOwner);
}

function* mainKey(workspaceId: number): Script<ApiKeyInfo | undefined> {
  const sql = `${KEYS} WHERE workspace_id = ? AND revoked_at IS NULL AND main = 1`;
  return mapFirst(yield q(sql, workspaceId), toApiKeyInfo);
}

function* liveKeys(workspaceId: number): Script<ApiKeyInfo[]> {
  const sql = `${KEYS} WHERE workspace_id = ? AND revoked_at IS NULL ORDER BY main DESC, id DESC`;
  return (yield q(sql, workspaceId)).map(toApiKeyInfo);
}

function* insertKey(values: Param[]): Script<ApiKeyInfo> {
  const info = mapFirst(yield q(INSERT_KEY, ...values), toApiKeyInfo);
  if (!info) throw new Error('INSERT … RETURNING gave no row');
  return info;
}

function* rotate(
  workspaceId: number,
  prefix: string,
  hash: Buffer,
  createdBy: number | null,
): Script<ApiKeyInfo> {
  const now = Date.now();
  // The workspace's row first: rotations of one workspace queue there, and on PostgreSQL each next
  // statement's snapshot then sees the key the one before inserted (SQLite's writers are serial).
  yield q('UPDATE workspaces SET key_count = key_count WHERE id = ?', workspaceId);
  const revoked = yield q(
    'UPDATE api_keys SET revoked_at = ? WHERE workspace_id = ? AND revoked_at IS NULL AND main = 1 RETURNING id',
    now,
    workspaceId,
  );
  if (revoked.length === 0) yield q(ADD_SLOT, workspaceId);
  return yield* insertKey([workspaceId, MAIN_KEY_NAME, prefix, hash, SCOPES.join(' '), 1, createdBy, now]);
}

function* addKey(workspaceId: number, key: NewKey): Script<AddKeyResult> {
  // The cap on live keys, taken in the insert's transaction like the link quota; refused, it
  // changed nothing, so the transaction may commit.
  const slot = yield q(
    'UPDATE workspaces SET key_count = key_count + 1 WHERE id = ? AND key_count < ? RETURNING key_count',
    workspaceId,
    MAX_KEYS_PER_ACCOUNT,
  );
  if (slot.length === 0) return { kind: 'too-many' };
  const values = [
    workspaceId,
    key.name,
    key.prefix,
    key.hash,
    key.scopes.join(' '),
    0,
    key.createdBy,
    Date.now(),
  ];
  return { kind: 'created', key: yield* insertKey(values) };
}

function* revokeKey(workspaceId: number, keyId: number): Script<boolean> {
  const revoked = yield q(
    `UPDATE api_keys SET revoked_at = ?
      WHERE workspace_id = ? AND id = ? AND revoked_at IS NULL AND main = 0 RETURNING id`,
    Date.now(),
    workspaceId,
    keyId,
  );
  if (revoked.length === 0) return false;
  yield q('UPDATE workspaces SET key_count = key_count - 1 WHERE id = ?', workspaceId);
  return true;
}

// In the order of the keys' ids, so two instances writing overlapping batches lock the rows in
// the same order and never wait on each other in a circle.
function* touchKeys(batch: readonly KeyUse[]): Script<void> {
  for (const { keyId, at } of [...batch].sort((a, b) => a.keyId - b.keyId)) {
    yield q(
      'UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)',
      at,
      keyId,
      at,
    );
  }
}

/**
 * On SQLite, pass the runner of the write queue: key uses are written every second while keys
 * create links, and queued they wait for the click writer's lock without stopping the thread.
 */
export function keyStore({ read, write }: ScriptRunner): KeyStore {
  return {
    findKeyByHash: (hash) => read(ownerByHash(hash)),

    async replaceMainKey(workspaceId, prefix, hash, createdBy) {
      for (let attempt = 1; ; attempt++) {
        try {
          return await write(rotate(workspaceId, prefix, hash, createdBy));
        } catch (error) {
          if (attempt >= ROTATE_ATTEMPTS || !violates(error, UNIQUE.mainKey)) throw error;
        }
      }
    },

    findMainKeyOwner: (workspaceId) => read(mainKeyOwner(workspaceId)),
    findMainKey: (workspaceId) => read(mainKey(workspaceId)),
    addKey: (workspaceId, key) => write(addKey(workspaceId, key)),
    listLiveKeys: (workspaceId) => read(liveKeys(workspaceId)),
    revokeKey: (workspaceId, keyId) => write(revokeKey(workspaceId, keyId)),

    async touchKeys(batch) {
      if (batch.length > 0) await write(touchKeys(batch));
    },
  };
}
