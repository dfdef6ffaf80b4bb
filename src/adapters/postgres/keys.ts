/** KeyStore on PostgreSQL: API keys by SHA-256, one live key per account. */
import type { ApiKeyInfo } from '../../core/entities.ts';
import type { KeyStore } from '../../core/ports/store.ts';
import { API_KEY_COLUMNS, JOINED_PLAN_COLUMNS, mapFirst, toApiKeyInfo, toKeyOwner } from '../sql/rows.ts';
import { type Db, isUniqueViolation, query, transaction } from './client.ts';

const FIND_KEY_BY_HASH = `SELECT k.id AS key_id, k.hash, k.prefix, k.revoked_at, k.account_id, ${JOINED_PLAN_COLUMNS}
  FROM api_keys k JOIN accounts a ON a.id = k.account_id JOIN plans p ON p.id = a.plan_id
  WHERE k.hash = $1`;
const REVOKE_KEYS = 'UPDATE api_keys SET revoked_at = $1 WHERE account_id = $2 AND revoked_at IS NULL';
const INSERT_KEY = `INSERT INTO api_keys (account_id, prefix, hash, created_at) VALUES ($1, $2, $3, $4)
  RETURNING ${API_KEY_COLUMNS}`;
const LIVE_KEY = `SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE account_id = $1 AND revoked_at IS NULL`;
/**
 * Two rotations of one account at once: the second one's UPDATE cannot see the key the first has
 * just inserted (its snapshot predates that commit), so its insert meets api_keys_one_live. Run
 * again, it revokes that key; the later rotation wins, as with SQLite's serialised writers.
 */
const ROTATE_ATTEMPTS = 5;

export function postgresKeyStore(db: Db): KeyStore {
  const rotate = (accountId: number, prefix: string, hash: Buffer) =>
    transaction(db, async (tx) => {
      const now = Date.now();
      await query(tx, REVOKE_KEYS, [now, accountId]);
      const info = mapFirst(await query(tx, INSERT_KEY, [accountId, prefix, hash, now]), toApiKeyInfo);
      if (!info) throw new Error('INSERT … RETURNING gave no row');
      return info;
    });

  return {
    async findKeyByHash(hash) {
      return mapFirst(await query(db, FIND_KEY_BY_HASH, [hash]), toKeyOwner);
    },

    async replaceApiKey(accountId, prefix, hash): Promise<ApiKeyInfo> {
      for (let attempt = 1; ; attempt++) {
        try {
          return await rotate(accountId, prefix, hash);
        } catch (error) {
          if (attempt >= ROTATE_ATTEMPTS || !isUniqueViolation(error, 'api_keys_one_live')) throw error;
        }
      }
    },

    async findLiveApiKey(accountId) {
      return mapFirst(await query(db, LIVE_KEY, [accountId]), toApiKeyInfo);
    },
  };
}
