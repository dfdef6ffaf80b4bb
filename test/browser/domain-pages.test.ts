import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { Browser, Cookie, Page } from 'playwright-core';
import { openStore } from '../../src/adapters/open-store.ts';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import type { Store } from '../../src/core/ports/store.ts';
import { workspaceAdmin } from '../../src/features/workspaces/index.ts';
import { membersService } from '../../src/features/workspaces/members.ts';
import { PageClient } from '../fixtures/page-client.ts';
import { FakeInspector, operations } from '../helper.ts';
import { launchBrowser } from './browser.ts';
import { checkPage, DESKTOP, problems, signInCookies } from './page-checks.ts';

/**
 * The Domains page (docs/api.md §12) in Chromium: an admin adds a domain and sees the TXT record to
 * create, verifies it before and after the record exists (the server's TXT look-ups answer from
 * this test's map, never from real DNS), sets a root redirect, makes it the default for new links,
 * is refused a malformed host and removes the domain. A viewer sees the domains and no forms.
 */

const PASSWORD = 'correct horse battery';
const HOST = 'go.acme.example';
const RECORD = `_snip-challenge.${HOST}`;

describe('the Domains page in Chromium', () => {
  const txt = new Map<string, string[][]>();
  let app: FastifyInstance;
  let store: Store;
  let dir: string;
  let browser: Browser;
  let base: string;
  let owner: Cookie[] = [];

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'snip-domains-'));
    const config = loadConfig({
      BASE_URL: 'http://snip.test',
      DATABASE_URL: `sqlite:${join(dir, 'snip.db')}`,
    });
    store = await openStore(config.databaseUrl, { prepare: true });
    const ops = operations(store);
    await ops.savePlan('tester', { apiAccess: true, urlQuota: 1000, rateLimitPerHour: 1000 });
    for (const email of ['olga@example.com', 'vic@example.com'])
      await ops.createAccount(email, 'tester', PASSWORD);
    const acme = await workspaceAdmin(store).create('acme', 'olga@example.com', 'tester', 'Acme');
    await membersService(store).add(acme, 'vic@example.com', 'viewer');
    const resolveTxt = async (name: string) => {
      const records = txt.get(name);
      if (!records) throw Object.assign(new Error(`no TXT record for ${name}`), { code: 'ENOTFOUND' });
      return records;
    };
    app = await buildApp(config, { store, inspector: new FakeInspector(), resolveTxt });
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
    owner = await signInCookies(browser, base, 'olga@example.com', PASSWORD);
  });

  after(async () => {
    await browser?.close();
    await app?.close();
    await store?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** The signed-in owner's page at desktop width and the script errors it meets; confirmations are the page's own dialog. */
  async function ownerPage(): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> {
    const context = await browser.newContext({ viewport: DESKTOP });
    await context.addCookies(owner);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    return { page, errors, close: () => context.close() };
  }

  const own = (page: Page) => page.locator(`section[data-domain="${HOST}"]`);
  const status = (page: Page) =>
    own(page).locator('[data-fact=status] [data-state]').getAttribute('data-state');
  const done = (page: Page) => page.getAttribute('[data-done]', 'data-done');

  it('adds, verifies, sets, makes default and removes a domain; refuses a malformed host', async () => {
    const { page, errors, close } = await ownerPage();
    await page.goto(`${base}/w/acme/domains`);
    assert.equal(await page.getAttribute('nav a[aria-current=page]', 'href'), '/w/acme/domains');
    assert.equal(await page.locator('section[data-domain="snip.test"]').getAttribute('data-kind'), 'default');

    await page.fill('#add-domain input[name=host]', 'Go.Acme.Example');
    await page.click('#add-domain button[type=submit]');
    await page.waitForURL(/done=added/);
    assert.equal(await own(page).getAttribute('data-kind'), 'own');
    assert.equal(await status(page), 'pending');
    assert.equal(await own(page).locator('[data-txt-name]').textContent(), RECORD);
    const token = (await own(page).locator('[data-txt-value]').textContent()) ?? '';
    assert.match(token, /^snip-verify-[0-9a-f]{32}$/);

    await own(page).locator('[data-action=verify]').click();
    await page.waitForURL(/done=pending/);
    assert.equal(await done(page), 'pending');
    txt.set(RECORD, [['unrelated'], [token]]);
    await own(page).locator('[data-action=verify]').click();
    await page.waitForURL(/done=verified/);
    assert.equal(await status(page), 'verified');
    assert.equal(await own(page).locator('[data-txt-value]').count(), 0);

    await own(page).locator('input[name=root_redirect]').fill('https://www.acme.example/');
    await own(page).locator('[data-form=settings] button[type=submit]').click();
    await page.waitForURL(/done=saved/);
    assert.equal(
      await own(page).locator('input[name=root_redirect]').inputValue(),
      'https://www.acme.example/',
    );
    assert.equal(
      await own(page).locator('[data-fact=root-redirect]').textContent(),
      'https://www.acme.example/',
    );

    await page.selectOption('#default-domain select[name=host]', HOST);
    await page.click('#default-domain button[type=submit]');
    await page.waitForURL(/done=default-set/);
    assert.equal(await page.locator('#default-domain select[name=host]').inputValue(), HOST);
    await page.goto(`${base}/w/acme/settings`);
    assert.equal(await page.locator('dd[data-domain]').getAttribute('data-domain'), HOST);

    await page.goto(`${base}/w/acme/domains`);
    await page.fill('#add-domain input[name=host]', 'not a host!');
    const refused = page.waitForResponse((response) => response.request().method() === 'POST');
    await page.click('#add-domain button[type=submit]');
    assert.equal((await refused).status(), 400);
    assert.equal(await page.getAttribute('[data-error]', 'data-error'), '300');
    assert.equal(await page.inputValue('#add-domain input[name=host]'), 'not a host!');

    await page.fill('#add-domain input[name=host]', HOST);
    await page.click('#add-domain button[type=submit]');
    assert.equal(await page.getAttribute('[data-error]', 'data-error'), '317');

    await own(page).locator('[data-action=remove]').click();
    await page.click('dialog#confirm-dialog button[data-dialog=confirm]');
    await page.waitForURL(/done=removed/);
    assert.equal(await own(page).count(), 0);
    assert.equal(await page.locator('#default-domain select[name=host]').inputValue(), '');
    assert.deepEqual(errors, []);
    await close();
  });

  it("puts a new link on a chosen domain and shows the link's pages under it", async () => {
    const { page, errors, close } = await ownerPage();
    const brand = 'brand.acme.example';
    await page.goto(`${base}/w/acme/domains`);
    await page.fill('#add-domain input[name=host]', brand);
    await page.click('#add-domain button[type=submit]');
    await page.waitForURL(/done=added/);
    const card = page.locator(`section[data-domain="${brand}"]`);
    txt.set(`_snip-challenge.${brand}`, [[(await card.locator('[data-txt-value]').textContent()) ?? '']]);
    await card.locator('[data-action=verify]').click();
    await page.waitForURL(/done=verified/);

    await page.goto(`${base}/w/acme`);
    await page.fill('#create input[name=url]', 'https://example.com/brand-launch');
    await page.fill('#create input[name=slug]', 'launch');
    await page.selectOption('#create select[name=domain]', brand);
    await page.click('#create button[type=submit]');
    await page.waitForURL(/created=launch/);
    const created = page.locator('[data-done=link-created] code');
    assert.equal(await created.getAttribute('data-copy'), `https://${brand}/launch`);

    await page.click('tr[data-code=launch] a.title');
    await page.waitForURL(/\/w\/acme\/links\/launch\?domain=brand\.acme\.example$/);
    assert.match((await page.textContent('main')) ?? '', /brand\.acme\.example\/launch/);
    const qr = page.locator('figure.qr img');
    await qr.evaluate((image: HTMLImageElement) => image.decode());
    assert.ok(
      (await qr.evaluate((image: HTMLImageElement) => image.naturalWidth)) > 0,
      'the QR code is drawn',
    );

    await page.click('a[href*="/links/launch/stats"]');
    await page.waitForURL(/\/links\/launch\/stats\?domain=/);
    await page.click('nav.presets a[data-days="7"]');
    await page.waitForURL(/domain=brand\.acme\.example/);
    assert.match((await page.textContent('main')) ?? '', /brand\.acme\.example\/launch/);
    assert.deepEqual(errors, []);
    await close();
  });

  it('shows a pending domain without overflow, overlaps or serious accessibility violations', async () => {
    const client = new PageClient(app);
    await client.signIn('olga@example.com', PASSWORD);
    await client.open('/w/acme/domains');
    const added = await client.post('/w/acme/domains', {
      host: 'links.acme-marketing-and-communications.example',
    });
    assert.equal(added.statusCode, 303);
    // An internationalized host, pasted as a URL: shown in Unicode with its long ASCII form beside.
    const idn = await client.post('/w/acme/domains', {
      host: 'https://kommunikationsabteilung.bücher-und-zeitschriften.example/',
    });
    assert.equal(idn.statusCode, 303);
    const report = await checkPage(browser, `${base}/w/acme/domains`, 'domains-pending', { cookies: owner });
    assert.deepEqual(problems(report), []);
  });

  it('shows a viewer the domains without forms, and refuses their changes', async () => {
    const viewer = new PageClient(app);
    await viewer.signIn('vic@example.com', PASSWORD);
    const shown = await viewer.open('/w/acme/domains');
    assert.equal(shown.statusCode, 200);
    assert.match(shown.body, /data-domain="snip\.test"/);
    assert.doesNotMatch(shown.body, /action="\/w\/acme\/domains/);
    assert.doesNotMatch(shown.body, /href="\/w\/acme\/domains"/, 'no Domains entry in the navigation');
    const post = await viewer.post('/w/acme/domains', { host: 'viewer.acme.example' });
    assert.equal(post.statusCode, 403);
  });
});
