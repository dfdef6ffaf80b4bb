import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { abTestScheduler } from '../../../src/features/links/ab-tests.ts';
import { callApi } from '../../fixtures/api-client.ts';
import { STORES } from '../../fixtures/stores.ts';
import { type Receiver, startReceiver } from '../../fixtures/webhook-receiver.ts';
import { send, type TestApp } from '../../helper.ts';

/**
 * The end of an A/B test (docs/api.md §20.x): at test_ends_at the winner becomes the link's url,
 * the variants are cleared, link.updated is sent and the audit log records it; each ended test is
 * applied by one scheduler only (a lease in the store).
 */

const HOUR = 3600_000;
const agent = (i: number) => `Mozilla/5.0 (X11; Linux x86_64) Chrome/141.0.${i} Safari/537.36`;
const A = 'https://a.example/offer';
/** Each test's B of its own, by its link's code: a second live link to one URL would be a duplicate. */
const bOf = new Map<string, string>();
const B = (code: string) => bOf.get(code);

for (const kind of STORES) {
  describe(`the end of an A/B test on ${kind.name}`, { skip: kind.skip }, () => {
    let t: TestApp;
    let receiver: Receiver;
    // Near the real time: the outbox's deliveries are made due by the wall clock.
    let clock = Date.now();
    let n = 0;

    before(async () => {
      receiver = await startReceiver();
      t = await kind.start({
        now: () => clock,
        env: { ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_RETRY_BASE_MS: '20', CLICK_FLUSH_MS: '60000' },
      });
      const hook = await callApi(t.app, 'POST', '/webhooks', {
        key: t.apiKey,
        body: { url: receiver.url, events: ['link.updated'] },
      });
      assert.equal(hook.status, 201, JSON.stringify(hook.body));
    });
    after(async () => {
      await t?.close();
      await receiver?.close();
    });

    /** A link testing A (10 %) against B (90 %), ending in an hour, clicked by 200 visitors. */
    async function clickedTest(b = `https://b.example/offer-${n + 1}`): Promise<string> {
      const made = await callApi(t.app, 'POST', '/links', {
        key: t.apiKey,
        body: {
          url: `https://example.com/test-${++n}`,
          variants: [
            { url: A, weight: 10 },
            { url: b, weight: 90 },
          ],
          test_ends_at: new Date(clock + HOUR).toISOString(),
        },
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      const code = made.body.short_code as string;
      bOf.set(code, b);
      for (let i = 0; i < 200; i++) {
        await send(t.app, { method: 'GET', url: `/${code}`, headers: { 'user-agent': agent(i) } });
      }
      await t.app.clicks.flush();
      return code;
    }
    const read = async (code: string) =>
      (await callApi(t.app, 'GET', `/links/${code}`, { key: t.apiKey })).body;

    it('ranks by leads per click before clicks: the variant that brought the leads wins', async () => {
      const code = await clickedTest();
      const stored = await t.store.findLinkByCode(0, code);
      assert.ok(stored);
      // Three leads of clicks sent to A (variant 1), the variant with the fewer clicks; no sale.
      const day = new Date(clock).toISOString().slice(0, 10);
      const clicks = [1, 2, 3].map((i) => ({
        clickId: `lead-click-${code}-${i}`.padEnd(24, 'x'),
        workspaceId: stored.workspaceId,
        linkId: stored.id,
        variant: '1',
        day,
        facts: null,
      }));
      await t.store.addConversionClicks(clicks);
      for (const [i, click] of clicks.entries()) {
        const lead = await t.store.recordLead(
          {
            workspaceId: stored.workspaceId,
            clickId: click.clickId,
            eventName: 'signup',
            customerKey: `k${i}`,
            at: clock,
          },
          day,
        );
        assert.equal(lead.kind, 'recorded');
      }
      clock += 2 * HOUR;
      assert.equal(await t.app.abTests.runOnce(), 1);
      assert.equal((await read(code)).long_url, A, 'A: fewer clicks, all the leads');
    });

    it('leaves a running test alone, and applies the winner once its end has come', async () => {
      const code = await clickedTest();
      assert.equal(await t.app.abTests.runOnce(), 0, 'not yet ended');
      clock += 2 * HOUR;
      assert.equal(await t.app.abTests.runOnce(), 1);
      const link = await read(code);
      assert.equal(link.long_url, B(code), 'the variant with the most clicks (no leads yet)');
      assert.deepEqual(link.variants, []);
      assert.equal(link.test_ends_at, null);
      assert.equal(await t.app.abTests.runOnce(), 0, 'applied once');
      const redirect = await send(t.app, {
        method: 'GET',
        url: `/${code}`,
        headers: { 'user-agent': agent(1) },
      });
      assert.equal(redirect.headers.location, B(code), 'the cached link is forgotten');

      await receiver.until(() =>
        receiver
          .ofType('link.updated')
          .some((one) => (one.event.data.link as { short_code: string }).short_code === code),
      );
      const sent = receiver
        .ofType('link.updated')
        .find((one) => (one.event.data.link as { short_code: string }).short_code === code);
      assert.equal((sent?.event.data.link as { long_url?: string } | undefined)?.long_url, B(code));

      const stored = await t.store.findLinkByCode(0, code);
      const audit = await t.store.listAudit({ workspaceId: stored?.workspaceId, limit: 20 });
      const entry = audit.find((one) => one.action === 'link.test-ended' && one.target === code);
      assert.ok(entry, 'the audit log records it');
      assert.equal(entry.after?.url, B(code));
      assert.equal(entry.actorId, null);
    });

    it('lets one of two schedulers apply an ended test, the other only after its lease', async () => {
      const first = await clickedTest();
      const second = await clickedTest();
      clock += 2 * HOUR;
      const deps = {
        store: t.store,
        linkEvents: { changed: async () => {} },
        audit: async () => {},
        now: () => clock,
        onError: (error: unknown) => {
          throw error;
        },
        leaseMs: 60_000,
      };
      const one = abTestScheduler(deps);
      const two = abTestScheduler(deps);
      const [a, b] = await Promise.all([one.runOnce(), two.runOnce()]);
      assert.equal(a + b, 2, 'each ended test once');
      assert.equal((await read(first)).long_url, B(first));
      assert.equal((await read(second)).long_url, B(second));

      // A claim held by an instance that died: nobody else takes it until the lease runs out.
      const third = await clickedTest();
      clock += 2 * HOUR;
      const held = await t.store.claimEndedTests(clock, 10, 60_000);
      assert.deepEqual(
        held.map((link) => link.code),
        [third],
      );
      assert.equal(await two.runOnce(), 0, 'leased to another');
      clock += 61_000;
      assert.equal(await two.runOnce(), 1, 'taken again once the lease has run out');
      assert.equal((await read(third)).long_url, B(third));
    });

    it('frees the lease when the owner changes the test, and keeps the change', async () => {
      const code = await clickedTest();
      clock += 2 * HOUR;
      assert.equal((await t.store.claimEndedTests(clock, 10, 60_000)).length, 1);
      const later = new Date(clock + HOUR).toISOString();
      const patched = await callApi(t.app, 'PATCH', `/links/${code}`, {
        key: t.apiKey,
        body: { test_ends_at: later },
      });
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      assert.equal(await t.app.abTests.runOnce(), 0, 'the test runs on');
      clock += 2 * HOUR;
      assert.equal(await t.app.abTests.runOnce(), 1, 'the new end is kept, its lease free');
      assert.equal((await read(code)).long_url, B(code));
    });

    it('ends a test whose winner another live link already has, keeping its url', async () => {
      const taken = `https://b.example/taken-${n}`;
      const holder = await callApi(t.app, 'POST', '/links', { key: t.apiKey, body: { url: taken } });
      assert.equal(holder.status, 201);
      const code = await clickedTest(taken);
      const before = (await read(code)).long_url;
      clock += 2 * HOUR;
      assert.equal(await t.app.abTests.runOnce(), 1);
      const link = await read(code);
      assert.equal(link.long_url, before);
      assert.deepEqual(link.variants, []);
    });
  });
}
