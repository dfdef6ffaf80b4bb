/**
 * A contract run on both stores: SQLite always — a new migrated file per case — and PostgreSQL
 * when TEST_DATABASE_URL is set — a new database per case (a copy of the migrated template), dropped afterwards. Each case gets its
 * store and a way to run one statement beside it (`?` placeholders; int8 values come back as numbers).
 */
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
import type { Param, Row } from '../../fixtures/old-database.ts';
import { migratedDatabase, type TestDatabase } from '../../fixtures/pg-template.ts';
import { copyMigratedDatabase } from '../../fixtures/template-db.ts';

export interface StoreHarness {
  store: Store;
  sql(text: string, ...params: Param[]): Promise<Row[]>;
  close(): Promise<void>;
}

type Contract = (name: string, open: () => Promise<StoreHarness>) => void;

/** Runs `contract` as 'SQLite' and, inside a describe of its own, as 'PostgreSQL'. */
export function onBothStores(tmpPrefix: string, contract: Contract): void {
  let dir: string;
  let files = 0;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), tmpPrefix));
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  contract('SQLite', async () => {
    files += 1;
    const path = join(dir, `store-${files}`, 'snip.db');
    await copyMigratedDatabase(path);
    const store = openSqliteStore(path);
    await store.migrate();
    return {
      store,
      async sql(text, ...params) {
        const db = new DatabaseSync(path, { timeout: 5000 });
        try {
          return db.prepare(text).all(...params) as Row[];
        } finally {
          db.close();
        }
      },
      close: () => store.close(),
    };
  });

  const databaseUrl = process.env.TEST_DATABASE_URL;
  describe('on PostgreSQL', { skip: databaseUrl ? false : 'TEST_DATABASE_URL is not set' }, () => {
    const admin = postgres(databaseUrl as string, { max: 1, onnotice: () => {} });
    const databases: TestDatabase[] = [];
    after(async () => {
      for (const database of databases) await database.drop();
      await admin.end({ timeout: 5 });
    });
    contract('PostgreSQL', async () => {
      const database = await migratedDatabase(admin);
      databases.push(database);
      const store = openPostgresStore(database.url);
      await store.migrate();
      const int8 = { to: 20, from: [20], serialize: String, parse: Number };
      const db = postgres(database.url, { max: 1, onnotice: () => {}, types: { int8 } });
      return {
        store,
        sql: async (text, ...params) => [...(await db.unsafe(numbered(text), params as never[]))],
        async close() {
          await db.end({ timeout: 5 });
          await store.close();
        },
      };
    });
  });
}
