/** SecretStore on SQLite: insert the candidate unless the name is taken, then read what is stored. */
import type { SecretStore } from '../../core/ports/store.ts';
import type { Connection } from './connection.ts';

const KEEP_FIRST =
  'INSERT INTO secrets (name, value, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING';
const READ = 'SELECT value FROM secrets WHERE name = ?';

export function sqliteSecretStore(conn: Connection): SecretStore {
  return {
    async secret(name, candidate) {
      conn.stmt(KEEP_FIRST).run(name, candidate, Date.now());
      const value = conn.stmt(READ).get(name)?.value as Uint8Array;
      return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    },
  };
}
