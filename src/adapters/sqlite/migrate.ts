/** Migrations on SQLite: each pending file in its own write transaction, recorded by name. */
import { loadMigrations, SCHEMA_MIGRATIONS_DDL } from '../sql/migrations.ts';
import type { Connection } from './connection.ts';

export async function migrateSqlite(conn: Connection): Promise<string[]> {
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
