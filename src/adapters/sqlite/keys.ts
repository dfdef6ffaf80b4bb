/** KeyStore on SQLite: API keys by SHA-256, one live key per account. */
import type { ApiKeyInfo } from '../../core/entities.ts';
import type { KeyStore } from '../../core/ports/store.ts';
import { API_KEY_COLUMNS, JOINED_PLAN_COLUMNS, mapRow, toApiKeyInfo, toKeyOwner } from '../sql/rows.ts';
import type { Connection } from './connection.ts';

const FIND_KEY_BY_HASH = `SELECT k.id AS key_id, k.hash, k.prefix, k.revoked_at, k.account_id, ${JOINED_PLAN_COLUMNS}
  FROM api_keys k JOIN accounts a ON a.id = k.account_id JOIN plans p ON p.id = a.plan_id
  WHERE k.hash = ?`;
const REVOKE_KEYS = 'UPDATE api_keys SET revoked_at = ? WHERE account_id = ? AND revoked_at IS NULL';
const INSERT_KEY = `INSERT INTO api_keys (account_id, prefix, hash, created_at) VALUES (?, ?, ?, ?)
  RETURNING ${API_KEY_COLUMNS}`;
const LIVE_KEY = `SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE account_id = ? AND revoked_at IS NULL`;

export function sqliteKeyStore(conn: Connection): KeyStore {
  return {
    async findKeyByHash(hash) {
      return mapRow(conn.stmt(FIND_KEY_BY_HASH).get(hash), toKeyOwner);
    },

    async replaceApiKey(accountId, prefix, hash): Promise<ApiKeyInfo> {
      return conn.transaction(() => {
        const now = Date.now();
        conn.stmt(REVOKE_KEYS).run(now, accountId);
        const row = conn.stmt(INSERT_KEY).get(accountId, prefix, hash, now);
        if (!row) throw new Error('INSERT … RETURNING gave no row');
        return toApiKeyInfo(row);
      });
    },

    async findLiveApiKey(accountId) {
      return mapRow(conn.stmt(LIVE_KEY).get(accountId), toApiKeyInfo);
    },
  };
}
