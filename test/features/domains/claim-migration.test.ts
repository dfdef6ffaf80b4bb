/**
 * Migration 017 (docs/api.md §12): from a store of release 016 holding domains — verified with a
 * link, removed, unverified — every row and link is kept as it was, and afterwards a host is
 * unique among verified domains only: a second workspace may claim the unverified host, nobody the
 * verified one. On SQLite always, on PostgreSQL when TEST_DATABASE_URL is set (a schema of its own).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Store } from '../../../src/core/ports/store.ts';
import { type OldDatabase, oldPlan, oldPostgres, oldSqlite, type Row } from '../../fixtures/old-database.ts';

const T0 = Date.UTC(2025, 0, 1);

async function workspaceOf(old: OldDatabase, planId: number, slug: string): Promise<number> {
  const [user] = await old.run(
    'INSERT INTO users (email, email_verified, operator, created_at) VALUES (?, false, false, 0) RETURNING id',
    `${slug}@example.com`,
  );
  const [row] = await old.run(
    'INSERT INTO workspaces (slug, name, plan_id, personal_of, created_at) VALUES (?, ?, ?, ?, 0) RETURNING id',
    slug,
    slug,
    planId,
    Number(user?.id),
  );
  return Number(row?.id);
}

async function domainRow(
  old: OldDatabase,
  host: string,
  workspaceId: number,
  verified: boolean,
  deleted = false,
) {
  const [row] = await old.run(
    `INSERT INTO domains (host, workspace_id, shared, verification_token, verified_at, https, created_at, deleted_at)
     VALUES (?, ?, false, ?, ?, true, ?, ?) RETURNING id`,
    host,
    workspaceId,
    `token-${host}`,
    verified ? T0 : null,
    T0,
    deleted ? T0 : null,
  );
  return Number(row?.id);
}

const domainRows = (old: OldDatabase): Promise<Row[]> =>
  old.run('SELECT id, host, workspace_id, verified_at, deleted_at FROM domains ORDER BY id');

function describeMigration(name: string, makeOld: () => Promise<OldDatabase>): void {
  describe(`migration 017 on ${name}, from a store of release 016`, () => {
    let old: OldDatabase;
    let store: Store;
    let before017: Row[];
    let ids: { ada: number; bob: number; served: number; claimed: number };

    before(async () => {
      old = await makeOld();
      const plan = await oldPlan(old);
      const ada = await workspaceOf(old, plan.id, 'ada');
      const bob = await workspaceOf(old, plan.id, 'bob');
      const served = await domainRow(old, 'served.example', ada, true);
      await domainRow(old, 'gone.example', ada, true, true);
      const claimed = await domainRow(old, 'claimed.example', ada, false);
      await old.run(
        `INSERT INTO links (code, domain_id, workspace_id, long_url, normalized_url, url_hash, created_at)
         VALUES ('promo', ?, ?, 'https://example.com/', 'https://example.com/', 'h', 0)`,
        served,
        ada,
      );
      ids = { ada, bob, served, claimed };
      before017 = await domainRows(old);
      store = old.open();
      await store.migrate();
    });
    after(async () => {
      await store?.close();
      await old?.remove();
    });

    it('keeps every domain and every link as they were', async () => {
      assert.deepEqual(await domainRows(old), before017);
      assert.equal((await store.findLinkByCode(ids.served, 'promo'))?.longUrl, 'https://example.com/');
    });

    it('lets a second workspace claim an unverified host, and nobody a verified one', async () => {
      const claim = (host: string, workspaceId: number) =>
        store.addDomain({ host, workspaceId, shared: false, verificationToken: 't', verified: false });
      assert.equal((await claim('claimed.example', ids.bob)).kind, 'added');
      assert.deepEqual(await claim('claimed.example', ids.ada), { kind: 'taken' });
      assert.deepEqual(await claim('served.example', ids.bob), { kind: 'taken' });
      const won = await store.verifyDomain(ids.claimed, new Date(T0));
      assert.ok(won.kind === 'verified');
      assert.deepEqual(
        won.dropped.map((domain) => domain.workspaceId),
        [ids.bob],
      );
    });
  });
}

describeMigration('SQLite', () => oldSqlite('017', '016-workspace-id'));

const databaseUrl = process.env.TEST_DATABASE_URL;
describe('migration 017 on PostgreSQL', {
  skip: databaseUrl ? false : 'TEST_DATABASE_URL is not set',
}, () => {
  if (databaseUrl) describeMigration('PostgreSQL', () => oldPostgres(databaseUrl, '017', '016-workspace-id'));
});
