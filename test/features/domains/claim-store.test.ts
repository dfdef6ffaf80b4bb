/**
 * Claims on a host in the store (core/ports/domain-store.ts, migration 017): several workspaces'
 * unverified domains on one host, the first verified wins and drops the others in its transaction,
 * a verified host keeps its code space across owners, the cap and the lapse of claims, and the
 * sweep. On SQLite always, on PostgreSQL when TEST_DATABASE_URL is set (a schema per case), where
 * two verifications of one host at once leave exactly one verified.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import postgres from 'postgres';
import { openPostgresStore } from '../../../src/adapters/postgres/store.ts';
import { openSqliteStore } from '../../../src/adapters/sqlite/store.ts';
import type { Domain, Plan, Workspace } from '../../../src/core/entities.ts';
import type { ClaimLimits } from '../../../src/core/ports/domain-store.ts';
import type { Store } from '../../../src/core/ports/store.ts';
import { givenAccount, newLink, planInput } from '../../adapters/contract/store-contract.ts';
import { copyMigratedDatabase } from '../../fixtures/template-db.ts';

const DAY = 86_400_000;
const T0 = Date.UTC(2025, 0, 1);
const limits = (at: number, max = 5): ClaimLimits => ({
  at: new Date(at),
  expiredBefore: new Date(at - 7 * DAY + 1),
  max,
});

function claimStoreCases(name: string, open: () => Promise<Store>, concurrent: boolean) {
  describe(`claims in the store, ${name}`, () => {
    let store: Store;
    let plan: Plan;
    beforeEach(async () => {
      store = await open();
      plan = await store.upsertPlan(planInput());
    });
    afterEach(async () => {
      await store.close();
    });

    const workspace = (email: string): Promise<Workspace> => givenAccount(store, email, plan);
    const claim = async (host: string, workspaceId: number, at = T0, max = 5) => {
      const result = await store.addDomain(
        { host, workspaceId, shared: false, verificationToken: `t-${workspaceId}`, verified: false },
        limits(at, max),
      );
      assert.equal(result.kind, 'added', `${host} for ${workspaceId}`);
      return (result as { domain: Domain }).domain;
    };
    const hosts = async () =>
      (await store.listDomains()).slice(1).map((d) => [d.host, d.workspaceId, d.verifiedAt !== null]);

    it('keeps several workspaces’ claims on a host; the first verified drops the others', async () => {
      const [ada, bob, cyd] = [
        await workspace('ada@x.example'),
        await workspace('bob@x.example'),
        await workspace('cyd@x.example'),
      ];
      const a = await claim('brand.example', ada.id);
      const b = await claim('brand.example', bob.id);
      await claim('brand.example', cyd.id);
      const again = { host: 'brand.example', shared: false, verificationToken: 't', verified: false };
      assert.deepEqual(await store.addDomain({ ...again, workspaceId: ada.id }, limits(T0)), {
        kind: 'taken',
      });
      const won = await store.verifyDomain(b.id, new Date(T0 + 1000));
      assert.ok(won.kind === 'verified');
      assert.deepEqual([won.domain.id, won.domain.workspaceId], [b.id, bob.id]);
      assert.deepEqual(won.dropped.map((d) => d.workspaceId).sort(), [ada.id, cyd.id].sort());
      assert.deepEqual(await hosts(), [['brand.example', bob.id, true]]);
      assert.deepEqual(await store.verifyDomain(a.id, new Date(T0 + 2000)), { kind: 'not-found' });
      assert.deepEqual(await store.addDomain({ ...again, workspaceId: ada.id }, limits(T0)), {
        kind: 'taken',
      });
      const twice = await store.verifyDomain(b.id, new Date(T0 + 3000));
      assert.deepEqual(twice.kind === 'verified' && [twice.domain.verifiedAt, twice.dropped], [
        new Date(T0 + 1000),
        [],
      ]);
    });

    it('drops every claim on a host the operator shares, which is verified at once', async () => {
      const ada = await workspace('ada@x.example');
      await claim('links.example', ada.id);
      const shared = await store.addDomain(
        { host: 'links.example', workspaceId: null, shared: true, verificationToken: 's', verified: true },
        limits(T0),
      );
      assert.ok(shared.kind === 'added');
      assert.deepEqual(
        shared.dropped.map((d) => d.workspaceId),
        [ada.id],
      );
      assert.deepEqual(await hosts(), [['links.example', null, true]]);
    });

    it('moves a verification onto the host’s code space: a removed domain’s codes stay issued', async () => {
      const [ada, bob, cyd] = [
        await workspace('ada@x.example'),
        await workspace('bob@x.example'),
        await workspace('cyd@x.example'),
      ];
      const first = await claim('go.example', ada.id);
      assert.ok((await store.verifyDomain(first.id, new Date(T0))).kind === 'verified');
      const made = await store.insertLinkWithinQuota(
        newLink(ada.id, 'https://example.com/a', { domainId: first.id, code: 'promo' }),
      );
      assert.ok(made.kind === 'created');
      assert.equal(await store.deleteLink(ada.id, first.id, 'promo'), true);
      assert.equal(await store.removeDomain(first.id), 'removed');
      await claim('go.example', bob.id);
      const c = await claim('go.example', cyd.id);
      const won = await store.verifyDomain(c.id, new Date(T0 + DAY));
      assert.ok(won.kind === 'verified');
      assert.deepEqual(
        [won.domain.id, won.domain.workspaceId, won.domain.verificationToken],
        [first.id, cyd.id, `t-${cyd.id}`],
      );
      assert.deepEqual(
        won.dropped.map((d) => d.workspaceId),
        [bob.id],
      );
      assert.equal(await store.isCodeIssued(first.id, 'promo'), true);
      assert.deepEqual(await hosts(), [['go.example', cyd.id, true]]);
    });

    it('caps a workspace’s live claims; lapsed ones count no more and free the host', async () => {
      const ada = await workspace('ada@x.example');
      await claim('one.example', ada.id, T0, 2);
      await claim('two.example', ada.id, T0 + DAY, 2);
      const third = {
        host: 'three.example',
        workspaceId: ada.id,
        shared: false,
        verificationToken: 't',
        verified: false,
      };
      assert.deepEqual(await store.addDomain(third, limits(T0 + DAY, 2)), { kind: 'too-many-pending' });
      // Seven days after the first claim it has lapsed: a third fits, and one.example may be claimed again.
      await claim('three.example', ada.id, T0 + 7 * DAY, 2);
      await claim('one.example', ada.id, T0 + 8 * DAY + 1, 3);
      assert.deepEqual(
        (await hosts()).map(([host]) => host),
        ['three.example', 'one.example'],
        'two.example lapsed too, at 8 days',
      );
    });

    it('sweeps lapsed and removed claims, never a verified domain or a row holding codes', async () => {
      const [ada, bob] = [await workspace('ada@x.example'), await workspace('bob@x.example')];
      const old = await claim('old.example', ada.id, T0);
      const gone = await claim('gone.example', ada.id, T0 + 6 * DAY);
      assert.equal(await store.removeDomain(gone.id), 'removed');
      const fresh = await claim('fresh.example', bob.id, T0 + 6 * DAY);
      const kept = await claim('kept.example', bob.id, T0);
      assert.ok((await store.verifyDomain(kept.id, new Date(T0))).kind === 'verified');
      // A claim holding a code (as one taken back before claims were kept apart could).
      const held = await claim('held.example', bob.id, T0);
      const link = newLink(bob.id, 'https://example.com/h', { domainId: held.id });
      assert.equal((await store.insertLinkWithinQuota(link)).kind, 'created');
      // Seven days after T0: the claims made at T0 have lapsed.
      const bound = new Date(T0 + 1);
      assert.equal(await store.purgeExpiredClaims(bound), 2);
      assert.deepEqual(
        (await store.listDomains()).slice(1).map((d) => d.id),
        [fresh.id, kept.id, held.id],
      );
      assert.equal(await store.purgeExpiredClaims(bound), 0);
      assert.ok(!(await store.listDomains()).some((d) => d.id === old.id));
    });

    // Twelve hosts, each raced once: two verifications at once used to deadlock on PostgreSQL now and
    // then (each locked the claim the other was about to drop).
    it('leaves exactly one verified when two workspaces verify one host at once', {
      skip: !concurrent,
    }, async () => {
      const [ada, bob] = [await workspace('ada@x.example'), await workspace('bob@x.example')];
      for (let i = 0; i < 12; i++) {
        const host = `race-${i}.example`;
        const a = await claim(host, ada.id);
        const b = await claim(host, bob.id);
        const results = await Promise.all([
          store.verifyDomain(a.id, new Date(T0)),
          store.verifyDomain(b.id, new Date(T0)),
        ]);
        // The other is refused: taken once it waited for the first, not found when it began after.
        const kinds = results.map((r) => r.kind).sort();
        assert.equal(kinds[1], 'verified', `${host}: ${kinds.join()}`);
        assert.ok(['not-found', 'taken'].includes(kinds[0] as string), `${host}: ${kinds.join()}`);
        const verified = (await hosts()).filter(([name, , isVerified]) => name === host && isVerified);
        assert.equal(verified.length, 1, host);
      }
    });
  });
}

let dir: string;
let files = 0;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'snip-claims-'));
});
after(() => {
  rmSync(dir, { recursive: true, force: true });
});

claimStoreCases(
  'on SQLite',
  async () => {
    files += 1;
    const path = join(dir, `store-${files}`, 'snip.db');
    await copyMigratedDatabase(path);
    const store = openSqliteStore(path);
    await store.migrate();
    return store;
  },
  false,
);

const databaseUrl = process.env.TEST_DATABASE_URL;
describe('on PostgreSQL', { skip: databaseUrl ? false : 'TEST_DATABASE_URL is not set' }, () => {
  const admin = databaseUrl ? postgres(databaseUrl, { max: 1, onnotice: () => {} }) : undefined;
  const schemas: string[] = [];
  after(async () => {
    for (const schema of schemas) await admin?.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin?.end({ timeout: 5 });
  });
  claimStoreCases(
    'on PostgreSQL',
    async () => {
      const schema = `snip_claims_${randomBytes(6).toString('hex')}`;
      schemas.push(schema);
      await admin?.unsafe(`CREATE SCHEMA "${schema}"`);
      const url = new URL(databaseUrl as string);
      url.searchParams.set('search_path', schema);
      const store = openPostgresStore(url.toString());
      await store.migrate();
      return store;
    },
    true,
  );
});
