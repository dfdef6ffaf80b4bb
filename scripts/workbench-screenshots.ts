import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { NewLink } from '../src/core/entities.ts';
import { launchBrowser } from '../test/browser/browser.ts';
import { DESKTOP, PHONE, signInCookies } from '../test/browser/page-checks.ts';
import { seedVisits } from '../test/features/analytics/stats-seed.ts';
import { startTestApp } from '../test/helper.ts';

/**
 * `node scripts/workbench-screenshots.ts [dir]` (not a test): a workspace of eight varied links
 * (titled or not, tagged, grouped, clicked hours or weeks ago or never, one archived), and its list
 * with a filter on — the tag "launch", every state, by last click — as
 * `<dir>/workbench-1280.png`, `workbench-390.png` (light) and `workbench-1280-dark.png`.
 */

const PASSWORD = 'correct horse battery';

const LINKS: ReadonlyArray<{ code: string; url: string; title: string; tags: string[]; group?: number }> = [
  {
    code: 'spring',
    url: 'https://shop.example.com/collections/spring-2026',
    title: 'Spring collection',
    tags: ['launch', 'shop'],
    group: 0,
  },
  {
    code: 'launch-post',
    url: 'https://blog.example.com/2026/04/we-shipped-it',
    title: 'We shipped it: the launch post',
    tags: ['launch', 'blog'],
    group: 1,
  },
  { code: 'press', url: 'https://example.com/press/kit.pdf', title: 'Press kit', tags: ['launch'], group: 1 },
  {
    code: 'waitlist',
    url: 'https://example.com/waitlist?plan=team&ref=newsletter',
    title: '',
    tags: ['launch', 'newsletter'],
  },
  {
    code: 'demo-video',
    url: 'https://video.example.net/watch/8f2c1a',
    title: 'Two-minute demo',
    tags: ['launch', 'video'],
  },
  { code: 'old-teaser', url: 'https://example.com/teaser', title: 'Teaser (winter)', tags: ['launch'] },
  {
    code: 'docs-start',
    url: 'https://docs.example.com/getting-started',
    title: 'Getting started',
    tags: ['docs'],
  },
  { code: 'careers', url: 'https://jobs.example.com/open-roles', title: 'We are hiring', tags: [] },
];

/** Clicks per link (days ago of each), so last clicks read hours, days and weeks ago. */
const CLICKS: Readonly<Record<string, number[]>> = {
  spring: [0, 0, 0, 1, 2, 3, 5, 8],
  'launch-post': [1, 1, 2, 4, 6, 9, 12],
  press: [13, 20],
  'demo-video': [0, 3, 7],
  'old-teaser': [29],
};

async function main(): Promise<void> {
  const [dir = 'docs/screenshots'] = process.argv.slice(2);
  await mkdir(dir, { recursive: true });
  const t = await startTestApp({ env: { BASE_URL: 'http://snip.example' } });
  const browser = await launchBrowser();
  try {
    const { account } = await t.ops.createAccount('maker@example.com', 'tester', PASSWORD);
    const groups: number[] = [];
    for (const name of ['Spring sale', 'Blog'])
      groups.push((await t.ops.createGroup('maker@example.com', name)).id);
    const links: NewLink[] = LINKS.map((link) => ({
      code: link.code,
      domainId: 0,
      workspaceId: account.workspace.id,
      groupId: link.group === undefined ? null : (groups[link.group] ?? null),
      longUrl: link.url,
      normalizedUrl: link.url,
      urlHash: createHash('sha256').update(link.url).digest('hex'),
      title: link.title,
      tags: link.tags,
    }));
    await t.store.insertLinksBulk(links);
    for (const [code, days] of Object.entries(CLICKS)) {
      const link = await t.store.findLinkByCode(0, code);
      if (link)
        await seedVisits(
          t.store,
          link,
          days.map((daysAgo, n) => ({ daysAgo, hour: (n * 5) % 24 })),
        );
    }
    await t.store.updateLink(account.workspace.id, 0, 'old-teaser', { archived: true });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const cookies = await signInCookies(browser, base, 'maker@example.com', PASSWORD);
    const url = `${base}/w/${account.workspace.slug}?tag=launch&state=all&sort=last_click`;
    for (const [name, viewport, colorScheme] of [
      ['workbench-1280', DESKTOP, 'light'],
      ['workbench-390', PHONE, 'light'],
      ['workbench-1280-dark', DESKTOP, 'dark'],
    ] as const) {
      const context = await browser.newContext({ viewport, colorScheme });
      await context.addCookies(cookies);
      const page = await context.newPage();
      await page.goto(url);
      await page.locator('#links').screenshot({ path: join(dir, `${name}.png`) });
      await context.close();
    }
  } finally {
    await browser.close();
    await t.close();
  }
}

await main();
