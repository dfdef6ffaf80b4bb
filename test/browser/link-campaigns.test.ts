import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { callApi } from '../fixtures/api-client.ts';
import { FakeInspector, startTestApp, type TestApp } from '../helper.ts';
import { launchBrowser, screenshot, watchForTrouble } from './browser.ts';

/**
 * The second round of link tools in Chromium (docs/api.md §16): many links from a pasted list and
 * from a CSV file of 1,000 rows, the UTM builder with its live final URL, the social preview with
 * its card, and the QR designer with its live preview and both downloads.
 */

const PASSWORD = 'correct horse battery';
const HOSTILE = '<img src=x onerror=alert(1)>';
/** An https address nothing answers on: the card's image fails to load, as a dead image would. */
const DEAD_IMAGE = 'https://127.0.0.1:9/card.png';

describe('link campaigns, previews, QR design and bulk create in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let trouble: string[];
  let base: string;
  let apiKey = '';
  let workspaceId = 0;

  before(async () => {
    const inspector = new FakeInspector();
    inspector.outcome = (url) =>
      url.pathname === '/gone'
        ? { ok: false, code: '306', reason: 'The target answered 404.', cause: 'status' }
        : { ok: true, title: 'A page', finalUrl: url.href, status: 200 };
    // Room for the 1,000-row file and the rest: every row is one create in the window and the quota.
    t = await startTestApp({
      inspector,
      env: { BASE_URL: 'http://snip.test' },
      plan: { urlQuota: 5000, rateLimitPerHour: 5000 },
    });
    const made = await t.ops.createAccount('ada@example.com', 'tester', PASSWORD);
    apiKey = made.apiKey;
    workspaceId = made.account.workspace.id;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    trouble = watchForTrouble(page);
    await page.goto(`${base}/login`);
    await page.fill('input[name=email]', 'ada@example.com');
    await page.fill('input[name=password]', PASSWORD);
    await page.click('form[action="/login"] button[type=submit]');
    await page.waitForURL(/\/w\/[a-z0-9-]+$/);
  });

  after(async () => {
    await browser?.close();
    await t?.close();
  });

  const apiLink = async (code: string) =>
    (await callApi(t.app, 'GET', `/links/${code}`, { key: apiKey })).body;
  const rowStates = (state: string) => page.locator(`#bulk-rows tr[data-state="${state}"]`);

  it('creates links from a pasted list, each row with its short URL and the bad one with its error', async () => {
    await page.goto(`${base}/dashboard/bulk`);
    await page.fill(
      'textarea[name=list]',
      [
        'https://example.com/one',
        'https://example.com/two,pasted-two,,"Two, quoted"',
        'https://example.com/gone',
        'https://example.com/three',
      ].join('\n'),
    );
    await page.click('#bulk-form button[type=submit]');
    await page.waitForSelector('#bulk-results[data-state=done]');
    assert.equal(await rowStates('created').count(), 3);
    assert.equal(await page.getAttribute('#bulk-rows tr[data-row="2"] [data-error]', 'data-error'), '306');
    const codes = await page
      .locator('#bulk-rows a[data-code]')
      .evaluateAll((links) => links.map((link) => [link.getAttribute('data-code'), link.textContent]));
    assert.equal(codes.length, 3);
    for (const [code, text] of codes) assert.equal(text, `http://snip.test/${code}`);
    assert.equal(codes[1]?.[0], 'pasted-two');
    const two = await apiLink('pasted-two');
    assert.equal(two.long_url, 'https://example.com/two');
    assert.equal(two.title, 'Two, quoted');
    assert.equal(await page.getAttribute('#bulk-progress', 'value'), '4');
    await screenshot(page, 'links-bulk-pasted');
    assert.deepEqual(trouble, []);
  });

  it('creates 1,000 links from a CSV file, showing progress batch by batch, and can stop and go on', async () => {
    const lines = ['url,title,tags'];
    for (let i = 0; i < 1000; i++) lines.push(`https://example.com/file/${i},Row ${i},imported|batch`);
    await page.goto(`${base}/dashboard/bulk`);
    // The third batch is held until the page has been used meanwhile, so the checks below see a run
    // in progress whatever the speed of the machine.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let posts = 0;
    await page.route(/\/bulk$/, async (route: Route) => {
      if (route.request().method() === 'POST' && ++posts === 3) await held;
      await route.continue();
    });
    await page.setInputFiles('input[name=file]', {
      name: 'links.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`${lines.join('\r\n')}\r\n`),
    });
    await page.click('#bulk-form button[type=submit]');
    await page.waitForFunction(
      () =>
        document.querySelectorAll('#bulk-rows tr[data-state=created]').length === 200 &&
        document.querySelectorAll('#bulk-rows tr[data-state=sending]').length === 100,
    );
    assert.equal(await page.getAttribute('#bulk-progress', 'value'), '200');
    assert.equal(await page.getAttribute('#bulk-progress', 'max'), '1000');
    assert.match((await page.textContent('#bulk-status')) ?? '', /^200 of 1,000 rows done: 200 created/);
    assert.equal(await rowStates('waiting').count(), 700);
    // The page stays usable while rows are on their way: typing, and asking it to stop.
    await page.fill('textarea[name=list]', 'https://example.com/typed-meanwhile');
    await page.click('#bulk-stop');
    release();
    await page.waitForSelector('#bulk-results[data-state=stopped]');
    assert.equal(await rowStates('created').count(), 300);
    await page.click('#bulk-resume');
    await page.waitForSelector('#bulk-results[data-state=done]', { timeout: 60_000 });
    await page.unroute(/\/bulk$/);
    assert.equal(await rowStates('created').count(), 1000);
    assert.equal(await page.getAttribute('#bulk-progress', 'value'), '1000');
    assert.match((await page.textContent('#bulk-status')) ?? '', /^Finished: 1,000 created, 0 refused/);
    assert.equal(await page.locator('#bulk-rows tr').count(), 1000);
    const last = await page.getAttribute('#bulk-rows tr[data-row="999"] a[data-code]', 'data-code');
    const made = await apiLink(last ?? '');
    assert.equal(made.long_url, 'https://example.com/file/999');
    assert.deepEqual([...(made.tags as string[])].sort(), ['batch', 'imported']);
    assert.equal(await t.store.countLiveLinks(workspaceId), 1003);
    assert.deepEqual(trouble, []);
  });

  it('previews the final URL as UTM values are typed, and stores the URL with them', async () => {
    await page.goto(`${base}/dashboard`);
    const final = page.locator('#create [data-final-url]');
    await page.fill('#create input[name=url]', 'https://example.com/landing?ref=x&utm_source=old#top');
    await page.click('#create summary:text("Campaign parameters")');
    assert.equal(await final.textContent(), 'https://example.com/landing?ref=x&utm_source=old#top');
    await page.locator('#create input[name=utm_source]').pressSequentially('news');
    assert.equal(await final.textContent(), 'https://example.com/landing?ref=x&utm_source=news#top');
    await page.locator('#create input[name=utm_source]').pressSequentially('letter');
    await page.fill('#create input[name=utm_campaign]', 'spring & summer');
    const expected =
      'https://example.com/landing?ref=x&utm_source=newsletter&utm_campaign=spring%20%26%20summer#top';
    assert.equal(await final.textContent(), expected);
    await page.check('#create input[name=forward_query]');
    await page.click('#create button[type=submit]');
    await page.waitForSelector('[data-done=link-created]');
    const code =
      (await page.getAttribute('[data-done=link-created] code', 'data-copy'))?.split('/').pop() ?? '';
    const made = await apiLink(code);
    assert.equal(made.long_url, expected);
    assert.equal(made.forward_query, true);

    // On the edit form the fields start from the URL; emptying one removes its parameter.
    await page.goto(`${base}/dashboard/links/${code}?edit`);
    const edited = page.locator('#edit [data-final-url]');
    assert.equal(await page.inputValue('#edit input[name=utm_source]'), 'newsletter');
    assert.equal(await page.inputValue('#edit input[name=utm_campaign]'), 'spring & summer');
    await page.fill('#edit input[name=utm_source]', '');
    await page.fill('#edit input[name=utm_medium]', 'email');
    const after = 'https://example.com/landing?ref=x&utm_campaign=spring%20%26%20summer&utm_medium=email#top';
    assert.equal(await edited.textContent(), after);
    await page.uncheck('#edit input[name=forward_query]');
    await page.click('#edit button[type=submit]');
    await page.waitForSelector('[data-done=saved]');
    const changed = await apiLink(code);
    assert.equal(changed.long_url, after);
    assert.equal(changed.forward_query, false);
    assert.deepEqual(trouble, []);
  });

  it('shows the preview card as it is typed, refuses a bad image next to its field, and saves it', async () => {
    await page.goto(`${base}/dashboard`);
    await page.fill('#create input[name=url]', 'https://example.com/with-card');
    await page.click('#create summary:text("Link preview in chats")');
    const card = page.locator('#create [data-preview-card]');
    assert.equal(await card.isVisible(), false, 'no card while the fields are empty');
    await page.fill('#create input[name=preview_title]', HOSTILE);
    await page.fill('#create textarea[name=preview_description]', 'Spring sale: everything half off.');
    assert.equal(await card.isVisible(), true);
    assert.equal(await card.locator('[data-preview-title]').textContent(), HOSTILE);
    assert.equal(await card.locator('[data-preview-host]').textContent(), 'snip.test');
    await page.fill('#create input[name=preview_image]', 'http://example.com/card.png');
    assert.equal(await page.isVisible('#create [data-image-error]'), true);
    assert.equal(await page.getAttribute('#create input[name=preview_image]', 'aria-invalid'), 'true');

    // The server refuses it too (the browser's own check set aside), next to the preview's fields.
    await page.evaluate(() => {
      for (const form of document.querySelectorAll('form')) form.noValidate = true;
    });
    await page.click('#create button[type=submit]');
    await page.waitForSelector('#create fieldset.preview-fields [data-error="300"]');
    assert.equal(await page.inputValue('#create input[name=preview_title]'), HOSTILE);
    await screenshot(page, 'dashboard-preview-refused');

    await page.fill('#create input[name=preview_image]', DEAD_IMAGE);
    assert.equal(await page.isVisible('#create [data-image-error]'), false);
    await page.waitForSelector('#create [data-preview-broken]:not([hidden])');
    await page.click('#create button[type=submit]');
    await page.waitForSelector('[data-done=link-created]');
    const code =
      (await page.getAttribute('[data-done=link-created] code', 'data-copy'))?.split('/').pop() ?? '';
    const made = await apiLink(code);
    assert.deepEqual(made.preview, {
      title: HOSTILE,
      description: 'Spring sale: everything half off.',
      image: DEAD_IMAGE,
    });

    await page.goto(`${base}/dashboard/links/${code}?edit`);
    const saved = page.locator('section[aria-labelledby=preview-heading] [data-preview-card]');
    assert.equal(await saved.locator('[data-preview-title]').textContent(), HOSTILE);
    assert.equal(await page.inputValue('#edit input[name=preview_title]'), HOSTILE);
    await page.fill('#edit input[name=preview_title]', '');
    await page.fill('#edit textarea[name=preview_description]', '');
    await page.fill('#edit input[name=preview_image]', '');
    assert.equal(await page.isVisible('#edit [data-preview-empty]'), true);
    await page.click('#edit button[type=submit]');
    await page.waitForSelector('[data-done=saved]');
    assert.equal((await apiLink(code)).preview, null);
    assert.equal(await page.locator('img[src="x"]').count(), 0);
    assert.deepEqual(trouble, []);
  });

  it('designs the QR code: the preview follows, both downloads answer, low contrast is warned of', async () => {
    await page.goto(`${base}/dashboard`);
    await page.fill('#create input[name=url]', 'https://example.com/printed');
    await page.fill('#create input[name=slug]', 'printed');
    await page.click('#create button[type=submit]');
    await page.waitForSelector('[data-done=link-created]');
    await page.goto(`${base}/dashboard/links/printed`);
    const preview = page.locator('img[data-qr-preview]');
    assert.equal(await preview.getAttribute('src'), '/qrcode/printed.png?size=256');
    await page.click('details.qr-design summary');

    await page.fill('input[name=qr_size]', '512');
    await page.fill('input[name=qr_margin]', '2');
    await page.fill('input[name=qr_fg]', '#1d4ed8');
    await page.selectOption('select[name=qr_ecc]', 'H');
    const query = 'size=512&margin=2&fg=1d4ed8&bg=ffffff&ecc=H';
    assert.equal(await preview.getAttribute('src'), `/qrcode/printed.svg?${query}`);
    await preview.evaluate((image: HTMLImageElement) => image.decode());
    assert.ok((await preview.evaluate((image: HTMLImageElement) => image.naturalWidth)) > 0);
    assert.equal(await page.isVisible('[data-contrast-warning]'), false);
    for (const [format, type] of [
      ['png', 'image/png'],
      ['svg', 'image/svg+xml'],
    ] as const) {
      const href = await page.getAttribute(`a[data-qr-download=${format}]`, 'href');
      assert.equal(href, `/qrcode/printed.${format}?${query}`);
      assert.equal(
        await page.getAttribute(`a[data-qr-download=${format}]`, 'download'),
        `snip-printed.${format}`,
      );
      const answer = await context.request.get(`${base}${href}`);
      assert.equal(answer.status(), 200);
      assert.match(answer.headers()['content-type'] ?? '', new RegExp(`^${type.replace('+', '\\+')}`));
    }
    assert.equal(await page.textContent('[data-qr-size]'), '512');

    // Out of range: said next to the field; the image keeps the last good size.
    await page.fill('input[name=qr_size]', '5000');
    assert.equal(await page.isVisible('[data-qr-error=size]'), true);
    assert.equal(await page.getAttribute('input[name=qr_size]', 'aria-invalid'), 'true');
    assert.match((await preview.getAttribute('src')) ?? '', /size=512&/);

    await page.fill('input[name=qr_fg]', '#eeeeee');
    await page.waitForSelector('[data-contrast-warning]:not([hidden])');
    assert.match((await page.textContent('[data-contrast-warning]')) ?? '', /1\.\d\d:1/);
    await screenshot(page, 'link-qr-designer');
    assert.deepEqual(trouble, []);
  });
});
