/** Migrations on SQLite: each pending file in its own write transaction, recorded by name. */
import { loadMigrations, type Migration, SCHEMA_MIGRATIONS_DDL } from '../sql/migrations.ts';
import type { Connection } from './connection.ts';

/**
 * A file that rebuilds a table others point at says so on its first line: SQLite's documented way
 * (create, copy, drop, rename) needs foreign keys off, which only takes effect outside a
 * transaction; they are checked before the commit instead, so nothing dangling is ever committed.
 */
const REBUILDS_TABLES = '-- snip:rebuilds-tables';

function apply(conn: Connection, migration: Migration): boolean {
  if (conn.stmt('SELECT 1 FROM schema_migrations WHERE name = ?').get(migration.name)) return false;
  conn.db.exec(migration.sql);
  if (migration.sql.startsWith(REBUILDS_TABLES)) {
    const dangling = conn.db.prepare('PRAGMA foreign_key_check').all();
    if (dangling.length > 0) {
      throw new Error(`Migration ${migration.name} leaves ${dangling.length} broken foreign keys`);
    }
  }
  conn.stmt('INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)').run(migration.name, Date.now());
  return true;
}

export async function migrateSqlite(conn: Connection): Promise<string[]> {
  const migrations = await loadMigrations('sqlite');
  conn.db.exec(SCHEMA_MIGRATIONS_DDL);
  const applied: string[] = [];
  for (const migration of migrations) {
    // Checked again under the write lock, so two processes migrating at once apply each file once.
    const rebuilds = migration.sql.startsWith(REBUILDS_TABLES);
    if (rebuilds) conn.db.exec('PRAGMA foreign_keys = OFF');
    try {
      if (conn.transaction(() => apply(conn, migration))) applied.push(migration.name);
    } finally {
      if (rebuilds) conn.db.exec('PRAGMA foreign_keys = ON');
    }
  }
  return applied;
}
