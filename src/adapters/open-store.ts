import { DEFAULT_PLANS } from '../core/plans.ts';
import type { Store } from '../core/ports/store.ts';

/**
 * The adapter DATABASE_URL names: `sqlite:<path>`, or `postgres://…` / `postgresql://…`. Each is
 * loaded only when used, so a process carries one database client, not both.
 */
async function openAdapter(
  databaseUrl: string,
  timeoutMs: number | undefined,
  threads: boolean | undefined,
): Promise<Store> {
  if (databaseUrl.startsWith('sqlite:')) {
    const { openSqliteStore } = await import('./sqlite/store.ts');
    return openSqliteStore(databaseUrl.slice('sqlite:'.length), { threads });
  }
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    const { openPostgresStore } = await import('./postgres/store.ts');
    const connectTimeoutSeconds =
      timeoutMs === undefined ? undefined : Math.max(1, Math.ceil(timeoutMs / 1000));
    // Commit only well inside the deadline callers wait: a late commit would store a link answered 503.
    const commitWithinMs = timeoutMs === undefined ? undefined : Math.floor(timeoutMs * 0.75);
    return openPostgresStore(databaseUrl, { connectTimeoutSeconds, commitWithinMs });
  }
  throw new Error(
    `DATABASE_URL ${databaseUrl.split(':')[0]}: is not supported; use sqlite:<path> or postgres://…`,
  );
}

/**
 * Opens the store DATABASE_URL names; `prepare` also migrates and seeds the default plans. `timeoutMs`
 * (STORE_TIMEOUT_MS) bounds how long a new database connection may take; `threads: false` keeps an
 * embedded store's work on this thread (a command).
 */
export async function openStore(
  databaseUrl: string,
  options: { prepare: boolean; timeoutMs?: number; threads?: boolean },
): Promise<Store> {
  const store = await openAdapter(databaseUrl, options.timeoutMs, options.threads);
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
