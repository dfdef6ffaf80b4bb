/**
 * Migration listing for both dialects (docs/adr/035). 001–015 were written once per dialect and
 * stay as installed databases know them, in `<dialect>/migrations/`. From 016 on a migration is
 * written once, in `sql/migrations/`: statements both dialects run, with sections for one dialect
 * where the SQL differs —
 *
 *     ALTER TABLE links RENAME COLUMN a TO b;     -- both
 *     -- dialect: postgres
 *     CREATE INDEX CONCURRENTLY …;                -- PostgreSQL only
 *     -- dialect: sqlite
 *     CREATE INDEX …;                             -- SQLite only
 *     -- dialect: both
 *     …
 *
 * Every adapter applies the pending ones in its own transactions, recording each name in
 * `schema_migrations`.
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
/** The last migration written per dialect; every later one is written once. */
const LAST_PER_DIALECT = 15;
const SECTION = /^-- dialect: (both|sqlite|postgres)[ \t]*$/;

export function migrationsDir(dialect: Dialect): string {
  return join(import.meta.dirname, '..', dialect, 'migrations');
}

/** Where the migrations written once live. */
export const SHARED_MIGRATIONS_DIR = join(import.meta.dirname, 'migrations');

interface MigrationFile {
  file: string;
  number: number;
  dir: string;
}

async function migrationFiles(dir: string): Promise<MigrationFile[]> {
  const files = (await readdir(dir)).filter((file) => file.endsWith('.sql'));
  return files.map((file) => {
    const match = MIGRATION_FILE.exec(file);
    if (!match?.[1]) throw new Error(`Migration file ${file} in ${dir} is not named NNN-name.sql`);
    return { file, number: Number(match[1]), dir };
  });
}

/** The statements of a migration written once that `dialect` runs: shared lines and its own sections. */
export function sectionFor(sql: string, dialect: Dialect): string {
  let current: 'both' | Dialect = 'both';
  const kept: string[] = [];
  for (const line of sql.split('\n')) {
    const section = SECTION.exec(line);
    if (section) current = section[1] as 'both' | Dialect;
    else if (current === 'both' || current === dialect) kept.push(line);
  }
  return kept.join('\n');
}

/** All migrations of the dialect, in order; a misnamed `.sql` file or a repeated number is an error. */
export async function loadMigrations(
  dialect: Dialect,
  dir: string = migrationsDir(dialect),
  sharedDir: string = SHARED_MIGRATIONS_DIR,
): Promise<Migration[]> {
  const own = await migrationFiles(dir);
  const late = own.find((file) => file.number > LAST_PER_DIALECT);
  if (late)
    throw new Error(
      `Migration ${late.file} is written per dialect: from 016 on, write it once in ${sharedDir}`,
    );
  const shared = await migrationFiles(sharedDir);
  const early = shared.find((file) => file.number <= LAST_PER_DIALECT);
  if (early) throw new Error(`Migration ${early.file} reuses a number written per dialect`);
  const numbered = [...own, ...shared].sort((a, b) => a.number - b.number);
  for (let i = 1; i < numbered.length; i++) {
    const [prev, cur] = [numbered[i - 1], numbered[i]];
    if (prev && cur && prev.number === cur.number) {
      throw new Error(`Migrations ${prev.file} and ${cur.file} share the number ${cur.number}`);
    }
  }
  return Promise.all(
    numbered.map(async ({ file, number, dir: from }) => {
      const text = await readFile(join(from, file), 'utf8');
      return {
        name: file.slice(0, -'.sql'.length),
        sql: number > LAST_PER_DIALECT ? sectionFor(text, dialect) : text,
      };
    }),
  );
}

/** The DDL every adapter runs before anything else to know what is applied. */
export const SCHEMA_MIGRATIONS_DDL =
  'CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at BIGINT NOT NULL)';
