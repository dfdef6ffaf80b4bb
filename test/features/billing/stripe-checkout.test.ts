import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Workspace } from '../../../src/core/entities.ts';
import { workspaceAdmin } from '../../../src/features/workspaces/index.ts';
import { membersService } from '../../../src/features/workspaces/members.ts';
import { attribute, PageClient } from '../../fixtures/page-client.ts';
import { type StripeServer, startStripeServer } from '../../fixtures/stripe-server.ts';
import { startTestApp, type TestApp } from '../../helper.ts';
import { STRIPE_SECRETS, savePlans } from './plans.ts';

/**
 * Settings → Billing with Stripe (docs/api.md §17), the stripe package pointed at a Stripe-like
 * server on loopback: owners see the plan and the plans, open Checkout (subscription mode, one
 * customer per workspace, the workspace as client_reference_id) and the portal; admins and
 * members are refused; Stripe refusing is a 502 page and buys nothing.
 */

const PASSWORD = 'correct horse battery';

describe('Settings → Billing with Stripe', () => {
  let t: TestApp;
  let stripe: StripeServer;
  let olga: PageClient;
  let acme: Workspace;

  before(async () => {
    stripe = await startStripeServer();
    t = await startTestApp({ env: { ...STRIPE_SECRETS, STRIPE_API_BASE: stripe.url } });
    await savePlans(t.store);
    for (const email of ['olga@example.com', 'mia@example.com', 'max@example.com'])
      await t.ops.createAccount(email, 'free', PASSWORD);
    acme = await workspaceAdmin(t.store).create('acme', 'olga@example.com', 'free', 'Acme');
    await membersService(t.store).add(acme, 'mia@example.com', 'admin');
    await membersService(t.store).add(acme, 'max@example.com', 'member');
    olga = new PageClient(t.app);
    assert.equal((await olga.signIn('olga@example.com', PASSWORD)).statusCode, 303);
  });

  after(async () => {
    await t?.close();
    await stripe?.close();
  });

  it('shows an owner the plan, its usage and the public plans, an Upgrade button on each Stripe sells', async () => {
    const page = await olga.open('/w/acme/billing');
    assert.equal(page.statusCode, 200);
    assert.equal(attribute(page.body, 'data-plan'), 'free');
    assert.match(page.body, /data-usage="links">0 /);
    for (const plan of ['starter', 'pro'])
      assert.match(
        page.body,
        new RegExp(`name="plan" value="${plan}"><button type="submit" data-action="checkout">`),
      );
    // `team` is the operator's to give: no button, their command instead.
    assert.match(page.body, /data-plan-option="team"[\s\S]*?data-state="ask-operator"/);
    assert.doesNotMatch(page.body, /data-action="portal"/);
    // The form leads to Stripe's page through a redirect, which the page's form-action allows.
    const policy = String(page.headers['content-security-policy']);
    assert.match(policy, new RegExp(`form-action 'self' https: ${stripe.url}`));
    assert.match(page.body, /href="\/w\/acme\/billing" aria-current="page">Billing</);
  });

  it('refuses Billing to admins and members (403); admins see the plan under Settings', async () => {
    for (const email of ['mia@example.com', 'max@example.com']) {
      const client = new PageClient(t.app);
      await client.signIn(email, PASSWORD);
      assert.equal((await client.get('/w/acme/billing')).statusCode, 403);
      await client.open('/w/acme');
      assert.equal((await client.post('/w/acme/billing/checkout', { plan: 'pro' })).statusCode, 403);
      assert.equal((await client.post('/w/acme/billing/portal')).statusCode, 403);
    }
    const mia = new PageClient(t.app);
    await mia.signIn('mia@example.com', PASSWORD);
    const settings = await mia.open('/w/acme/settings');
    assert.equal(attribute(settings.body, 'data-plan'), 'free');
    assert.doesNotMatch(settings.body, /href="\/w\/acme\/billing"/);
    assert.equal(stripe.calls('/v1/checkout/sessions').length, 0);
  });

  it('opens Checkout in subscription mode for the workspace, making its customer once', async () => {
    await olga.open('/w/acme/billing');
    const first = await olga.post('/w/acme/billing/checkout', { plan: 'pro' });
    assert.equal(first.statusCode, 303);
    assert.match(String(first.headers.location), new RegExp(`^${stripe.url}/checkout/cs_test_\\d+$`));
    const second = await olga.post('/w/acme/billing/checkout', { plan: 'starter' });
    assert.equal(second.statusCode, 303);

    const customers = stripe.calls('/v1/customers');
    assert.equal(customers.length, 1);
    assert.equal(customers[0]?.params['metadata[workspace_id]'], String(acme.id));
    assert.ok(customers[0]?.headers['idempotency-key']);
    assert.equal(customers[0]?.headers.authorization, 'Bearer sk_test_x');
    const customerId = (await t.store.billingOf(acme.id))?.customerId;
    assert.match(customerId ?? '', /^cus_test_/);

    const sessions = stripe.calls('/v1/checkout/sessions');
    assert.equal(sessions.length, 2);
    assert.deepEqual(sessions[0]?.params, {
      mode: 'subscription',
      customer: customerId,
      'line_items[0][price]': 'price_pro',
      'line_items[0][quantity]': '1',
      client_reference_id: String(acme.id),
      'metadata[workspace_id]': String(acme.id),
      'metadata[plan]': 'pro',
      'subscription_data[metadata][workspace_id]': String(acme.id),
      'subscription_data[metadata][plan]': 'pro',
      success_url: 'https://sn.ip/w/acme/billing?checkout=done',
      cancel_url: 'https://sn.ip/w/acme/billing',
    });
    assert.equal(sessions[1]?.params.customer, customerId);
    assert.equal(sessions[1]?.params['line_items[0][price]'], 'price_starter');
  });

  it('refuses a plan Stripe does not sell, an unknown one, the current one, and a form without its token', async () => {
    await olga.open('/w/acme/billing');
    const before = stripe.requests.length;
    for (const plan of ['team', 'nope', '']) {
      const refused = await olga.post('/w/acme/billing/checkout', { plan });
      assert.equal(refused.statusCode, 404);
      assert.equal(attribute(refused.body, 'data-error'), 'no-such-plan');
    }
    const pro = await t.store.findPlanByName('pro');
    assert.ok(pro);
    await t.store.setWorkspacePlan(acme.id, pro.id);
    const current = await olga.post('/w/acme/billing/checkout', { plan: 'pro' });
    assert.equal(current.statusCode, 409);
    assert.equal(attribute(current.body, 'data-error'), 'plan-current');
    const free = await t.store.findPlanByName('free');
    await t.store.setWorkspacePlan(acme.id, free?.id ?? 0);
    const forged = await olga.post('/w/acme/billing/checkout', { plan: 'pro', _csrf: 'forged' });
    assert.equal(forged.statusCode, 403);
    assert.equal(stripe.requests.length, before);
  });

  it('refuses an unlisted plan with a Stripe price like an unknown one (404), and still sells a public one', async () => {
    await t.store.upsertPlan({
      name: 'partner',
      apiAccess: true,
      urlQuota: 50_000,
      rateLimitPerHour: 50_000,
      price: { amount: 100, currency: 'EUR' },
      public: false,
      description: 'Given by the operator to partners.',
      stripePriceId: 'price_partner',
    });
    await olga.open('/w/acme/billing');
    const sessions = stripe.calls('/v1/checkout/sessions').length;
    const unlisted = await olga.post('/w/acme/billing/checkout', { plan: 'partner' });
    assert.equal(unlisted.statusCode, 404);
    assert.equal(attribute(unlisted.body, 'data-error'), 'no-such-plan');
    assert.equal(stripe.calls('/v1/checkout/sessions').length, sessions);
    const listed = await olga.post('/w/acme/billing/checkout', { plan: 'starter' });
    assert.equal(listed.statusCode, 303);
    const made = stripe.calls('/v1/checkout/sessions');
    assert.equal(made.length, sessions + 1);
    assert.equal(made.at(-1)?.params['line_items[0][price]'], 'price_starter');
    assert.ok(made.every((call) => call.params['line_items[0][price]'] !== 'price_partner'));
  });

  it("opens the portal for the workspace's customer, and refuses a workspace without one", async () => {
    await olga.open('/w/acme/billing');
    const page = await olga.get('/w/acme/billing');
    assert.match(page.body, /data-action="portal">Manage billing</);
    const portal = await olga.post('/w/acme/billing/portal');
    assert.equal(portal.statusCode, 303);
    assert.match(String(portal.headers.location), new RegExp(`^${stripe.url}/portal/bps_test_\\d+$`));
    const [call] = stripe.calls('/v1/billing_portal/sessions');
    assert.deepEqual(call?.params, {
      customer: (await t.store.billingOf(acme.id))?.customerId,
      return_url: 'https://sn.ip/w/acme/billing',
    });
    const none = await olga.post(`${olga.home}/billing/portal`);
    assert.equal(none.statusCode, 409);
    assert.equal(attribute(none.body, 'data-error'), 'no-customer');
  });

  it('answers 502 with the page when Stripe refuses, and keeps no customer', async () => {
    await olga.open(`${olga.home}/billing`);
    stripe.fail(true);
    try {
      const refused = await olga.post(`${olga.home}/billing/checkout`, { plan: 'pro' });
      assert.equal(refused.statusCode, 502);
      assert.equal(attribute(refused.body, 'data-error'), 'payment-unavailable');
    } finally {
      stripe.fail(false);
    }
    const personal = await t.store.findWorkspaceBySlug(olga.home.replace('/w/', ''));
    assert.equal((await t.store.billingOf(personal?.id ?? 0))?.customerId, null);
  });

  it('thanks the owner back from Checkout', async () => {
    const back = await olga.open('/w/acme/billing?checkout=done');
    assert.equal(back.statusCode, 200);
    assert.equal(attribute(back.body, 'data-done'), 'checkout');
  });
});
