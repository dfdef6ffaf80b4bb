/**
 * Runs the webhook contract (webhook-contract.ts) on SQLite always — a new file per case, two
 * stores on it racing for deliveries — and on PostgreSQL when TEST_DATABASE_URL is set — a new
 * schema per case, dropped afterwards, three stores on it racing as three instances would. The
 * webhooks migration (013) runs on both the same way.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe } from 'node:test';
import postgres from 'postgres';
import { numbered } from '../../../src/adapters/postgres/client.ts';
import { openPostgresStore } from '../../../src/adapters/postgres/store.ts';
import { openSqliteStore } from '../../../src/adapters/sqlite/store.ts';
import type { Store } from '../../../src/core/ports/store.ts';
import { oldPostgres, oldSqlite, type Row } from '../../fixtures/old-database.ts';
import { copyMigratedDatabase } from '../../fixtures/template-db.ts';
import { runWebhookContract, runWebhookMigration, type WebhookHarness } from './webhook-contract.ts';

let dir: string;
let fileCounter = 0;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'snip-webhooks-'));
});
after(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A harness whose first store is `first`; further ones opened with `openStore`, all closed on `close`. */
function harnessOf(
  first: Store,
  openStore: () => Store,
  sql: WebhookHarness['sql'],
  closeMore: () => Promise<void> = async () => {},
): WebhookHarness {
  const opened = [first];
  return {
    store: first,
    async another() {
      const store = openStore();
      opened.push(store);
      await store.migrate();
      return store;
    },
    sql,
    async close() {
      for (const store of opened) await store.close();
      await closeMore();
    },
  };
}

async function openSqlite(): Promise<WebhookHarness> {
  fileCounter += 1;
  const path = join(dir, `store-${fileCounter}`, 'snip.db');
  await copyMigratedDatabase(path);
  const store = openSqliteStore(path);
  await store.migrate();
  return harnessOf(
    store,
    () => openSqliteStore(path),
    async (text, ...params) => {
      const db = new DatabaseSync(path, { timeout: 5000 });
      try {
        return db.prepare(text).all(...params) as Row[];
      } finally {
        db.close();
      }
    },
  );
}

runWebhookContract('SQLite', openSqlite, { claimers: 2 });
runWebhookMigration('SQLite', () => oldSqlite('013', '012-abuse'));

const databaseUrl = process.env.TEST_DATABASE_URL;

describe('on PostgreSQL', { skip: databaseUrl ? false : 'TEST_DATABASE_URL is not set' }, () => {
  const admin = postgres(databaseUrl as string, { max: 1, onnotice: () => {} });
  const schemas: string[] = [];
  /** Migrating costs most of a case on PostgreSQL: a few schemas are migrated ahead, at once. */
  const AHEAD = 4;
  const ahead: Array<Promise<{ url: string; store: Store }>> = [];

  after(async () => {
    for (const made of await Promise.allSettled(ahead)) {
      if (made.status === 'fulfilled') await made.value.store.close();
    }
    for (const schema of schemas) await admin.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end({ timeout: 5 });
  });

  /** A new, empty schema of its own, migrated, with the store that migrated it. */
  async function migratedSchema(): Promise<{ url: string; store: Store }> {
    const schema = `snip_test_${randomBytes(6).toString('hex')}`;
    schemas.push(schema);
    await admin.unsafe(`CREATE SCHEMA "${schema}"`);
    const url = new URL(databaseUrl as string);
    url.searchParams.set('search_path', schema);
    const store = openPostgresStore(url.toString());
    await store.migrate();
    return { url: url.toString(), store };
  }

  /** The next migrated schema, with the following ones already under way. */
  function nextSchema(): Promise<{ url: string; store: Store }> {
    while (ahead.length <= AHEAD) {
      const made = migratedSchema();
      // Awaited when its turn comes (or in `after`): a failure is reported then, not as unhandled.
      made.catch(() => {});
      ahead.push(made);
    }
    return ahead.shift() as Promise<{ url: string; store: Store }>;
  }

  /** Stores on a schema of their own, and a client of its own on that schema. */
  async function openPostgres(): Promise<WebhookHarness> {
    const { url, store } = await nextSchema();
    const int8 = { to: 20, from: [20], serialize: String, parse: Number };
    const db = postgres(url, { max: 1, onnotice: () => {}, types: { int8 } });
    return harnessOf(
      store,
      () => openPostgresStore(url),
      async (text, ...params) => [...(await db.unsafe(numbered(text), params as never[]))],
      () => db.end({ timeout: 5 }),
    );
  }

  runWebhookContract('PostgreSQL', openPostgres, { claimers: 3 });
  runWebhookMigration('PostgreSQL', () => oldPostgres(databaseUrl as string, '013', '012-abuse'));
});
