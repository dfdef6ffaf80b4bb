import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openStore } from '../../../src/adapters/open-store.ts';
import type { HealthStore } from '../../../src/core/ports/health-store.ts';
import type { Store } from '../../../src/core/ports/store.ts';
import { hostPacer } from '../../../src/features/health/host-pacer.ts';
import { healthScheduler } from '../../../src/features/health/scheduler.ts';
import { callApi } from '../../fixtures/api-client.ts';
import { STORES } from '../../fixtures/stores.ts';
import type { TestApp } from '../../helper.ts';

/**
 * A fleet (docs/api.md §21): two instances, each with its own connections to one store, poll at
 * once; each due link is claimed by one of them (a lease on its row), so each is checked once a round.
 */

const DAY = 24 * 3600_000;
const LINKS = 40;

for (const kind of STORES) {
  describe(`link checks by two instances on ${kind.name}`, { skip: kind.skip }, () => {
    let t: TestApp;
    let second: Store;
    let clock = Date.now();

    before(async () => {
      t = await kind.start({ now: () => clock });
      second = await openStore(t.config.databaseUrl, { prepare: false });
      for (let i = 0; i < LINKS; i++) {
        const made = await callApi(t.app, 'POST', '/links', {
          key: t.apiKey,
          body: { url: `https://site-${i}.example/page` },
        });
        assert.equal(made.status, 201);
      }
    });
    after(async () => {
      await second?.close();
      await t?.close();
    });

    const fetched = new Map<string, number>();
    const instance = (store: HealthStore, timer = { pollMs: 10_000, perMinute: 6_000 }) =>
      healthScheduler({
        store,
        inspector: {
          inspect: async (url) => {
            fetched.set(url.href, (fetched.get(url.href) ?? 0) + 1);
            // A little time on the wire, so the two instances' checks overlap.
            await new Promise((resolve) => setTimeout(resolve, 2));
            return { ok: true, title: '', finalUrl: url.href, status: 200 };
          },
          close: async () => {},
        },
        isSocial: () => false,
        isBlocked: () => false,
        pacer: hostPacer({ now: () => clock, wait: async () => {} }),
        now: () => clock,
        periodMs: DAY,
        ...timer,
        onError: (error) => {
          throw error;
        },
      });

    it('checks each link once a round, whichever instance claims it', async () => {
      const [a, b] = [instance(t.store), instance(second)];
      await Promise.all([a.runOnce(), b.runOnce()]);
      assert.equal(fetched.size, 0, 'placed in the round, none due yet');
      clock += DAY + 60_000;
      const claimed = await Promise.all([a.runOnce(), b.runOnce()]);
      assert.equal(
        claimed.reduce((sum, n) => sum + n, 0),
        LINKS,
      );
      assert.equal(fetched.size, LINKS);
      assert.ok(
        [...fetched.values()].every((n) => n === 1),
        'no link checked twice',
      );
      assert.deepEqual(
        await Promise.all([a.runOnce(), b.runOnce()]),
        [0, 0],
        'none due until the next round',
      );
    });

    it("polls as of now when asked while the timer's poll is under way", async () => {
      // The timer's first poll is held in its first query, as of the clock before the round.
      let entered!: () => void;
      let release!: () => void;
      const inTimerPoll = new Promise<void>((resolve) => {
        entered = resolve;
      });
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let first = true;
      const slow: HealthStore = new Proxy(t.store, {
        get(target, key) {
          const value = Reflect.get(target, key);
          if (typeof value !== 'function') return value;
          if (key !== 'placeLinksForChecks') return value.bind(target);
          return async (...args: Parameters<HealthStore['placeLinksForChecks']>) => {
            if (first) {
              first = false;
              entered();
              await held;
            }
            return target.placeLinksForChecks(...args);
          };
        },
      });
      const timed = instance(slow, { pollMs: 50, perMinute: 60_000 });
      timed.start();
      try {
        await inTimerPoll;
        clock += DAY + 60_000;
        fetched.clear();
        const asked = timed.runOnce();
        release();
        assert.equal(await asked, LINKS, 'every link due now claimed');
        assert.equal(fetched.size, LINKS, 'and checked before it answers');
      } finally {
        release();
        await timed.stop();
      }
    });
  });
}
