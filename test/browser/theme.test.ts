import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { THEME_COOKIE } from '../../src/web/theme.ts';
import { startTestApp, type TestApp } from '../helper.ts';
import { launchBrowser, watchForTrouble } from './browser.ts';

/**
 * The theme switch (docs/api.md §18): Light, Dark or System in every page's footer, remembered per
 * browser in a cookie the server writes into <html data-theme>, so a chosen theme shows from the
 * first paint; System follows the browser's preference.
 */

/** tokens.css's page colours, as the browser computes them. */
const LIGHT_PAGE = 'rgb(245, 246, 248)';
const DARK_PAGE = 'rgb(14, 17, 24)';

describe('the theme switch', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;

  before(async () => {
    t = await startTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  const setTheme = (set: string, referer?: string) =>
    t.app.inject({
      method: 'GET',
      url: `/settings/theme?set=${set}`,
      headers: { host: 'sn.ip', ...(referer ? { referer } : {}) },
    });

  it('remembers a choice in a cookie and goes back to the page it was made on, of this server only', async () => {
    const dark = await setTheme('dark', 'https://sn.ip/pricing?plan=pro');
    assert.equal(dark.statusCode, 303);
    assert.equal(dark.headers.location, '/pricing?plan=pro');
    const cookie = dark.cookies.find((one) => one.name === THEME_COOKIE);
    assert.equal(cookie?.value, 'dark');
    assert.ok((cookie?.maxAge ?? 0) > 86_400 * 300, 'kept for a year');
    assert.equal((await setTheme('light', 'https://evil.example/x')).headers.location, '/');
    const system = await setTheme('system');
    assert.equal(system.headers.location, '/');
    assert.equal(
      system.cookies.find((one) => one.name === THEME_COOKIE)?.value,
      '',
      'the choice is forgotten',
    );
    const nonsense = await setTheme('%3Cb%3E');
    assert.equal(nonsense.statusCode, 303);
    assert.equal(nonsense.cookies.length, 0);
  });

  it('marks every page with the chosen theme, and nothing else with it', async () => {
    const page = (theme: string, url = '/') =>
      t.app.inject({ method: 'GET', url, cookies: { [THEME_COOKIE]: theme } });
    assert.match((await page('dark')).body, /^<!doctype html>\n<html lang="en" data-theme="dark">/);
    assert.match((await page('light', '/tester')).body, /<html lang="en" data-theme="light">/);
    assert.match((await page('purple')).body, /<html lang="en">/);
    assert.doesNotMatch((await page('dark', '/openapi.json')).body, /data-theme/);
  });

  it('switches a page from the footer, over what the system prefers, and back to the system', async () => {
    const context = await browser.newContext({ colorScheme: 'light' });
    const tab = await context.newPage();
    const trouble = watchForTrouble(tab);
    const background = () => tab.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    await tab.goto(`${base}/tester`);
    assert.equal(await background(), LIGHT_PAGE);
    await Promise.all([tab.waitForURL(`${base}/tester`), tab.click('footer .theme button[value=dark]')]);
    await tab.waitForSelector('html[data-theme=dark]');
    assert.equal(await background(), DARK_PAGE);
    await tab.goto(`${base}/`);
    assert.equal(await background(), DARK_PAGE, 'remembered on every page');
    await Promise.all([tab.waitForURL(`${base}/`), tab.click('footer .theme button[value=system]')]);
    await tab.waitForSelector('html:not([data-theme])');
    assert.equal(await background(), LIGHT_PAGE);
    await tab.emulateMedia({ colorScheme: 'dark' });
    assert.equal(await background(), DARK_PAGE, 'System follows the browser');
    assert.deepEqual(trouble, []);
    await context.close();
  });
});
