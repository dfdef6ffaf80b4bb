import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertProblem, callApi, keyWithScopes } from '../../fixtures/api-client.ts';
import { STORES } from '../../fixtures/stores.ts';
import type { TestApp } from '../../helper.ts';

/**
 * Conversions (docs/api.md §20): a tracked link's redirect appends `snip_id` (hot path and router),
 * bots and HEAD get none; leads and sales against it, once each; 321, 322, 300 and 403.
 */

const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';
const CRAWLER = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const ID = /[?&]snip_id=([A-Za-z0-9_-]{22,})(?:#|$)/;

for (const kind of STORES) {
  describe(`conversions on ${kind.name}`, { skip: kind.skip }, () => {
    let t: TestApp;
    let other: string;
    let origin = '';
    let n = 0;

    before(async () => {
      t = await kind.start({ env: { CLICK_FLUSH_MS: '60000' } });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      origin = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
      other = (await t.ops.createAccount('other@example.com', 'tester')).apiKey;
    });
    after(() => t?.close());

    const api = (method: string, path: string, body?: unknown, key = t.apiKey) =>
      callApi(t.app, method, path, { key, body });
    async function link(body: Record<string, unknown>): Promise<string> {
      const answer = await api('POST', '/links', { url: `https://shop.example/p${++n}`, ...body });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      return String(answer.body.short_code);
    }
    /** Location over the wire (the hot path) and through the router (inject). */
    async function wired(code: string, agent = BROWSER, method = 'GET'): Promise<string> {
      const answer = await fetch(`${origin}/${code}`, {
        method,
        redirect: 'manual',
        headers: { 'user-agent': agent },
      });
      assert.equal(answer.status, 302);
      return String(answer.headers.get('location'));
    }
    async function routed(code: string, agent = BROWSER, method: 'GET' | 'HEAD' = 'GET'): Promise<string> {
      const answer = await t.app.inject({ method, url: `/${code}`, headers: { 'user-agent': agent } });
      assert.equal(answer.statusCode, 302);
      return String(answer.headers.location);
    }
    /** A click id handed out by a tracked link's redirect, written as a flush writes it. */
    async function clickId(code: string): Promise<string> {
      const id = ID.exec(await wired(code))?.[1];
      assert.ok(id);
      await t.app.clickIds.flush();
      return id;
    }

    it('appends snip_id to the query, before the fragment, on both paths', async () => {
      const plain = await link({ track_conversions: true });
      const withQuery = await link({ url: 'https://shop.example/q?a=1#top', track_conversions: true });
      for (const at of [wired, routed]) {
        assert.match(await at(plain), /^https:\/\/shop\.example\/p\d+\?snip_id=[A-Za-z0-9_-]{22,}$/);
        assert.match(await at(withQuery), /^https:\/\/shop\.example\/q\?a=1&snip_id=[A-Za-z0-9_-]{22,}#top$/);
      }
      const [a, b] = [await wired(plain), await wired(plain)];
      assert.notEqual(a, b, 'a new id per click');
    });

    it('gives bots, HEAD and untracked links no id', async () => {
      const tracked = await link({ track_conversions: true });
      const untracked = await link({});
      assert.doesNotMatch(await wired(tracked, CRAWLER), /snip_id/);
      assert.doesNotMatch(await routed(tracked, CRAWLER), /snip_id/);
      assert.doesNotMatch(await wired(tracked, BROWSER, 'HEAD'), /snip_id/);
      assert.doesNotMatch(await routed(tracked, BROWSER, 'HEAD'), /snip_id/);
      assert.doesNotMatch(await wired(untracked), /snip_id/);
      assert.doesNotMatch(await routed(untracked), /snip_id/);
    });

    it("follows the workspace's default unless the link says otherwise", async () => {
      const follows = await link({});
      const off = await link({ track_conversions: false });
      let answer = await api('PATCH', '/workspace', { track_conversions: true });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.body.track_conversions, true);
      assert.match(await wired(follows), ID);
      assert.doesNotMatch(await wired(off), /snip_id/);
      assert.equal((await api('GET', `/links/${follows}`)).body.track_conversions, true);
      answer = await api('PATCH', '/workspace', { track_conversions: false });
      assert.equal(answer.body.track_conversions, false);
      assert.doesNotMatch(await wired(follows), /snip_id/);
      const patched = await api('PATCH', `/links/${follows}`, { track_conversions: true });
      assert.equal(patched.status, 200);
      assert.equal(patched.body.track_conversions, true);
      assert.match(await wired(follows), ID);
    });

    it('records a lead once per customer and event, and a sale once per invoice', async () => {
      const code = await link({ track_conversions: true });
      const id = await clickId(code);
      const lead = { click_id: id, event_name: 'Sign up', customer_id: 'cus_1' };
      const first = await api('POST', '/track/lead', lead);
      assert.equal(first.status, 201, JSON.stringify(first.body));
      assert.equal(first.body.click_id, id);
      assert.equal((first.body.link as { code: string }).code, code);
      assert.equal(typeof (first.body.link as { domain: string }).domain, 'string');
      assert.match(String(first.body.customer_key), /^[0-9a-f]{64}$/);
      const again = await api('POST', '/track/lead', lead);
      assert.equal(again.status, 200);
      assert.deepEqual(again.body, first.body);
      const sale = { customer_id: 'cus_1', amount: 4900, currency: 'eur', invoice_id: 'in_1' };
      const sold = await api('POST', '/track/sale', sale);
      assert.equal(sold.status, 201, JSON.stringify(sold.body));
      assert.equal(sold.body.amount, 4900);
      assert.equal(sold.body.currency, 'EUR');
      assert.equal(sold.body.customer_key, first.body.customer_key);
      assert.equal((sold.body.link as { code: string }).code, code);
      const resold = await api('POST', '/track/sale', sale);
      assert.equal(resold.status, 200);
      assert.deepEqual(resold.body, sold.body);
      const byClick = await api('POST', '/track/sale', { click_id: id, amount: 100, currency: 'USD' });
      assert.equal(byClick.status, 201);
      assert.equal(byClick.body.customer_key, null);
      const resource = await api('GET', `/links/${code}`);
      assert.equal(resource.body.leads, 1);
      assert.equal(resource.body.sales, 2);
      assert.deepEqual(resource.body.revenue, { EUR: 4900, USD: 100 });
    });

    it('answers 321 for an unknown or another workspace’s click id, 322 for a customer without lead', async () => {
      const code = await link({ track_conversions: true });
      const id = await clickId(code);
      assertProblem(
        await api('POST', '/track/lead', {
          click_id: 'x'.repeat(24),
          event_name: 'Sign up',
          customer_id: 'c',
        }),
        404,
        '321',
      );
      assertProblem(
        await api('POST', '/track/lead', { click_id: id, event_name: 'Sign up', customer_id: 'c' }, other),
        404,
        '321',
      );
      assertProblem(
        await api('POST', '/track/sale', { click_id: id, amount: 1, currency: 'EUR' }, other),
        404,
        '321',
      );
      assertProblem(
        await api('POST', '/track/sale', { customer_id: 'nobody', amount: 1, currency: 'EUR' }),
        404,
        '322',
      );
    });

    it('refuses bad input of every shape with 300', async () => {
      const lead = { click_id: 'a'.repeat(24), event_name: 'Sign up', customer_id: 'c' };
      const sale = { customer_id: 'c', amount: 1, currency: 'EUR' };
      const bad: Array<[string, unknown]> = [
        ['/track/lead', {}],
        ['/track/lead', []],
        ['/track/lead', 'text'],
        ['/track/lead', { ...lead, click_id: 7 }],
        ['/track/lead', { ...lead, click_id: '' }],
        ['/track/lead', { ...lead, click_id: 'not an id!' }],
        ['/track/lead', { ...lead, event_name: '' }],
        ['/track/lead', { ...lead, event_name: 'e'.repeat(101) }],
        ['/track/lead', { ...lead, customer_id: 'c'.repeat(201) }],
        ['/track/lead', { ...lead, customer_id: null }],
        ['/track/lead', { ...lead, extra: 1 }],
        ['/track/sale', { amount: 1, currency: 'EUR' }],
        ['/track/sale', { ...sale, amount: -1 }],
        ['/track/sale', { ...sale, amount: 1.5 }],
        ['/track/sale', { ...sale, amount: '100' }],
        ['/track/sale', { ...sale, amount: 2 ** 60 }],
        ['/track/sale', { ...sale, currency: 'EURO' }],
        ['/track/sale', { ...sale, currency: 'E1R' }],
        ['/track/sale', { ...sale, currency: 'QQQ' }],
        ['/track/sale', { ...sale, invoice_id: '' }],
        ['/track/sale', { ...sale, event_name: 5 }],
      ];
      for (const [path, body] of bad) {
        assertProblem(await api('POST', path, body), 400, '300');
      }
    });

    it('needs the conversions:write scope', async () => {
      const reader = await keyWithScopes(t.store, t.email, ['links:read'], 'reader');
      const lead = { click_id: 'a'.repeat(24), event_name: 'Sign up', customer_id: 'c' };
      assertProblem(await api('POST', '/track/lead', lead, reader), 403, '315');
      assertProblem(
        await api('POST', '/track/sale', { customer_id: 'c', amount: 1, currency: 'EUR' }, reader),
        403,
        '315',
      );
    });

    it('serves /snip.js: small, cacheable, no cookie of its own', async () => {
      const answer = await t.app.inject({ method: 'GET', url: '/snip.js' });
      assert.equal(answer.statusCode, 200);
      assert.match(String(answer.headers['content-type']), /javascript/);
      assert.ok(answer.body.length < 600, `${answer.body.length} bytes`);
      assert.match(answer.body, /snip_id/);
      assert.match(answer.body, /Max-Age=7776000/);
      assert.match(answer.body, /SameSite=Lax/);
      assert.match(String(answer.headers['cache-control']), /max-age=\d{5,}/);
      assert.equal(answer.headers['set-cookie'], undefined);
      const etag = String(answer.headers.etag);
      const again = await t.app.inject({
        method: 'GET',
        url: '/snip.js',
        headers: { 'if-none-match': etag },
      });
      assert.equal(again.statusCode, 304);
    });
  });
}
