import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser, Cookie, Page } from 'playwright-core';
import type { LinkGuards, NewLink } from '../../src/core/entities.ts';
import { hashPassword } from '../../src/core/password.ts';
import { apiAccess } from '../../src/features/workspaces/api-access.ts';
import { sealFreshKey } from '../../src/features/workspaces/fresh-key.ts';
import { FakeInspector, startTestApp, type TestApp } from '../helper.ts';
import { launchBrowser } from './browser.ts';
import { checkPage, DESKTOP, PHONE, problems, signInCookies } from './page-checks.ts';

/**
 * Every page in Chromium through the shared checks (page-checks.ts): the landing page, the tester,
 * sign-up and sign-in, the dashboard empty and with 200 links in 3 groups (some with rules), one
 * link's page with and without rules, the visit stats of the account and of a link (counts without
 * details; test/browser/stats.test.ts shows them with details and empty), Account Settings, the 404 page, the 410 pages of an expired,
 * a used-up and a disabled link, a link's password form, the report form, the API reference and the pricing page (to a visitor, an
 * owner on a free plan and one on a paid plan). New pages join this list.
 */

const PASSWORD = 'correct horse battery';
const DAY_MS = 86_400_000;

function seededLinks(workspaceId: number, groupIds: number[], guards: Record<number, LinkGuards>): NewLink[] {
  return Array.from({ length: 200 }, (_, i) => {
    const url = `https://example.com/articles/${i}/a-rather-long-path-that-goes-on-and-on?utm_source=newsletter&n=${i}`;
    return {
      code: `P${String(i).padStart(6, '0')}`,
      domainId: 0,
      workspaceId,
      groupId: i % 4 === 3 ? null : (groupIds[i % 3] ?? null),
      longUrl: url,
      normalizedUrl: url,
      urlHash: createHash('sha256').update(url).digest('hex'),
      title: i % 5 === 0 ? '' : `Article ${i}: a headline long enough to be cut short in the list of links`,
      guards: guards[i],
    };
  });
}

describe('every page in Chromium, at 1280 and 390 px, light and dark', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let full: Cookie[] = [];
  let empty: Cookie[] = [];
  let paying: Cookie[] = [];
  let linkCode = '';

  const signIn = (email: string) => signInCookies(browser, base, email, PASSWORD);

  before(async () => {
    t = await startTestApp({ inspector: new FakeInspector(), env: { BASE_URL: 'http://snip.test' } });
    const { account } = await t.ops.createAccount('busy@example.com', 'tester', PASSWORD);
    await t.ops.createAccount('new@example.com', 'tester', PASSWORD);
    const groupIds: number[] = [];
    for (const name of ['Spring sale', 'Newsletter', 'Docs']) {
      groupIds.push((await t.ops.createGroup('busy@example.com', name)).id);
    }
    // The newest links carry rules, so that their badges are on the first page: expired, used up
    // (a limit of one, then clicked), every rule at once, a password alone.
    const rules = [
      { if: { device: 'ios' as const }, url: 'https://example.com/app' },
      { if: { country: 'DE', language: 'de' }, url: 'https://example.com/de' },
    ];
    const passwordHash = await hashPassword('open sesame');
    await t.store.insertLinksBulk(
      seededLinks(account.workspace.id, groupIds, {
        199: { expiresAt: new Date(Date.now() - DAY_MS) },
        198: { maxClicks: 1, rules },
        197: { expiresAt: new Date(Date.now() + 90 * DAY_MS), maxClicks: 1000, passwordHash, rules },
        196: { passwordHash },
        // A social preview and query forwarding (docs/api.md §16); its image address answers nothing.
        194: {
          forwardQuery: true,
          preview: {
            title: 'Spring sale: every article half off until Sunday',
            description: 'A long description of the sale, long enough to wrap over a few lines of the card.',
            image: 'https://127.0.0.1:9/card.png',
          },
        },
      }),
    );
    const usedUp = await t.store.findLinkByCode(0, 'P000198');
    assert.ok(usedUp && (await t.store.takeVisit(usedUp.id)));
    // One an operator disabled (docs/api.md §13).
    const disabled = await t.store.findLinkByCode(0, 'P000195');
    assert.ok(disabled && (await t.store.setLinkDisabled(disabled.id, 'phishing')));
    const listed = await t.store.listLinks(account.workspace.id, { limit: 30 });
    const today = Date.now();
    await t.store.addClicks(
      listed.links.flatMap((link, i) =>
        [0, 3, 7, 12].map((back) => ({
          linkId: link.id,
          day: new Date(today - back * DAY_MS).toISOString().slice(0, 10),
          clicks: (i % 7) + back,
          botHits: i % 3,
        })),
      ),
    );
    linkCode = listed.links[1]?.code ?? '';
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
    full = await signIn('busy@example.com');
    empty = await signIn('new@example.com');
    // /pricing lists the public plans: new@ is an owner on a free one, paying@ on a paid one.
    await t.ops.savePlan('tester', { public: true, description: 'What the tests run on.' });
    await t.ops.savePlan('pro', { public: true, price: { amount: 900, currency: 'EUR' } });
    await t.ops.createAccount('paying@example.com', 'pro', PASSWORD);
    paying = await signIn('paying@example.com');
  });

  after(async () => {
    await browser?.close();
    await t?.close();
  });

  const pages: Array<[string, string, () => Cookie[] | undefined]> = [
    ['landing', '/', () => undefined],
    ['tester', '/tester', () => undefined],
    ['signup', '/signup', () => undefined],
    ['signin', '/login', () => undefined],
    ['dashboard-empty', '/dashboard', () => empty],
    ['dashboard-full', '/dashboard', () => full],
    ['link', '/dashboard/links/LINK', () => full],
    ['stats-account-counts', '/dashboard/stats', () => full],
    ['stats-link-counts', '/dashboard/links/LINK/stats', () => full],
    ['account', '/account', () => full],
    ['not-found', '/Zzzzzzz', () => undefined],
    ['gone-expired', '/P000199', () => undefined],
    ['gone-used-up', '/P000198', () => undefined],
    ['gone-disabled', '/P000195', () => undefined],
    ['report', '/report', () => undefined],
    ['link-password', '/P000196', () => undefined],
    ['link-rules', '/dashboard/links/P000197', () => full],
    ['link-edit', '/dashboard/links/P000197?edit', () => full],
    ['link-preview', '/dashboard/links/P000194', () => full],
    ['links-bulk', '/dashboard/bulk', () => full],
    ['docs', '/docs', () => undefined],
    // Settings → Billing without Stripe (the operator's contact); with Stripe: test/browser/billing.test.ts.
    ['billing-operator', '/dashboard/billing', () => empty],
    ['pricing-visitor', '/pricing', () => undefined],
    ['pricing-free-owner', '/pricing', () => empty],
    ['pricing-paying-owner', '/pricing', () => paying],
  ];
  /** What a page's script must have finished before it is checked. */
  const ready: Record<string, (page: Page) => Promise<void>> = {
    tester: async (page) => {
      await page.waitForSelector('#log-state:text("live")');
    },
    docs: async (page) => {
      await page.waitForSelector('#redoc[data-state=ready]');
    },
  };
  const overlapsByDesign: Record<string, string> = {
    // Redoc's content-type menus draw their arrow inside the label's padding and lay the browser's own
    // <select>, transparent, over both, so the native control does the choosing.
    docs: '#redoc :has(> select.dropdown-select) > *',
  };
  // The API reference renders a megabyte of script and axe walks its whole DOM four times: beside
  // another suite on two cores it outlasted the default 300 s bound; the bound is against a hang.
  for (const [name, path, cookies] of pages) {
    const bound = name === 'docs' ? { timeout: 900_000 } : {};
    it(`shows ${name} without overflow, overlaps or serious accessibility violations`, bound, async () => {
      const report = await checkPage(browser, `${base}${path.replace('LINK', linkCode)}`, name, {
        cookies: cookies(),
        ready: ready[name],
        overlapsByDesign: overlapsByDesign[name],
      });
      assert.deepEqual(problems(report), []);
    });
  }

  // States a form leads to: a new key shown once beside the keys list, refused changes with the input kept.
  it('shows account-key-shown (a new key, the keys list) without overflow, overlaps or violations', async () => {
    const account = await t.store.findAccountByEmail('busy@example.com');
    assert.ok(account);
    const keys = apiAccess(t.store);
    const maker = { userId: account.user.id, role: 'owner' } as const;
    await keys.add(account.workspace, maker, 'Nightly report', ['links:read', 'stats:read']);
    const long = 'Deploy script of the marketing site, with a long name';
    const key = await keys.add(account.workspace, maker, long, ['links:create']);
    const session = full.find((cookie) => cookie.name === 'snip_session');
    assert.ok(session);
    // Sealed now, not when the suite starts: a slow run of the pages before must not outlast its 10 minutes.
    const sealed = sealFreshKey(session.value, key, Date.now() + 600_000);
    const withFreshKey: Cookie[] = [
      ...full,
      { ...session, name: 'snip_fresh_key', value: sealed, path: '/w/' },
    ];
    const report = await checkPage(browser, `${base}/dashboard/keys`, 'account-key-shown', {
      cookies: withFreshKey,
      ready: async (page) => {
        await page.waitForSelector('#api-key');
        assert.equal(await page.locator('table.keys tbody tr').count(), 3);
      },
    });
    assert.deepEqual(problems(report), []);
  });

  it('shows link-edit-refused (the edit form with an error) without overflow, overlaps or violations', async () => {
    const report = await checkPage(browser, `${base}/dashboard/links/${linkCode}?edit`, 'link-edit-refused', {
      cookies: full,
      ready: async (page) => {
        await page.fill('#edit input[name=url]', 'https://facebook.com/x');
        await page.click('#edit button[type=submit]');
        await page.waitForSelector('#edit [data-error="310"]');
      },
    });
    assert.deepEqual(problems(report), []);
  });

  it('shows link-renamed and link-rename-refused (earlier codes; a code refused) without overflow, overlaps or violations', async () => {
    const account = await t.store.findAccountByEmail('busy@example.com');
    assert.ok(account);
    for (const [from, to] of [
      ['P000150', 'spring-sale-2026-first-week-of-april'],
      ['spring-sale-2026-first-week-of-april', 'spring-sale-2026'],
    ] as const) {
      assert.equal((await t.store.updateLink(account.workspace.id, 0, from, { code: to })).kind, 'updated');
    }
    const shown = await checkPage(browser, `${base}/dashboard/links/spring-sale-2026`, 'link-renamed', {
      cookies: full,
      ready: async (page) => {
        await page.waitForSelector('[data-aliases]');
      },
    });
    assert.deepEqual(problems(shown), []);
    const refused = await checkPage(
      browser,
      `${base}/dashboard/links/spring-sale-2026?edit`,
      'link-rename-refused',
      {
        cookies: full,
        ready: async (page) => {
          await page.fill('#edit input[name=slug]', 'P000100');
          await page.click('#edit button[type=submit]');
          await page.waitForSelector('#edit [data-error="313"]');
        },
      },
    );
    assert.deepEqual(problems(refused), []);
  });

  it('shows dashboard-slug-refused (a custom code refused) without overflow, overlaps or violations', async () => {
    const report = await checkPage(browser, `${base}/dashboard`, 'dashboard-slug-refused', {
      cookies: full,
      ready: async (page) => {
        await page.fill('#create input[name=url]', 'https://example.com/launch');
        await page.fill('#create input[name=slug]', 'dashboard');
        await page.click('#create button[type=submit]');
        await page.waitForSelector('#create [data-error="313"]');
      },
    });
    assert.deepEqual(problems(report), []);
  });

  it('checks the 410 pages and the password form under their own statuses', async () => {
    const statuses = [];
    for (const code of ['P000199', 'P000198', 'P000195', 'P000196']) {
      statuses.push((await fetch(`${base}/${code}`, { redirect: 'manual' })).status);
    }
    assert.deepEqual(statuses, [410, 410, 410, 200]);
  });

  // States of the rule forms and the password form: filled in, refused with the input kept.
  const ruleStates: Array<[string, string, () => Cookie[] | undefined, (page: Page) => Promise<void>]> = [
    [
      'link-password-wrong',
      '/P000197',
      () => undefined,
      async (page) => {
        await page.fill('input[name=password]', 'not it');
        await page.click('form[action="/P000197"] button[type=submit]');
        await page.waitForSelector('[data-error="wrong-password"]');
      },
    ],
    [
      'dashboard-rules',
      '/dashboard',
      () => full,
      async (page) => {
        await page.click('#create details.more summary');
        await page.fill('#create input[name=expires_at]', '2099-06-30T18:30');
        await page.fill('#create input[name=max_clicks]', '100');
        await page.selectOption('#create select[name=rule_device_0]', 'android');
        await page.fill(
          '#create input[name=rule_url_0]',
          'https://example.com/a-rather-long-path-for-android',
        );
      },
    ],
    [
      'dashboard-rules-refused',
      '/dashboard',
      () => full,
      async (page) => {
        await page.fill('#create input[name=url]', 'https://example.com/launch-with-rules');
        await page.click('#create details.more summary');
        await page.fill('#create input[name=rule_country_0]', 'DE');
        await page.fill('#create input[name=rule_url_0]', 'https://facebook.com/x');
        await page.click('#create details.more button[type=submit]');
        await page.waitForSelector('#create [data-error="310"]');
      },
    ],
    [
      'link-rules-refused',
      '/dashboard/links/P000197?edit',
      () => full,
      async (page) => {
        await page.fill('#edit input[name=rule_url_2]', 'https://facebook.com/x');
        await page.selectOption('#edit select[name=rule_device_2]', 'desktop');
        await page.click('#edit button[type=submit]');
        await page.waitForSelector('#edit [data-error="310"]');
      },
    ],
  ];
  // The tools of docs/api.md §16: the UTM builder and preview card filled in, a bulk run's results
  // (one row refused), the QR designer warning of colours too alike.
  let bulkRuns = 0;
  ruleStates.push(
    [
      'dashboard-campaign',
      '/dashboard',
      () => full,
      async (page) => {
        await page.fill('#create input[name=url]', 'https://example.com/spring?ref=home');
        await page.click('#create summary:text("Campaign parameters")');
        await page.fill('#create input[name=utm_source]', 'newsletter');
        await page.fill('#create input[name=utm_campaign]', 'spring-sale-with-a-rather-long-name');
        await page.click('#create summary:text("Link preview in chats")');
        await page.fill('#create input[name=preview_title]', 'Spring sale');
        await page.fill('#create textarea[name=preview_description]', 'Every article half off until Sunday.');
      },
    ],
    [
      'links-bulk-results',
      '/dashboard/bulk',
      // The account without links: the busy one's first page stays as the checks below expect it.
      () => empty,
      async (page) => {
        bulkRuns += 1;
        const list = [
          `https://example.com/bulk-a-${bulkRuns}`,
          'not a url',
          `https://example.com/bulk-b-${bulkRuns},bulk-b-${bulkRuns}`,
        ];
        await page.fill('textarea[name=list]', list.join('\n'));
        await page.click('#bulk-form button[type=submit]');
        await page.waitForSelector('#bulk-results[data-state=done]');
      },
    ],
    [
      // The demo keeps nothing, so its short link leads nowhere: the answer invites a sign-up.
      'landing-demo',
      '/',
      () => undefined,
      async (page) => {
        await page.fill('#demo-box input[name=url]', 'https://example.com/a/long/page');
        await page.click('#demo-box button[type=submit]');
        await page.waitForSelector('[data-invite=signup] a[href="/signup"]');
      },
    ],
    [
      'link-qr-designer',
      '/dashboard/links/P000193',
      () => full,
      async (page) => {
        await page.click('details.qr-design summary');
        await page.fill('input[name=qr_size]', '2000');
        await page.fill('input[name=qr_fg]', '#dddddd');
        await page.waitForSelector('[data-contrast-warning]:not([hidden])');
      },
    ],
  );
  for (const [name, path, cookies, ready] of ruleStates) {
    it(`shows ${name} without overflow, overlaps or violations`, async () => {
      const report = await checkPage(browser, `${base}${path}`, name, { cookies: cookies(), ready });
      assert.deepEqual(problems(report), []);
    });
  }

  it('lists 50 links a page, each on one line of at most 72 px, ordered and paged by keyset', async (test) => {
    const context = await browser.newContext({ viewport: DESKTOP });
    await context.addCookies(full);
    const page = await context.newPage();
    await page.goto(`${base}/dashboard`);
    const heights = await page.$$eval('table.links tbody tr', (rows) =>
      rows.map((row) => row.getBoundingClientRect().height),
    );
    assert.equal(heights.length, 50);
    assert.deepEqual(
      await page.$$eval(
        'tr[data-code="P000199"] [data-badge], tr[data-code="P000198"] [data-badge]',
        (badges) => badges.map((badge) => badge.getAttribute('data-badge')),
      ),
      ['expired', 'used-up', 'rules'],
    );
    assert.ok(Math.max(...heights) <= 72, `rows up to ${Math.max(...heights)} px`);
    test.diagnostic(`link rows ${Math.min(...heights)}–${Math.max(...heights)} px high at 1280 px`);
    await page.click('a[rel=next]');
    await page.waitForURL(/after=/);
    assert.equal(await page.locator('table.links tbody tr').count(), 50);
    await page.click('th a:text("Clicks")');
    await page.waitForURL(/sort=clicks/);
    const clicks = await page.$$eval('td[data-clicks]', (cells) =>
      cells.map((cell) => Number(cell.getAttribute('data-clicks'))),
    );
    assert.deepEqual(
      clicks,
      [...clicks].sort((a, b) => b - a),
    );
    assert.equal(await page.getAttribute('th[aria-sort]', 'aria-sort'), 'descending');
    await context.close();
  });

  it('leads the link page with its chart: the chart is whole on the first screen at both widths', async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const context = await browser.newContext({ viewport });
      await context.addCookies(full);
      const page = await context.newPage();
      await page.goto(`${base}/dashboard/links/${linkCode}`);
      const chart = await page.locator('#chart figure.chart svg').boundingBox();
      assert.ok(chart, 'the link has clicks, so it has a chart');
      assert.ok(
        chart.y >= 0 && chart.y + chart.height <= viewport.height,
        `at ${viewport.width} px: ${JSON.stringify(chart)}`,
      );
      assert.equal(await page.locator('#edit').count(), 0, 'editing waits behind its button');
      await page.click('a[data-edit]');
      await page.waitForSelector('#edit input[name=url]');
      await context.close();
    }
  });

  it('works from the keyboard: menus open and close, focus is visible, copying is announced', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    await context.addCookies(full);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    const page = await context.newPage();
    await page.goto(`${base}/dashboard`);
    // The skip link is the first stop, and it shows when focused.
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to the content');
    const skipTop = await page.evaluate(() => document.activeElement?.getBoundingClientRect().top ?? -1);
    assert.ok(skipTop >= 0, 'the focused skip link is on the screen');
    const button = page.locator('tr[data-code] button[popovertarget]').first();
    await button.focus();
    const outline = await button.evaluate((element) => getComputedStyle(element).outlineStyle);
    assert.notEqual(outline, 'none', 'focus is visible');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-menu]:popover-open');
    await page.keyboard.press('Escape');
    assert.equal(await page.locator('[data-menu]:popover-open').count(), 0);
    assert.equal(
      await button.evaluate((element) => document.activeElement === element),
      true,
      'the focus is back on the menu button',
    );
    await page.locator('tr[data-code] button[data-copy-from]').first().click();
    await page.waitForFunction(() =>
      (document.getElementById('announcer')?.textContent ?? '').startsWith('Copied'),
    );
    assert.match(
      (await page.textContent('#announcer')) ?? '',
      /^Copied http:\/\/snip\.test\/P\d{6} to the clipboard\.$/,
    );
    await context.close();
  });
});
