/** The Store on one SQLite file (WAL): every port, plus migrations and lifecycle. */
import type { Store } from '../../core/ports/store.ts';
import { billingStore } from '../sql/billing-scripts.ts';
import { blocklistStore } from '../sql/blocklist-store.ts';
import { deletionStore } from '../sql/deletion-scripts.ts';
import { domainStore } from '../sql/domain-scripts.ts';
import { auditStore, moderationStore, reportStore } from '../sql/moderation-scripts.ts';
import { peopleStore } from '../sql/people-store.ts';
import { tagStore } from '../sql/tag-scripts.ts';
import { webhookStore } from '../sql/webhook-scripts.ts';
import { inPlaceClickWriter, threadClickWriter } from './click-writer.ts';
import { sqliteClickStore } from './clicks.ts';
import { openConnection } from './connection.ts';
import { sqliteGroupStore } from './groups.ts';
import { sqliteKeyStore } from './keys.ts';
import { sqliteLinkStore } from './links.ts';
import { migrateSqlite } from './migrate.ts';
import { sqlitePlanStore } from './plans.ts';
import { inPlaceReaders, threadReaders } from './readers.ts';
import { queuedScripts, sqliteScripts } from './run-script.ts';
import { sqliteSecretStore } from './secrets.ts';
import { sqliteSessionStore } from './sessions.ts';
import { sqliteStatsStore } from './stats.ts';
import { writeQueue } from './write-queue.ts';

/**
 * Opens (creating the file and its directory if missing) a store; call `migrate()` before use.
 * `threads: false` (a command of the CLI) writes clicks and reads stats on this thread instead of
 * starting the click writer's and the readers' threads, which a server needs and a command does not.
 */
export function openSqliteStore(path: string, options: { threads?: boolean } = {}): Store {
  const conn = openConnection(path);
  const threads = path !== ':memory:' && options.threads !== false;
  const clickWriter = threads ? threadClickWriter(path) : inPlaceClickWriter(conn);
  // The writer thread checkpoints the WAL (click-writer-worker.ts): a commit here, on the redirect's
  // thread, never copies the WAL into the database file.
  if (threads) conn.db.exec('PRAGMA wal_autocheckpoint = 0');
  const writes = writeQueue(conn);
  const readers = threads ? threadReaders(path) : inPlaceReaders(conn);
  return {
    ...sqlitePlanStore(conn),
    ...peopleStore(sqliteScripts(conn)),
    ...domainStore(sqliteScripts(conn)),
    ...moderationStore(sqliteScripts(conn), ''),
    ...blocklistStore(sqliteScripts(conn)),
    ...deletionStore(sqliteScripts(conn)),
    ...reportStore(sqliteScripts(conn)),
    ...auditStore(sqliteScripts(conn)),
    ...webhookStore(queuedScripts(conn, writes), false),
    ...tagStore(queuedScripts(conn, writes)),
    ...billingStore(queuedScripts(conn, writes)),
    ...sqliteKeyStore(conn, writes),
    ...sqliteGroupStore(conn),
    ...sqliteLinkStore(conn, writes, readers),
    ...sqliteClickStore(conn, (batch) => clickWriter.write(batch)),
    ...sqliteStatsStore(readers, (beforeMs) => clickWriter.purge(beforeMs)),
    ...sqliteSessionStore(conn),
    ...sqliteSecretStore(conn),
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
