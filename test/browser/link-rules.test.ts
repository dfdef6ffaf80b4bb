import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { callApi } from '../fixtures/api-client.ts';
import { startTargetServer, type TargetServer } from '../fixtures/target-server.ts';
import { FakeInspector, startTestApp, type TestApp } from '../helper.ts';
import { launchBrowser, screenshot, watchForTrouble } from './browser.ts';
import { checkPage, problems } from './page-checks.ts';

/**
 * Link rules in Chromium: a visitor through a password-protected link (a wrong password, then the
 * right one, counted once), and an account holder setting every rule on the dashboard and changing
 * them again.
 */

const PASSWORD = 'correct horse battery';
const HOSTILE = '<script>alert(1)</script>';
// Chromium's own headless user agent reads as a bot; a visitor's browser is what counts clicks.
const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

describe('link rules in Chromium', () => {
  let t: TestApp;
  let target: TargetServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let trouble: string[];
  let base: string;
  let apiKey = '';

  before(async () => {
    t = await startTestApp({ inspector: new FakeInspector(), env: { BASE_URL: 'http://snip.test' } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    target = await startTargetServer();
    ({ apiKey } = await t.ops.createAccount('ada@example.com', 'tester', PASSWORD));
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, userAgent: BROWSER_UA });
    page = await context.newPage();
    trouble = watchForTrouble(page);
  });

  after(async () => {
    await browser?.close();
    await target?.close();
    await t?.close();
  });

  async function clicksOf(code: string): Promise<number | undefined> {
    await t.app.clicks.flush();
    return (await t.store.findLinkByCode(0, code))?.clicks;
  }

  const apiLink = async (code: string) =>
    (await callApi(t.app, 'GET', `/links/${code}`, { key: apiKey })).body;

  it('asks for the password, refuses a wrong one without counting, and follows the right one once', async () => {
    const created = await callApi(t.app, 'POST', '/links', {
      key: apiKey,
      body: { url: target.url('/title'), slug: 'secret-page', title: HOSTILE, password: 'open sesame' },
    });
    assert.equal(created.status, 201);

    await page.goto(`${base}/secret-page`);
    assert.equal(await page.locator('form[action="/secret-page"] input[name=password]').count(), 1);
    const shown = (await page.content()).toLowerCase();
    assert.ok(!shown.includes('alert(1)'), 'nothing of the title is shown');
    assert.ok(!shown.includes(`127.0.0.1:${target.port}`), 'nothing of the target is shown');
    assert.equal(await clicksOf('secret-page'), 0);

    await page.fill('input[name=password]', 'wrong guess');
    const [wrong] = await Promise.all([
      page.waitForResponse((response) => response.request().method() === 'POST'),
      page.click('form[action="/secret-page"] button[type=submit]'),
    ]);
    assert.equal(wrong.status(), 401);
    await page.waitForSelector('[data-error="wrong-password"]');
    assert.equal(await page.locator('input[name=password]').count(), 1, 'still the form');
    assert.equal(await clicksOf('secret-page'), 0);
    assert.deepEqual(target.requests(), [], 'the target was never reached');
    await screenshot(page, 'link-password-wrong');

    await page.fill('input[name=password]', 'open sesame');
    await page.click('form[action="/secret-page"] button[type=submit]');
    await page.waitForURL(target.url('/title'));
    assert.equal(await page.title(), 'Fixture Page');
    assert.equal(await clicksOf('secret-page'), 1);
    assert.deepEqual(trouble, []);
  });

  it('sets a slug, expiry, limit, password and two rules on the create form, then changes them', async () => {
    await page.goto(`${base}/login`);
    await page.fill('input[name=email]', 'ada@example.com');
    await page.fill('input[name=password]', PASSWORD);
    await page.click('form[action="/login"] button[type=submit]');
    await page.waitForURL(/\/w\/[a-z0-9-]+$/);

    await page.fill('#create input[name=url]', 'https://example.com/campaign');
    await page.fill('#create input[name=slug]', 'campaign-26');
    await page.click('#create details.more summary');
    await page.fill('#create input[name=expires_at]', '2099-06-30T18:30');
    await page.fill('#create input[name=max_clicks]', '100');
    await page.fill('#create input[name=password]', 'open sesame');
    await page.selectOption('#create select[name=rule_device_0]', 'ios');
    await page.fill('#create input[name=rule_url_0]', 'https://example.com/app-store');
    await page.fill('#create input[name=rule_country_1]', 'de');
    await page.fill('#create input[name=rule_language_1]', 'de');
    await page.fill('#create input[name=rule_url_1]', 'https://example.com/de');
    await page.click('#create details.more button[type=submit]');
    await page.waitForSelector('[data-done=link-created]');

    assert.deepEqual(
      await page
        .locator('tr[data-code="campaign-26"] [data-badge]')
        .evaluateAll((badges) => badges.map((badge) => badge.getAttribute('data-badge'))),
      ['expires', 'limit', 'password', 'rules'],
    );
    const made = await apiLink('campaign-26');
    assert.equal(made.expires_at, '2099-06-30T18:30:00.000Z');
    assert.equal(made.max_clicks, 100);
    assert.equal(made.has_password, true);
    assert.deepEqual(made.rules, [
      { if: { device: 'ios' }, url: 'https://example.com/app-store' },
      { if: { country: 'DE', language: 'de' }, url: 'https://example.com/de' },
    ]);
    await screenshot(page, 'dashboard-rules-created');

    await page.goto(`${base}/dashboard/links/campaign-26`);
    await page.click('a[data-edit]');
    assert.equal(await page.inputValue('#edit input[name=password]'), '', 'never shown');
    assert.equal(await page.inputValue('#edit input[name=expires_at]'), '2099-06-30T18:30');
    await page.check('#edit input[name=remove_password]');
    await page.fill('#edit input[name=max_clicks]', '');
    await page.click('#edit button[type=submit]');
    await page.waitForSelector('[data-done=saved]');
    const changed = await apiLink('campaign-26');
    assert.equal(changed.has_password, false);
    assert.equal(changed.max_clicks, null);
    assert.equal(changed.expires_at, made.expires_at, 'the expiry stays');
    assert.deepEqual(changed.rules, made.rules, 'the rules stay');
    await page.click('a[data-edit]');
    await page.waitForSelector('#edit');
    assert.equal(await page.locator('#edit input[name=remove_password]').count(), 0);

    // A refused change keeps what was typed and changes nothing.
    await page.fill('#edit input[name=rule_url_2]', 'https://facebook.com/x');
    await page.selectOption('#edit select[name=rule_device_2]', 'desktop');
    await page.click('#edit button[type=submit]');
    await page.waitForSelector('#edit [data-error="310"]');
    assert.equal(await page.inputValue('#edit input[name=rule_url_2]'), 'https://facebook.com/x');
    assert.deepEqual((await apiLink('campaign-26')).rules, made.rules);
    await screenshot(page, 'dashboard-rules-refused');
    assert.deepEqual(trouble, []);
  });

  it('enters and shows the expiry in a long-named workspace zone, and the pages pass their checks', async () => {
    const account = await t.store.findAccountByEmail('ada@example.com');
    assert.ok(account);
    const zone = 'America/Argentina/ComodRivadavia';
    await t.store.setWorkspaceTimezone(account.workspace.id, zone);
    const at = `${base}/w/${account.workspace.slug}`;
    await page.goto(`${at}/links/campaign-26?edit`);
    assert.equal(
      await page
        .textContent('#edit label:has(input[name=expires_at])')
        .then((text) => text?.includes(`Expires (${zone})`)),
      true,
    );
    // 2099-06-30T18:30Z is 15:30 in Argentina (UTC-3, no summer time).
    assert.equal(await page.inputValue('#edit input[name=expires_at]'), '2099-06-30T15:30');
    await page.fill('#edit input[name=expires_at]', '2099-07-01T09:00');
    await page.click('#edit button[type=submit]');
    await page.waitForSelector('[data-done=saved]');
    assert.equal((await apiLink('campaign-26')).expires_at, '2099-07-01T12:00:00.000Z');
    const cookies = await context.cookies();
    for (const [path, name] of [
      ['/links/campaign-26?edit', 'link-edit-zone'],
      ['', 'dashboard-zone'],
      ['/settings', 'settings-zone'],
    ] as const) {
      const report = await checkPage(browser, `${at}${path}`, name, { cookies });
      assert.deepEqual(problems(report), [], name);
    }
    await t.store.setWorkspaceTimezone(account.workspace.id, 'UTC');
  });
});
