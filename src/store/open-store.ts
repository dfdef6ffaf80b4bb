import { DEFAULT_PLANS } from '../domain/plans.ts';
import type { Store } from './ports.ts';
import { openSqliteStore } from './sqlite/sqlite-store.ts';

/** Opens the store DATABASE_URL names; `prepare` also migrates and seeds the default plans. */
export async function openStore(databaseUrl: string, options: { prepare: boolean }): Promise<Store> {
  if (!databaseUrl.startsWith('sqlite:')) {
    throw new Error(`DATABASE_URL ${databaseUrl.split(':')[0]}: is not supported yet; use sqlite:<path>`);
  }
  const store = openSqliteStore(databaseUrl.slice('sqlite:'.length));
  if (options.prepare) {
    await store.migrate();
    await store.ensureDefaultPlans(DEFAULT_PLANS);
  }
  return store;
}
