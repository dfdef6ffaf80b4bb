import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Cookie, Page } from 'playwright-core';
import type { Link } from '../../src/core/entities.ts';
import { DAY_MS, dayOf, givenLinkOf, seedVisits, startOfToday } from '../features/analytics/stats-seed.ts';
import { startTestApp, type TestApp } from '../helper.ts';
import { launchBrowser, screenshot, watchForTrouble } from './browser.ts';
import { checkPage, DESKTOP, PHONE, problems, signInCookies } from './page-checks.ts';

/**
 * The visit stats pages in Chromium: the account's and one link's, with clicks and empty, through
 * the shared checks (axe-core, 1280 and 390 px, both schemes); the range picker; the CSV download.
 */

const PASSWORD = 'correct horse battery';
const COUNTRIES = ['DE', 'US', 'FR', 'JP', 'BR', 'ZZ', 'GB', 'IN'];
const LANGUAGES = ['de', 'en', 'fr', 'ja', 'pt', 'unknown', 'en', 'hi'];
const REFERRERS = [
  'direct',
  'news.example.org',
  'a-rather-long-subdomain.of-a-site-with-a-long-name.example.co.uk',
];

describe('visit stats in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let busy: Cookie[] = [];
  let fresh: Cookie[] = [];
  let link: Link;
  let quiet: Link;

  const newLink = (email: string, code: string) =>
    givenLinkOf(
      t.store,
      email,
      code,
      `https://example.com/campaigns/${code}/a-long-path-that-keeps-going?utm_source=newsletter`,
      `Campaign ${code}`,
    );

  const signIn = (email: string) => signInCookies(browser, base, email, PASSWORD);

  before(async () => {
    t = await startTestApp({ env: { BASE_URL: 'http://snip.test' } });
    await t.ops.createAccount('busy@example.com', 'tester', PASSWORD);
    await t.ops.createAccount('new@example.com', 'tester', PASSWORD);
    link = await newLink('busy@example.com', 'stats01');
    quiet = await newLink('busy@example.com', 'quiet01');
    // Clicks on 20 of the last 30 days, more each day nearer today; a few from 10 to 29 days ago.
    const visits = Array.from({ length: 400 }, (_, i) => ({
      daysAgo: i % 20 === 0 ? 10 + (i % 19) : Math.floor((i * 7) % 20),
      hour: i % 24,
      country: COUNTRIES[i % COUNTRIES.length],
      language: LANGUAGES[i % LANGUAGES.length],
      referrer: REFERRERS[i % REFERRERS.length],
      device: (['desktop', 'mobile', 'tablet'] as const)[i % 3],
      os: ['Windows', 'iOS', 'Android', 'macOS'][i % 4],
      browser: ['Chrome', 'Safari', 'Firefox'][i % 3],
      source: i % 5 === 0 ? ('qr' as const) : ('link' as const),
    }));
    await seedVisits(t.store, link, visits, [
      { daysAgo: 1, kind: 'prefetch', hits: 12 },
      { daysAgo: 3, kind: 'Slackbot-LinkExpanding', hits: 4 },
    ]);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
    busy = await signIn('busy@example.com');
    fresh = await signIn('new@example.com');
  });

  after(async () => {
    await browser?.close();
    await t?.close();
  });

  const pages: Array<[string, string, () => Cookie[]]> = [
    ['stats-account', '/dashboard/stats', () => busy],
    ['stats-link', '/dashboard/links/stats01/stats', () => busy],
    [
      'stats-link-hourly',
      `/dashboard/links/stats01/stats?interval=hour&from=${dayOf(startOfToday() - DAY_MS)}`,
      () => busy,
    ],
    ['stats-link-empty', '/dashboard/links/quiet01/stats', () => busy],
    ['stats-account-empty', '/dashboard/stats', () => fresh],
    ['stats-range-refused', '/dashboard/stats?from=2030-01-01&to=2020-01-01', () => busy],
  ];
  for (const [name, path, cookies] of pages) {
    it(`shows ${name} without overflow, overlaps or serious accessibility violations`, async () => {
      const report = await checkPage(browser, `${base}${path}`, name, { cookies: cookies() });
      assert.deepEqual(problems(report), []);
    });
  }

  async function open(
    path: string,
    viewport = DESKTOP,
  ): Promise<{ context: BrowserContext; page: Page; trouble: string[] }> {
    const context = await browser.newContext({ viewport, acceptDownloads: true });
    await context.addCookies(busy);
    const page = await context.newPage();
    const trouble = watchForTrouble(page);
    await page.goto(`${base}${path}`);
    return { context, page, trouble };
  }

  it('switches the range to the last 7 days, then to a custom range, at 390 px', async () => {
    const { context, page, trouble } = await open('/dashboard/links/stats01/stats', PHONE);
    const clicks = async () => Number((await page.textContent('[data-total="clicks"]'))?.replace(/,/g, ''));
    assert.equal(await clicks(), 400);
    await page.click('a[data-days="7"]');
    await page.waitForURL(/from=/);
    assert.equal(await page.getAttribute('a[data-days="7"]', 'aria-current'), 'true');
    const week = await clicks();
    assert.ok(week > 0 && week < 400, `${week} clicks in the last 7 days`);
    assert.ok((await page.locator('.chart svg g').count()) <= 7);

    const today = startOfToday();
    await page.click('.custom-range summary');
    // The custom range opens as a panel within the screen.
    const panel = await page.locator('.custom-range form').boundingBox();
    assert.ok(panel && panel.x >= 0 && panel.x + panel.width <= PHONE.width, JSON.stringify(panel));
    await screenshot(page, 'stats-custom-range-phone');
    await page.fill('input[name=from]', dayOf(today - 2 * DAY_MS));
    await page.fill('input[name=to]', dayOf(today - 2 * DAY_MS));
    await page.selectOption('select[name=interval]', 'hour');
    await page.click('.range-picker button[type=submit]');
    await page.waitForURL(/interval=hour/);
    assert.equal(await page.locator('.range-picker a[aria-current]').count(), 0);
    assert.equal(await page.getAttribute('.custom-range summary', 'class'), 'current');
    assert.match((await page.textContent('[data-range]')) ?? '', /by hour/);
    assert.ok((await page.locator('.chart table tbody tr').count()) > 0);
    assert.ok((await clicks()) < week);
    assert.deepEqual(trouble, []);
    await context.close();
  });

  /** The bottom of the lowest element a person can see (hidden boxes and their contents left out). */
  const lastVisibleBottom = (page: Page) =>
    page.evaluate(() => {
      let bottom = 0;
      for (const element of document.body.querySelectorAll('*')) {
        if (element.closest('.visually-hidden, [hidden]') || !element.checkVisibility()) continue;
        const box = element.getBoundingClientRect();
        if (box.width > 0 && box.height > 0) bottom = Math.max(bottom, box.bottom + window.scrollY);
      }
      return bottom;
    });

  for (const [name, viewport] of [
    ['1280', DESKTOP],
    ['390', PHONE],
  ] as const) {
    it(`shows every label whole, flags as images, the chart first and no blank page below, at ${name} px`, async () => {
      // The last 30 days hourly: the hidden table of the chart's numbers holds hundreds of rows.
      const hourly = `/dashboard/links/stats01/stats?interval=hour&from=${dayOf(startOfToday() - 29 * DAY_MS)}`;
      for (const path of ['/dashboard/stats', hourly]) {
        const { context, page, trouble } = await open(path, viewport);
        // The chart starts within the first screen.
        const chart = await page.locator('.chart').boundingBox();
        assert.ok(chart && chart.y < viewport.height - 100, `${path}: the chart starts at ${chart?.y}`);
        // Each label shown in full, wrapped rather than cut.
        const labels = await page
          .locator('.bar-label')
          .evaluateAll((spans) =>
            spans.map((span) => [span.textContent, span.scrollWidth - span.clientWidth]),
          );
        assert.ok(labels.length > 20, `${labels.length} labels`);
        for (const [text, hidden] of labels) assert.ok(Number(hidden) <= 0, `${path}: "${text}" is cut`);
        const texts = labels.map(([text]) => text);
        for (const whole of ['United Kingdom', REFERRERS[2], 'Unknown'])
          assert.ok(texts.includes(whole), whole);
        // No emoji flags (they need a font most systems lack), no internal code for an unknown country.
        const body = await page.innerText('body');
        assert.doesNotMatch(body, /[\u{1F1E6}-\u{1F1FF}]/u);
        assert.doesNotMatch(body, /\bZZ\b/);
        // Every flag is an image of Snip's own that loaded; the unknown country has none.
        const flags = page.locator('#by-country img.flag');
        assert.equal(await flags.count(), COUNTRIES.length - 1);
        for (const flag of await flags.all()) {
          assert.ok(
            await flag.evaluate((img: HTMLImageElement) => img.decode().then(() => img.naturalWidth > 0)),
          );
        }
        const src = (await flags.first().getAttribute('src')) ?? '';
        const image = await page.request.get(`${base}${src}`);
        assert.deepEqual([image.status(), image.headers()['content-type']], [200, 'image/svg+xml']);
        // The page ends about where its content does.
        const height = await page.evaluate(() => document.documentElement.scrollHeight);
        const bottom = await lastVisibleBottom(page);
        assert.ok(height <= 1.2 * bottom, `${path}: page ${height} px high, content ends at ${bottom} px`);
        assert.deepEqual(trouble, []);
        await context.close();
      }
    });
  }

  it('lists the most clicked links of the range on the workspace page only, each leading to its page', async () => {
    const { context, page, trouble } = await open('/dashboard/stats', PHONE);
    const rows = page.locator('#top-links li[data-value]');
    assert.deepEqual(await rows.evaluateAll((items) => items.map((li) => li.getAttribute('data-value'))), [
      'stats01',
    ]);
    await rows.first().locator('a').click();
    await page.waitForURL(/\/links\/stats01$/);
    await page.goto(`${base}/dashboard/links/stats01/stats`);
    assert.equal(await page.locator('#top-links').count(), 0);
    assert.equal(await page.textContent('h1'), 'Campaign stats01');
    assert.equal(await page.textContent('.short-url .code'), 'stats01');
    assert.deepEqual(trouble, []);
    await context.close();
  });

  it('downloads the CSV of the range shown', async () => {
    const { context, page, trouble } = await open('/dashboard/links/stats01/stats');
    await page.click('a[data-days="7"]');
    await page.waitForURL(/from=/);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click('a:text("Download CSV")'),
    ]);
    assert.match(
      download.suggestedFilename(),
      /^snip-stats-stats01-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/,
    );
    const csv = await readFile(await download.path(), 'utf8');
    const lines = csv.split('\r\n');
    assert.equal(lines[0], 'dimension,value,clicks,unique_visitors,leads,sales,revenue');
    assert.equal(
      lines[1],
      `total,all,${(await page.textContent('[data-total="clicks"]'))?.replace(/,/g, '')},${(await page.textContent('[data-total="unique_visitors"]'))?.replace(/,/g, '')},0,0,`,
    );
    assert.equal(lines.filter((line) => line.startsWith('series,')).length, 7);
    assert.ok(lines.some((line) => line.startsWith('country,DE,')));
    assert.deepEqual(trouble, []);
    await context.close();
  });

  it('is reached from the link page and from the navigation', async () => {
    const { context, page, trouble } = await open('/dashboard/links/stats01');
    await page.click('a[href$="/links/stats01/stats"]');
    await page.waitForURL(/\/w\/[a-z0-9-]+\/links\/stats01\/stats$/);
    await page.click('nav[aria-label=Main] a:text("Stats")');
    await page.waitForURL(/\/w\/[a-z0-9-]+\/stats$/);
    assert.equal(await page.textContent('h1'), 'Visit stats');
    assert.ok(quiet.id > 0);
    assert.deepEqual(trouble, []);
    await context.close();
  });
});
