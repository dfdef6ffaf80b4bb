import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { callApi } from '../fixtures/api-client.ts';
import { FakeInspector, startTestApp, type TestApp } from '../helper.ts';
import { launchBrowser, screenshot, watchForTrouble } from './browser.ts';
import { checkPage, problems } from './page-checks.ts';

/**
 * The A/B test of the link page's edit panel and of the dashboard's create form in Chromium
 * (docs/api.md §20.x): URL rows with a weight slider showing its per cent and the total, the end in
 * the workspace's zone, the clicks per variant, and both pages' checks at both widths, light and dark.
 */

const PASSWORD = 'correct horse battery';
const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

describe('the A/B test panel in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let trouble: string[];
  let base: string;
  let at = '';
  let apiKey = '';

  before(async () => {
    t = await startTestApp({ inspector: new FakeInspector(), env: { BASE_URL: 'http://snip.test' } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const account = await t.ops.createAccount('ada@example.com', 'tester', PASSWORD);
    apiKey = account.apiKey;
    const found = await t.store.findAccountByEmail('ada@example.com');
    assert.ok(found);
    await t.store.setWorkspaceTimezone(found.workspace.id, 'Europe/Berlin');
    at = `${base}/w/${found.workspace.slug}`;
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, userAgent: BROWSER_UA });
    page = await context.newPage();
    trouble = watchForTrouble(page);
    await page.goto(`${base}/login`);
    await page.fill('input[name=email]', 'ada@example.com');
    await page.fill('input[name=password]', PASSWORD);
    await page.click('form[action="/login"] button[type=submit]');
    await page.waitForURL(/\/w\/[a-z0-9-]+$/);
  });

  after(async () => {
    await browser?.close();
    await t?.close();
  });

  const apiLink = async (code: string) =>
    (await callApi(t.app, 'GET', `/links/${code}`, { key: apiKey })).body;

  it('sets two variants with sliders and an end in the zone, and shows clicks per variant', async () => {
    const made = await callApi(t.app, 'POST', '/links', {
      key: apiKey,
      body: { url: 'https://example.com/offer', slug: 'ab-offer' },
    });
    assert.equal(made.status, 201);
    await page.goto(`${at}/links/ab-offer?edit`);
    await page.click('#edit summary:has-text("A/B test")');
    await page.fill('#edit input[name=variant_url_0]', 'https://a.example/offer');
    await page.fill('#edit input[name=variant_url_1]', 'https://b.example/offer');
    await page.locator('#edit input[name=variant_weight_0]').fill('30');
    await page.locator('#edit input[name=variant_weight_1]').fill('70');
    assert.equal(await page.textContent('#edit-variant-percent-0'), '30%');
    assert.equal(await page.textContent('#edit [data-variant-sum] output'), '100%');
    await page.fill('#edit input[name=test_ends_at]', '2099-07-01T09:00');
    await page.click('#edit button[type=submit]');
    await page.waitForSelector('[data-done=saved]');
    const link = await apiLink('ab-offer');
    assert.deepEqual(link.variants, [
      { url: 'https://a.example/offer', weight: 30 },
      { url: 'https://b.example/offer', weight: 70 },
    ]);
    // 09:00 in Berlin's summer is 07:00 UTC.
    assert.equal(link.test_ends_at, '2099-07-01T07:00:00.000Z');

    for (let i = 0; i < 6; i++) {
      await fetch(`${base}/ab-offer`, {
        redirect: 'manual',
        headers: { 'user-agent': `${BROWSER_UA} ${i}` },
      });
    }
    await t.app.clicks.flush();
    await page.goto(`${at}/links/ab-offer?edit`);
    const cells = await page.locator('#edit .variant-figures tbody td:last-child').allTextContents();
    assert.equal(
      cells.map(Number).reduce((a, b) => a + b, 0),
      6,
    );
    await screenshot(page, 'link-ab-test');
  });

  it('refuses weights that do not add up to 100 with 300, changing nothing', async () => {
    await page.goto(`${at}/links/ab-offer?edit`);
    await page.locator('#edit input[name=variant_weight_1]').fill('60');
    assert.equal(await page.textContent('#edit [data-variant-sum] output'), '90%');
    await page.click('#edit button[type=submit]');
    await page.waitForSelector('#edit [data-error="300"]');
    const kept = (await apiLink('ab-offer')).variants as Array<{ weight: number }>;
    assert.deepEqual(
      kept.map((variant) => variant.weight),
      [30, 70],
    );
    assert.deepEqual(trouble, []);
  });

  it('passes the page checks with the test open', async () => {
    const cookies = await context.cookies();
    const report = await checkPage(browser, `${at}/links/ab-offer?edit`, 'link-ab-test-checks', { cookies });
    assert.deepEqual(problems(report), []);
  });

  it('creates a link with a test from the dashboard, and keeps a refused one as sent', async () => {
    await page.goto(at);
    await page.click('#create summary:has-text("A/B test")');
    await page.fill('#create-url', 'https://example.com/launch');
    await page.fill('#create input[name=slug]', 'ab-launch');
    await page.fill('#create input[name=variant_url_0]', 'https://a.example/launch');
    await page.fill('#create input[name=variant_url_1]', 'https://b.example/launch');
    await page.locator('#create input[name=variant_weight_0]').fill('40');
    await page.locator('#create input[name=variant_weight_1]').fill('50');
    assert.equal(await page.textContent('#create-variant-percent-1'), '50%');
    assert.equal(await page.textContent('#create [data-variant-sum] output'), '90%');
    await page.click('#create button.create-submit');
    await page.waitForSelector('#create [data-error="300"]');
    assert.equal((await callApi(t.app, 'GET', '/links/ab-launch', { key: apiKey })).status, 404);
    assert.equal(await page.inputValue('#create input[name=variant_url_1]'), 'https://b.example/launch');
    await page.locator('#create input[name=variant_weight_1]').fill('60');
    await page.fill('#create input[name=test_ends_at]', '2099-01-15T18:30');
    await page.click('#create button.create-submit');
    await page.waitForSelector('[data-done=link-created]');
    const link = await apiLink('ab-launch');
    assert.deepEqual(link.variants, [
      { url: 'https://a.example/launch', weight: 40 },
      { url: 'https://b.example/launch', weight: 60 },
    ]);
    // 18:30 in Berlin's winter is 17:30 UTC.
    assert.equal(link.test_ends_at, '2099-01-15T17:30:00.000Z');
    assert.deepEqual(trouble, []);
  });

  it("passes the page checks with the create form's test open", async () => {
    const cookies = await context.cookies();
    const report = await checkPage(browser, at, 'dashboard-ab-test-checks', {
      cookies,
      ready: (checked) => checked.click('#create summary:has-text("A/B test")'),
    });
    assert.deepEqual(problems(report), []);
  });
});
