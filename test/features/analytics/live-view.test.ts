import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { assertProblem, callApi, keyWithScopes } from '../../fixtures/api-client.ts';
import { SseClient } from '../../fixtures/sse-client.ts';
import { STORES } from '../../fixtures/stores.ts';
import { send, type TestApp } from '../../helper.ts';

/** GET /api/v1/stats/live (docs/api.md §19, "Live view") on both stores, over real HTTP on loopback. */

const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';
/** What a live click carries, and nothing else (no address, user agent, visitor or link id). */
const CLICK_KEYS = [
  'at',
  'browser',
  'code',
  'country',
  'device',
  'domain',
  'language',
  'os',
  'referrer',
  'source',
];

for (const kind of STORES) {
  describe(`live clicks on /api/v1 (${kind.name})`, { skip: kind.skip }, () => {
    let t: TestApp;
    let base: string;
    const open: SseClient[] = [];
    const stream = async (key = t.apiKey) => {
      const client = await SseClient.open(`${base}/api/v1/stats/live`, { 'x-api-key': key });
      open.push(client);
      return client;
    };
    const click = (code: string, headers: Record<string, string> = {}) =>
      send(t.app, {
        method: 'GET',
        url: `/${code}`,
        headers: { 'user-agent': CHROME, 'accept-language': 'de-DE,de;q=0.9', ...headers },
      });
    const newLink = async (slug: string, key = t.apiKey) => {
      const made = await callApi(t.app, 'POST', '/links', {
        key,
        body: { url: `https://example.com/${slug}`, slug },
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
    };

    before(async () => {
      t = await kind.start();
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    });
    after(async () => {
      for (const client of open) client.close();
      await t?.close();
    });

    it('hands a recorded click to the stream with exactly the facts of 9.1 and the link’s code and domain', async () => {
      await newLink('live-one');
      const client = await stream();
      assert.equal(client.status, 200);
      assert.match(String(client.headers['content-type']), /^text\/event-stream/);
      assert.equal(client.headers['cache-control'], 'no-cache, no-transform');
      const from = client.events.length;
      assert.equal((await click('live-one', { referer: 'https://news.example/story?id=1' })).status, 302);
      await t.app.clicks.flush();
      const event = await client.next('click', from);
      const data = JSON.parse(event.data) as Record<string, string>;
      assert.deepEqual(Object.keys(data).sort(), CLICK_KEYS);
      assert.equal(data.code, 'live-one');
      assert.equal(data.domain, 'sn.ip');
      assert.equal(data.referrer, 'news.example');
      assert.equal(data.device, 'desktop');
      assert.equal(data.browser, 'Chrome');
      assert.equal(data.language, 'de');
      assert.equal(data.source, 'link');
      assert.match(data.at as string, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.doesNotMatch(event.data, /127\.0\.0\.1|Mozilla|visitor/);
      client.close();
      await client.ended;
    });

    it('never hands a bot hit or another workspace’s click to the stream', async () => {
      const other = await t.ops.createAccount('live-other@example.com', 'tester');
      await newLink('live-theirs', other.apiKey);
      await newLink('live-mine');
      const client = await stream();
      const from = client.events.length;
      await click('live-theirs');
      await click('live-mine', { 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' });
      await click('live-mine', { 'sec-gpc': '1' });
      await t.app.clicks.flush();
      await click('live-mine');
      await t.app.clicks.flush();
      const event = await client.next('click', from);
      assert.equal(JSON.parse(event.data).code, 'live-mine');
      assert.equal(client.events.filter((e) => e.event === 'click').length, 1);
      client.close();
      await client.ended;
    });

    it('refuses a sixth stream of the workspace with 429 and Retry-After, and admits one again when one ends', async () => {
      const five = await Promise.all(Array.from({ length: 5 }, () => stream()));
      for (const client of five) assert.equal(client.status, 200);
      const sixth = await stream();
      await sixth.ended;
      assert.equal(sixth.status, 429);
      assert.match(String(sixth.headers['content-type']), /^application\/problem\+json/);
      assert.equal(JSON.parse(sixth.body).code, '429');
      assert.equal(sixth.headers['retry-after'], '30');
      const other = await t.ops.createAccount('live-third@example.com', 'tester');
      const theirs = await stream(other.apiKey);
      assert.equal(theirs.status, 200, 'another workspace has streams of its own');
      theirs.close();
      five[0]?.close();
      await five[0]?.ended;
      // The server hears the client leave on its socket: wait for that, not for a time.
      let again = await stream();
      while (again.status === 429) {
        await again.ended;
        again = await stream();
      }
      assert.equal(again.status, 200);
      for (const client of five) client.close();
    });

    it('needs the stats:read scope and a key', async () => {
      const key = await keyWithScopes(t.store, t.email, ['links:read']);
      assertProblem(await callApi(t.app, 'GET', '/stats/live', { key }), 403, '315');
      assertProblem(await callApi(t.app, 'GET', '/stats/live'), 401, '301');
      assert.equal((await callApi(t.app, 'POST', '/stats/live', { key: t.apiKey })).status, 405);
    });
  });
}
