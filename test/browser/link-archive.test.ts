import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser, Cookie } from 'playwright-core';
import { callApi } from '../fixtures/api-client.ts';
import { FakeInspector, send, startTestApp, type TestApp } from '../helper.ts';
import { launchBrowser, watchForTrouble } from './browser.ts';
import { checkPage, problems, signInCookies } from './page-checks.ts';

/**
 * Archiving in Chromium (docs/api.md §18): Archive from a row's menu, and the page of an archived,
 * clicked link (its badge, its state, its last click, the Unarchive button) at 1280 and 390 px,
 * light and dark.
 */

const PASSWORD = 'correct horse battery';
const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

describe('archiving links in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let slug = '';
  let apiKey = '';
  let cookies: Cookie[] = [];

  before(async () => {
    t = await startTestApp({ inspector: new FakeInspector(), env: { BASE_URL: 'http://snip.test' } });
    const made = await t.ops.createAccount('ada@example.com', 'tester', PASSWORD);
    ({ apiKey } = made);
    slug = made.account.workspace.slug;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
    cookies = await signInCookies(browser, base, 'ada@example.com', PASSWORD);
  });

  after(async () => {
    await browser?.close();
    await t?.close();
  });

  async function created(url: string, title: string): Promise<string> {
    const answer = await callApi(t.app, 'POST', '/links', { key: apiKey, body: { url, title } });
    assert.equal(answer.status, 201);
    return answer.body.short_code as string;
  }

  it('archives a link from its row menu: the list says so and the link leaves it', async () => {
    const code = await created('https://example.com/spring-sale', 'Spring sale');
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await context.addCookies(cookies);
    const page = await context.newPage();
    const trouble = watchForTrouble(page);
    await page.goto(`${base}/w/${slug}`);
    await page.click(`tr[data-code="${code}"] .menu-button`);
    const archive = page.locator(`tr[data-code="${code}"] .menu-pop button`, { hasText: 'Archive' });
    await archive.click();
    await page.waitForURL(/done=link-archived/);
    assert.equal(await page.locator('[data-done="link-archived"]').isVisible(), true);
    assert.equal((await t.store.findLinkByCode(0, code))?.archived, true);
    assert.deepEqual(trouble, []);
    await context.close();
  });

  it('shows an archived, clicked link without overflow, overlaps or violations', async () => {
    const code = await created('https://example.com/archived-and-clicked', 'Archived and clicked');
    await callApi(t.app, 'PATCH', `/links/${code}`, { key: apiKey, body: { archived: true } });
    assert.equal((await send(t.app, { url: `/${code}`, headers: { 'user-agent': BROWSER_UA } })).status, 302);
    await t.app.clicks.flush();
    const report = await checkPage(browser, `${base}/w/${slug}/links/${code}`, 'link-archived', {
      cookies,
      ready: (page) => page.waitForSelector('[data-last-click] time').then(() => undefined),
    });
    assert.deepEqual(problems(report), []);
  });
});
