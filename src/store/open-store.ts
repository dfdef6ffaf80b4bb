import { DEFAULT_PLANS } from '../domain/plans.ts';
import type { Store } from './ports.ts';
import { openPostgresStore } from './postgres/postgres-store.ts';
import { openSqliteStore } from './sqlite/sqlite-store.ts';

/** The adapter DATABASE_URL names: `sqlite:<path>`, or `postgres://…` / `postgresql://…`. */
function openAdapter(databaseUrl: string): Store {
  if (databaseUrl.startsWith('sqlite:')) return openSqliteStore(databaseUrl.slice('sqlite:'.length));
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) return openPostgresStore(databaseUrl);
  throw new Error(
    `DATABASE_URL ${databaseUrl.split(':')[0]}: is not supported; use sqlite:<path> or postgres://…`,
  );
}

/** Opens the store DATABASE_URL names; `prepare` also migrates and seeds the default plans. */
export async function openStore(databaseUrl: string, options: { prepare: boolean }): Promise<Store> {
  const store = openAdapter(databaseUrl);
  if (options.prepare) {
    try {
      await store.migrate();
      await store.ensureDefaultPlans(DEFAULT_PLANS);
    } catch (error) {
      await store.close();
      throw error;
    }
  }
  return store;
}
