import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { API_ERRORS } from '../../src/core/errors.ts';
import { LINK_REFUSAL_TEXT, OWN_URL_TEXT, URL_FAULT_TEXT } from '../../src/web/link-refusal-text.ts';
import { FakeInspector, startTestApp, type TestApp } from '../helper.ts';
import { launchBrowser, screenshot, watchForTrouble } from './browser.ts';

const HOSTILE = '<img src=x onerror=alert(1)>';
/** The dashboard's sentence for a target that answers 404, which the demo says too. */
const NOT_FOUND_TEXT = LINK_REFUSAL_TEXT['307']?.text ?? '';

describe('the tester page in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  before(async () => {
    const inspector = new FakeInspector();
    inspector.outcome = (url) =>
      url.pathname === '/missing'
        ? { ok: false, code: '307', reason: 'The target page answers 404 Not Found.' }
        : {
            ok: true,
            title: url.pathname === '/hostile' ? HOSTILE : 'Example Page',
            finalUrl: url.href,
            status: 200,
          };
    t = await startTestApp({ inspector, env: { DEMO_RATE_LIMIT: '1000' } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t.close();
  });

  it('sends a demo request in each encoding, shows the answer and curl, and the log updates live elsewhere', async () => {
    const context = await browser.newContext();
    const watcher = await context.newPage();
    const watcherTrouble = watchForTrouble(watcher);
    await watcher.goto(`${base}/tester`);
    await watcher.waitForSelector('body[data-log-live=true]');

    const page = await context.newPage();
    const trouble = watchForTrouble(page);
    await page.goto(`${base}/tester`);
    assert.equal(await page.inputValue('input[name=apikey]'), 'demo');

    await page.fill('input[name=url]', 'https://example.com/from-json');
    await page.click('button[type=submit]');
    await page.waitForSelector('#answer[data-outcome=success]');
    assert.match((await page.textContent('#answer-status')) ?? '', /HTTP 201/);
    assert.match((await page.textContent('#answer-body')) ?? '', /"short_code"/);
    assert.match((await page.textContent('#answer-headers')) ?? '', /ratelimit-remaining/);
    assert.match((await page.textContent('#answer-headers')) ?? '', /location/);
    const jsonCurl = (await page.textContent('#curl')) ?? '';
    assert.match(jsonCurl, /X-API-Key: demo/);
    assert.match(jsonCurl, /\/demo\/create/);

    await page.check('input[name=encoding][value=form]');
    await page.fill('input[name=url]', 'https://example.com/from-form');
    await page.click('button[type=submit]');
    await page.waitForFunction(() => document.querySelector('#curl')?.textContent?.includes('from-form'));
    assert.match((await page.textContent('#curl')) ?? '', /--data-urlencode 'apikey=demo'/);
    assert.match((await page.textContent('#answer-status')) ?? '', /HTTP 201/);

    await page.fill('input[name=url]', 'ftp://example.com/');
    await page.click('button[type=submit]');
    await page.waitForSelector('#answer[data-outcome=error]');
    // A URL of another scheme is said by its cause, as the dashboard says it (docs/api.md §18): the
    // answer shows the code as data, the sentence names neither a code nor a status.
    const malformed = JSON.parse((await page.textContent('#answer-body')) ?? '{}') as Record<string, string>;
    assert.equal(malformed.error, '300');
    assert.equal(LINK_REFUSAL_TEXT['300'], undefined);
    const explained = (await page.textContent('#answer-explain')) ?? '';
    assert.ok(explained.includes(URL_FAULT_TEXT.scheme), explained);
    assert.doesNotMatch(explained, /300|HTTP|\burl\b/);
    assert.ok(!explained.includes(API_ERRORS['300']), explained);

    // Typed without a scheme, a host gets https:// before it is sent; `localhost` does not.
    await page.fill('input[name=url]', 'example.com/no-scheme');
    await page.click('button[type=submit]');
    await page.waitForFunction(() =>
      document.querySelector('#answer-body')?.textContent?.includes('no-scheme'),
    );
    assert.equal(await page.inputValue('input[name=url]'), 'https://example.com/no-scheme');
    assert.equal(await page.getAttribute('#answer', 'data-outcome'), 'success');
    await page.fill('input[name=url]', 'localhost/x');
    await page.click('button[type=submit]');
    await page.waitForFunction(() => document.querySelector('#curl')?.textContent?.includes('localhost/x'));
    await page.waitForSelector('#answer[data-outcome=error]');
    assert.ok(((await page.textContent('#answer-explain')) ?? '').includes(URL_FAULT_TEXT['no-scheme']));

    await page.fill('input[name=url]', 'https://example.com/missing');
    await page.click('button[type=submit]');
    await page.waitForFunction(() => document.querySelector('#answer-body')?.textContent?.includes('"307"'));
    assert.ok(((await page.textContent('#answer-explain')) ?? '').includes(NOT_FOUND_TEXT));
    assert.ok(NOT_FOUND_TEXT !== '');

    // The second page, opened before any request, shows them live, newest on top.
    await watcher.waitForFunction(() => document.querySelectorAll('#log li').length >= 4);
    const first = (await watcher.textContent('#log li:first-child')) ?? '';
    assert.match(first, /example\.com\/missing/);
    assert.match((await watcher.textContent('#log')) ?? '', /ftp:\/\/example\.com/);
    assert.match((await watcher.textContent('#log')) ?? '', /from-json/);

    await screenshot(page, 'tester');
    assert.deepEqual(trouble, []);
    assert.deepEqual(watcherTrouble, []);
    await context.close();
  });

  it('renders a hostile target title as text', async () => {
    const page = await browser.newPage();
    const trouble = watchForTrouble(page);
    await page.goto(`${base}/tester`);
    await page.fill('input[name=url]', 'https://example.com/hostile');
    await page.click('button[type=submit]');
    await page.waitForSelector('#answer[data-outcome=success]');
    await page.waitForFunction(() => document.querySelector('#log')?.textContent?.includes('onerror'));
    assert.ok(((await page.textContent('#answer-body')) ?? '').includes(HOSTILE));
    assert.ok(((await page.textContent('#log')) ?? '').includes(HOSTILE));
    assert.equal(await page.locator('img').count(), 0);
    assert.deepEqual(trouble, []);
    await page.close();
  });

  it('fits a phone-width screen', async () => {
    const page = await browser.newPage({ viewport: { width: 375, height: 740 } });
    await page.goto(`${base}/tester`);
    await page.fill('input[name=url]', 'https://example.com/phone');
    await page.click('button[type=submit]');
    await page.waitForSelector('#answer[data-outcome=success]');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `page is ${overflow}px wider than the screen`);
    await screenshot(page, 'tester-phone');
    await page.close();
  });

  it('serves the landing page with links to the tester, the docs, sign-up and sign-in', async () => {
    const page = await browser.newPage();
    await page.goto(base);
    for (const href of ['/tester', '/openapi.json', '/signup', '/login']) {
      assert.ok((await page.locator(`a[href="${href}"]`).count()) > 0, href);
    }
    await page.close();
  });

  it("says the landing demo's refusals as the dashboard does, by cause, no code or status shown", async () => {
    const page = await browser.newPage();
    const trouble = watchForTrouble(page);
    await page.goto(base);
    const why = async (url: string, code: string) => {
      await page.fill('#demo-box input[name=url]', url);
      await page.click('#demo-box button');
      await page.waitForSelector(`#demo-result dl[data-error="${code}"]`);
      const said = (await page.textContent('#demo-result')) ?? '';
      assert.doesNotMatch(said, /HTTP|\b[34]\d\d\b/, said);
      return (await page.textContent('#demo-result dl div:last-child dd')) ?? '';
    };
    assert.equal(await why('https://example.com/missing', '307'), NOT_FOUND_TEXT);
    assert.equal(await why('https://sn.ip/abc1234', '305'), OWN_URL_TEXT);
    const direct = await t.app.inject({
      method: 'POST',
      url: '/demo/create',
      headers: { 'content-type': 'application/json', 'x-api-key': 'demo' },
      payload: { url: 'ftp://example.com/' },
    });
    assert.equal(direct.json().error, '300');
    assert.equal(await why('ftp://example.com/', '300'), URL_FAULT_TEXT.scheme);
    assert.equal(await why('https://user:pw@example.com/', '300'), URL_FAULT_TEXT.credentials);
    assert.equal(await why('localhost', '300'), URL_FAULT_TEXT['no-scheme']);
    // Typed without a scheme, a host gets https:// on the page; the demo API itself stays strict.
    await page.fill('#demo-box input[name=url]', 'example.com/landing');
    await page.click('#demo-box button');
    await page.waitForFunction(() =>
      document.querySelector('#demo-result')?.textContent?.includes('Created'),
    );
    assert.equal(await page.inputValue('#demo-box input[name=url]'), 'https://example.com/landing');
    assert.deepEqual(trouble, []);
    await page.close();
  });
});
