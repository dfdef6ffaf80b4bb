/**
 * The store's part of accounts people trust (docs/api.md §22), on SQLite always and on PostgreSQL
 * when TEST_DATABASE_URL is set: a time step taken once and never an earlier one, recovery codes
 * used once, a change of email taken once and never onto an address another user has, a session's
 * families and last-seen time listed and one session ended only for its user.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { Store } from '../../../src/core/ports/store.ts';
import { givenAccount, planInput } from './store-contract.ts';
import { onBothStores, type StoreHarness } from './store-harness.ts';

const hash = (text: string) => createHash('sha256').update(text).digest();
const DAY = 86_400_000;

onBothStores('snip-trust-', (name, open) => {
  describe(`${name} two-factor, sessions and email change`, () => {
    let harness: StoreHarness;
    let store: Store;
    let ada: number;
    let bob: number;
    beforeEach(async () => {
      harness = await open();
      store = harness.store;
      const plan = await store.upsertPlan(planInput());
      await givenAccount(store, 'ada@example.com', plan);
      await givenAccount(store, 'bob@example.com', plan);
      ada = (await store.findUserByEmail('ada@example.com'))?.id ?? 0;
      bob = (await store.findUserByEmail('bob@example.com'))?.id ?? 0;
    });
    afterEach(() => harness.close());

    it('takes each time step once and never an earlier one; recovery codes once; off clears all', async () => {
      assert.equal(await store.takeTotpStep(ada, 10), false, 'nothing to take while it is off');
      await store.enableTwoFactor(ada, 'sealed', 10, ['h1', 'h2']);
      assert.equal((await store.findUserById(ada))?.twoFactor, true);
      assert.deepEqual(await store.twoFactorOf(ada), { sealedSecret: 'sealed', lastStep: 10 });
      assert.equal(await store.takeTotpStep(ada, 10), false);
      assert.equal(await store.takeTotpStep(ada, 12), true);
      assert.equal(await store.takeTotpStep(ada, 11), false);
      assert.equal(await store.takeRecoveryCode(ada, 'h1', 1), true);
      assert.equal(await store.takeRecoveryCode(ada, 'h1', 2), false);
      assert.equal(await store.takeRecoveryCode(bob, 'h2', 2), false, 'another person’s code');
      assert.equal(await store.recoveryCodesLeft(ada), 1);
      assert.equal(await store.disableTwoFactor(ada), true);
      assert.equal(await store.disableTwoFactor(ada), false);
      assert.equal(await store.twoFactorOf(ada), undefined);
      assert.equal(await store.recoveryCodesLeft(ada), 0);
    });

    it('takes a change of email once, never onto a taken address, and a new password ends it', async () => {
      const later = new Date(Date.now() + DAY);
      await store.createEmailChange(hash('a'), ada, 'bob@example.com', later);
      assert.deepEqual(await store.takeEmailChange(hash('a'), new Date()), { kind: 'email-taken' });
      await store.createEmailChange(hash('b'), ada, 'Ada.New@example.com', later);
      assert.equal(await store.emailChangeLive(hash('b'), new Date()), true);
      const changed = await store.takeEmailChange(hash('b'), new Date());
      assert.deepEqual(changed, {
        kind: 'changed',
        userId: ada,
        oldEmail: 'ada@example.com',
        newEmail: 'ada.new@example.com',
      });
      assert.equal((await store.findUserById(ada))?.emailVerified, true);
      assert.deepEqual(await store.takeEmailChange(hash('b'), new Date()), { kind: 'gone' });
      assert.deepEqual(
        await store.takeEmailChange(hash('a'), new Date()),
        { kind: 'gone' },
        'the others end',
      );
      await store.createEmailChange(hash('c'), bob, 'bob.new@example.com', later);
      await store.setPasswordHash(bob, 'scrypt$1$1$1$x$y');
      assert.equal(await store.emailChangeLive(hash('c'), new Date()), false);
      await store.createEmailChange(hash('d'), bob, 'bob.late@example.com', new Date(Date.now() - 1));
      assert.deepEqual(await store.takeEmailChange(hash('d'), new Date()), { kind: 'gone' }, 'expired');
    });

    it('lists sessions with their families and last-seen time, and ends one only for its user', async () => {
      const expiresAt = new Date(Date.now() + DAY);
      await store.createSession(hash('s1'), {
        userId: ada,
        csrfToken: 't',
        expiresAt,
        agent: 'Firefox on Linux',
      });
      await store.createSession(hash('s2'), { userId: ada, csrfToken: 't', expiresAt });
      const seen = new Date(Date.now() + 60_000);
      await store.touchSession(hash('s1'), seen);
      const listed = await store.listSessionsOfUser(ada, new Date());
      assert.equal(listed.length, 2);
      const first = listed.find((session) => session.idHash.equals(hash('s1')));
      assert.equal(first?.agent, 'Firefox on Linux');
      assert.equal(first?.lastSeenAt.getTime(), seen.getTime());
      assert.equal((await store.findSession(hash('s1'), new Date()))?.lastSeenAt?.getTime(), seen.getTime());
      assert.equal(await store.deleteSessionOfUser(bob, hash('s1')), false);
      assert.equal(await store.deleteSessionOfUser(ada, hash('s1')), true);
      assert.equal((await store.listSessionsOfUser(ada, new Date())).length, 1);
    });
  });
});
