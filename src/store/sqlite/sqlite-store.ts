/** The Store on one SQLite file (WAL): links, accounts and sessions, plus migrations and lifecycle. */
import { loadMigrations, SCHEMA_MIGRATIONS_DDL } from '../migrate.ts';
import type { Store } from '../ports.ts';
import { inPlaceClickWriter, threadClickWriter } from './click-writer.ts';
import { type Connection, openConnection } from './connection.ts';
import { sqliteAccountStore } from './sqlite-accounts.ts';
import { sqliteLinkStore } from './sqlite-links.ts';
import { sqliteSessionStore } from './sqlite-sessions.ts';

/** Opens (creating the file and its directory if missing) a store; call `migrate()` before use. */
export function openSqliteStore(path: string): Store {
  const conn = openConnection(path);
  const clickWriter = path === ':memory:' ? inPlaceClickWriter(conn) : threadClickWriter(path);
  return {
    ...sqliteLinkStore(conn, clickWriter),
    ...sqliteAccountStore(conn),
    ...sqliteSessionStore(conn),
    migrate: () => migrate(conn),
    async ping() {
      conn.stmt('SELECT 1').get();
    },
    async close() {
      await clickWriter.close();
      conn.close();
    },
  };
}

async function migrate(conn: Connection): Promise<string[]> {
  const migrations = await loadMigrations('sqlite');
  conn.db.exec(SCHEMA_MIGRATIONS_DDL);
  const applied: string[] = [];
  for (const migration of migrations) {
    // Checked again under the write lock, so two processes migrating at once apply each file once.
    const ran = conn.transaction(() => {
      if (conn.stmt('SELECT 1 FROM schema_migrations WHERE name = ?').get(migration.name)) return false;
      conn.db.exec(migration.sql);
      conn
        .stmt('INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)')
        .run(migration.name, Date.now());
      return true;
    });
    if (ran) applied.push(migration.name);
  }
  return applied;
}
