/** The Store on a PostgreSQL pool: every port, plus migrations and lifecycle. */
import type { Store } from '../../core/ports/store.ts';
import { billingStore } from '../sql/billing-scripts.ts';
import { blocklistStore } from '../sql/blocklist-store.ts';
import { deletionStore } from '../sql/deletion-scripts.ts';
import { domainStore } from '../sql/domain-scripts.ts';
import { auditStore, moderationStore, reportStore } from '../sql/moderation-scripts.ts';
import { peopleStore } from '../sql/people-store.ts';
import { tagStore } from '../sql/tag-scripts.ts';
import { webhookStore } from '../sql/webhook-scripts.ts';
import { postgresClickStore } from './clicks.ts';
import { openPool, type PoolOptions } from './client.ts';
import { postgresGroupStore } from './groups.ts';
import { postgresKeyStore } from './keys.ts';
import { postgresLinkStore } from './links.ts';
import { migratePostgres } from './migrate.ts';
import { postgresPlanStore } from './plans.ts';
import { postgresScripts } from './run-script.ts';
import { postgresSecretStore } from './secrets.ts';
import { postgresSessionStore } from './sessions.ts';
import { postgresStatsStore } from './stats.ts';

/** Seconds close() lets running queries finish before the connections are cut. */
const CLOSE_TIMEOUT_S = 5;

/**
 * A store on `url` (`postgres://…` or `postgresql://…`); connects lazily, so call `migrate()`
 * before use. Server parameters can ride in the URL's query, e.g. `?search_path=snip`.
 */
export function openPostgresStore(url: string, options: PoolOptions = {}): Store {
  const db = openPool(url, options);
  return {
    ...postgresPlanStore(db),
    ...peopleStore(postgresScripts(db)),
    ...domainStore(postgresScripts(db)),
    ...moderationStore(postgresScripts(db), ' COLLATE "C"'),
    ...blocklistStore(postgresScripts(db)),
    ...deletionStore(postgresScripts(db)),
    ...reportStore(postgresScripts(db)),
    ...auditStore(postgresScripts(db)),
    ...webhookStore(postgresScripts(db), true),
    ...tagStore(postgresScripts(db)),
    ...billingStore(postgresScripts(db)),
    ...postgresKeyStore(db),
    ...postgresGroupStore(db),
    ...postgresLinkStore(db),
    ...postgresClickStore(db),
    ...postgresStatsStore(db),
    ...postgresSessionStore(db),
    ...postgresSecretStore(db),
    migrate: () => migratePostgres(db),
    async ping() {
      await db.unsafe('SELECT 1');
    },
    async close() {
      await db.end({ timeout: CLOSE_TIMEOUT_S });
    },
  };
}
