import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Workspace } from '../../../src/core/entities.ts';
import { UnavailableError } from '../../../src/core/errors.ts';
import type { Store } from '../../../src/core/ports/store.ts';
import { workspaceAdmin } from '../../../src/features/workspaces/index.ts';
import { assertProblem } from '../../fixtures/api-client.ts';
import { type StripeServer, signed, startStripeServer, stripeEvent } from '../../fixtures/stripe-server.ts';
import { createJson, send, startTestApp, type TestApp } from '../../helper.ts';
import { STRIPE_SECRETS, savePlans } from './plans.ts';

/**
 * POST /webhooks/stripe (docs/api.md §17): events signed by the stripe package's own
 * generateTestHeaderString; forged, missing and stale signatures; events Snip does not act on;
 * large bodies; the same event twenty times at once; events out of order and replayed; the plan
 * following the subscription's status; a store that cannot answer.
 */

const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';

describe('POST /webhooks/stripe', () => {
  let t: TestApp;
  let stripe: StripeServer;
  let storeDown = false;
  let workspaces = 0;
  // Events of a scenario are created a few seconds apart, as Stripe stamps them.
  const start = Math.floor(Date.now() / 1000) - 3600;

  /** The app's store, its billing writes failing while `storeDown` (the test's own store unaffected). */
  const flaky = (store: Store): Store =>
    new Proxy(store, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        // Asked at each call: the app's wrappers keep the function they were first given.
        return (...args: unknown[]) =>
          property === 'applyBillingEvent' && storeDown
            ? Promise.reject(new UnavailableError('the store is down (test)'))
            : value.apply(target, args);
      },
    });

  before(async () => {
    stripe = await startStripeServer();
    t = await startTestApp({
      env: { ...STRIPE_SECRETS, STRIPE_API_BASE: stripe.url },
      storeSeenByApp: flaky,
    });
    await savePlans(t.store);
  });

  after(async () => {
    await t?.close();
    await stripe?.close();
  });

  /** A workspace of its own for each scenario, on the free plan. */
  const freshWorkspace = () => workspaceAdmin(t.store).create(`shop-${++workspaces}`, t.email, 'free');

  const deliver = (
    event: unknown,
    sign: { secret?: string; timestamp?: number; header?: string | null } = {},
  ) => {
    const payload = typeof event === 'string' ? event : JSON.stringify(event);
    const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
    const header =
      sign.header === undefined ? signed(payload, sign.secret ?? 'whsec_test', sign.timestamp) : sign.header;
    if (header !== null) headers['stripe-signature'] = header;
    return send(t.app, { method: 'POST', url: '/webhooks/stripe', headers, payload });
  };

  const completed = (ws: Workspace, plan: string, created: number, id?: string) =>
    stripeEvent(
      'checkout.session.completed',
      {
        id: `cs_${ws.slug}`,
        object: 'checkout.session',
        mode: 'subscription',
        status: 'complete',
        payment_status: 'paid',
        client_reference_id: String(ws.id),
        customer: `cus_${ws.slug}`,
        subscription: `sub_${ws.slug}`,
        metadata: { workspace_id: String(ws.id), plan },
      },
      { created, id },
    );

  const subscription = (
    type: string,
    ws: Workspace,
    price: string,
    status: string,
    created: number,
    extra = {},
  ) =>
    stripeEvent(
      `customer.subscription.${type}`,
      {
        id: `sub_${ws.slug}`,
        object: 'subscription',
        customer: `cus_${ws.slug}`,
        status,
        cancel_at_period_end: false,
        metadata: { workspace_id: String(ws.id) },
        items: { object: 'list', data: [{ id: 'si_1', price: { id: price } }] },
        ...extra,
      },
      { created },
    );

  const planOf = async (ws: Workspace) => (await t.store.findWorkspaceById(ws.id))?.plan.name;
  const planAudits = async (ws: Workspace) =>
    (await t.store.listAudit({ workspaceId: ws.id, limit: 100 })).filter(
      (e) => e.action === 'workspace.plan',
    );

  it('applies a signed checkout.session.completed: the plan, the customer, the subscription, an audit entry', async () => {
    const ws = await freshWorkspace();
    const answer = await deliver(completed(ws, 'pro', start));
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, { received: true, result: 'applied' });
    assert.equal(await planOf(ws), 'pro');
    assert.deepEqual(await t.store.billingOf(ws.id), {
      customerId: `cus_${ws.slug}`,
      subscriptionId: `sub_${ws.slug}`,
      status: 'active',
    });
    const [audit] = await planAudits(ws);
    assert.deepEqual([audit?.actor, audit?.before, audit?.after?.plan], ['stripe', { plan: 'free' }, 'pro']);
  });

  it('refuses a forged, a missing and a stale signature, and a changed body, with 400, changing nothing', async () => {
    const ws = await freshWorkspace();
    const event = completed(ws, 'pro', start);
    const now = Math.floor(Date.now() / 1000);
    const refusals = [
      await deliver(event, { secret: 'whsec_someone_else' }),
      await deliver(event, { header: null }),
      await deliver(event, { header: 't=1,v1=00' }),
      await deliver(event, { timestamp: now - 600 }),
      await deliver(event, { header: signed(JSON.stringify({ ...event, id: 'evt_other' }), 'whsec_test') }),
    ];
    for (const refused of refusals)
      assert.deepEqual([refused.status, refused.body.error], [400, 'signature-invalid']);
    assert.equal(await planOf(ws), 'free');
    // None of them was recorded: the genuine event still applies.
    assert.equal((await deliver(event)).body.result, 'applied');
  });

  it('answers 200 to unknown types, workspaces and prices, changing nothing, a replay staying ignored', async () => {
    const ws = await freshWorkspace();
    const unknownType = stripeEvent('invoice.paid', {
      id: 'in_1',
      object: 'invoice',
      customer: `cus_${ws.slug}`,
    });
    assert.deepEqual((await deliver(unknownType)).body, {
      received: true,
      ignored: 'event type not handled',
    });
    const nobody = completed({ ...ws, id: 987_654, slug: 'nobody' }, 'pro', start);
    assert.deepEqual((await deliver(nobody)).body, { received: true, ignored: 'unknown workspace' });
    const unknownPrice = subscription('updated', ws, 'price_unknown', 'active', start);
    for (let i = 0; i < 2; i++) {
      const answer = await deliver(unknownPrice);
      assert.deepEqual([answer.status, answer.body.ignored], [200, 'unknown price']);
    }
    const unknownPlan = completed(ws, 'platinum', start);
    assert.equal((await deliver(unknownPlan)).body.ignored, 'unknown plan');
    assert.equal(await planOf(ws), 'free');
    assert.equal((await planAudits(ws)).length, 0);
  });

  it('takes a body of 1 MB, refuses a larger one with 413 and a signed body that is not an event with 400', async () => {
    const big = stripeEvent('invoice.paid', { id: 'in_2', object: 'invoice', memo: 'x'.repeat(1_000_000) });
    const taken = await deliver(big);
    assert.deepEqual([taken.status, taken.body.ignored], [200, 'event type not handled']);
    const huge = await deliver({ ...big, data: { object: { memo: 'x'.repeat(2_000_000) } } });
    assert.deepEqual([huge.status, huge.body.error], [413, 'body-too-large']);
    for (const body of ['not json', '{"id":"evt_x"}', '[]']) {
      const refused = await deliver(body);
      assert.deepEqual([refused.status, refused.body.error], [400, 'signature-invalid']);
    }
  });

  it('changes the plan once when the same event arrives twenty times at once', async () => {
    const ws = await freshWorkspace();
    const event = completed(ws, 'pro', start);
    const answers = await Promise.all(Array.from({ length: 20 }, () => deliver(event)));
    assert.deepEqual(
      answers.map((a) => a.status),
      answers.map(() => 200),
    );
    const results = answers.map((a) => a.body.result).sort();
    assert.deepEqual(results, ['applied', ...Array.from({ length: 19 }, () => 'duplicate')]);
    assert.equal(await planOf(ws), 'pro');
    assert.equal((await planAudits(ws)).length, 1);
  });

  it('keeps the free plan when a deleted arrives before the updated it followed', async () => {
    const ws = await freshWorkspace();
    await deliver(completed(ws, 'pro', start));
    const deleted = await deliver(subscription('deleted', ws, 'price_pro', 'canceled', start + 20));
    assert.equal(deleted.body.result, 'applied');
    assert.equal(await planOf(ws), 'free');
    const late = await deliver(subscription('updated', ws, 'price_pro', 'active', start + 10));
    assert.deepEqual([late.status, late.body.result], [200, 'stale']);
    // Of the same second, the deleted is the more final.
    const sameSecond = await deliver(subscription('updated', ws, 'price_pro', 'active', start + 20));
    assert.equal(sameSecond.body.result, 'stale');
    assert.equal(await planOf(ws), 'free');
    assert.equal((await t.store.billingOf(ws.id))?.status, 'canceled');
  });

  it('changes nothing on a completed replayed after deleted, nor on an older completed', async () => {
    const ws = await freshWorkspace();
    const checkout = completed(ws, 'pro', start);
    await deliver(checkout);
    await deliver(subscription('deleted', ws, 'price_pro', 'canceled', start + 10));
    assert.equal((await deliver(checkout)).body.result, 'duplicate');
    assert.equal((await deliver(completed(ws, 'pro', start + 5))).body.result, 'stale');
    assert.equal(await planOf(ws), 'free');
    // A new subscription later is a new purchase.
    assert.equal((await deliver(completed(ws, 'starter', start + 60))).body.result, 'applied');
    assert.equal(await planOf(ws), 'starter');
  });

  it("follows the subscription's status and price", async () => {
    const ws = await freshWorkspace();
    let at = start;
    const update = async (status: string, price = 'price_pro', extra = {}) => {
      at += 10;
      const answer = await deliver(subscription('updated', ws, price, status, at, extra));
      assert.equal(answer.body.result, 'applied');
      return planOf(ws);
    };
    assert.equal(
      (await deliver(subscription('created', ws, 'price_pro', 'active', at))).body.result,
      'applied',
    );
    assert.equal(await planOf(ws), 'pro');
    assert.equal(await update('past_due'), 'pro', 'past due: the plan stays while Stripe retries');
    assert.equal((await t.store.billingOf(ws.id))?.status, 'past_due');
    assert.equal(await update('active', 'price_pro', { cancel_at_period_end: true }), 'pro');
    assert.equal(await update('unpaid'), 'free');
    assert.equal(await update('trialing', 'price_starter'), 'starter');
    assert.equal(await update('active', 'price_pro'), 'pro');
    assert.equal(await update('canceled'), 'free');
  });

  it('waits for a delayed payment before granting the plan, and ignores sessions of another mode', async () => {
    const ws = await freshWorkspace();
    const session = completed(ws, 'pro', start);
    const unpaid = { ...session, data: { object: { ...session.data.object, payment_status: 'unpaid' } } };
    assert.equal((await deliver(unpaid)).body.result, 'applied');
    assert.deepEqual([await planOf(ws), (await t.store.billingOf(ws.id))?.status], ['free', 'incomplete']);
    const paid = {
      ...unpaid,
      id: `${unpaid.id}_paid`,
      type: 'checkout.session.async_payment_succeeded',
      created: start + 5,
    };
    assert.equal((await deliver(paid)).body.result, 'applied');
    assert.equal(await planOf(ws), 'pro');
    const other = await freshWorkspace();
    const oneOff = completed(other, 'pro', start);
    const payment = { ...oneOff, data: { object: { ...oneOff.data.object, mode: 'payment' } } };
    assert.equal((await deliver(payment)).body.ignored, 'event type not handled');
    assert.equal(await planOf(other), 'free');
  });

  it('answers 503 while the store cannot answer, and applies the event Stripe sends again', async () => {
    const ws = await freshWorkspace();
    const event = completed(ws, 'pro', start);
    storeDown = true;
    try {
      const refused = await deliver(event);
      assert.equal(refused.status, 503);
      assert.ok(Number(refused.headers['retry-after']) > 0);
    } finally {
      storeDown = false;
    }
    assert.equal(await planOf(ws), 'free');
    assert.equal((await deliver(event)).body.result, 'applied');
    assert.equal(await planOf(ws), 'pro');
  });

  it('keeps every link on a downgrade: they redirect and count, new links answer 304; keys 303 without API access', async () => {
    const account = await t.store.findAccountByEmail(t.email);
    assert.ok(account);
    const ws = account.workspace;
    let at = start;
    assert.equal((await deliver(completed(ws, 'pro', at))).body.result, 'applied');
    const codes: string[] = [];
    for (let i = 0; i < 5; i++) {
      const made = await createJson(t.app, t.apiKey, { url: `https://example.com/kept/${i}` });
      assert.equal(made.status, 201);
      codes.push(new URL(String(made.body.short_url)).pathname.slice(1));
    }
    // Down to starter: three links allowed, five held.
    at += 10;
    assert.equal(
      (await deliver(subscription('updated', ws, 'price_starter', 'active', at))).body.result,
      'applied',
    );
    const full = await createJson(t.app, t.apiKey, { url: 'https://example.com/one-too-many' });
    assert.deepEqual([full.status, full.body.error], [403, '304']);
    for (const [i, code] of codes.entries()) {
      const click = await t.app.inject({
        method: 'GET',
        url: `/${code}`,
        headers: { 'user-agent': BROWSER },
      });
      assert.equal(click.headers.location, `https://example.com/kept/${i}`);
    }
    await t.app.clicks.flush();
    for (const code of codes) assert.equal((await t.store.findLinkByCode(0, code))?.clicks, 1);
    // Cancelled: the free plan has no API access, so the key answers 303 — until a plan with it returns.
    at += 10;
    assert.equal(
      (await deliver(subscription('deleted', ws, 'price_starter', 'canceled', at))).body.result,
      'applied',
    );
    const refused = await createJson(t.app, t.apiKey, { url: 'https://example.com/after' });
    assert.equal(refused.body.error, '303');
    const listed = await send(t.app, {
      method: 'GET',
      url: '/api/v1/links',
      headers: { 'x-api-key': t.apiKey },
    });
    assertProblem(listed, 401, '303');
    assert.equal(await t.store.countLiveLinks(ws.id), 5);
    at += 10;
    assert.equal((await deliver(completed(ws, 'pro', at, `evt_again_${at}`))).body.result, 'applied');
    const back = await createJson(t.app, t.apiKey, { url: 'https://example.com/after' });
    assert.equal(back.status, 201);
  });

  it('answers 404 on its other methods and keeps its answers JSON', async () => {
    const answer = await send(t.app, { method: 'GET', url: '/webhooks/stripe' });
    assert.equal(answer.status, 404);
    const nul = await send(t.app, {
      method: 'POST',
      url: '/webhooks/stripe?x=%00',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=0' },
      payload: '{}',
    });
    assert.deepEqual([nul.status, nul.body.error], [400, 'bad-request']);
  });
});
