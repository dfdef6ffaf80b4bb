import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser, Cookie, Page } from 'playwright-core';
import { callApi } from '../fixtures/api-client.ts';
import { GROUP_NAMES, workspaceLinks } from '../fixtures/new-user-workspace.ts';
import { FakeInspector, startTestApp, type TestApp } from '../helper.ts';
import { launchBrowser, watchForTrouble } from './browser.ts';
import { checkPage, DESKTOP, problems, signInCookies } from './page-checks.ts';

/**
 * The list of links as a workbench in Chromium (docs/adr/040): the search follows the typing and
 * the address, filters and headings list in place, each row's menu acts, keys focus the search
 * and the create form; and the page with filters on passes its checks at both widths, both schemes.
 */

const PASSWORD = 'correct horse battery';
const HOST = 'go.acme.example';

let browser: Browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

describe('the link workbench in Chromium', () => {
  const records = new Map<string, string>();
  let t: TestApp;
  let base = '';
  let slug = '';
  let workspaceId = 0;
  let owner: Cookie[] = [];

  before(async () => {
    const resolveTxt = async (name: string): Promise<string[][]> => {
      const value = records.get(name);
      if (value === undefined) throw Object.assign(new Error('no record'), { code: 'ENODATA' });
      return [[value]];
    };
    t = await startTestApp({
      inspector: new FakeInspector(),
      resolveTxt,
      env: { BASE_URL: 'http://snip.test' },
    });
    const { account, apiKey } = await t.ops.createAccount('bench@example.com', 'tester', PASSWORD);
    workspaceId = account.workspace.id;
    slug = account.workspace.slug;
    const groups: number[] = [];
    for (const name of GROUP_NAMES) groups.push((await t.ops.createGroup('bench@example.com', name)).id);
    await t.store.insertLinksBulk(workspaceLinks(workspaceId, groups));
    const added = await callApi(t.app, 'POST', '/domains', { key: apiKey, body: { host: HOST } });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    const { record, value } = added.body.verification as { record: string; value: string };
    records.set(record, value);
    assert.equal((await callApi(t.app, 'POST', `/domains/${HOST}/verify`, { key: apiKey })).status, 200);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    owner = await signInCookies(browser, base, 'bench@example.com', PASSWORD);
  });
  after(async () => {
    await t?.close();
  });

  async function open(path = '') {
    const context = await browser.newContext({ viewport: DESKTOP });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    await context.addCookies(owner);
    const page = await context.newPage();
    const trouble = watchForTrouble(page);
    await page.goto(`${base}/w/${slug}${path}`);
    return { page, trouble, close: () => context.close() };
  }

  const shown = (page: Page) =>
    page.$$eval('table.links tr[data-code]', (rows) => rows.map((row) => (row as HTMLElement).dataset.code));
  const inAddress = (page: Page, text: string) =>
    page.waitForFunction((part) => decodeURIComponent(location.search).includes(part), text);
  const stored = async (query: Omit<Parameters<TestApp['store']['listLinks']>[1], 'limit'>) =>
    (await t.store.listLinks(workspaceId, { ...query, limit: 100 })).links.map((link) => link.code);

  it('lists as one types, once per pause, keeps the address in step and says the count', async () => {
    const { page, trouble, close } = await open();
    const asked: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).searchParams.has('q')) asked.push(request.url());
    });
    await page.click('#links-q');
    // Each key's input event in one task: keys typed on a loaded machine can come further apart
    // than the pause itself, and this tests the pause, not the machine's speed.
    await page.evaluate(() => {
      const input = document.getElementById('links-q') as HTMLInputElement;
      for (const key of 'spring') {
        input.value += key;
        input.dispatchEvent(new InputEvent('input', { bubbles: true, data: key, inputType: 'insertText' }));
      }
    });
    await inAddress(page, 'q=spring');
    await page.waitForFunction(() => document.querySelectorAll('table.links tr[data-code]').length === 1);
    assert.deepEqual(await shown(page), ['spring-sale-2026']);
    assert.equal(asked.length, 1, `one request for the pause, not one per key: ${asked.join(' ')}`);
    await page.waitForFunction(() => document.getElementById('announcer')?.textContent === '1 link matches.');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'links-q', 'the focus stays');
    await page.reload();
    assert.equal(await page.inputValue('#links-q'), 'spring');
    assert.deepEqual(await shown(page), ['spring-sale-2026']);
    assert.deepEqual(trouble, []);
    await close();
  });

  it('filters by tags (all held), group, domain and state, each a chip to take off, then Clear', async () => {
    const { page, trouble, close } = await open();
    assert.equal(
      await page.locator('#links-filter select[name=domain] option').count(),
      3,
      'all, default, own',
    );
    await page.selectOption('#links-filter select[name=tag]', 'blog');
    await inAddress(page, 'tag=blog');
    await page.locator('#links-chips a[data-drop=tag]').waitFor();
    assert.deepEqual(
      (await shown(page)).sort(),
      (await stored({ tags: { values: ['blog'], all: true } })).sort(),
    );
    await page.selectOption('#links-filter select[name=tag]', 'social');
    await inAddress(page, 'tag=social');
    await page.waitForSelector('[data-state=no-links]');
    assert.equal(await page.locator('#links-chips a[data-drop=tag]').count(), 2);
    await page.locator('#links-chips a[data-drop=tag]', { hasText: 'blog' }).click();
    await page.waitForFunction(() => !location.search.includes('blog'));
    assert.deepEqual(
      (await shown(page)).sort(),
      (await stored({ tags: { values: ['social'], all: true } })).sort(),
    );

    await page.selectOption('#links-filter select[name=state]', 'archived');
    await inAddress(page, 'state=archived');
    await page.waitForSelector('[data-state=no-links]');
    await page.click('#links-chips a[data-clear]');
    await page.waitForFunction(() => location.search === '');
    assert.equal(await page.locator('table.links tr[data-code]').count(), 33);
    assert.equal(await page.locator('#links-chips li').count(), 0);
    assert.deepEqual(trouble, []);
    await close();
  });

  it('sorts by a heading, announced in aria-sort; the same heading again flips the order', async () => {
    const { page, trouble, close } = await open();
    await page.click('table.links th a[data-sort=title]');
    await inAddress(page, 'sort=title');
    await page.waitForSelector('th.col-link[aria-sort=ascending]');
    assert.deepEqual(await shown(page), await stored({ order: 'title', ascending: true }));
    await page.click('table.links th a[data-sort=title]');
    await page.waitForSelector('th.col-link[aria-sort=descending]');
    assert.deepEqual(await shown(page), await stored({ order: 'title' }));
    await page.click('table.links th a[data-sort=clicks]');
    await page.waitForSelector('th.num[aria-sort=descending]');
    await page.click('table.links th a[data-sort=last_click]');
    await page.waitForSelector('th.last-click[aria-sort=descending]');
    assert.equal(await page.locator('th[aria-sort]').count(), 1);
    assert.equal(
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.sort),
      'last_click',
      'the focus stays on the heading',
    );
    await page.reload();
    await page.waitForSelector('th.last-click[aria-sort=descending]');
    assert.deepEqual(trouble, []);
    await close();
  });

  /** Opens the row menu of a link and clicks its action. */
  async function act(page: Page, code: string, action: string) {
    await page.locator(`tr[data-code="${code}"] button[popovertarget]`).click();
    await page.locator(`[data-menu]:popover-open [data-action=${action}]`).click();
  }

  it('copies the short URL, opens the edit panel and the QR designer from a row', async () => {
    const { page, trouble, close } = await open();
    await act(page, 'docs', 'copy');
    await page.waitForSelector('[data-menu] [data-action=copy][data-copied]');
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), 'http://snip.test/docs');
    await page.keyboard.press('Escape');
    await act(page, 'docs', 'edit');
    await page.waitForURL(/\/links\/docs\?edit/);
    assert.equal(await page.locator('#edit input[name=url]').isVisible(), true);
    await page.goBack();
    await act(page, 'docs', 'qr');
    await page.waitForURL(/\/links\/docs\?qr/);
    assert.equal(await page.locator('#qr details.qr-design[open] [data-qr-designer]').isVisible(), true);
    assert.deepEqual(trouble, []);
    await close();
  });

  it('duplicates a link into the create form, which makes a second link to the same target', async () => {
    const { page, trouble, close } = await open();
    const original = await t.store.findLinkByCode(0, 'launch');
    assert.ok(original);
    await act(page, 'launch', 'duplicate');
    await page.waitForURL(/duplicate=launch/);
    assert.equal(await page.inputValue('#create input[name=url]'), original.longUrl);
    assert.equal(await page.inputValue('#create input[name=title]'), original.title);
    assert.equal(await page.inputValue('#create input[name=tags]'), 'blog, launch');
    assert.equal(await page.inputValue('#create select[name=domain]'), HOST, 'on another domain');
    await page.click('#create button.create-submit');
    await page.waitForSelector('[data-done=link-created]');
    const same = (await t.store.listLinks(workspaceId, { limit: 100 })).links.filter(
      (link) => link.longUrl === original.longUrl,
    );
    assert.equal(same.length, 2);
    assert.notEqual(same[0]?.code, same[1]?.code);
    assert.deepEqual(trouble, []);
    await close();
  });

  it('archives a link off the default list, and deletes one after asking', async () => {
    const { page, trouble, close } = await open();
    await page.locator('tr[data-code="kNEfy04"] button[popovertarget]').click();
    await page.locator('[data-menu]:popover-open button', { hasText: 'Archive' }).click();
    await page.waitForURL(/done=link-archived/);
    assert.equal(await page.locator('tr[data-code="kNEfy04"]').count(), 0);
    assert.equal((await t.store.findLinkByCode(0, 'kNEfy04'))?.archived, true);
    await page.locator('tr[data-code="kNFfy05"] button[popovertarget]').click();
    await page.locator('[data-menu]:popover-open button.danger').click();
    await page.click('dialog#confirm-dialog button[data-dialog=confirm]');
    await page.waitForURL(/done=link-deleted/);
    assert.equal(await t.store.findLinkByCode(0, 'kNFfy05'), undefined);
    assert.deepEqual(trouble, []);
    await close();
  });

  it('focuses the search on /, the create form on c, not while typing or with a modifier; Esc closes', async () => {
    const { page, trouble, close } = await open();
    const focused = () => page.evaluate(() => document.activeElement?.id ?? '');
    await page.keyboard.press('/');
    assert.equal(await focused(), 'links-q');
    await page.keyboard.type('c/');
    assert.equal(await focused(), 'links-q', 'typed into the field');
    assert.equal(await page.inputValue('#links-q'), 'c/');
    await page.fill('#links-q', '');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Control+c');
    assert.notEqual(await focused(), 'create-url');
    await page.keyboard.press('c');
    assert.equal(await focused(), 'create-url');
    // The list as loaded, no search of the keys above on its way to swap the rows under the click.
    await page.goto(`${base}/w/${slug}`);
    const button = page.locator('tr[data-code="launch"] button[popovertarget]');
    await button.click();
    await page.locator('[data-menu]:popover-open').waitFor();
    await page.keyboard.press('Escape');
    assert.equal(await page.locator('[data-menu]:popover-open').count(), 0);
    // The focus goes back on the popover's toggle event, which follows the closing.
    await page.waitForFunction(
      () => document.activeElement?.matches('tr[data-code="launch"] button[popovertarget]') === true,
      null,
      { timeout: 10_000 },
    );
    assert.deepEqual(trouble, []);
    await close();
  });

  it('passes the page checks with filters on, at 1280 and 390 px, light and dark', async () => {
    const url = `${base}/w/${slug}?tag=blog&state=all&sort=last_click&q=part`;
    const report = await checkPage(browser, url, 'link-workbench', { cookies: owner });
    assert.deepEqual(problems(report), []);
  });
});
