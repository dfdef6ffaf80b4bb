/** The Store on a PostgreSQL pool: links, accounts and sessions, plus migrations and lifecycle. */
import type { Store } from '../ports.ts';
import { openPool, type PoolOptions } from './client.ts';
import { postgresAccountStore } from './postgres-accounts.ts';
import { postgresLinkStore } from './postgres-links.ts';
import { migratePostgres } from './postgres-migrate.ts';
import { postgresSessionStore } from './postgres-sessions.ts';

/** Seconds close() lets running queries finish before the connections are cut. */
const CLOSE_TIMEOUT_S = 5;

/**
 * A store on `url` (`postgres://…` or `postgresql://…`); connects lazily, so call `migrate()`
 * before use. Server parameters can ride in the URL's query, e.g. `?search_path=snip`.
 */
export function openPostgresStore(url: string, options: PoolOptions = {}): Store {
  const db = openPool(url, options);
  return {
    ...postgresLinkStore(db),
    ...postgresAccountStore(db),
    ...postgresSessionStore(db),
    migrate: () => migratePostgres(db),
    async ping() {
      await db.unsafe('SELECT 1');
    },
    async close() {
      await db.end({ timeout: CLOSE_TIMEOUT_S });
    },
  };
}
