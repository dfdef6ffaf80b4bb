import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertProblem, callApi, keyWithScopes } from '../../fixtures/api-client.ts';
import { STORES } from '../../fixtures/stores.ts';
import { type Receiver, startReceiver } from '../../fixtures/webhook-receiver.ts';
import { send, type TestApp } from '../../helper.ts';
import { startTargetSite } from './target-site.ts';

/**
 * Link health (docs/api.md §21): each live link's targets checked again every round by the
 * create's inspector; two failures in a row make it broken (it keeps redirecting), the first
 * success makes it ok; link.broken and link.recovered; the list's state=broken; a check asked for
 * now through the API.
 */

const ROUND = 25 * 3600_000;
type Health = {
  state: string;
  code: string | null;
  status: number | null;
  checked_at: string | null;
  since: string | null;
};

for (const kind of STORES) {
  describe(`link health on ${kind.name}`, { skip: kind.skip }, () => {
    let t: TestApp;
    let receiver: Receiver;
    let site: Awaited<ReturnType<typeof startTargetSite>>;
    let clock = Date.now();
    let n = 0;

    before(async () => {
      receiver = await startReceiver();
      site = await startTargetSite();
      t = await kind.start({
        now: () => clock,
        inspector: site.inspector,
        env: { ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_RETRY_BASE_MS: '20', LINK_CHECKS_PER_MINUTE: '600' },
      });
      const hook = await callApi(t.app, 'POST', '/webhooks', {
        key: t.apiKey,
        body: { url: receiver.url, events: ['link.broken', 'link.recovered'] },
      });
      assert.equal(hook.status, 201, JSON.stringify(hook.body));
    });
    after(async () => {
      await t?.close();
      await site?.close();
      await receiver?.close();
    });

    const api = (method: 'GET' | 'POST', path: string, key = t.apiKey) =>
      callApi(t.app, method, path, { key });
    const healthOf = async (code: string) => (await api('GET', `/links/${code}`)).body.health as Health;
    /** A link to a host of its own: the pacing of one host never holds another test up. */
    async function made(): Promise<string> {
      const answer = await callApi(t.app, 'POST', '/links', {
        key: t.apiKey,
        body: { url: site.url(`site-${++n}`) },
      });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      return answer.body.short_code as string;
    }
    /** A round: new links placed, then the clock past the period, the due ones checked. */
    async function round(): Promise<void> {
      await t.app.linkHealth.runOnce();
      clock += ROUND;
      await t.app.linkHealth.runOnce();
    }
    const heard = (type: string, code: string) =>
      receiver
        .ofType(type)
        .some((one) => (one.event.data.link as { short_code: string }).short_code === code);

    it('starts unknown, breaks after two failures in a row, keeps redirecting, and recovers at once', async () => {
      const code = await made();
      assert.equal((await healthOf(code)).state, 'unknown');
      await round();
      const ok = await healthOf(code);
      assert.deepEqual([ok.state, ok.code, ok.status], ['ok', null, 200]);

      site.state.broken = true;
      await round();
      const once = await healthOf(code);
      assert.deepEqual([once.state, once.code, once.status], ['ok', '307', 404], 'one failure is not enough');
      await round();
      const broken = await healthOf(code);
      assert.deepEqual([broken.state, broken.code, broken.status], ['broken', '307', 404]);
      assert.equal(broken.since, broken.checked_at, 'the change keeps its time');
      assert.equal((await send(t.app, { method: 'GET', url: `/${code}` })).status, 302, 'still redirects');
      // Its click written now: a flush holds the link's row while it writes, and a round's claim on
      // PostgreSQL passes over a locked row (SKIP LOCKED) to the next poll.
      await t.app.clicks.flush();
      const listed = (await api('GET', '/links?state=broken')).body.items as Array<{ short_code: string }>;
      assert.ok(
        listed.some((link) => link.short_code === code),
        'state=broken lists it',
      );
      const stored = await t.store.findLinkByCode(0, code);
      assert.equal(
        (await t.store.brokenLinksPerWorkspace()).get(stored?.workspaceId ?? -1),
        1,
        "the console's count",
      );
      await receiver.until(() => heard('link.broken', code));
      const metrics = String((await send(t.app, { method: 'GET', url: '/metrics' })).body.raw);
      assert.match(metrics, /^snip_link_checks_total\{outcome="307"\} [1-9]/m, 'checks per outcome');
      assert.match(metrics, /^snip_link_checks_total\{outcome="ok"\} [1-9]/m);
      assert.match(metrics, /^snip_link_check_queue 0$/m, 'nothing left waiting');
      // As of the latest poll, whose claimed links had waited since their time a round ago.
      assert.match(metrics, /^snip_link_check_oldest_due_seconds \d+/m, 'the oldest unchecked link');

      site.state.broken = false;
      await round();
      assert.equal((await healthOf(code)).state, 'ok', 'the first success');
      const after = (await api('GET', '/links?state=broken')).body.items as Array<{ short_code: string }>;
      assert.ok(!after.some((link) => link.short_code === code));
      await receiver.until(() => heard('link.recovered', code));
      // One event, however many times it was delivered (at least once: a retry keeps its webhook-id).
      const brokenIds = receiver
        .ofType('link.broken')
        .filter((one) => (one.event.data.link as { short_code: string }).short_code === code)
        .map((one) => one.headers['webhook-id']);
      assert.equal(new Set(brokenIds).size, 1, 'one link.broken');
    });

    it('checks now on POST /links/{code}/check; 404 314 for an unknown code, 403 315 without links:write', async () => {
      const code = await made();
      site.state.broken = true;
      try {
        const checked = await api('POST', `/links/${code}/check`);
        assert.equal(checked.status, 200, JSON.stringify(checked.body));
        const health = checked.body.health as Health;
        assert.deepEqual([health.state, health.code, health.status], ['unknown', '307', 404]);
        assert.equal(((await api('POST', `/links/${code}/check`)).body.health as Health).state, 'broken');
        // A new target is unknown until checked, and checked at the next look, not a round later.
        site.state.broken = false;
        const moved = await callApi(t.app, 'PATCH', `/links/${code}`, {
          key: t.apiKey,
          body: { url: site.url(`site-${++n}`) },
        });
        assert.equal(moved.status, 200, JSON.stringify(moved.body));
        assert.equal((moved.body.health as Health).state, 'unknown');
        await t.app.linkHealth.runOnce();
        assert.equal((await healthOf(code)).state, 'ok');
      } finally {
        site.state.broken = false;
      }
      assertProblem(await api('POST', '/links/nosuchcode/check'), 404, '314');
      const reader = await keyWithScopes(t.store, t.email, ['links:read'], 'reader');
      assertProblem(await api('POST', `/links/${code}/check`, reader), 403, '315');
      assertProblem(await api('POST', `/links/${code}/check?domain=nowhere.example`), 400, '317');
    });
  });
}
