import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser, Cookie } from 'playwright-core';
import { workspaceAdmin } from '../../src/features/workspaces/index.ts';
import { membersService } from '../../src/features/workspaces/members.ts';
import { createJson, FakeInspector, startTestApp, type TestApp } from '../helper.ts';
import { launchBrowser, watchForTrouble } from './browser.ts';
import { checkPage, DESKTOP, problems, signInCookies } from './page-checks.ts';

/**
 * The operator console (docs/api.md §13, §22) and a workspace's audit log through the shared checks
 * (page-checks.ts), with something in each section: the overview's totals, charts, newest links and
 * top workspaces, the newest links before a search, a report with a long comment, an imported
 * list, a disabled link, a suspended workspace, audit entries with their before and after. Then a
 * link disabled from the console's menu in Chromium.
 */

const PASSWORD = 'correct horse battery';
const OPERATOR = 'operator.on.duty@example.com';
const LONG =
  'https://evil.example/account/verify/session/please-log-in-again-to-keep-your-account?ref=mail&campaign=spring';

describe('the operator console in Chromium, at 1280 and 390 px, light and dark', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let code = '';
  const cookies = new Map<string, Cookie[]>();

  before(async () => {
    t = await startTestApp({ inspector: new FakeInspector(), env: { BASE_URL: 'http://snip.test' } });
    for (const email of [OPERATOR, 'olga@example.com', 'sam@example.com'])
      await t.ops.createAccount(email, 'tester', PASSWORD);
    const operator = await t.store.findUserByEmail(OPERATOR);
    await t.store.setUserOperator(operator?.id ?? 0, true);
    const acme = await workspaceAdmin(t.store).create(
      'acme',
      'olga@example.com',
      'tester',
      'Acme Marketing and Communications',
    );
    await membersService(t.store).add(acme, 'sam@example.com', 'admin');
    const spammy = await workspaceAdmin(t.store).create('spammy', 'sam@example.com', 'tester', 'Spammy');
    await t.store.setWorkspaceSuspended(spammy.id, 'sent phishing mail to thousands of addresses');
    const made: string[] = [];
    for (const url of [LONG, 'https://evil.example/a', 'https://good.example/page']) {
      made.push(String((await createJson(t.app, t.apiKey, { url })).body.short_code));
    }
    code = made[1] ?? '';
    const first = await t.store.findLinkByCode(0, made[0] ?? '');
    // Clicks over a few days, for the overview's totals and its top workspaces.
    for (const daysAgo of [0, 1, 5]) {
      const day = new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
      await t.store.addClicks([{ linkId: first?.id ?? 0, day, clicks: 1200 + daysAgo, botHits: 0 }]);
    }
    await t.store.setLinkDisabled(first?.id ?? 0, 'phishing: a copy of a bank’s sign-in page');
    await t.store.addReport({
      url: `http://snip.test/${made[0]}`,
      linkId: first?.id ?? 0,
      reason: 'phishing',
      comment: `<script>alert(1)</script> This pretends to be my bank. ${'It asks for the card number and the PIN. '.repeat(6)}`,
      email: 'a.worried.customer.with.a.long.address@example.com',
    });
    await t.store.replaceBlocklist('phishing-army', null, [{ host: 'evil.example', subdomains: true }], 2);
    for (const [action, target, workspaceId] of [
      ['workspace.plan', 'acme', acme.id],
      ['member.role', 'sam@example.com', acme.id],
      ['blocklist.add', 'a-very-long-host-name-of-a-phishing-campaign.example', null],
    ] as const) {
      await t.store.addAudit({
        actorId: operator?.id ?? null,
        actor: OPERATOR,
        workspaceId,
        action,
        target,
        before: {
          plan: 'tester',
          role: 'member',
          note: 'a long value that has to wrap somewhere on a phone',
        },
        after: { plan: 'big', role: 'admin' },
      });
    }
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
    for (const email of [OPERATOR, 'olga@example.com'])
      cookies.set(email, await signInCookies(browser, base, email, PASSWORD));
  });

  after(async () => {
    await browser?.close();
    await t?.close();
  });

  const pages: Array<[string, string, string]> = [
    ['admin-overview', '/admin', OPERATOR],
    ['admin-users', '/admin/users', OPERATOR],
    ['admin-workspaces', '/admin/workspaces', OPERATOR],
    ['admin-links', '/admin/links?q=evil.example', OPERATOR],
    ['admin-links-newest', '/admin/links', OPERATOR],
    ['admin-reports', '/admin/reports', OPERATOR],
    ['admin-blocklists', '/admin/blocklists', OPERATOR],
    ['admin-audit', '/admin/audit', OPERATOR],
    ['workspace-audit', '/w/acme/audit', 'olga@example.com'],
  ];
  for (const [name, path, email] of pages) {
    it(`shows ${name} without overflow, overlaps or serious accessibility violations`, async () => {
      const report = await checkPage(browser, `${base}${path}`, name, { cookies: cookies.get(email) });
      assert.deepEqual(problems(report), []);
    });
  }

  // An open menu of a row is drawn over the rows under it by design, as the dashboard's are.
  for (const [name, path, row] of [
    ['admin-users-menu', '/admin/users', 'tr[data-user="sam@example.com"]'],
    ['admin-workspaces-menu', '/admin/workspaces', 'tr[data-workspace="acme"]'],
  ] as const) {
    it(`shows ${name} open on the screen, without overflow or serious accessibility violations`, async () => {
      const offScreen: string[] = [];
      const report = await checkPage(browser, `${base}${path}`, name, {
        cookies: cookies.get(OPERATOR),
        ready: async (page) => {
          await page.click(`${row} details.menu summary`);
          const items = page.locator(`${row} details.menu[open] .menu-items`);
          await items.locator('button').first().waitFor();
          const box = await items.boundingBox();
          const width = page.viewportSize()?.width ?? 0;
          if (!box || box.x < 0 || box.x + box.width > width)
            offScreen.push(`${width}px: ${JSON.stringify(box)}`);
        },
        overlapsByDesign: 'details.menu[open] .menu-items, details.menu[open] .menu-items *',
      });
      assert.deepEqual([...problems(report), ...offScreen], []);
    });
  }

  it('disables a link from the menu of its row, and shows it disabled', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    await context.addCookies(cookies.get(OPERATOR) ?? []);
    const page = await context.newPage();
    const trouble = watchForTrouble(page);
    await page.goto(`${base}/admin/links?q=${code}`);
    assert.equal(await page.getAttribute('[data-searched]', 'data-searched'), 'code');
    const row = page.locator(`tr[data-code="${code}"]`);
    await row.locator('details.menu summary').click();
    await row.locator('input[name=reason]').fill('spam');
    await row.locator('[data-action=disable]').click();
    await page.waitForURL(/done=disabled/);
    assert.equal(await page.getAttribute(`tr[data-code="${code}"]`, 'data-disabled'), 'true');
    assert.equal(await page.getAttribute('[data-done]', 'data-done'), 'disabled');
    assert.deepEqual(trouble, []);
    await context.close();
  });
});
