import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser, Cookie, Page } from 'playwright-core';
import type { Role } from '../../src/core/authorization.ts';
import type { Workspace } from '../../src/core/entities.ts';
import { newLinkToken } from '../../src/core/link-token.ts';
import { apiAccess } from '../../src/features/workspaces/api-access.ts';
import { workspaceAdmin } from '../../src/features/workspaces/index.ts';
import { membersService } from '../../src/features/workspaces/members.ts';
import { PageClient } from '../fixtures/page-client.ts';
import { type SmtpInbox, startSmtpInbox } from '../fixtures/smtp-inbox.ts';
import { FakeInspector, startTestApp, type TestApp } from '../helper.ts';
import { launchBrowser, watchForTrouble } from './browser.ts';
import { checkPage, DESKTOP, PHONE, problems, signInCookies } from './page-checks.ts';

/**
 * The workspace pages (docs/api.md §11) through the shared checks (page-checks.ts): Members with a
 * member of each role and pending invitations, as the owner and as an admin, and right after
 * inviting; an invitation signed out and signed in as its person; Settings; Keys; Account Settings
 * of someone in several workspaces; the navigation with the switcher open. Then the switcher used.
 */

const PASSWORD = 'correct horse battery';
const DAY_MS = 86_400_000;
const ACME = 'Acme Marketing and Communications, Europe';

/** A team workspace with its first owner and further members. */
async function team(
  t: TestApp,
  slug: string,
  name: string,
  owner: string,
  others: ReadonlyArray<readonly [string, Role]>,
): Promise<Workspace> {
  const workspace = await workspaceAdmin(t.store).create(slug, owner, 'tester', name);
  for (const [email, role] of others) await membersService(t.store).add(workspace, email, role);
  return workspace;
}

/** Links of the open switcher that are off the screen, under something else, or over one another. */
function panelTrouble(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const links = [...document.querySelectorAll<HTMLElement>('details.switcher[open] li a')];
    const boxes = links.map((link) => link.getBoundingClientRect());
    const found: string[] = [];
    links.forEach((link, i) => {
      const box = boxes[i] as DOMRect;
      const name = link.textContent ?? '';
      if (box.left < 0 || box.right > window.innerWidth) found.push(`${name}: off the screen`);
      const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      if (!top || !link.contains(top)) found.push(`${name}: under ${top?.tagName}`);
      const next = boxes[i + 1];
      if (next && next.top < box.bottom - 1) found.push(`${name}: over the next`);
    });
    return links.length === 0 ? ['no links'] : found;
  });
}

describe('the workspace pages in Chromium, at 1280 and 390 px, light and dark', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let token = '';
  const cookies = new Map<string, Cookie[]>();

  before(async () => {
    t = await startTestApp({ inspector: new FakeInspector(), env: { BASE_URL: 'http://snip.test' } });
    for (const email of [
      'olga@example.com',
      'ada.lovelace@example.com',
      'max@example.com',
      'vic@example.com',
      'iris@example.com',
    ]) {
      await t.ops.createAccount(email, 'tester', PASSWORD);
    }
    const acme = await team(t, 'acme', ACME, 'olga@example.com', [
      ['ada.lovelace@example.com', 'admin'],
      ['max@example.com', 'member'],
      ['vic@example.com', 'viewer'],
    ]);
    await team(t, 'beta', 'Beta', 'olga@example.com', []);
    await team(t, 'research', 'Research and Development Laboratory', 'ada.lovelace@example.com', [
      ['olga@example.com', 'viewer'],
    ]);
    const olga = await t.store.findUserByEmail('olga@example.com');
    const maker = { userId: olga?.id ?? null, role: 'owner' } as const;
    await apiAccess(t.store).add(acme, maker, 'Nightly report', ['links:read', 'stats:read']);
    await apiAccess(t.store).add(acme, maker, 'Deploy script of the marketing site', ['links:create']);
    const invitation = newLinkToken();
    token = invitation.token;
    for (const [email, role, tokenHash] of [
      ['iris@example.com', 'member', invitation.hash],
      ['someone.with.a.rather.long.address@example.com', 'viewer', newLinkToken().hash],
    ] as const) {
      await t.store.createInvitation({
        workspaceId: acme.id,
        email,
        role,
        tokenHash,
        invitedBy: olga?.id ?? null,
        expiresAt: new Date(Date.now() + 7 * DAY_MS),
      });
    }
    const owner = new PageClient(t.app);
    await owner.signIn('olga@example.com', PASSWORD);
    await owner.open('/w/acme');
    for (const n of [1, 2, 3]) await owner.post('/w/acme/links', { url: `https://example.com/launch/${n}` });

    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
    for (const email of ['olga@example.com', 'ada.lovelace@example.com', 'iris@example.com']) {
      cookies.set(email, await signInCookies(browser, base, email, PASSWORD));
    }
  });

  after(async () => {
    await browser?.close();
    await t?.close();
  });

  const openSwitcher = async (page: Page) => {
    await page.click('details.switcher summary');
    await page.waitForSelector('details.switcher[open] ul a');
  };
  const invite = async (page: Page) => {
    await page.fill('#invitations input[name=email]', 'new.colleague@example.com');
    await page.selectOption('#invitations select[name=role]', 'admin');
    await page.click('#invitations button[type=submit]');
    await page.waitForSelector('[data-state=invitation-made] #invitation-url');
  };
  // The open switcher's panel is drawn over the page's head by design, as a menu is; the interaction
  // test below checks that each of its links is on the screen and on top.
  const overlapsByDesign: Record<string, string> = {
    'switcher-open': 'details.switcher li, details.switcher li *',
  };
  const pages: Array<[string, () => string, string | undefined, ((page: Page) => Promise<void>)?]> = [
    ['members-owner', () => '/w/acme/members', 'olga@example.com'],
    ['members-admin', () => '/w/acme/members', 'ada.lovelace@example.com'],
    ['members-invited', () => '/w/acme/members', 'olga@example.com', invite],
    ['invitation-signed-out', () => `/invitations/${token}`, undefined],
    ['invitation-invitee', () => `/invitations/${token}`, 'iris@example.com'],
    ['settings', () => '/w/acme/settings', 'olga@example.com'],
    ['keys', () => '/w/acme/keys', 'olga@example.com'],
    ['account-workspaces', () => '/account', 'olga@example.com'],
    ['switcher-open', () => '/w/acme', 'olga@example.com', openSwitcher],
  ];
  for (const [name, path, who, ready] of pages) {
    it(`shows ${name} without overflow, overlaps or serious accessibility violations`, async () => {
      const report = await checkPage(browser, `${base}${path()}`, name, {
        cookies: who === undefined ? undefined : cookies.get(who),
        ready,
        overlapsByDesign: overlapsByDesign[name],
      });
      assert.deepEqual(problems(report), []);
    });
  }

  it('moves to another workspace through the switcher, at both widths', async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const context = await browser.newContext({ viewport });
      await context.addCookies(cookies.get('olga@example.com') ?? []);
      const page = await context.newPage();
      const trouble = watchForTrouble(page);
      await page.goto(`${base}/w/acme`);
      const switcher = page.locator('details.switcher');
      assert.equal(await switcher.evaluate((element) => (element as HTMLDetailsElement).open), false);
      await switcher.locator('summary').click();
      assert.deepEqual(await panelTrouble(page), [], `the open panel at ${viewport.width} px`);
      await switcher.getByRole('link', { name: 'Beta' }).click();
      await page.waitForURL(`${base}/w/beta`);
      assert.equal((await page.locator('details.switcher summary').textContent())?.trim(), 'Beta');
      assert.equal(await page.getAttribute('nav a[aria-current=page]', 'href'), '/w/beta');
      await page.goto(`${base}/dashboard`);
      assert.equal(page.url(), `${base}/w/beta`, '/dashboard now leads to the workspace chosen');
      assert.deepEqual(trouble, []);
      await context.close();
    }
  });
});

describe('the answer to a sign-up with mail in Chromium, at 1280 and 390 px, light and dark', () => {
  let inbox: SmtpInbox;
  let t: TestApp;
  let browser: Browser;
  let base: string;

  before(async () => {
    inbox = await startSmtpInbox();
    t = await startTestApp({
      inspector: new FakeInspector(),
      env: { BASE_URL: 'http://snip.test', SMTP_URL: inbox.url, MAIL_FROM: 'Snip <snip@snip.test>' },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    await inbox?.close();
  });

  it('shows signup-mailed without overflow, overlaps or serious accessibility violations', async () => {
    let n = 0;
    const report = await checkPage(browser, `${base}/signup`, 'signup-mailed', {
      ready: async (page) => {
        await page.fill('input[name=email]', `someone.with.a.rather.long.address.${++n}@example.com`);
        await page.fill('input[name=password]', PASSWORD);
        await page.click('button[type=submit]');
        await page.waitForSelector('[data-state=signup-mailed]');
      },
    });
    assert.deepEqual(problems(report), []);
  });
});
