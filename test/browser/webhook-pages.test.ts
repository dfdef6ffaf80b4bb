import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { Browser, Cookie, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { openStore } from '../../src/adapters/open-store.ts';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import type { Store } from '../../src/core/ports/store.ts';
import { newEvent } from '../../src/core/webhook-events.ts';
import { workspaceAdmin } from '../../src/features/workspaces/index.ts';
import { membersService } from '../../src/features/workspaces/members.ts';
import { PageClient } from '../fixtures/page-client.ts';
import { type Receiver, startReceiver } from '../fixtures/webhook-receiver.ts';
import { FakeInspector, operations } from '../helper.ts';
import { launchBrowser, watchForTrouble } from './browser.ts';
import { checkPage, DESKTOP, problems, signInCookies } from './page-checks.ts';

/**
 * The Webhooks pages (docs/api.md §14) in Chromium, against a loopback receiver: an owner opens
 * them from the navigation, adds an endpoint and sees its secret once, sends a test event that
 * arrives signed, watches its delivery become delivered, sends it again with the same webhook-id,
 * rotates the secret, edits, disables and enables the endpoint, enables it again after Snip disabled
 * it for failing, is refused bad fields, and removes it. A member is refused the pages.
 */

const PASSWORD = 'correct horse battery';

/**
 * A day of failures, told to the store as the dispatcher would (one failure in a row is enough
 * here): a delivery queued for the endpoint and its attempt recorded as failed. Should the app's
 * dispatcher claim that delivery in between, the outcome no longer counts: queued once more.
 */
async function failedForADay(store: Store, endpointId: number) {
  const workspace = await store.findWorkspaceBySlug('acme');
  const policy = { failingForMs: 0, failuresInRow: 1 };
  for (let attempt = 0; attempt < 5; attempt++) {
    await store.sendTo(endpointId, newEvent(workspace?.id ?? 0, 'webhook.test', { failing: true }));
    const [delivery] = await store.listDeliveries(endpointId, 0, 1);
    if (!delivery) continue;
    const failure = { endpointId, ok: false, statusCode: 500, durationMs: 3, error: 'answered 500' };
    const outcome = { ...failure, id: delivery.id, attempt: delivery.attempts, retryAt: null };
    const off = await store.finishDeliveries([outcome], Date.now(), policy);
    if (off.length > 0) return off;
  }
  return [];
}

describe('the Webhooks pages in Chromium', { timeout: 240_000 }, () => {
  let app: FastifyInstance;
  let store: Store;
  let dir: string;
  let browser: Browser;
  let base: string;
  let receiver: Receiver;
  let owner: Cookie[] = [];
  let acmeId = 0;

  before(async () => {
    receiver = await startReceiver();
    dir = await mkdtemp(join(tmpdir(), 'snip-webhooks-'));
    const config = loadConfig({
      BASE_URL: 'http://snip.test',
      DATABASE_URL: `sqlite:${join(dir, 'snip.db')}`,
      ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_RETRY_BASE_MS: '20',
    });
    store = await openStore(config.databaseUrl, { prepare: true });
    const ops = operations(store);
    await ops.savePlan('tester', { apiAccess: true, urlQuota: 1000, rateLimitPerHour: 1000 });
    for (const email of ['olga@example.com', 'mia@example.com'])
      await ops.createAccount(email, 'tester', PASSWORD);
    const acme = await workspaceAdmin(store).create('acme', 'olga@example.com', 'tester', 'Acme');
    await membersService(store).add(acme, 'mia@example.com', 'member');
    acmeId = acme.id;
    // The receiver is an address literal: no name is ever looked up, and none resolves.
    const noNames = async () => {
      throw Object.assign(new Error('no such name (test resolver)'), { code: 'ENOTFOUND' });
    };
    app = await buildApp(config, { store, inspector: new FakeInspector(), resolveWebhooks: noNames });
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
    owner = await signInCookies(browser, base, 'olga@example.com', PASSWORD);
  });

  after(async () => {
    await browser?.close();
    await app?.close();
    await store?.close();
    await receiver?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** The signed-in owner's page at desktop width, with clipboard access; a browser dialog is trouble. */
  async function ownerPage() {
    const context = await browser.newContext({ viewport: DESKTOP });
    await context.addCookies(owner);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    const page = await context.newPage();
    const trouble = watchForTrouble(page);
    // The Remove and Rotate confirmations are the page's own <dialog>: a browser dialog is counted as trouble.
    return { page, trouble, close: () => context.close() };
  }

  const done = (page: Page) => page.getAttribute('[data-done]', 'data-done');
  const stateOf = (page: Page) => page.getAttribute('[data-fact=state] [data-state]', 'data-state');
  const firstRow = (page: Page) => page.locator('tr[data-delivery]').first();

  /** Submits a form by its button and waits for the page it lands on; its HTTP status. */
  async function submit(page: Page, button: string): Promise<number> {
    const answered = page.waitForResponse((response) => response.request().method() === 'POST');
    const landed = page.waitForNavigation();
    await page.click(button);
    const status = (await answered).status();
    await landed;
    return status;
  }

  /** Reloads until the newest delivery is no longer pending, at most `tries` times. */
  async function reloadUntilSettled(page: Page, tries = 200): Promise<string | null> {
    for (let i = 0; i < tries; i++) {
      await page.reload();
      const state = await firstRow(page).locator('[data-state]').getAttribute('data-state');
      if (state !== 'pending') return state;
    }
    return 'pending';
  }

  it('adds an endpoint, shows its secret once, tests, resends, rotates, toggles and removes it', async () => {
    const { page, trouble, close } = await ownerPage();
    await page.goto(`${base}/w/acme`);
    await page.click('nav[aria-label=Main] a:text-is("Settings")');
    await page.click('nav.tabs a[href="/w/acme/webhooks"]');
    await page.waitForURL(/\/w\/acme\/webhooks$/);
    assert.equal(await page.getAttribute('nav a[aria-current=page]', 'href'), '/w/acme/webhooks');
    assert.equal(await page.locator('[data-state=no-endpoints]').count(), 1);

    await page.fill('#add-endpoint input[name=url]', receiver.url);
    await page.check('#add-endpoint input[name=events][value="link.created"]');
    await page.fill('#add-endpoint input[name=description]', 'The order system');
    assert.equal(await submit(page, '#add-endpoint button[type=submit]'), 303);
    const id = /\/webhooks\/(\d+)\?done=added$/.exec(page.url())?.[1];
    assert.ok(id, `landed on the endpoint's page: ${page.url()}`);
    const secret = (await page.textContent('#webhook-secret')) ?? '';
    assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    await page.click('button[data-copy-from="webhook-secret"]');
    await page.waitForSelector('button[data-copy-from="webhook-secret"][data-copied]');
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), secret);
    assert.equal(await page.textContent('[data-fact=events]'), 'link.created ');
    await page.reload();
    assert.equal(await page.locator('#webhook-secret').count(), 0, 'the secret is shown once');

    await page.click('[data-action=test]');
    await page.waitForURL(/done=test-sent/);
    await receiver.until(() => receiver.ofType('webhook.test').length >= 1);
    const [sent] = receiver.ofType('webhook.test');
    assert.ok(sent);
    const headers = {
      'webhook-id': String(sent.headers['webhook-id']),
      'webhook-timestamp': String(sent.headers['webhook-timestamp']),
      'webhook-signature': String(sent.headers['webhook-signature']),
    };
    assert.equal((new Webhook(secret).verify(sent.body, headers) as { type: string }).type, 'webhook.test');
    assert.equal(await reloadUntilSettled(page), 'delivered');
    const row = firstRow(page);
    assert.equal(await row.getAttribute('data-webhook-id'), headers['webhook-id']);
    assert.equal(await row.locator('[data-fact=response]').textContent(), '204');
    assert.equal(await row.locator('[data-fact=attempts]').textContent(), '1');

    await row.locator('[data-action=resend]').click();
    await page.waitForURL(/done=resent/);
    await receiver.until(() => receiver.ofType('webhook.test').length >= 2);
    assert.equal(receiver.ofType('webhook.test')[1]?.headers['webhook-id'], headers['webhook-id']);
    assert.equal(await page.locator(`tr[data-webhook-id="${headers['webhook-id']}"]`).count(), 2);

    await page.click('[data-action=rotate]');
    await page.click('dialog#confirm-dialog button[data-dialog=confirm]');
    await page.waitForURL(/done=rotated/);
    const rotated = (await page.textContent('#webhook-secret')) ?? '';
    assert.match(rotated, /^whsec_/);
    assert.notEqual(rotated, secret);
    await page.reload();
    assert.equal(await page.locator('#webhook-secret').count(), 0);

    await page.click('[data-action=disable]');
    await page.waitForURL(/done=disabled/);
    assert.equal(await stateOf(page), 'disabled');
    await page.click('[data-action=enable]');
    await page.waitForURL(/done=enabled/);
    assert.equal(await stateOf(page), 'enabled');

    await page.fill('#edit-endpoint input[name=description]', 'Orders, renamed');
    await page.check('#edit-endpoint input[name=events][value="link.deleted"]');
    await page.click('#edit-endpoint button[type=submit]');
    await page.waitForURL(/done=saved/);
    assert.equal(await page.textContent('[data-fact=description]'), 'Orders, renamed');
    assert.equal(await page.textContent('[data-fact=events]'), 'link.created link.deleted ');

    await page.click('[data-action=delete]');
    await page.click('dialog#confirm-dialog button[data-dialog=confirm]');
    await page.waitForURL(/\/w\/acme\/webhooks\?done=removed$/);
    assert.equal(await done(page), 'removed');
    assert.equal(await page.locator(`section[data-endpoint="${id}"]`).count(), 0);
    assert.deepEqual(trouble, []);
    await close();
  });

  it('shows the notice of an endpoint Snip disabled for failing, and enables it again', async () => {
    const { page, trouble, close } = await ownerPage();
    await page.goto(`${base}/w/acme/webhooks`);
    await page.fill('#add-endpoint input[name=url]', `${receiver.url}?failing`);
    await page.check('#add-endpoint input[name=events][value="link.clicked"]');
    await submit(page, '#add-endpoint button[type=submit]');
    const id = Number(/\/webhooks\/(\d+)\?/.exec(page.url())?.[1]);
    assert.equal((await failedForADay(store, id)).length, 1);

    await page.goto(`${base}/w/acme/webhooks`);
    assert.equal(await page.locator('[data-notice=some-failing]').count(), 1);
    const card = page.locator(`section[data-endpoint="${id}"]`);
    assert.equal(await card.locator('[data-fact=state] [data-state]').getAttribute('data-state'), 'failing');
    await card.locator('[data-notice=failing] [data-action=enable]').click();
    await page.waitForURL(new RegExp(`/webhooks/${id}\\?done=enabled$`));
    assert.equal(await stateOf(page), 'enabled');
    assert.equal(await page.locator('[data-notice=failing]').count(), 0);
    await page.goto(`${base}/w/acme/webhooks`);
    assert.equal(await page.locator('[data-notice=some-failing]').count(), 0);
    assert.deepEqual(trouble, []);
    await close();
  });

  it('shows refusals on the page: no events (300), a URL Snip may not send to (320), no such endpoint (314)', async () => {
    const { page, trouble, close } = await ownerPage();
    await page.goto(`${base}/w/acme/webhooks`);
    await page.fill('#add-endpoint input[name=url]', receiver.url);
    await page.fill('#add-endpoint input[name=description]', 'kept');
    assert.equal(await submit(page, '#add-endpoint button[type=submit]'), 400);
    assert.equal(await page.getAttribute('[data-error]', 'data-error'), '300');
    assert.equal(await page.inputValue('#add-endpoint input[name=description]'), 'kept');

    await page.fill('#add-endpoint input[name=url]', 'ftp://files.example/hook');
    await page.check('#add-endpoint input[name=events][value="link.updated"]');
    assert.equal(await submit(page, '#add-endpoint button[type=submit]'), 422);
    assert.equal(await page.getAttribute('[data-error]', 'data-error'), '320');
    assert.equal(await page.inputValue('#add-endpoint input[name=url]'), 'ftp://files.example/hook');

    const missing = await page.goto(`${base}/w/acme/webhooks/999999`);
    assert.equal(missing?.status(), 404);
    assert.equal(await page.getAttribute('[data-error]', 'data-error'), '314');
    assert.deepEqual(trouble, []);
    await close();
  });

  it('shows an endpoint with deliveries and a failing one without overflow, overlaps or serious violations', async () => {
    const client = new PageClient(app);
    await client.signIn('olga@example.com', PASSWORD);
    await client.open('/w/acme/webhooks');
    const added = await client.post('/w/acme/webhooks', {
      url: `${receiver.url}/a-rather-long-path/for-an-endpoint-of-the-order-and-billing-systems?tenant=acme`,
      events: 'link.created',
      description: 'Orders and billing, told of every new link',
    });
    assert.equal(added.statusCode, 303);
    const path = String(added.headers.location).split('?')[0] ?? '';
    const id = Number(path.split('/').at(-1));
    await client.open(path);
    assert.equal((await client.post(`${path}/test`)).statusCode, 303);
    await failedForADay(store, id);
    for (const [url, name] of [
      [`${base}${path}`, 'webhook-endpoint'],
      [`${base}/w/acme/webhooks`, 'webhooks-failing'],
    ] as const) {
      const report = await checkPage(browser, url, name, { cookies: owner });
      assert.deepEqual(problems(report), [], name);
    }
  });

  it('pages the deliveries by 50, newest first, with a link to the older ones', async () => {
    const client = new PageClient(app);
    await client.signIn('olga@example.com', PASSWORD);
    await client.open('/w/acme/webhooks');
    const added = await client.post('/w/acme/webhooks', {
      url: `${receiver.url}?paging`,
      events: 'link.updated',
    });
    const path = String(added.headers.location).split('?')[0] ?? '';
    const id = Number(path.split('/').at(-1));
    for (let i = 0; i < 51; i++) await store.sendTo(id, newEvent(acmeId, 'paging.test', { i }));
    const rows = (body: string) => [...body.matchAll(/<tr data-delivery="(\d+)"/g)].map((m) => Number(m[1]));
    const first = await client.open(path);
    const newest = rows(first.body);
    assert.equal(newest.length, 50);
    assert.deepEqual(
      newest,
      [...newest].sort((a, b) => b - a),
      'newest first',
    );
    const older = /href="([^"]+)" data-page="older"/.exec(first.body);
    assert.ok(older?.[1], 'an Older deliveries link');
    const next = await client.open(older[1].replace(/&amp;/g, '&'));
    assert.equal(next.statusCode, 200);
    const rest = rows(next.body);
    assert.equal(rest.length, 1);
    assert.ok((rest[0] ?? 0) < Math.min(...newest));
    assert.match(next.body, /data-page="newest"/);
    assert.doesNotMatch(next.body, /data-page="older"/);
  });

  it('refuses a member the pages and their forms, and offers no Webhooks entry', async () => {
    const member = new PageClient(app);
    await member.signIn('mia@example.com', PASSWORD);
    const home = await member.open('/w/acme');
    assert.equal(home.statusCode, 200);
    assert.doesNotMatch(home.body, /href="\/w\/acme\/webhooks"/);
    assert.equal((await member.get('/w/acme/webhooks')).statusCode, 403);
    assert.equal((await member.get('/w/acme/webhooks/1')).statusCode, 403);
    const post = await member.post('/w/acme/webhooks', { url: receiver.url, events: 'link.created' });
    assert.equal(post.statusCode, 403);
  });
});
