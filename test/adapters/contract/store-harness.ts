/**
 * A contract run on both stores: SQLite always — a new migrated file per case — and PostgreSQL
 * when TEST_DATABASE_URL is set — a new schema per case, dropped afterwards. Each case gets its
 * store and a way to run one statement beside it (`?` placeholders; int8 values come back as numbers).
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
import type { Param, Row } from '../../fixtures/old-database.ts';
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
    const schemas: string[] = [];
    after(async () => {
      for (const schema of schemas) await admin.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end({ timeout: 5 });
    });
    contract('PostgreSQL', async () => {
      const schema = `snip_test_${randomBytes(6).toString('hex')}`;
      schemas.push(schema);
      await admin.unsafe(`CREATE SCHEMA "${schema}"`);
      const url = new URL(databaseUrl as string);
      url.searchParams.set('search_path', schema);
      const store = openPostgresStore(url.toString());
      await store.migrate();
      const int8 = { to: 20, from: [20], serialize: String, parse: Number };
      const db = postgres(url.toString(), { max: 1, onnotice: () => {}, types: { int8 } });
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
