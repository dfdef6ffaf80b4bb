/**
 * Dialect-neutral migration listing: every adapter reads its own
 * `<dialect>/migrations/NNN-name.sql` files through here and applies the pending ones
 * in its own transactions, recording each name in `schema_migrations`.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

export type Dialect = 'sqlite' | 'postgres';

export interface Migration {
  /** The file name without `.sql`, e.g. `001-initial`; what `schema_migrations.name` records. */
  name: string;
  sql: string;
}

const MIGRATION_FILE = /^(\d{3,})-[a-z0-9][a-z0-9-]*\.sql$/;

export function migrationsDir(dialect: Dialect): string {
  return join(import.meta.dirname, '..', dialect, 'migrations');
}

/** All migrations of the dialect, in order; a misnamed `.sql` file or a repeated number is an error. */
export async function loadMigrations(
  dialect: Dialect,
  dir: string = migrationsDir(dialect),
): Promise<Migration[]> {
  const files = (await readdir(dir)).filter((file) => file.endsWith('.sql'));
  const numbered = files.map((file) => {
    const match = MIGRATION_FILE.exec(file);
    if (!match?.[1]) throw new Error(`Migration file ${file} in ${dir} is not named NNN-name.sql`);
    return { file, number: Number(match[1]) };
  });
  numbered.sort((a, b) => a.number - b.number);
  for (let i = 1; i < numbered.length; i++) {
    const [prev, cur] = [numbered[i - 1], numbered[i]];
    if (prev && cur && prev.number === cur.number) {
      throw new Error(`Migrations ${prev.file} and ${cur.file} share the number ${cur.number}`);
    }
  }
  return Promise.all(
    numbered.map(async ({ file }) => ({
      name: file.slice(0, -'.sql'.length),
      sql: await readFile(join(dir, file), 'utf8'),
    })),
  );
}

/** The DDL every adapter runs before anything else to know what is applied. */
export const SCHEMA_MIGRATIONS_DDL =
  'CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at BIGINT NOT NULL)';
