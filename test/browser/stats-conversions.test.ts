import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser, Cookie } from 'playwright-core';
import { callApi } from '../fixtures/api-client.ts';
import { startTestApp, type TestApp } from '../helper.ts';
import { launchBrowser } from './browser.ts';
import { checkPage, problems, signInCookies } from './page-checks.ts';

/**
 * The stats pages with conversions and an A/B test in Chromium: the funnel and the Variants card
 * through the shared checks (axe-core, 1280 and 390 px, both schemes).
 */

const PASSWORD = 'correct horse battery';
const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';

describe('stats with conversions and an A/B test in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let cookies: Cookie[] = [];
  let code = '';

  before(async () => {
    t = await startTestApp({ env: { BASE_URL: 'http://snip.test', CLICK_FLUSH_MS: '60000' } });
    const { apiKey: key } = await t.ops.createAccount('funnel@example.com', 'tester', PASSWORD);
    const api = (path: string, body: unknown) => callApi(t.app, 'POST', path, { key, body });
    const made = await api('/links', {
      url: 'https://shop.example/launch',
      title: 'Spring launch',
      track_conversions: true,
      variants: [
        { url: 'https://shop.example/launch/a-rather-long-landing-page-for-the-first-variant', weight: 60 },
        { url: 'https://shop.example/launch/b', weight: 40 },
      ],
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    code = String(made.body.short_code);
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const click = await t.app.inject({
        method: 'GET',
        url: `/${code}`,
        headers: { 'user-agent': `${BROWSER} visitor-${i}` },
      });
      const id = /snip_id=([A-Za-z0-9_-]+)/.exec(String(click.headers.location))?.[1];
      if (id) ids.push(id);
    }
    await t.app.clickIds.flush();
    await t.app.clicks.flush();
    for (const [i, id] of ids.slice(0, 6).entries()) {
      const lead = await api('/track/lead', { click_id: id, event_name: 'Sign up', customer_id: `c${i}` });
      assert.equal(lead.status, 201, JSON.stringify(lead.body));
    }
    for (const [i, [amount, currency]] of [
      [4900, 'EUR'],
      [12900, 'EUR'],
      [1999, 'USD'],
    ].entries()) {
      const sale = await api('/track/sale', { customer_id: `c${i}`, amount, currency });
      assert.equal(sale.status, 201, JSON.stringify(sale.body));
    }
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
    cookies = await signInCookies(browser, base, 'funnel@example.com', PASSWORD);
  });

  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it('shows a link with a funnel and variants without overflow, overlaps or violations', async () => {
    const report = await checkPage(browser, `${base}/dashboard/links/${code}/stats`, 'stats-link-funnel', {
      cookies,
    });
    assert.deepEqual(problems(report), []);
    const context = await browser.newContext();
    await context.addCookies(cookies);
    const page = await context.newPage();
    await page.goto(`${base}/dashboard/links/${code}/stats`);
    assert.equal(await page.locator('#funnel li').count(), 3);
    assert.equal(await page.locator('#variants li').count(), 2);
    assert.match(String(await page.textContent('#funnel [data-revenue="EUR"]')), /€178\.00/);
    await context.close();
  });

  it('shows the account with a funnel without overflow, overlaps or violations', async () => {
    const report = await checkPage(browser, `${base}/dashboard/stats`, 'stats-account-funnel', { cookies });
    assert.deepEqual(problems(report), []);
  });
});
