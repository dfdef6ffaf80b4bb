/** KeyStore on PostgreSQL: API keys by SHA-256, one live main key and up to ten in all per account. */
import type { ApiKeyInfo } from '../../core/entities.ts';
import type { KeyStore } from '../../core/ports/store.ts';
import { MAX_KEYS_PER_ACCOUNT, SCOPES } from '../../core/scopes.ts';
import { KEY_SQL, MAIN_KEY_NAME } from '../sql/key-statements.ts';
import { mapFirst, toApiKeyInfo, toKeyOwner } from '../sql/rows.ts';
import { type Db, isUniqueViolation, numbered, query, type Tx, transaction } from './client.ts';

const SQL = Object.fromEntries(Object.entries(KEY_SQL).map(([name, text]) => [name, numbered(text)])) as {
  [name in keyof typeof KEY_SQL]: string;
};
/**
 * Two rotations of one account at once: the second one's UPDATE cannot see the key the first has
 * just inserted (its snapshot predates that commit), so its insert meets api_keys_one_main. Run
 * again, it revokes that key; the later rotation wins, as with SQLite's serialised writers.
 */
const ROTATE_ATTEMPTS = 5;
const TOUCH_ALL = `UPDATE api_keys SET last_used_at = v.at FROM unnest($1::bigint[], $2::bigint[]) AS v (id, at)
  WHERE api_keys.id = v.id AND (api_keys.last_used_at IS NULL OR api_keys.last_used_at < v.at)`;

async function inserted(tx: Tx, values: Array<string | number | Buffer | null>): Promise<ApiKeyInfo> {
  const info = mapFirst(await query(tx, SQL.insert, values), toApiKeyInfo);
  if (!info) throw new Error('INSERT … RETURNING gave no row');
  return info;
}

export function postgresKeyStore(db: Db): KeyStore {
  const rotate = (workspaceId: number, prefix: string, hash: Buffer, createdBy: number | null) =>
    transaction(db, async (tx) => {
      const now = Date.now();
      const revoked = await query(tx, SQL.revokeMain, [now, workspaceId]);
      if (revoked.count === 0) await query(tx, SQL.addSlot, [workspaceId]);
      return inserted(tx, [workspaceId, MAIN_KEY_NAME, prefix, hash, SCOPES.join(' '), 1, createdBy, now]);
    });

  return {
    async findKeyByHash(hash) {
      return mapFirst(await query(db, SQL.byHash, [hash]), toKeyOwner);
    },

    async replaceMainKey(workspaceId, prefix, hash, createdBy): Promise<ApiKeyInfo> {
      for (let attempt = 1; ; attempt++) {
        try {
          return await rotate(workspaceId, prefix, hash, createdBy);
        } catch (error) {
          if (attempt >= ROTATE_ATTEMPTS || !isUniqueViolation(error, 'api_keys_one_main')) throw error;
        }
      }
    },

    async findMainKeyOwner(workspaceId) {
      return mapFirst(await query(db, SQL.mainOwner, [workspaceId]), toKeyOwner);
    },

    async findMainKey(workspaceId) {
      return mapFirst(await query(db, SQL.main, [workspaceId]), toApiKeyInfo);
    },

    async addKey(workspaceId, key) {
      return transaction(
        db,
        async (tx) => {
          if ((await query(tx, SQL.takeSlot, [workspaceId, MAX_KEYS_PER_ACCOUNT])).length === 0) {
            return { kind: 'too-many' } as const;
          }
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
          return { kind: 'created', key: await inserted(tx, values) } as const;
        },
        (result) => result.kind === 'created',
      );
    },

    async listLiveKeys(workspaceId) {
      return (await query(db, SQL.live, [workspaceId])).map(toApiKeyInfo);
    },

    async revokeKey(workspaceId, keyId) {
      return transaction(db, async (tx) => {
        if ((await query(tx, SQL.revoke, [Date.now(), workspaceId, keyId])).length === 0) return false;
        await query(tx, SQL.freeSlot, [workspaceId]);
        return true;
      });
    },

    async touchKeys(batch) {
      if (batch.length === 0) return;
      await query(db, TOUCH_ALL, [batch.map((use) => use.keyId), batch.map((use) => use.at)]);
    },
  };
}
