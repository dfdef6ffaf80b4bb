import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser, Cookie, Page } from 'playwright-core';
import { seedVisits } from '../features/analytics/stats-seed.ts';
import { callApi } from '../fixtures/api-client.ts';
import { send, startTestApp, type TestApp } from '../helper.ts';
import { launchBrowser, watchForTrouble } from './browser.ts';
import { checkPage, DESKTOP, problems, signInCookies } from './page-checks.ts';

/**
 * The stats page's Live panel and a link's public stats page (docs/api.md §19) in Chromium, through
 * the shared checks (axe-core, 1280 and 390 px, light and dark), the panel with clicks arriving.
 */

const PASSWORD = 'correct horse battery';
const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';

describe('live clicks and public stats in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let cookies: Cookie[] = [];
  let key: string;

  before(async () => {
    t = await startTestApp({ env: { BASE_URL: 'http://snip.test' } });
    key = (await t.ops.createAccount('live@example.com', 'tester', PASSWORD)).apiKey;
    const made = async (slug: string) => {
      const answer = await callApi(t.app, 'POST', '/links', {
        key,
        body: { url: `https://example.com/${slug}`, slug, public_stats: true },
      });
      assert.equal(answer.status, 201);
    };
    await made('pub01');
    await made('pubempty');
    await made('a-rather-long-code-for-a-live-click-row');
    const link = await t.store.findLinkByCode(0, 'pub01');
    assert.ok(link);
    await seedVisits(
      t.store,
      link,
      Array.from({ length: 120 }, (_, i) => ({
        daysAgo: i % 14,
        country: ['DE', 'US', 'BR', 'ZZ'][i % 4],
        referrer: ['direct', 'news.example.org', 'a-long-subdomain.of-a-site-with-a-long-name.example.co.uk'][
          i % 3
        ],
        device: (['desktop', 'mobile', 'tablet'] as const)[i % 3],
        os: ['Windows', 'iOS', 'Android'][i % 3],
        browser: ['Chrome', 'Safari', 'Firefox'][i % 3],
        source: i % 5 === 0 ? ('qr' as const) : ('link' as const),
      })),
    );
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
    cookies = await signInCookies(browser, base, 'live@example.com', PASSWORD);
  });

  after(async () => {
    await browser?.close();
    await t?.close();
  });

  for (const [name, path] of [
    ['public-stats', '/pub01+'],
    ['public-stats-empty', '/pubempty+'],
  ] as const) {
    it(`shows ${name} without overflow, overlaps or serious accessibility violations`, async () => {
      const report = await checkPage(browser, `${base}${path}`, name);
      assert.deepEqual(problems(report), []);
    });
  }

  it('keeps the public page to the link: no navigation, no account, noindex', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    const trouble = watchForTrouble(page);
    const answer = await page.goto(`${base}/pub01+`);
    assert.equal(answer?.status(), 200);
    assert.equal(await answer?.headerValue('x-robots-tag'), 'noindex');
    assert.match((await page.getAttribute('meta[name=robots]', 'content')) ?? '', /noindex/);
    assert.equal(
      await page.locator('a[href^="/w/"], a[href="/dashboard"], form[action="/logout"]').count(),
      0,
    );
    assert.equal(Number(await page.textContent('[data-total="clicks"]')), 120);
    assert.deepEqual(trouble, []);
    await context.close();
  });

  /** Starts the panel's stream, then clicks a link and flushes until a row shows. */
  const watchAClick = async (page: Page) => {
    await page.click('[data-live-toggle]');
    await page.waitForSelector('#live[data-state="open"]');
    const headers = {
      'user-agent': CHROME,
      referer: 'https://a-long-subdomain.of-a-site-with-a-long-name.example.co.uk/x',
    };
    const click = await send(t.app, {
      method: 'GET',
      url: '/a-rather-long-code-for-a-live-click-row',
      headers,
    });
    assert.equal(click.status, 302);
    await t.app.clicks.flush();
    await page.waitForSelector('.live-click');
  };

  it('shows the Live panel with a click arriving, without overflow or accessibility violations', async () => {
    const report = await checkPage(browser, `${base}/dashboard/stats`, 'stats-live', {
      cookies,
      ready: watchAClick,
    });
    assert.deepEqual(problems(report), []);
  });

  it('shows each click as it is recorded, newest first, and stops when asked', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    await context.addCookies(cookies);
    const page = await context.newPage();
    const trouble = watchForTrouble(page);
    await page.goto(`${base}/dashboard/stats`);
    assert.equal(await page.getAttribute('[data-live-toggle]', 'aria-pressed'), 'false');
    await watchAClick(page);
    assert.equal(await page.getAttribute('[data-live-toggle]', 'aria-pressed'), 'true');
    const row = page.locator('.live-click').first();
    assert.equal(await row.getAttribute('data-code'), 'a-rather-long-code-for-a-live-click-row');
    assert.match((await row.textContent()) ?? '', /Chrome/);
    await page.click('[data-live-toggle]');
    assert.equal(await page.getAttribute('#live', 'data-state'), 'stopped');
    assert.deepEqual(trouble, []);
    await context.close();
  });
});
