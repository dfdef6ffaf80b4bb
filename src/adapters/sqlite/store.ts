/** The Store on one SQLite file (WAL): every port, plus migrations and lifecycle. */
import type { Store } from '../../core/ports/store.ts';
import { abTestStore } from '../sql/ab-test-scripts.ts';
import { ALIAS_SQL } from '../sql/alias-scripts.ts';
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
import { FIND_REDIRECT_LINK, linkStore } from '../sql/link-scripts.ts';
import { auditStore, moderationStore, reportStore } from '../sql/moderation-scripts.ts';
import { peopleStore } from '../sql/people-store.ts';
import { planStore } from '../sql/plan-scripts.ts';
import { mapRow, toRedirectLink } from '../sql/rows.ts';
import { secretStore, sessionStore } from '../sql/session-scripts.ts';
import { statsStore } from '../sql/stats-store.ts';
import { tagStore } from '../sql/tag-scripts.ts';
import { webhookStore } from '../sql/webhook-scripts.ts';
import { sqliteBulkLinks } from './bulk-links.ts';
import { inPlaceClickWriter, threadClickWriter } from './click-writer.ts';
import { openConnection } from './connection.ts';
import { migrateSqlite } from './migrate.ts';
import { mayPurge } from './purge-hours.ts';
import { inPlaceReaders, threadReaders } from './readers.ts';
import { queuedScripts, runNow, sqliteScripts } from './run-script.ts';
import { writeQueue } from './write-queue.ts';

/** Links a flush's transaction names at most on the writer's thread: the events' parts' bound (click-buffer.ts). */
export const CLICK_LINKS_PER_WRITE = 4096;

/**
 * Opens (creating the file and its directory if missing) a store; call `migrate()` before use.
 * `threads: false` (a command of the CLI) writes clicks and reads stats on this thread instead of
 * starting the click writer's and the readers' threads, which a server needs and a command does not.
 */
export function openSqliteStore(path: string, options: { threads?: boolean } = {}): Store {
  const conn = openConnection(path);
  const threads = path !== ':memory:' && options.threads !== false;
  // Once the writer thread runs, it checkpoints the WAL (click-writer-worker.ts): a commit here, on
  // the redirect's thread, never copies the WAL into the database file. Until then this
  // connection checkpoints as SQLite does by default.
  const clickWriter = threads
    ? threadClickWriter(path, () => conn.db.exec('PRAGMA wal_autocheckpoint = 0'))
    : inPlaceClickWriter(conn);
  const writes = writeQueue(conn);
  const readers = threads ? threadReaders(path) : inPlaceReaders(conn);
  const direct = sqliteScripts(conn);
  // Work done often beside the redirect (the outbox, tags, keys, billing) waits its turn to write.
  const queued = queuedScripts(conn, writes);
  return {
    ...planStore(direct),
    ...peopleStore(direct),
    ...domainStore(direct),
    ...moderationStore(direct, ''),
    ...blocklistStore(direct),
    ...deletionStore(direct),
    ...reportStore(direct),
    ...auditStore(direct),
    ...consoleStore(direct),
    ...webhookStore(queued, false),
    ...abTestStore(queued, false),
    ...healthStore(queued, false),
    ...tagStore(queued),
    ...billingStore(queued),
    ...conversionStore(queued, false),
    ...keyStore(queued),
    ...groupStore(direct),
    ...linkStore(
      direct,
      {
        // Requests wait on these: queued, creates made at once share a commit, each in its savepoint.
        create: (script, keep) => writes.write(() => runNow(conn, script), keep),
        visit: (script) => writes.write(() => runNow(conn, script)),
      },
      readers,
    ),
    ...sqliteBulkLinks(conn),
    exportLinksPage: readers.exportLinksPage,
    // The redirect's cold path, answered at once: one cached statement, no script.
    findLinkByCodeNow: (domainId, code) =>
      mapRow(conn.stmt(FIND_REDIRECT_LINK).get(domainId, code), toRedirectLink),
    // Asked only for a code no link has: a renamed link's alias.
    findLinkByAliasNow: (domainId, code) =>
      mapRow(conn.stmt(ALIAS_SQL.redirectLinkOf).get(domainId, code), toRedirectLink),
    ...clickStore(direct, (batch) => clickWriter.write(batch)),
    // The writer's thread takes a flush's counts in transactions as large as its events' parts: each
    // commit writes the B-trees' upper pages again (docs/adr/053). In place, on the redirect's
    // thread, the buffer's smaller default keeps each stall short.
    ...(threads ? { clickLinksPerWrite: CLICK_LINKS_PER_WRITE } : {}),
    ...statsStore({
      stats: readers.stats,
      purge: async (beforeMs) => (mayPurge(conn) ? clickWriter.purge(beforeMs) : 0),
    }),
    ...sessionStore(direct),
    ...secretStore(direct),
    migrate: () => migrateSqlite(conn),
    async ping() {
      conn.stmt('SELECT 1').get();
    },
    async close() {
      await readers.close();
      await clickWriter.close();
      conn.close();
    },
  };
}
