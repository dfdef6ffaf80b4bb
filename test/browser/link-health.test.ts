import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser, Cookie } from 'playwright-core';
import { callApi } from '../fixtures/api-client.ts';
import { FakeInspector, startTestApp, type TestApp } from '../helper.ts';
import { launchBrowser } from './browser.ts';
import { checkPage, problems, signInCookies } from './page-checks.ts';

/**
 * Link health in Chromium (docs/api.md §21): the list of broken links with their badge, a broken
 * link's page saying since when and why, and the mail settings, at 1280 and 390 px, light and dark.
 */

const PASSWORD = 'correct horse battery';

describe('link health in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let slug = '';
  let apiKey = '';
  let cookies: Cookie[] = [];
  let code = '';
  const inspector = new FakeInspector();

  before(async () => {
    t = await startTestApp({ inspector, env: { BASE_URL: 'http://snip.test' } });
    const made = await t.ops.createAccount('ada@example.com', 'tester', PASSWORD);
    ({ apiKey } = made);
    slug = made.account.workspace.slug;
    const link = await callApi(t.app, 'POST', '/links', {
      key: apiKey,
      body: { url: 'https://example.com/a-page-that-went-away-some-time-ago', title: 'Spring sale' },
    });
    assert.equal(link.status, 201);
    code = link.body.short_code as string;
    await callApi(t.app, 'POST', '/links', { key: apiKey, body: { url: 'https://example.com/fine' } });
    inspector.outcome = () => ({ ok: false, code: '307', reason: 'target answered 404', status: 404 });
    for (let i = 0; i < 2; i++)
      assert.equal((await callApi(t.app, 'POST', `/links/${code}/check`, { key: apiKey })).status, 200);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
    cookies = await signInCookies(browser, base, 'ada@example.com', PASSWORD);
  });

  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it('lists broken links with their badge', async () => {
    const report = await checkPage(browser, `${base}/w/${slug}?state=broken`, 'links-broken', {
      cookies,
      ready: async (page) => {
        await page.waitForSelector(`tr[data-code="${code}"] [data-badge="broken"]`);
        assert.equal(await page.locator('tbody tr').count(), 1, 'only the broken link');
      },
    });
    assert.deepEqual(problems(report), []);
  });

  it("says on a broken link's page since when and why", async () => {
    const report = await checkPage(browser, `${base}/w/${slug}/links/${code}`, 'link-broken', {
      cookies,
      ready: async (page) => {
        const notice = await page.locator('[data-health-notice]').textContent();
        assert.match(notice ?? '', /the page is gone \(404 Not Found\)/);
        assert.equal(await page.locator('[data-health="broken"]').count(), 1);
      },
    });
    assert.deepEqual(problems(report), []);
  });

  it('shows the mail settings', async () => {
    const report = await checkPage(browser, `${base}/account/mail`, 'account-mail', {
      cookies,
      ready: (page) => page.waitForSelector('input[name="health_mail"]').then(() => undefined),
    });
    assert.deepEqual(problems(report), []);
  });
});
