import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser, Cookie } from 'playwright-core';
import { workspaceAdmin } from '../../src/features/workspaces/index.ts';
import { membersService } from '../../src/features/workspaces/members.ts';
import { withoutTokens } from '../fixtures/without-tokens.ts';
import { startTestApp, type TestApp } from '../helper.ts';
import { launchBrowser, watchForTrouble } from './browser.ts';
import { checkPage, DESKTOP, problems, signInCookies } from './page-checks.ts';

/**
 * /pricing in Chromium (docs/api.md §17, §22): a visitor reaches it from the landing page and is
 * offered Sign up on every plan; without a payment provider an owner gets a button to UPGRADE_URL on
 * every other plan, on /pricing and on Billing alike, and no command; a paying owner sees their plan
 * marked; an admin, who is no owner, is told to ask one and offered no button. Both pages with the
 * buttons go through the shared checks (page-checks.ts).
 */

const UPGRADE_URL = 'https://example.com/upgrade';
const PASSWORD = 'correct horse battery';

describe('the pricing page in Chromium', { timeout: 120_000 }, () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  const cookies: Record<string, Cookie[]> = {};
  const slugs: Record<string, string> = {};

  before(async () => {
    t = await startTestApp({ env: { BASE_URL: 'http://snip.test', UPGRADE_URL } });
    await t.ops.savePlan('free', { public: true, description: 'A hundred links to start with.' });
    const price = { amount: 900, currency: 'EUR' };
    await t.ops.savePlan('pro', { apiAccess: true, urlQuota: 10_000, price, public: true });
    await t.ops.savePlan('team', {
      urlQuota: 50_000,
      price: { amount: 2900, currency: 'EUR' },
      public: true,
    });
    for (const [who, on] of [
      ['fran', 'free'],
      ['paula', 'pro'],
      ['adam', 'free'],
    ] as const) {
      const { account } = await t.ops.createAccount(`${who}@example.com`, on, PASSWORD);
      slugs[who] = account.workspace.slug;
    }
    const acme = await workspaceAdmin(t.store).create('acme', 'paula@example.com', 'pro', 'Acme');
    await membersService(t.store).add(acme, 'adam@example.com', 'admin');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
    for (const who of ['fran', 'paula', 'adam']) {
      cookies[who] = await signInCookies(browser, base, `${who}@example.com`, PASSWORD);
    }
  });

  after(async () => {
    await browser?.close();
    await t?.close();
  });

  async function open(who: string | undefined, path: string) {
    const context = await browser.newContext({ viewport: DESKTOP });
    if (who) await context.addCookies(cookies[who] ?? []);
    const page = await context.newPage();
    const trouble = watchForTrouble(page);
    await page.goto(`${base}${path}`);
    return { page, trouble, close: () => context.close() };
  }

  it('takes a visitor from the landing page to the plans, and from a plan to sign-up', async () => {
    const { page, trouble, close } = await open(undefined, '/');
    await page.click('main a[href="/pricing"]');
    await page.waitForURL(/\/pricing$/);
    const plans = page.locator('article[data-plan]');
    assert.deepEqual(await plans.evaluateAll((all) => all.map((a) => a.getAttribute('data-plan'))), [
      'free',
      'pro',
      'team',
    ]);
    assert.equal(await page.locator('article[data-plan=pro] [data-fact=price]').innerText(), '€9.00 a month');
    assert.equal(await page.locator('[data-cta=signup]').count(), 3);
    assert.equal(await page.locator('[data-current]').count(), 0);
    await page.locator('article[data-plan=pro]').getByRole('link', { name: 'Sign up' }).click();
    await page.waitForURL(/\/signup$/);
    assert.deepEqual(trouble, []);
    await close();
  });

  it("offers an owner a button to the operator's contact on each other plan, as Billing does", async () => {
    const { page, trouble, close } = await open('fran', '/pricing');
    const free = page.locator('article[data-plan=free]');
    assert.equal(await free.getAttribute('data-current'), 'true');
    assert.equal(await free.locator('.badge').innerText(), 'Current plan');
    const asks = page.locator('[data-cta=contact]');
    assert.deepEqual(await asks.evaluateAll((all) => all.map((a) => a.getAttribute('href'))), [
      UPGRADE_URL,
      UPGRADE_URL,
    ]);
    await page.goto(`${base}/w/${slugs.fran}/billing`);
    const buttons = page.locator('[data-plan-option] a[data-action=contact]');
    assert.deepEqual(await buttons.evaluateAll((all) => all.map((a) => a.getAttribute('href'))), [
      UPGRADE_URL,
      UPGRADE_URL,
    ]);
    assert.doesNotMatch(withoutTokens(await page.content()), /npx|snip workspace/);
    assert.deepEqual(trouble, []);
    await close();
  });

  it('marks the plan a paying owner is on and offers the contact on the others', async () => {
    const { page, trouble, close } = await open('paula', '/pricing');
    assert.equal(await page.locator('article[data-current=true]').getAttribute('data-plan'), 'pro');
    assert.equal(await page.locator('article[data-plan=pro] a').count(), 0, 'no button on the current plan');
    assert.equal(await page.locator('[data-cta=contact]').count(), 2);
    assert.equal(await page.locator('[data-cta=upgrade], [data-cta=change]').count(), 0);
    assert.deepEqual(trouble, []);
    await close();
  });

  for (const [name, path, who] of [
    ['pricing-owner-contact', '/pricing', 'fran'],
    ['billing-operator-contact', '/dashboard/billing', 'fran'],
  ] as const) {
    it(`shows ${name} without overflow, overlaps or serious accessibility violations`, async () => {
      const report = await checkPage(browser, `${base}${path}`, name, { cookies: cookies[who] });
      assert.deepEqual(problems(report), []);
    });
  }

  it('tells an admin, who is no owner, to ask one, with no button on any plan', async () => {
    const { page, trouble, close } = await open('adam', '/pricing?workspace=acme');
    assert.equal(await page.locator('article[data-current=true]').getAttribute('data-plan'), 'pro');
    assert.equal(await page.locator('article a, article button').count(), 0);
    assert.equal(await page.locator('[data-cta=ask-owner]').count(), 2);
    assert.deepEqual(trouble, []);
    await close();
  });
});
