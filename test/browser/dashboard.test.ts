import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { callApi } from '../fixtures/api-client.ts';
import { createJson, FakeInspector, startTestApp, type TestApp } from '../helper.ts';
import { launchBrowser, screenshot, watchForTrouble } from './browser.ts';

/**
 * The account holder's journey in Chromium: sign up, keys (rotated, added), groups, links (a custom
 * code, changed in place), clicks, chart.
 */

const HOSTILE = '<img src=x onerror=alert(1)>';
const PASSWORD = 'correct horse battery';
const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

describe('the dashboard and account pages in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let trouble: string[];
  let base: string;
  let firstKey = '';

  before(async () => {
    const inspector = new FakeInspector();
    inspector.outcome = (url) => ({
      ok: true,
      title: url.pathname === '/hostile' ? HOSTILE : 'Example Article',
      finalUrl: url.href,
      status: 200,
    });
    // Plain http, so the cookies carry no Secure flag on http://127.0.0.1.
    t = await startTestApp({ inspector, env: { BASE_URL: 'http://snip.test', SIGNUP_PLAN: 'tester' } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    page = await context.newPage();
    trouble = watchForTrouble(page);
  });

  after(async () => {
    await browser?.close();
    await t.close();
  });

  /** Clicks a copy button and answers what it copied (or, without clipboard access, selected). */
  async function copyWith(button: string): Promise<string> {
    await page.click(button);
    await page.waitForFunction(
      (selector) => document.querySelector(selector)?.hasAttribute('data-copied'),
      button,
    );
    const how = await page.getAttribute(button, 'data-copied');
    return how === 'true'
      ? page.evaluate(() => navigator.clipboard.readText())
      : page.evaluate(() => getSelection()?.toString() ?? '');
  }

  it('signs up, shows the new key once with a copy button, and the key works', async () => {
    await page.goto(`${base}/signup`);
    await page.fill('input[name=email]', 'ada@example.com');
    await page.fill('input[name=password]', PASSWORD);
    await page.click('form[action="/signup"] button[type=submit]');
    await page.waitForURL(/\/w\/[a-z0-9-]+\/keys$/);
    firstKey = (await page.textContent('#api-key')) ?? '';
    assert.match(firstKey, /^snip_[A-Za-z0-9_-]{43}$/);
    assert.equal(await copyWith('button[data-copy-from="api-key"]'), firstKey);
    assert.equal((await createJson(t.app, firstKey, { url: 'https://example.com/by-api' })).status, 201);
    await screenshot(page, 'account-key-shown');

    await page.reload();
    assert.equal(await page.locator('#api-key').count(), 0, 'shown once only');
    assert.equal(await page.textContent('#api-key-prefix'), firstKey.slice(0, 11));
  });

  it('rotates the key after the confirmation box; the old key stops working', async () => {
    await page.check('input[name=understand]');
    await page.click('form[action$="/keys/main"] button[type=submit]');
    await page.waitForSelector('#api-key');
    const rotated = (await page.textContent('#api-key')) ?? '';
    assert.match(rotated, /^snip_/);
    assert.notEqual(rotated, firstKey);
    assert.equal((await createJson(t.app, firstKey, { url: 'https://example.com/old' })).body.error, '303');
    assert.equal((await createJson(t.app, rotated, { url: 'https://example.com/new' })).status, 201);
    await screenshot(page, 'account');
  });

  it('adds a named key with chosen scopes from the keyboard, shows it once, and it works within them', async () => {
    await page.fill('form[action$="/keys"] input[name=name]', 'Nightly report');
    await page.focus('input[name=scopes][value="links:read"]');
    await page.keyboard.press('Space');
    assert.equal(await page.isChecked('input[name=scopes][value="links:read"]'), true);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    assert.equal(
      await page.isChecked('input[name=scopes][value="stats:read"]'),
      true,
      'stats:read is offered',
    );
    await page.click('form[action$="/keys"] button[type=submit]');
    await page.waitForSelector('#api-key');
    assert.match((await page.textContent('.fresh-key')) ?? '', /Your new key “Nightly report”/);
    assert.equal(await page.getAttribute('[data-done]', 'data-done'), 'key-created');
    const key = (await page.textContent('#api-key')) ?? '';
    assert.match(key, /^snip_[A-Za-z0-9_-]{43}$/);
    assert.equal((await callApi(t.app, 'GET', '/links', { key, bearer: true })).status, 200);
    assert.equal(
      (await callApi(t.app, 'POST', '/links', { key, body: { url: 'https://example.com/k' } })).status,
      403,
    );
    const row = page.locator('table.keys tr').filter({ hasText: 'Nightly report' });
    assert.match((await row.textContent()) ?? '', /links:read\s+stats:read/);
    assert.match((await row.textContent()) ?? '', new RegExp(`${key.slice(0, 11)}…`));
    await screenshot(page, 'account-keys');

    await page.reload();
    assert.equal(await page.locator('#api-key').count(), 0, 'shown once only');
    assert.equal(await page.locator('table.keys tr').filter({ hasText: 'Nightly report' }).count(), 1);
    assert.deepEqual(trouble, []);
  });

  it('signs out and back in', async () => {
    await page.click('form.sign-out button');
    await page.waitForURL(`${base}/login`);
    assert.equal(await page.locator('form.sign-out').count(), 0);
    await page.fill('input[name=email]', 'ada@example.com');
    await page.fill('input[name=password]', PASSWORD);
    await page.click('form[action="/login"] button[type=submit]');
    await page.waitForURL(/\/w\/[a-z0-9-]+$/);
    assert.equal(await page.textContent('h1'), 'Dashboard');
  });

  it('creates a group and a link in it, and lists the link with its clicks after two redirects', async () => {
    await page.fill('#groups form[action$="/groups"] input[name=name]', 'Spring Sale');
    await page.click('#groups form[action$="/groups"] button[type=submit]');
    await page.waitForSelector('tr[data-group-id]');
    assert.match((await page.textContent('tr[data-group-id] .group-ids')) ?? '', /spring-sale/);
    const groupId = await page.getAttribute('tr[data-group-id]', 'data-group-id');
    assert.ok(groupId);

    await page.fill('#create input[name=url]', 'https://example.com/article');
    await page.selectOption('#create select[name=group]', groupId);
    await page.click('#create button[type=submit]');
    await page.waitForSelector('[data-done=link-created]');
    const row = page.locator('tr[data-code]').filter({ hasText: 'https://example.com/article' });
    const code = (await row.getAttribute('data-code')) ?? '';
    assert.match(code, /^[0-9A-Za-z]{7}$/);
    assert.match((await row.textContent()) ?? '', /Spring Sale/);
    assert.match((await row.textContent()) ?? '', /Example Article/);
    assert.equal(await copyWith(`button[data-copy-from="short-${code}"]`), `http://snip.test/${code}`);

    for (let i = 0; i < 2; i++) {
      const answer = await fetch(`${base}/${code}`, {
        redirect: 'manual',
        headers: { 'user-agent': BROWSER_UA },
      });
      assert.equal(answer.status, 302);
    }
    await t.app.clicks.flush();
    await page.reload();
    assert.equal(await page.getAttribute(`tr[data-code="${code}"] td[data-clicks]`, 'data-clicks'), '2');
  });

  it('draws the clicks per day as bars, with the day and count of each bar', async () => {
    const chart = page.locator('.chart[data-total="2"]');
    const box = await chart.locator('svg').boundingBox();
    assert.ok(box && box.width > 300 && box.height > 100, `chart box ${JSON.stringify(box)}`);
    const bar = chart.locator('rect.bar');
    assert.equal(await bar.count(), 1);
    assert.match((await bar.locator('title').textContent()) ?? '', /^\d{4}-\d{2}-\d{2}: 2 clicks$/);
    await screenshot(page, 'dashboard');
  });

  it('renders a hostile title as text', async () => {
    await page.fill('#create input[name=url]', 'https://example.com/hostile');
    await page.click('#create button[type=submit]');
    await page.waitForSelector('[data-done=link-created]');
    const titles = await page.locator('tr[data-code] .title').allTextContents();
    assert.ok(titles.includes(HOSTILE), `titles: ${titles.join(' | ')}`);
    assert.equal(await page.locator('img').count(), 0);
    assert.deepEqual(trouble, []);
  });

  it('shows one link with its chart, its clicks and a QR code to download', async () => {
    const row = page.locator('tr[data-code]').filter({ hasText: 'https://example.com/article' });
    const code = (await row.getAttribute('data-code')) ?? '';
    await page.click(`tr[data-code="${code}"] a.title`);
    await page.waitForSelector('.chart svg rect.bar');
    assert.equal(await page.getAttribute('dd[data-clicks]', 'data-clicks'), '2');
    const qr = page.locator('.qr img');
    await qr.evaluate((img: HTMLImageElement) => img.decode());
    assert.ok((await qr.evaluate((img: HTMLImageElement) => img.naturalWidth)) > 0);
    assert.equal(await page.getAttribute('.qr a[download]', 'href'), `/qrcode/${code}.png?size=1024`);
    await screenshot(page, 'dashboard-link');
    assert.deepEqual(trouble, []);
  });

  it('changes the link in place: its target, title and group, keeping the input of a refused change', async () => {
    const code = page.url().split('/').pop() ?? '';
    await page.fill('#edit input[name=url]', 'https://example.com/article-moved');
    await page.fill('#edit input[name=title]', 'Moved article');
    await page.selectOption('#edit select[name=group]', '');
    await page.click('#edit button[type=submit]');
    await page.waitForSelector('[data-done=saved]');
    assert.equal(await page.textContent('dd.title'), 'Moved article');
    assert.match((await page.textContent('.facts')) ?? '', /https:\/\/example\.com\/article-moved/);
    const moved = await fetch(`${base}/${code}`, {
      redirect: 'manual',
      headers: { 'user-agent': BROWSER_UA },
    });
    assert.equal(moved.headers.get('location'), 'https://example.com/article-moved');

    await page.fill('#edit input[name=url]', 'https://facebook.com/x');
    await page.click('#edit button[type=submit]');
    await page.waitForSelector('#edit [data-error="310"]');
    assert.equal(await page.inputValue('#edit input[name=url]'), 'https://facebook.com/x');
    assert.equal(await page.textContent('dd.title'), 'Moved article', 'nothing changed');
    await screenshot(page, 'dashboard-link-edit');
    assert.deepEqual(trouble, []);
  });

  it('creates a link under a custom code, and says so when the code is reserved', async () => {
    await page.goto(`${base}/dashboard`);
    const slug = page.locator('#create input[name=slug]');
    await slug.fill('a b');
    assert.equal(await slug.evaluate((input: HTMLInputElement) => input.checkValidity()), false);
    await page.fill('#create input[name=url]', 'https://example.com/launch');
    await slug.fill('spring-launch');
    await page.click('#create button[type=submit]');
    await page.waitForSelector('[data-done=link-created]');
    assert.equal(await page.locator('tr[data-code="spring-launch"]').count(), 1);
    assert.match((await page.textContent('[data-done=link-created]')) ?? '', /snip\.test\/spring-launch/);

    await page.fill('#create input[name=url]', 'https://example.com/reserved');
    await slug.fill('dashboard');
    await page.click('#create button[type=submit]');
    await page.waitForSelector('#create [data-error="313"]');
    assert.equal(await slug.inputValue(), 'dashboard');
    assert.equal(await page.inputValue('#create input[name=url]'), 'https://example.com/reserved');
    assert.deepEqual(trouble, []);
  });

  it('fits a phone-width screen', async () => {
    const phone = await browser.newContext({ viewport: { width: 375, height: 740 } });
    const small = await phone.newPage();
    await phone.addCookies(await context.cookies());
    await small.goto(`${base}/dashboard`);
    await small.waitForSelector('.chart svg rect.bar');
    const overflow = await small.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `page is ${overflow}px wider than the screen`);
    await screenshot(small, 'dashboard-phone');
    await phone.close();
  });
});
