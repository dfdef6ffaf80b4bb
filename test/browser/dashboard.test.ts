import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Cookie, Page } from 'playwright-core';
import { callApi } from '../fixtures/api-client.ts';
import { GROUP_NAMES, workspaceLinks } from '../fixtures/new-user-workspace.ts';
import { createJson, FakeInspector, startTestApp, type TestApp } from '../helper.ts';
import { launchBrowser, screenshot, watchForTrouble } from './browser.ts';
import { checkPage, DESKTOP, PHONE, problems, signInCookies } from './page-checks.ts';

/**
 * The account holder's journey in Chromium: sign up, keys (rotated, added), groups, links (a custom
 * code, changed in place), clicks, chart. Then the list of links of a full workspace: short codes
 * whole, menus on the screen, rows that open their link, chips that filter, deletes asked in a
 * dialog, and bulk changes to the links ticked.
 */

const HOSTILE = '<img src=x onerror=alert(1)>';
const PASSWORD = 'correct horse battery';
const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

/** One Chromium for the file; each suite and case opens contexts of its own in it. */
let browser: Browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

describe('the dashboard and account pages in Chromium', () => {
  let t: TestApp;
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
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    page = await context.newPage();
    trouble = watchForTrouble(page);
  });

  after(async () => {
    await context?.close();
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
    // Signing out is in the account menu of the header.
    const account = page.locator('details.account-menu summary');
    if ((await account.count()) > 0) await account.click();
    await page.click('form.sign-out button');
    await page.waitForURL(`${base}/login`);
    assert.equal(await page.locator('form.sign-out').count(), 0);
    await page.fill('input[name=email]', 'ada@example.com');
    await page.fill('input[name=password]', PASSWORD);
    await page.click('form[action="/login"] button[type=submit]');
    await page.waitForURL(/\/w\/[a-z0-9-]+$/);
    assert.equal(await page.textContent('h1'), 'Links');
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
    const code = new URL(page.url()).pathname.split('/').pop() ?? '';
    /** The edit form, behind the page's Edit button where it has one. */
    const openEdit = async () => {
      const edit = page.locator('a[data-edit]');
      if ((await page.locator('#edit input[name=url]').count()) === 0 && (await edit.count()) > 0) {
        await edit.click();
      }
      await page.waitForSelector('#edit input[name=url]');
    };
    await openEdit();
    await page.fill('#edit input[name=url]', 'https://example.com/article-moved');
    await page.fill('#edit input[name=title]', 'Moved article');
    await page.selectOption('#edit select[name=group]', '');
    await page.click('#edit button[type=submit]');
    await page.waitForSelector('[data-done=saved]');
    const saved = await t.store.findLinkByCode(0, code);
    assert.deepEqual(
      [saved?.title, saved?.longUrl, saved?.groupId],
      ['Moved article', 'https://example.com/article-moved', null],
    );
    assert.match((await page.textContent('main')) ?? '', /Moved article/);
    const moved = await fetch(`${base}/${code}`, {
      redirect: 'manual',
      headers: { 'user-agent': BROWSER_UA },
    });
    assert.equal(moved.headers.get('location'), 'https://example.com/article-moved');

    await openEdit();
    await page.fill('#edit input[name=url]', 'https://facebook.com/x');
    await page.click('#edit button[type=submit]');
    await page.waitForSelector('#edit [data-error="310"]');
    assert.equal(await page.inputValue('#edit input[name=url]'), 'https://facebook.com/x');
    // What the edit could change (the click above is counted whenever the buffer flushes).
    const fields = (link: typeof saved) => [link?.longUrl, link?.title, link?.groupId, link?.updatedAt];
    assert.deepEqual(fields(await t.store.findLinkByCode(0, code)), fields(saved), 'nothing changed');
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
    // Said under the field it is about, which is marked invalid and described by it.
    assert.equal(await slug.getAttribute('aria-invalid'), 'true');
    const describedBy = (await slug.getAttribute('aria-describedby')) ?? '';
    const error = page.locator('#create [data-error="313"]');
    assert.ok(describedBy.split(' ').includes((await error.getAttribute('id')) ?? '-'), describedBy);
    assert.doesNotMatch((await error.textContent()) ?? '', /^Error/);
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

describe('the list of links in Chromium, at 1280 and 390 px', () => {
  let t: TestApp;
  let base: string;
  let slug = '';
  let workspaceId = 0;
  let owner: Cookie[] = [];
  let free: Cookie[] = [];

  before(async () => {
    t = await startTestApp({ inspector: new FakeInspector(), env: { BASE_URL: 'http://snip.test' } });
    const { account } = await t.ops.createAccount('maker@example.com', 'tester', PASSWORD);
    workspaceId = account.workspace.id;
    slug = account.workspace.slug;
    const groups: number[] = [];
    for (const name of GROUP_NAMES) groups.push((await t.ops.createGroup('maker@example.com', name)).id);
    await t.store.insertLinksBulk(workspaceLinks(workspaceId, groups));
    await t.ops.savePlan('free', { apiAccess: false });
    await t.ops.createAccount('free@example.com', 'free', PASSWORD);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    owner = await signInCookies(browser, base, 'maker@example.com', PASSWORD);
    free = await signInCookies(browser, base, 'free@example.com', PASSWORD);
  });

  after(async () => {
    await t?.close();
  });

  /** A signed-in page of the owner at a width, with its trouble (script errors, native dialogs). */
  async function open(viewport: { width: number; height: number }, path = '') {
    const context = await browser.newContext({ viewport });
    await context.addCookies(owner);
    const page = await context.newPage();
    const trouble = watchForTrouble(page);
    await page.goto(`${base}/w/${slug}${path}`);
    return { page, trouble, close: () => context.close() };
  }

  const listed = async (tag?: string) =>
    (await t.store.listLinks(workspaceId, { limit: 100, ...(tag ? { tag } : {}) })).links;

  it('shows the dashboard full of links without overflow, overlaps or violations', async () => {
    const report = await checkPage(browser, `${base}/w/${slug}`, 'dashboard-links', { cookies: owner });
    assert.deepEqual(problems(report), []);
  });

  it('leads a new free workspace to its first link, and never to the API it has not', async () => {
    const report = await checkPage(browser, `${base}/dashboard`, 'dashboard-first-link', { cookies: free });
    assert.deepEqual(problems(report), []);
    const context = await browser.newContext({ viewport: DESKTOP });
    await context.addCookies(free);
    const page = await context.newPage();
    await page.goto(`${base}/dashboard`);
    assert.equal(await page.getAttribute('#create', 'class'), 'card create first');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('name')), 'url');
    assert.equal(await page.locator('[data-state=no-links]').count(), 1);
    const text = (await page.textContent('main')) ?? '';
    assert.doesNotMatch(text, /curl|X-API-Key|API key/i);
    await context.close();
  });

  for (const [width, viewport] of [
    ['1280', DESKTOP],
    ['390', PHONE],
  ] as const) {
    it(`shows every short code whole, unclipped, in each row at ${width} px`, async () => {
      const { page, close } = await open(viewport);
      const rows = await page.$$eval('table.links tr[data-code]', (trs) =>
        trs.map((tr) => {
          const code = tr.querySelector<HTMLElement>('.short-code');
          const cell = tr.querySelector('td.link-cell')?.getBoundingClientRect();
          const box = code?.getBoundingClientRect();
          const inside =
            !!box &&
            !!cell &&
            box.width > 0 &&
            box.left >= cell.left - 0.5 &&
            box.right <= cell.right + 0.5 &&
            box.right <= document.documentElement.clientWidth;
          const whole = !!code && code.scrollWidth <= code.clientWidth + 1;
          return { code: (tr as HTMLElement).dataset.code, text: code?.textContent, inside, whole };
        }),
      );
      assert.equal(rows.length, 33);
      for (const row of rows) {
        assert.equal(row.text, row.code);
        assert.ok(row.inside && row.whole, `${row.code} is cut or outside its row: ${JSON.stringify(row)}`);
      }
      await close();
    });

    it(`opens the menu of the last link and of the last group entirely on the screen at ${width} px`, async () => {
      const { page, trouble, close } = await open(viewport);
      for (const row of ['table.links tr[data-code]', 'table.groups tr[data-group-id]']) {
        const button = page.locator(`${row} button[popovertarget]`).last();
        await button.scrollIntoViewIfNeeded();
        await button.click();
        const menu = page.locator('[data-menu]:popover-open');
        await menu.waitFor();
        const seen = await menu.evaluate((element) => {
          const box = element.getBoundingClientRect();
          const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
          return {
            box: [box.left, box.top, box.right, box.bottom],
            inside:
              box.left >= 0 &&
              box.top >= 0 &&
              box.right <= document.documentElement.clientWidth &&
              box.bottom <= document.documentElement.clientHeight,
            onTop: hit !== null && element.contains(hit),
          };
        });
        assert.ok(seen.inside, `${row}: the menu at ${seen.box} leaves the screen`);
        assert.ok(seen.onTop, `${row}: the menu is covered or clipped`);
        await page.keyboard.press('Escape');
        await menu.waitFor({ state: 'detached' }).catch(() => undefined);
        assert.equal(await page.locator('[data-menu]:popover-open').count(), 0);
        assert.equal(
          await button.evaluate((element) => element === document.activeElement),
          true,
          'the focus is back on the menu button',
        );
      }
      assert.deepEqual(trouble, []);
      await close();
    });
  }

  it('opens and closes a menu from the keyboard, its focus visible, the focus back on its button', async () => {
    const { page, trouble, close } = await open(DESKTOP);
    const button = page.locator('tr[data-code] button[popovertarget]').first();
    await button.focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    const outline = await button.evaluate((element) => getComputedStyle(element).outlineStyle);
    assert.notEqual(outline, 'none', 'focus is visible');
    await page.keyboard.press('Enter');
    await page.locator('[data-menu]:popover-open').waitFor();
    await page.keyboard.press('Tab');
    assert.equal(
      await page.evaluate(() => document.activeElement?.closest('[data-menu]') !== null),
      true,
      'Tab goes into the open menu',
    );
    await page.keyboard.press('Escape');
    assert.equal(await page.locator('[data-menu]:popover-open').count(), 0);
    assert.equal(await button.evaluate((element) => element === document.activeElement), true);
    assert.deepEqual(trouble, []);
    await close();
  });

  it('opens a link when its row is clicked, but not when its copy button is', async () => {
    const { page, trouble, close } = await open(DESKTOP);
    const row = page.locator('tr[data-code="docs"]');
    await row.locator('.short-line button[data-copy-from]').click();
    await page.waitForSelector('tr[data-code="docs"] button[data-copied]');
    assert.equal(new URL(page.url()).pathname, `/w/${slug}`);
    await row.locator('td.created').click();
    await page.waitForURL(/\/links\/docs$/);
    assert.deepEqual(trouble, []);
    await close();
  });

  it('filters the list by a tag chip and by a group chip', async () => {
    const { page, close } = await open(DESKTOP);
    await page.locator('tr[data-code="launch"] a.tag-pill', { hasText: 'blog' }).click();
    await page.waitForURL(/tag=blog/);
    const tagged = (await listed('blog')).map((link) => link.code).sort();
    const shown = await page.$$eval('tr[data-code]', (trs) =>
      trs.map((tr) => (tr as HTMLElement).dataset.code),
    );
    assert.deepEqual([...shown].sort(), tagged);
    await page.locator('tr[data-code="launch"] a.group-pill').click();
    await page.waitForURL(/group=\d+.*tag=blog|tag=blog.*group=\d+/);
    assert.ok((await page.locator('tr[data-code]').count()) < tagged.length);
    await close();
  });

  it('asks in a dialog before a delete: Cancel and Escape keep the link, the button deletes it', async () => {
    const { page, trouble, close } = await open(DESKTOP);
    const menuButton = page.locator('tr[data-code="docs"] button[popovertarget]');
    const dialog = page.locator('dialog#confirm-dialog');
    await menuButton.click();
    await page.locator('[data-menu]:popover-open button.danger').click();
    await dialog.waitFor();
    assert.equal(await dialog.evaluate((element: HTMLDialogElement) => element.open), true);
    await page.click('dialog#confirm-dialog button[data-dialog=cancel]');
    await dialog.waitFor({ state: 'hidden' });
    assert.equal(await menuButton.evaluate((element) => element === document.activeElement), true);
    await menuButton.click();
    await page.locator('[data-menu]:popover-open button.danger').click();
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    assert.ok(await t.store.findLinkByCode(0, 'docs'), 'still there');

    await menuButton.click();
    await page.locator('[data-menu]:popover-open button.danger').click();
    await page.click('dialog#confirm-dialog button[data-dialog=confirm]');
    await page.waitForURL(/done=link-deleted/);
    assert.equal(await t.store.findLinkByCode(0, 'docs'), undefined);
    assert.equal(await page.locator('tr[data-code="docs"]').count(), 0);
    assert.deepEqual(trouble, [], 'no native dialog, no script error');
    await close();
  });

  it('moves, tags and deletes ticked links, reporting each, and reloads the list', async () => {
    const { page, trouble, close } = await open(DESKTOP);
    const picks = ['kNEfy30', 'kNDfy29', 'kNCfy28'];
    const newsletter = (await t.store.listGroups(workspaceId)).find((group) => group.name === 'Newsletter');
    assert.ok(newsletter);
    assert.equal(await page.isHidden('#bulk-bar'), true);
    for (const code of picks) await page.check(`tr[data-code="${code}"] input[data-pick]`);
    assert.equal(await page.textContent('#bulk-bar [data-bulk-count]'), '3');

    await page.selectOption('#bulk-bar select[name=group]', String(newsletter.id));
    await page.click('#bulk-bar form[data-bulk=move] button');
    await page.waitForSelector('#bulk-report:not([hidden]) li[data-result]');
    assert.deepEqual(
      await page.$$eval('#bulk-report li', (items) =>
        items.map((item) => (item as HTMLElement).dataset.result),
      ),
      ['done', 'done', 'done'],
    );
    for (const code of picks) assert.equal((await t.store.findLinkByCode(0, code))?.groupId, newsletter.id);
    assert.equal(await page.isHidden('#bulk-bar'), true, 'the reloaded list has nothing ticked');

    for (const code of picks) await page.check(`tr[data-code="${code}"] input[data-pick]`);
    await page.fill('#bulk-bar input[name=tag]', 'autumn');
    await page.click('#bulk-bar form[data-bulk=tag] button');
    await page.waitForSelector('#bulk-report [data-bulk-status]:text("tagged")');
    const autumn = (await listed('autumn')).map((link) => link.code).sort();
    assert.deepEqual(autumn, [...picks].sort());
    // Each keeps the tags it had: kNEfy30 (the 31st) was tagged blog and launch.
    const kept = (await listed('blog')).map((link) => link.code);
    assert.ok(kept.includes('kNEfy30'), 'kNEfy30 is still tagged blog');
    assert.equal(await page.locator('tr[data-code="kNEfy30"] a.tag-pill', { hasText: 'autumn' }).count(), 1);

    for (const code of picks.slice(0, 2)) await page.check(`tr[data-code="${code}"] input[data-pick]`);
    await page.click('#bulk-bar button[data-bulk=delete]');
    await page.click('dialog#confirm-dialog button[data-dialog=confirm]');
    await page.waitForSelector('#bulk-report [data-bulk-status]:text("deleted")');
    for (const code of picks.slice(0, 2)) {
      assert.equal(await t.store.findLinkByCode(0, code), undefined, code);
      assert.equal(await page.locator(`tr[data-code="${code}"]`).count(), 0, `${code} left the list`);
    }
    assert.ok(await t.store.findLinkByCode(0, picks[2] ?? ''));
    assert.deepEqual(trouble, []);
    await screenshot(page, 'dashboard-bulk');
    await close();
  });

  it('selects every link of the page at once, and names each refused link with why', async () => {
    const { page, close } = await open(PHONE);
    await page.check('input[data-pick-all]');
    const count = Number(await page.textContent('#bulk-bar [data-bulk-count]'));
    assert.equal(count, await page.locator('input[data-pick]').count());
    // A tag of a mark no tag may hold: every link is refused with the API's 300, said in words.
    await page.fill('#bulk-bar input[name=tag]', 'no, commas');
    await page.click('#bulk-bar form[data-bulk=tag] button');
    await page.waitForSelector('#bulk-report[data-state=refused]');
    const refused = await page.$$eval('#bulk-report li', (items) =>
      items.map((item) => [(item as HTMLElement).dataset.result, (item as HTMLElement).dataset.error]),
    );
    assert.equal(refused.length, count);
    assert.ok(refused.every(([result, code]) => result === 'refused' && code === '300'));
    assert.equal((await listed('no, commas')).length, 0);
    await screenshot(page, 'dashboard-bulk-refused-phone');
    await close();
  });
});
