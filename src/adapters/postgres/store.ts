/** The Store on a PostgreSQL pool: every port, plus migrations and lifecycle. */
import type { Store } from '../../core/ports/store.ts';
import { abTestStore } from '../sql/ab-test-scripts.ts';
import { billingStore } from '../sql/billing-scripts.ts';
import { blocklistStore } from '../sql/blocklist-store.ts';
import { clickStore } from '../sql/click-scripts.ts';
import { consoleStore } from '../sql/console-scripts.ts';
import { conversionStore } from '../sql/conversion-scripts.ts';
import { deletionStore } from '../sql/deletion-scripts.ts';
import { domainStore } from '../sql/domain-scripts.ts';
import { groupStore } from '../sql/group-scripts.ts';
import { healthStore } from '../sql/health-scripts.ts';
import { keyStore } from '../sql/key-scripts.ts';
import { linkCsvPage } from '../sql/link-export.ts';
import { linkStore } from '../sql/link-scripts.ts';
import { auditStore, moderationStore, reportStore } from '../sql/moderation-scripts.ts';
import { peopleStore } from '../sql/people-store.ts';
import { planStore } from '../sql/plan-scripts.ts';
import { secretStore, sessionStore } from '../sql/session-scripts.ts';
import { purgeHours } from '../sql/stats-hourly.ts';
import { scriptedStats, statsStore } from '../sql/stats-store.ts';
import { tagStore } from '../sql/tag-scripts.ts';
import { webhookStore } from '../sql/webhook-scripts.ts';
import { batchedWrites } from './batched-writes.ts';
import { postgresBulkLinks } from './bulk-links.ts';
import { openPool, type PoolOptions, transaction } from './client.ts';
import { purgePartitionedEvents } from './event-partitions.ts';
import { migratePostgres } from './migrate.ts';
import { postgresScripts, runIn } from './run-script.ts';
import { rerunWhenRolledBack, writeClicks } from './write-clicks.ts';

/** The channel migration 033's trigger notifies when deliveries are written. */
const OUTBOX_CHANNEL = 'snip_outbox';

/** Seconds close() lets running queries finish before the connections are cut. */
const CLOSE_TIMEOUT_S = 5;

/**
 * A store on `url` (`postgres://…` or `postgresql://…`); connects lazily, so call `migrate()`
 * before use. Server parameters can ride in the URL's query, e.g. `?search_path=snip`.
 */
export function openPostgresStore(url: string, options: PoolOptions = {}): Store {
  const db = openPool(url, options);
  const scripts = postgresScripts(db);
  return {
    ...planStore(scripts),
    ...peopleStore(scripts),
    ...domainStore(scripts),
    ...moderationStore(scripts, ' COLLATE "C"'),
    ...blocklistStore(scripts),
    ...deletionStore(scripts),
    ...reportStore(scripts),
    ...auditStore(scripts),
    ...consoleStore(scripts),
    ...webhookStore(scripts, true),
    // Deliveries written by any instance or command wake every listening dispatcher (migration 033).
    async watchOutbox(onWritten) {
      const { unlisten } = await db.listen(OUTBOX_CHANNEL, () => onWritten());
      return unlisten;
    },
    ...abTestStore(scripts, true),
    ...healthStore(scripts, true),
    ...tagStore(scripts),
    ...billingStore(scripts),
    ...conversionStore(scripts, true, batchedWrites(db)),
    ...keyStore(scripts),
    ...groupStore(scripts),
    ...linkStore(scripts, {
      create: (script, keep) => transaction(db, (tx) => runIn(tx, script), keep),
      // One statement on the redirect's path: no transaction around it.
      visit: (script) => scripts.read(script),
    }),
    ...postgresBulkLinks(db),
    // A page's rows are written on this thread, a few milliseconds each: the export yields between pages.
    exportLinksPage: (ask) => scripts.read(linkCsvPage(ask)),
    ...clickStore(
      scripts,
      rerunWhenRolledBack((batch) => writeClicks(db, batch)),
    ),
    ...statsStore({
      ...scriptedStats(scripts),
      async purge(beforeMs, nowMs) {
        const purged = await purgePartitionedEvents(db, beforeMs, nowMs);
        // The hourly rollup is kept as long as the events (docs/adr/041).
        await scripts.read(purgeHours(beforeMs));
        return purged;
      },
    }),
    ...sessionStore(scripts),
    ...secretStore(scripts),
    migrate: () => migratePostgres(db),
    async ping() {
      await db.unsafe('SELECT 1');
    },
    async close() {
      await db.end({ timeout: CLOSE_TIMEOUT_S });
    },
  };
}
