import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Secret, TOTP } from 'otpauth';
import type { Browser, Cookie, Page } from 'playwright-core';
import { newLinkToken } from '../../src/core/link-token.ts';
import { PageClient } from '../fixtures/page-client.ts';
import { type SmtpInbox, startSmtpInbox } from '../fixtures/smtp-inbox.ts';
import { FakeInspector, startTestApp, type TestApp } from '../helper.ts';
import { launchBrowser } from './browser.ts';
import { checkPage, problems, signInCookies } from './page-checks.ts';

/**
 * The pages of accounts people trust (docs/api.md §22) through the shared checks (page-checks.ts):
 * Account Settings with its sessions, two-factor, email and deletion cards (and with two-factor on),
 * turning two-factor on and the recovery codes shown, the code asked at sign-in, and the page of a
 * mailed change-of-email link.
 */

const PASSWORD = 'correct horse battery';
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';

describe('the account pages of SPEC 22 in Chromium, at 1280 and 390 px, light and dark', () => {
  let t: TestApp;
  let inbox: SmtpInbox;
  let browser: Browser;
  let base: string;
  let changeToken = '';
  const cookies = new Map<string, Cookie[]>();

  before(async () => {
    inbox = await startSmtpInbox();
    t = await startTestApp({
      inspector: new FakeInspector(),
      env: { BASE_URL: 'http://snip.test', SMTP_URL: inbox.url, MAIL_FROM: 'Snip <snip@sn.ip>' },
    });
    for (const who of ['olga', 'trudi', 'otto', 'codes']) {
      await t.ops.createAccount(`${who}@example.com`, 'tester', PASSWORD);
    }
    // Olga is signed in elsewhere too, from a browser the list names by its families.
    const elsewhere = new PageClient(t.app);
    elsewhere.userAgent = CHROME;
    await elsewhere.signIn('olga@example.com', PASSWORD);
    // Otto signs in before his two-factor is on (the browser could not give a code).
    const ottoClient = new PageClient(t.app);
    await ottoClient.signIn('otto@example.com', PASSWORD);
    const otto = await t.store.findUserByEmail('otto@example.com');
    await t.store.enableTwoFactor(otto?.id ?? 0, 'v1.sealed.elsewhere.x', 0, ['a', 'b', 'c']);
    const change = newLinkToken();
    changeToken = change.token;
    await t.store.createEmailChange(
      change.hash,
      otto?.id ?? 0,
      'otto.new@example.com',
      new Date(Date.now() + 3_600_000),
    );

    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
    for (const who of ['olga', 'trudi', 'codes']) {
      cookies.set(who, await signInCookies(browser, base, `${who}@example.com`, PASSWORD));
    }
    const session = ottoClient.cookies.get('snip_session') ?? '';
    cookies.set('otto', [{ name: 'snip_session', value: session, url: base } as unknown as Cookie]);
  });

  after(async () => {
    await browser?.close();
    await t?.close();
    await inbox?.close();
  });

  /** Turns two-factor on from its page with a code of the key shown there (again at each width). */
  const turnOn = async (page: Page) => {
    const codes = await t.store.findUserByEmail('codes@example.com');
    if (codes?.twoFactor) {
      await t.store.disableTwoFactor(codes.id);
      await page.goto(`${base}/account/2fa`);
    }
    const secret = (await page.getAttribute('[data-secret]', 'data-secret')) ?? '';
    const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
    await page.fill('input[name=code]', totp.generate());
    await page.click('form[action="/account/2fa"] button[type=submit]');
    await page.waitForSelector('[data-recovery-codes]');
  };
  const askForCode = async (page: Page) => {
    await page.fill('input[name=email]', 'otto@example.com');
    await page.fill('input[name=password]', PASSWORD);
    await page.click('form[action="/login"] button[type=submit]');
    await page.waitForSelector('[data-state=code-asked]');
  };

  const pages: Array<[string, () => string, string | undefined, ((page: Page) => Promise<void>)?]> = [
    ['account-sessions', () => '/account', 'olga'],
    ['account-two-factor-on', () => '/account', 'otto'],
    ['two-factor-setup', () => '/account/2fa', 'trudi'],
    ['two-factor-recovery-codes', () => '/account/2fa', 'codes', turnOn],
    ['sign-in-code', () => '/login', undefined, askForCode],
    ['email-change-confirm', () => `/email/change/${changeToken}`, undefined],
  ];
  for (const [name, path, who, ready] of pages) {
    it(`shows ${name} without overflow, overlaps or serious accessibility violations`, async () => {
      const report = await checkPage(browser, `${base}${path()}`, name, {
        cookies: who === undefined ? undefined : cookies.get(who),
        ready,
      });
      assert.deepEqual(problems(report), []);
    });
  }
});
