import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { forwardedQuery, withQuery } from '../../../src/core/forward-query.ts';
import { fastRedirect } from '../../../src/features/redirect/fast-path.ts';
import { cachedLink, type LinkCache } from '../../../src/features/redirect/link-cache.ts';
import { callApi } from '../../fixtures/api-client.ts';
import { aLink } from '../../fixtures/link.ts';
import { startTestApp, type TestApp } from '../../helper.ts';

/** forward_query (docs/api.md §16): the short URL's query goes on to the target, less qr=1. */

const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1';

describe('the query a short URL forwards', () => {
  it('keeps every parameter as sent and takes out each qr=1', () => {
    assert.equal(forwardedQuery('/abc1234'), '');
    assert.equal(forwardedQuery('/abc1234?'), '');
    assert.equal(forwardedQuery('/abc1234?qr=1'), '');
    assert.equal(forwardedQuery('/abc1234?qr=1&b=2'), 'b=2');
    assert.equal(forwardedQuery('/abc1234?a=1&qr=1&b=2'), 'a=1&b=2');
    assert.equal(forwardedQuery('/abc1234?a=1&qr=1'), 'a=1');
    assert.equal(forwardedQuery('/abc1234?qr=1&a=1&qr=1&qr=1'), 'a=1');
    // Only that very parameter is Snip's marker.
    assert.equal(forwardedQuery('/abc1234?qr=10&aqr=1&qr=2&QR=1&qr'), 'qr=10&aqr=1&qr=2&QR=1&qr');
    assert.equal(forwardedQuery('/abc1234?b=2&b=1&b=2&a=&&c'), 'b=2&b=1&b=2&a=&&c');
    assert.equal(forwardedQuery('/abc1234?q=a%26b%3Dc&s=x+y&e=%E2%82%AC'), 'q=a%26b%3Dc&s=x+y&e=%E2%82%AC');
  });

  it('percent-encodes what a Location value cannot carry as sent', () => {
    assert.equal(forwardedQuery('/abc1234?a=b c&d=#e'), 'a=b%20c&d=%23e');
    assert.equal(forwardedQuery('/abc1234?n=\u00e9'), 'n=%E9');
    assert.equal(forwardedQuery('/abc1234?n=\u20ac'), 'n=%E2%82%AC');
  });

  it('appends after the target query, before its fragment', () => {
    assert.equal(withQuery('https://t.example/p', 'b=2'), 'https://t.example/p?b=2');
    assert.equal(withQuery('https://t.example/p?a=1', 'b=2'), 'https://t.example/p?a=1&b=2');
    assert.equal(withQuery('https://t.example/p?a=1#frag', 'b=2'), 'https://t.example/p?a=1&b=2#frag');
    assert.equal(withQuery('https://t.example/p#frag?x', 'b=2'), 'https://t.example/p?b=2#frag?x');
    assert.equal(withQuery('https://t.example/p?', 'b=2'), 'https://t.example/p?b=2');
    assert.equal(withQuery('https://t.example/p?a=1&', 'b=2'), 'https://t.example/p?a=1&b=2');
    assert.equal(withQuery('https://t.example/p?a=1#f', ''), 'https://t.example/p?a=1#f');
  });
});

describe('the hot path forwards the query of a forwarding link only', () => {
  const written: Array<[number, string[]]> = [];
  const links = new Map([
    [
      'Fwd1234',
      cachedLink(aLink({ code: 'Fwd1234', longUrl: 'https://t.example/p?a=1#frag', forwardQuery: true })),
    ],
    ['Not1234', cachedLink(aLink({ code: 'Not1234', longUrl: 'https://t.example/p?a=1#frag' }))],
  ]);
  const cache = { peek: (code: string) => links.get(code) } as unknown as LinkCache;
  const fast = fastRedirect(
    () => ({ id: 0, keyPrefix: '' }),
    cache,
    () => undefined,
    302,
    [],
  );
  const res = {
    writeHead: (status: number, headers: string[]) => written.push([status, headers]),
    end: () => {},
  } as unknown as ServerResponse;
  const request = (url: string) =>
    ({ method: 'GET', url, headers: { 'user-agent': BROWSER }, socket: {} }) as unknown as IncomingMessage;

  it('writes the forwarded target itself, and leaves a plain link without extras', () => {
    assert.equal(links.get('Not1234')?.extras, undefined, 'a plain link carries nothing more');
    assert.equal(fast(request('/Fwd1234?qr=1&b=2&b=3'), res), true);
    assert.equal(fast(request('/Not1234?qr=1&b=2&b=3'), res), true);
    assert.deepEqual(
      written.map(([status, headers]) => [status, headers[1]]),
      [
        [302, 'https://t.example/p?a=1&b=2&b=3#frag'],
        [302, 'https://t.example/p?a=1#frag'],
      ],
    );
  });
});

describe('forward_query on the redirect', () => {
  let t: TestApp;
  let origin = '';
  before(async () => {
    t = await startTestApp({ env: { CLICK_FLUSH_MS: '60000' } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  });
  after(() => t.close());

  async function link(body: Record<string, unknown>): Promise<string> {
    const answer = await callApi(t.app, 'POST', '/links', { key: t.apiKey, body });
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    return String(answer.body.short_code);
  }
  /** The Location of a GET through the router (inject) and over the wire (hot path): both must agree. */
  async function locations(path: string, userAgent = BROWSER): Promise<[string, string]> {
    const routed = await t.app.inject({ method: 'GET', url: path, headers: { 'user-agent': userAgent } });
    assert.equal(routed.statusCode, 302);
    const wired = await fetch(`${origin}${path}`, {
      redirect: 'manual',
      headers: { 'user-agent': userAgent },
    });
    assert.equal(wired.status, 302);
    return [String(routed.headers.location), String(wired.headers.get('location'))];
  }
  const both = (location: string): [string, string] => [location, location];

  it('appends the query, qr=1 taken out wherever it stands, repeats and encoding kept', async () => {
    const code = await link({ url: 'https://t.example/p?a=1#frag', forward_query: true });
    assert.deepEqual(await locations(`/${code}?b=2`), both('https://t.example/p?a=1&b=2#frag'));
    assert.deepEqual(await locations(`/${code}?qr=1`), both('https://t.example/p?a=1#frag'));
    assert.deepEqual(await locations(`/${code}?qr=1&b=2`), both('https://t.example/p?a=1&b=2#frag'));
    assert.deepEqual(await locations(`/${code}?b=2&qr=1&c=3`), both('https://t.example/p?a=1&b=2&c=3#frag'));
    assert.deepEqual(await locations(`/${code}?b=2&qr=1`), both('https://t.example/p?a=1&b=2#frag'));
    assert.deepEqual(await locations(`/${code}?qr=1&b=2&qr=1`), both('https://t.example/p?a=1&b=2#frag'));
    assert.deepEqual(
      await locations(`/${code}?k=2&k=1&k=2&e=%E2%82%AC&s=x+y&q=a%26b`),
      both('https://t.example/p?a=1&k=2&k=1&k=2&e=%E2%82%AC&s=x+y&q=a%26b#frag'),
    );
    assert.deepEqual(await locations(`/${code}`), both('https://t.example/p?a=1#frag'));
  });

  it('ignores the query of a link that does not forward it, and stops when it is turned off', async () => {
    const code = await link({ url: 'https://t.example/off?a=1' });
    assert.deepEqual(await locations(`/${code}?b=2&qr=1`), both('https://t.example/off?a=1'));
    const on = await link({ url: 'https://t.example/on', forward_query: true });
    assert.deepEqual(await locations(`/${on}?b=2`), both('https://t.example/on?b=2'));
    const patched = await callApi(t.app, 'PATCH', `/links/${on}`, {
      key: t.apiKey,
      body: { forward_query: false },
    });
    assert.equal(patched.status, 200);
    assert.equal(patched.body.forward_query, false);
    assert.deepEqual(await locations(`/${on}?b=2`), both('https://t.example/on'));
  });

  it("forwards onto a targeting rule's target", async () => {
    const code = await link({
      url: 'https://t.example/home',
      forward_query: true,
      rules: [{ if: { device: 'ios' }, url: 'https://t.example/ios?app=1#store' }],
    });
    assert.deepEqual(
      await locations(`/${code}?ref=x&qr=1`, IPHONE),
      both('https://t.example/ios?app=1&ref=x#store'),
    );
    assert.deepEqual(await locations(`/${code}?ref=x`), both('https://t.example/home?ref=x'));
  });

  it('forwards through the visit limit, counting the click', async () => {
    const code = await link({ url: 'https://t.example/limited', forward_query: true, max_clicks: 5 });
    const answer = await fetch(`${origin}/${code}?b=2&qr=1`, {
      redirect: 'manual',
      headers: { 'user-agent': BROWSER },
    });
    assert.equal(answer.status, 302);
    assert.equal(answer.headers.get('location'), 'https://t.example/limited?b=2');
    await t.app.clicks.flush();
    assert.equal((await callApi(t.app, 'GET', `/links/${code}`, { key: t.apiKey })).body.clicks, 1);
  });

  it('keeps the query through the password form, and forwards it after the right password', async () => {
    const code = await link({
      url: 'https://t.example/secret#top',
      forward_query: true,
      password: 'open sesame',
    });
    const form = await t.app.inject({
      method: 'GET',
      url: `/${code}?b=2&qr=1`,
      headers: { 'user-agent': BROWSER },
    });
    assert.equal(form.statusCode, 200);
    assert.match(form.body, new RegExp(`action="/${code}\\?b=2&#38;qr=1"`));
    const post = (password: string) =>
      t.app.inject({
        method: 'POST',
        url: `/${code}?b=2&qr=1`,
        headers: { 'user-agent': BROWSER, 'content-type': 'application/x-www-form-urlencoded' },
        payload: `password=${encodeURIComponent(password)}`,
      });
    const wrong = await post('nope');
    assert.equal(wrong.statusCode, 401);
    assert.match(wrong.body, new RegExp(`action="/${code}\\?b=2&#38;qr=1"`));
    const right = await post('open sesame');
    assert.equal(right.statusCode, 303);
    assert.equal(right.headers.location, 'https://t.example/secret?b=2#top');
    // A link that does not forward keeps its form's plain address.
    const plain = await link({ url: 'https://t.example/plain', password: 'open sesame' });
    const plainForm = await t.app.inject({
      method: 'GET',
      url: `/${plain}?b=2`,
      headers: { 'user-agent': BROWSER },
    });
    assert.match(plainForm.body, new RegExp(`action="/${plain}"`));
  });
});
