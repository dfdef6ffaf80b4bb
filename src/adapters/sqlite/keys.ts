/** KeyStore on SQLite: API keys by SHA-256, one live main key and up to ten in all per account. */
import type { ApiKeyInfo } from '../../core/entities.ts';
import type { KeyStore } from '../../core/ports/store.ts';
import { MAX_KEYS_PER_ACCOUNT, SCOPES } from '../../core/scopes.ts';
import { KEY_SQL, MAIN_KEY_NAME } from '../sql/key-statements.ts';
import { mapRow, toApiKeyInfo, toKeyOwner } from '../sql/rows.ts';
import type { Connection } from './connection.ts';
import type { WriteQueue } from './write-queue.ts';

export function sqliteKeyStore(conn: Connection, writes: WriteQueue): KeyStore {
  const insert = (values: Array<string | number | Buffer | null>): ApiKeyInfo => {
    const row = conn.stmt(KEY_SQL.insert).get(...values);
    if (!row) throw new Error('INSERT … RETURNING gave no row');
    return toApiKeyInfo(row);
  };

  return {
    async findKeyByHash(hash) {
      return mapRow(conn.stmt(KEY_SQL.byHash).get(hash), toKeyOwner);
    },

    async replaceMainKey(workspaceId, prefix, hash, createdBy): Promise<ApiKeyInfo> {
      return conn.transaction(() => {
        const now = Date.now();
        if (conn.stmt(KEY_SQL.revokeMain).run(now, workspaceId).changes === 0) {
          conn.stmt(KEY_SQL.addSlot).run(workspaceId);
        }
        return insert([workspaceId, MAIN_KEY_NAME, prefix, hash, SCOPES.join(' '), 1, createdBy, now]);
      });
    },

    async findMainKeyOwner(workspaceId) {
      return mapRow(conn.stmt(KEY_SQL.mainOwner).get(workspaceId), toKeyOwner);
    },

    async findMainKey(workspaceId) {
      return mapRow(conn.stmt(KEY_SQL.main).get(workspaceId), toApiKeyInfo);
    },

    async addKey(workspaceId, key) {
      return conn.transaction(
        () => {
          if (!conn.stmt(KEY_SQL.takeSlot).get(workspaceId, MAX_KEYS_PER_ACCOUNT))
            return { kind: 'too-many' } as const;
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
          return { kind: 'created', key: insert(values) } as const;
        },
        (result) => result.kind === 'created',
      );
    },

    async listLiveKeys(workspaceId) {
      return conn.stmt(KEY_SQL.live).all(workspaceId).map(toApiKeyInfo);
    },

    async revokeKey(workspaceId, keyId) {
      return conn.transaction(() => {
        if (!conn.stmt(KEY_SQL.revoke).get(Date.now(), workspaceId, keyId)) return false;
        conn.stmt(KEY_SQL.freeSlot).run(workspaceId);
        return true;
      });
    },

    async touchKeys(batch) {
      if (batch.length === 0) return;
      // Written every second while keys create links: queued, so it waits for the click writer's
      // lock without stopping the thread.
      await writes.write(() => {
        for (const { keyId, at } of batch) conn.stmt(KEY_SQL.touch).run(at, keyId, at);
      });
    },
  };
}
