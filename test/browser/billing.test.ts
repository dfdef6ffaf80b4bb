import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Cookie } from 'playwright-core';
import { STRIPE_SECRETS, savePlans } from '../features/billing/plans.ts';
import { closedPort } from '../fixtures/closed-port.ts';
import { type StripeServer, signed, startStripeServer, stripeEvent } from '../fixtures/stripe-server.ts';
import { startTestApp, type TestApp } from '../helper.ts';
import { launchBrowser, watchForTrouble } from './browser.ts';
import { checkPage, DESKTOP, problems, signInCookies } from './page-checks.ts';

/**
 * Settings → Billing with Stripe in Chromium (docs/api.md §17): an owner on the free plan opens
 * Billing from the navigation, clicks Upgrade, lands on the loopback Checkout page, which sends the
 * browser back to the success address; a signed checkout.session.completed then moves the
 * workspace to the plan, which Billing shows, and Manage billing goes to the portal and back. The
 * page passes the shared checks before and after paying.
 */

const PASSWORD = 'correct horse battery';

describe('Billing in Chromium, through a loopback Checkout', { timeout: 240_000 }, () => {
  let t: TestApp;
  let stripe: StripeServer;
  let browser: Browser;
  let base = '';
  let olga: Cookie[] = [];
  let nina: Cookie[] = [];

  before(async () => {
    stripe = await startStripeServer();
    const port = await closedPort();
    base = `http://127.0.0.1:${port}`;
    t = await startTestApp({ env: { BASE_URL: base, ...STRIPE_SECRETS, STRIPE_API_BASE: stripe.url } });
    await savePlans(t.store);
    for (const email of ['olga@example.com', 'nina@example.com'])
      await t.ops.createAccount(email, 'free', PASSWORD);
    await t.app.listen({ port, host: '127.0.0.1' });
    browser = await launchBrowser();
    olga = await signInCookies(browser, base, 'olga@example.com', PASSWORD);
    nina = await signInCookies(browser, base, 'nina@example.com', PASSWORD);
  });

  after(async () => {
    await browser?.close();
    await t?.close();
    await stripe?.close();
  });

  it('upgrades an owner through Checkout and back; the signed event moves the plan, which Billing shows', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    await context.addCookies(olga);
    const page = await context.newPage();
    const trouble = watchForTrouble(page);
    await page.goto(`${base}/dashboard`);
    await page.click('nav[aria-label=Main] a:text-is("Settings")');
    await page.click('nav.tabs a:text-is("Billing")');
    await page.waitForURL(/\/w\/[a-z0-9-]+\/billing$/);
    const billing = page.url();
    assert.equal(await page.getAttribute('[data-plan]', 'data-plan'), 'free');

    await page.click('[data-plan-option="pro"] button[data-action=checkout]');
    await page.waitForURL(`${billing}?checkout=done`);
    const [session] = stripe.calls('/v1/checkout/sessions');
    assert.ok(session);
    const visited = stripe.requests.filter((one) => one.method === 'GET').map((one) => one.path);
    assert.match(visited.join(' '), /\/checkout\/cs_test_\d+/);
    assert.equal(await page.getAttribute('[data-done]', 'data-done'), 'checkout');
    assert.equal(await page.getAttribute('[data-plan]', 'data-plan'), 'free');

    const event = stripeEvent('checkout.session.completed', {
      id: 'cs_test_paid',
      object: 'checkout.session',
      mode: 'subscription',
      status: 'complete',
      payment_status: 'paid',
      client_reference_id: session.params.client_reference_id,
      customer: session.params.customer,
      subscription: 'sub_test_olga',
      metadata: {
        workspace_id: session.params['metadata[workspace_id]'],
        plan: session.params['metadata[plan]'],
      },
    });
    const payload = JSON.stringify(event);
    const answer = await fetch(`${base}/webhooks/stripe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signed(payload, 'whsec_test') },
      body: payload,
    });
    assert.deepEqual([answer.status, await answer.json()], [200, { received: true, result: 'applied' }]);

    await page.goto(billing);
    assert.equal(await page.getAttribute('[data-plan]', 'data-plan'), 'pro');
    assert.equal(
      await page.textContent('[data-plan-option="pro"] [data-state=current]'),
      'Your current plan',
    );
    await page.click('button[data-action=portal]');
    await page.waitForURL(billing);
    assert.ok(
      stripe.requests.some((one) => one.method === 'GET' && one.path.startsWith('/portal/bps_test_')),
    );
    assert.deepEqual(trouble, []);
    await context.close();
  });

  for (const [name, cookies] of [
    ['billing-stripe', () => nina],
    ['billing-stripe-paid', () => olga],
  ] as const) {
    it(`shows ${name} without overflow, overlaps or serious accessibility violations`, async () => {
      const report = await checkPage(browser, `${base}/dashboard/billing`, name, { cookies: cookies() });
      assert.deepEqual(problems(report), []);
    });
  }
});
