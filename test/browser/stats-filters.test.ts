import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser, Cookie } from 'playwright-core';
import { givenLinkOf, seedVisits } from '../features/analytics/stats-seed.ts';
import { startTestApp, type TestApp } from '../helper.ts';
import { launchBrowser, watchForTrouble } from './browser.ts';
import { checkPage, DESKTOP, PHONE, problems, signInCookies } from './page-checks.ts';

/**
 * The stats pages with filters and the comparison on, in Chromium: the shared checks (axe-core,
 * 1280 and 390 px, both schemes) with chips, changes and the previous period's line shown; and a
 * person narrowing the page by a row, taking the chip off and turning the comparison on.
 */

const PASSWORD = 'correct horse battery';
const REFERRERS = ['www.google.com', 'google.de', 'news.example.org', 'direct', 't.co'];

describe('stats filters and comparison in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let cookies: Cookie[] = [];

  before(async () => {
    t = await startTestApp({ env: { BASE_URL: 'http://snip.test' } });
    await t.ops.createAccount('busy@example.com', 'tester', PASSWORD);
    const link = await givenLinkOf(
      t.store,
      'busy@example.com',
      'promo01',
      'https://example.com/spring?utm_source=newsletter&utm_medium=email&utm_campaign=spring-sale-with-a-long-name',
      'Spring sale',
    );
    // Clicks over the last 60 days, so that the last 30 have a previous period to compare with.
    const visits = Array.from({ length: 240 }, (_, i) => ({
      daysAgo: (i * 7) % 60,
      hour: i % 24,
      country: ['DE', 'US', 'FR', 'GB'][i % 4],
      referrer: REFERRERS[i % REFERRERS.length],
      device: (['desktop', 'mobile', 'tablet'] as const)[i % 3],
      os: ['Windows', 'iOS', 'Android'][i % 3],
      browser: ['Chrome', 'Safari', 'Firefox', 'Edge'][i % 4],
      source: i % 5 === 0 ? ('qr' as const) : ('link' as const),
    }));
    await seedVisits(t.store, link, visits);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
    cookies = await signInCookies(browser, base, 'busy@example.com', PASSWORD);
  });

  after(async () => {
    await browser?.close();
    await t?.close();
  });

  const pages: Array<[string, string]> = [
    ['stats-filtered-compared', '/dashboard/stats?country=DE&referrer=Google&device=mobile&compare=previous'],
    [
      'stats-link-filtered-compared',
      '/dashboard/links/promo01/stats?source=link&tz=Asia/Kolkata&compare=previous',
    ],
  ];
  for (const [name, path] of pages) {
    it(`shows ${name} without overflow, overlaps or serious accessibility violations`, async () => {
      const report = await checkPage(browser, `${base}${path}`, name, {
        cookies,
        ready: async (page) => {
          await page.waitForSelector('.stats-filters .chip');
          await page.waitForSelector('.chart path.previous');
        },
      });
      assert.deepEqual(problems(report), []);
    });
  }

  for (const [width, viewport] of [
    ['1280', DESKTOP],
    ['390', PHONE],
  ] as const) {
    it(`narrows the page by a row, takes the chip off and compares, at ${width} px`, async () => {
      const context = await browser.newContext({ viewport });
      await context.addCookies(cookies);
      const page = await context.newPage();
      const trouble = watchForTrouble(page);
      await page.goto(`${base}/dashboard/stats`);
      const clicks = async () => Number((await page.textContent('[data-total="clicks"]'))?.replace(/,/g, ''));
      const all = await clicks();
      // The referrer source Google drills down to its hosts.
      await page.click('#by-referrer-source li[data-value="Google"] a');
      await page.waitForURL(/referrer=Google/);
      assert.equal(await page.textContent('.stats-filters .chip'), 'Remove the filter Referrer: Google ×');
      const hosts = await page
        .locator('#by-referrer li[data-value]')
        .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-value')));
      assert.deepEqual(hosts.toSorted(), ['google.de', 'www.google.com']);
      const google = await clicks();
      assert.ok(google > 0 && google < all, `${google} of ${all}`);
      // A second filter from a row keeps the first.
      await page.click('#by-country li[data-value="DE"] a');
      await page.waitForURL(/country=DE/);
      assert.match(page.url(), /referrer=Google/);
      assert.equal(await page.locator('.stats-filters .chip').count(), 2);
      // The chip takes its own filter off.
      await page.click('.chip[data-drop="referrer"]');
      await page.waitForURL((url) => !url.search.includes('referrer='));
      assert.match(page.url(), /country=DE/);
      // Compared: each total shows its change with an arrow or a word, the chart its earlier line.
      await page.click('.compare a');
      await page.waitForURL(/compare=previous/);
      const change = (await page.textContent('dd.change')) ?? '';
      assert.match(change, /(↑|↓)\s*(up|down) \d+% from [\d,]+|no change|new/);
      assert.equal(await page.locator('.chart path.previous').count(), 1);
      assert.match(
        (await page.getAttribute('.chart svg', 'aria-label')) ?? '',
        /the previous period: [\d,]+ clicks?/,
      );
      // Clear all: the figures of the whole workspace again, still compared.
      await page.click('a[data-clear]');
      await page.waitForURL((url) => !url.search.includes('country='));
      assert.equal(await clicks(), all);
      assert.equal(await page.locator('.stats-filters').count(), 0);
      assert.deepEqual(trouble, []);
      await context.close();
    });
  }
});
