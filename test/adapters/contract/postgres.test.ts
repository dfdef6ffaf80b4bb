/**
 * The store contract and PostgreSQL-specific behaviour, run when TEST_DATABASE_URL names a
 * database the tests may create schemas in. Each store gets a schema of its own (snip_test_…),
 * dropped at the end, so runs never see each other's rows.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, it } from 'node:test';
import postgres from 'postgres';
import { openPostgresStore } from '../../../src/adapters/postgres/store.ts';
import { loadMigrations } from '../../../src/adapters/sql/migrations.ts';
import type { Link } from '../../../src/core/entities.ts';
import { DEFAULT_PLANS } from '../../../src/core/plans.ts';
import type { InsertLinkResult, Store } from '../../../src/core/ports/store.ts';
import { migratedDatabase, type TestDatabase } from '../../fixtures/pg-template.ts';
import { runAliasContract } from './alias-contract.ts';
import { runArchiveContract } from './archive-contract.ts';
import { runDomainContract } from './domain-contract.ts';
import { givenAccount, newLink, planInput, runStoreContract } from './store-contract.ts';
import { runWorkspaceContract } from './workspace-contract.ts';

const databaseUrl = process.env.TEST_DATABASE_URL;

// ~150 cases, each in a copy of the migrated template: beside another suite on two cores the file
// ran 380-430 s, past the default 300 s bound of its suite; this bound is against a hang.
const bound = { skip: databaseUrl ? false : 'TEST_DATABASE_URL is not set', timeout: 1_800_000 };

describe('on PostgreSQL', bound, () => {
  const admin = postgres(databaseUrl as string, { max: 2, onnotice: () => {} });
  const schemas: string[] = [];
  const databases: TestDatabase[] = [];

  // ~150 databases, two dropped at a time (the pool's two connections): alone this takes a minute
  // or so, on a machine running another suite beside it several; the bound is against a hang.
  after(
    async () => {
      const drops = databases.map((database) => () => database.drop());
      const next = async (): Promise<void> => {
        for (let drop = drops.shift(); drop; drop = drops.shift()) await drop();
      };
      await Promise.all([next(), next()]);
      for (const schema of schemas) await admin.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end({ timeout: 5 });
    },
    { timeout: 900_000 },
  );

  /** A new, empty schema; stores opened on the URL it returns work in it only. */
  async function freshSchema(): Promise<string> {
    const schema = `snip_test_${randomBytes(6).toString('hex')}`;
    schemas.push(schema);
    await admin.unsafe(`CREATE SCHEMA "${schema}"`);
    const url = new URL(databaseUrl as string);
    url.searchParams.set('search_path', schema);
    return url.toString();
  }

  /** A migrated store: on `url` (a schema the case made), else in a copy of the migrated template. */
  async function openMigrated(url?: string): Promise<Store> {
    let at = url;
    if (at === undefined) {
      const database = await migratedDatabase(admin);
      databases.push(database);
      at = database.url;
    }
    const store = openPostgresStore(at);
    await store.migrate();
    return store;
  }

  const kindsOf = (results: InsertLinkResult[], kind: InsertLinkResult['kind']) =>
    results.filter((result) => result.kind === kind).length;

  runStoreContract('PostgreSQL', () => openMigrated());
  runDomainContract('PostgreSQL', () => openMigrated());
  runAliasContract('PostgreSQL', () => openMigrated());
  runArchiveContract('PostgreSQL', () => openMigrated());
  runWorkspaceContract('PostgreSQL', () => openMigrated(), {
    openPair: async () => {
      const url = await freshSchema();
      return [await openMigrated(url), await openMigrated(url)];
    },
  });

  describe('PostgreSQL store', () => {
    it('applies every migration on a new schema, then nothing on the next run', async () => {
      const url = await freshSchema();
      const names = (await loadMigrations('postgres')).map((migration) => migration.name);
      const store = openPostgresStore(url);
      try {
        assert.deepEqual(await store.migrate(), names);
        assert.ok(names.includes('003-sessions'));
        assert.deepEqual(await store.migrate(), []);
      } finally {
        await store.close();
      }
      const reopened = openPostgresStore(url);
      try {
        assert.deepEqual(await reopened.migrate(), []);
      } finally {
        await reopened.close();
      }
    });

    it('has the same migrations as SQLite, by name', async () => {
      const names = async (dialect: 'sqlite' | 'postgres') =>
        (await loadMigrations(dialect)).map((migration) => migration.name);
      assert.deepEqual(await names('postgres'), await names('sqlite'));
    });

    it('applies each migration once when three instances migrate a new schema at once', async () => {
      const names = (await loadMigrations('postgres')).map((migration) => migration.name);
      // Several rounds, each on a new schema, with connections opened up front so the three
      // migrations start together: the rarer races (two creators of schema_migrations) get a chance.
      for (let round = 0; round < 5; round++) {
        const url = await freshSchema();
        const stores = [0, 1, 2].map(() => openPostgresStore(url, { max: 2 }));
        try {
          await Promise.all(stores.map((store) => store.ping()));
          const applied = await Promise.all(stores.map((store) => store.migrate()));
          assert.deepEqual(applied.flat().toSorted(), names.toSorted(), 'every file applied, none twice');
          const schema = new URL(url).searchParams.get('search_path') as string;
          const recorded = await admin.unsafe(`SELECT name FROM "${schema}".schema_migrations ORDER BY name`);
          assert.deepEqual(
            recorded.map((row) => row.name),
            names,
          );
        } finally {
          await Promise.all(stores.map((store) => store.close()));
        }
      }
    });

    it('inserts the default plans as given, once, when two instances start at once', async () => {
      const url = await freshSchema();
      const a = await openMigrated(url);
      const b = await openMigrated(url);
      try {
        await Promise.all([a.ensureDefaultPlans(DEFAULT_PLANS), b.ensureDefaultPlans(DEFAULT_PLANS)]);
        assert.deepEqual(
          (await a.listPlans()).map(({ name, apiAccess, urlQuota, rateLimitPerHour }) => ({
            name,
            apiAccess,
            urlQuota,
            rateLimitPerHour,
          })),
          DEFAULT_PLANS,
        );
      } finally {
        await a.close();
        await b.close();
      }
    });

    it('returns ids, counts and times as numbers', async () => {
      const store = await openMigrated();
      try {
        const plan = await store.upsertPlan(planInput());
        const account = await givenAccount(store, 'ada@example.com', plan);
        const result = await store.insertLinkWithinQuota(newLink(account.id, 'https://example.com/'));
        assert.equal(result.kind, 'created');
        await store.addClicks([{ linkId: result.link.id, day: '2024-03-01', clicks: 2, botHits: 1 }]);
        const link = await store.findLinkByCode(0, result.link.code);
        assert.ok(link);
        for (const value of [plan.id, plan.urlQuota, account.id, link.id, link.workspaceId, link.clicks]) {
          assert.equal(typeof value, 'number');
        }
        assert.equal(typeof (await store.countLiveLinks(account.id)), 'number');
        assert.equal(typeof link.createdAt.getTime(), 'number');
        assert.deepEqual(await store.dailyClicksOfLink(link.id, '2024-03-01', '2024-03-01'), [
          { day: '2024-03-01', clicks: 2 },
        ]);
      } finally {
        await store.close();
      }
    });

    it('creates exactly one link when two instances race 60 inserts of one URL', async () => {
      const url = await freshSchema();
      const a = await openMigrated(url);
      const b = await openMigrated(url);
      try {
        const plan = await a.upsertPlan(planInput({ urlQuota: 1000 }));
        const account = await givenAccount(a, 'ada@example.com', plan);
        const results = await Promise.all(
          Array.from({ length: 60 }, (_, i) =>
            (i % 2 ? a : b).insertLinkWithinQuota(newLink(account.id, 'https://example.com/')),
          ),
        );
        assert.equal(kindsOf(results, 'created'), 1);
        assert.equal(kindsOf(results, 'duplicate'), 59);
        const created = results.find((result) => result.kind === 'created');
        for (const result of results) {
          if (result.kind === 'duplicate') assert.deepEqual(result.existing, created?.link);
        }
        assert.equal(await b.countLiveLinks(account.id), 1);
      } finally {
        await a.close();
        await b.close();
      }
    });

    it('stops at a quota of 25 when two instances store 100 distinct links at once', async () => {
      const url = await freshSchema();
      const a = await openMigrated(url);
      const b = await openMigrated(url);
      try {
        const plan = await a.upsertPlan(planInput({ urlQuota: 25 }));
        const account = await givenAccount(a, 'ada@example.com', plan);
        const results = await Promise.all(
          Array.from({ length: 100 }, (_, i) =>
            (i % 2 ? a : b).insertLinkWithinQuota(newLink(account.id, `https://example.com/${i}`)),
          ),
        );
        assert.equal(kindsOf(results, 'created'), 25);
        assert.equal(kindsOf(results, 'quota-exceeded'), 75);
        assert.equal(await a.countLiveLinks(account.id), 25);
        assert.equal(
          (await b.insertLinkWithinQuota(newLink(account.id, 'https://example.com/one-more'))).kind,
          'quota-exceeded',
          'link_count matches the links kept',
        );
      } finally {
        await a.close();
        await b.close();
      }
    });

    it('adds up clicks flushed by two instances at once', async () => {
      const url = await freshSchema();
      const a = await openMigrated(url);
      const b = await openMigrated(url);
      try {
        const plan = await a.upsertPlan(planInput());
        const account = await givenAccount(a, 'ada@example.com', plan);
        const links: Link[] = [];
        for (let i = 0; i < 20; i++) {
          const result = await a.insertLinkWithinQuota(newLink(account.id, `https://example.com/${i}`));
          assert.equal(result.kind, 'created');
          links.push(result.link);
        }
        // Each instance's batches list the links in opposite orders: a deadlock, if one happens,
        // must be retried rather than lose the batch.
        const batch = (reverse: boolean) =>
          (reverse ? links.toReversed() : links).map((link) => ({
            linkId: link.id,
            day: '2024-03-01',
            clicks: 1,
            botHits: 1,
          }));
        await Promise.all(
          Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).addClicks(batch(i % 2 === 0))),
        );
        for (const link of links) {
          const found = await b.findLinkByCode(0, link.code);
          assert.deepEqual([found?.clicks, found?.botHits], [10, 10]);
        }
        assert.deepEqual(await a.dailyClicksOfWorkspace(account.id, '2024-03-01', '2024-03-01'), [
          { day: '2024-03-01', clicks: 200 },
        ]);
      } finally {
        await a.close();
        await b.close();
      }
    });

    it('writes a batch of 5,000 counts over 1,000 links and 5 days', async () => {
      const store = await openMigrated();
      try {
        const plan = await store.upsertPlan(planInput({ urlQuota: 2000 }));
        const account = await givenAccount(store, 'ada@example.com', plan);
        const links = Array.from({ length: 1000 }, (_, i) => newLink(account.id, `https://example.com/${i}`));
        await store.insertLinksBulk(links);
        const listed = await store.listLinks(account.id, { limit: 1000 });
        const ids = listed.links.map((link) => link.id);
        assert.equal(new Set(ids).size, 1000);
        const days = ['2024-03-01', '2024-03-02', '2024-03-03', '2024-03-04', '2024-03-05'];
        await store.addClicks(
          days.flatMap((day) => ids.map((linkId) => ({ linkId, day, clicks: 1, botHits: 0 }))),
        );
        for (const code of [links[0]?.code, links[999]?.code]) {
          assert.equal((await store.findLinkByCode(0, code ?? ''))?.clicks, 5);
        }
        assert.deepEqual(
          await store.dailyClicksOfWorkspace(account.id, days[0] as string, days[4] as string),
          days.map((day) => ({ day, clicks: 1000 })),
        );
      } finally {
        await store.close();
      }
    });

    it('rotates one key per account even when two rotations run at once', async () => {
      const url = await freshSchema();
      const a = await openMigrated(url);
      const b = await openMigrated(url);
      try {
        const plan = await a.upsertPlan(planInput());
        const account = await givenAccount(a, 'ada@example.com', plan);
        await Promise.all(
          Array.from({ length: 6 }, (_, i) =>
            (i % 2 ? a : b).replaceMainKey(account.id, `snip_${i}`, randomBytes(32), null),
          ),
        );
        const live = await a.findMainKey(account.id);
        assert.ok(live, 'one key is live');
      } finally {
        await a.close();
        await b.close();
      }
    });
  });
});
