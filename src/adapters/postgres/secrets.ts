/** SecretStore on PostgreSQL: the first instance's candidate wins; the others read it. */
import type { SecretStore } from '../../core/ports/store.ts';
import { type Db, query } from './client.ts';

const KEEP_FIRST =
  'INSERT INTO secrets (name, value, created_at) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING';
const READ = 'SELECT value FROM secrets WHERE name = $1';

export function postgresSecretStore(db: Db): SecretStore {
  return {
    async secret(name, candidate) {
      await query(db, KEEP_FIRST, [name, candidate, Date.now()]);
      const rows = await query(db, READ, [name]);
      return Buffer.from(rows[0]?.value as Uint8Array);
    },
  };
}
