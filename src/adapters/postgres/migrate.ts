/**
 * Migrations on PostgreSQL, safe when several instances start at once: each pending file runs in
 * its own transaction holding an EXCLUSIVE lock on schema_migrations, re-checked under the lock,
 * so exactly one process applies it and the others find it recorded. A table lock rather than an
 * advisory lock, so Postgres-wire engines without advisory locks can run it; the primary key of
 * schema_migrations would still make a second applier fail rather than record a file twice.
 */
import { loadMigrations, SCHEMA_MIGRATIONS_DDL } from '../sql/migrations.ts';
import { type Db, query, transaction } from './client.ts';

/**
 * What a concurrent CREATE TABLE IF NOT EXISTS can fail with once another process created the
 * table first: unique_violation (on the catalog's index), duplicate_object (its row type),
 * duplicate_table.
 */
const CREATED_CONCURRENTLY = new Set(['23505', '42710', '42P07']);
const CREATE_ATTEMPTS = 3;

export async function migratePostgres(db: Db): Promise<string[]> {
  const migrations = await loadMigrations('postgres');
  await createMigrationsTable(db);
  const recorded = new Set((await query(db, 'SELECT name FROM schema_migrations')).map((row) => row.name));
  const applied: string[] = [];
  for (const migration of migrations) {
    if (recorded.has(migration.name)) continue;
    const ran = await transaction(db, async (tx) => {
      // EXCLUSIVE lets readers through but no other writer, nor another migrator's lock.
      await tx.unsafe('LOCK TABLE schema_migrations IN EXCLUSIVE MODE');
      const done = await query(tx, 'SELECT 1 FROM schema_migrations WHERE name = $1', [migration.name]);
      if (done.length > 0) return false;
      // No parameters: sent as a simple query, so a file may hold many statements.
      await tx.unsafe(migration.sql);
      await query(tx, 'INSERT INTO schema_migrations (name, applied_at) VALUES ($1, $2)', [
        migration.name,
        Date.now(),
      ]);
      return true;
    });
    if (ran) applied.push(migration.name);
  }
  return applied;
}

/**
 * CREATE TABLE IF NOT EXISTS is not atomic against itself: two sessions can both find no table and
 * the later one then fails on the catalog. Run again, it finds the table made and does nothing.
 */
async function createMigrationsTable(db: Db): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await db.unsafe(SCHEMA_MIGRATIONS_DDL);
      return;
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (attempt >= CREATE_ATTEMPTS || typeof code !== 'string' || !CREATED_CONCURRENTLY.has(code))
        throw error;
    }
  }
}
