import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Cookie } from 'playwright-core';
import { launchBrowser } from '../test/browser/browser.ts';
import { DESKTOP, PHONE, signInCookies } from '../test/browser/page-checks.ts';
import { seedVisits } from '../test/features/analytics/stats-seed.ts';
import { GROUP_NAMES, workspaceLinks } from '../test/fixtures/new-user-workspace.ts';
import { startTestApp } from '../test/helper.ts';

/**
 * `node scripts/screenshots.ts <dir> [tag]` (not a test): a new user's workspace as the dashboard
 * issue describes it (33 links, 3 groups, tags, 30 days of clicks), and screenshots of the
 * dashboard, a link's page and the stats at 1280 and 390 px, half scale, first 2,400 px, as
 * `<dir>/<page>-<width>-<tag>.png`. docs/screenshots/ holds the before and after of that issue.
 */

const PASSWORD = 'correct horse battery';
const COUNTRIES = ['DE', 'US', 'GB', 'FR', 'JP', 'BR', 'ZZ', 'IN', 'NL', 'CA'];
const REFERRERS = ['direct', 'news.ycombinator.com', 'www.linkedin.com', 'mail.google.com', 't.co'];

async function main(): Promise<void> {
  const [dir = 'docs/screenshots', tag = 'now'] = process.argv.slice(2);
  await mkdir(dir, { recursive: true });
  const t = await startTestApp({ env: { BASE_URL: 'http://localhost:18600' } });
  const browser = await launchBrowser();
  try {
    const { account } = await t.ops.createAccount('new@example.com', 'tester', PASSWORD);
    const groups: number[] = [];
    for (const name of GROUP_NAMES) groups.push((await t.ops.createGroup('new@example.com', name)).id);
    await t.store.insertLinksBulk(workspaceLinks(account.workspace.id, groups));
    const listed = await t.store.listLinks(account.workspace.id, { limit: 40 });
    const clicked = listed.links.filter((link, i) => i < 12 || link.code === 'launch');
    for (const [i, link] of clicked.entries()) {
      const visits = Array.from({ length: 30 + ((i * 37) % 90) }, (_, n) => ({
        daysAgo: (n * 7 + i) % 30,
        hour: n % 24,
        country: COUNTRIES[(n + i) % COUNTRIES.length],
        referrer: REFERRERS[(n * 3 + i) % REFERRERS.length],
        device: (['desktop', 'mobile', 'tablet'] as const)[n % 3],
        os: ['Windows', 'iOS', 'Android', 'macOS'][n % 4],
        browser: ['Chrome', 'Safari', 'Firefox'][n % 3],
        language: ['en', 'de', 'fr', 'ja'][n % 4],
        source: n % 5 === 0 ? ('qr' as const) : ('link' as const),
      }));
      await seedVisits(t.store, link, visits);
    }
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const cookies: Cookie[] = await signInCookies(browser, base, 'new@example.com', PASSWORD);
    const slug = account.workspace.slug;
    const pages = [
      ['dashboard', `/w/${slug}`],
      ['link', `/w/${slug}/links/launch`],
      ['stats', `/w/${slug}/stats`],
    ] as const;
    for (const [width, viewport] of [
      ['1280', DESKTOP],
      ['390', PHONE],
    ] as const) {
      const context = await browser.newContext({ viewport, deviceScaleFactor: 0.5 });
      await context.addCookies(cookies);
      const page = await context.newPage();
      for (const [name, path] of pages) {
        await page.goto(`${base}${path}`);
        const height = await page.evaluate(() => document.documentElement.scrollHeight);
        await page.screenshot({
          path: join(dir, `${name}-${width}-${tag}.png`),
          fullPage: true,
          clip: { x: 0, y: 0, width: viewport.width, height: Math.min(height, 2400) },
        });
      }
      await context.close();
    }
  } finally {
    await browser.close();
    await t.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
