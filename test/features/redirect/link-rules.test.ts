import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { callApi } from '../../fixtures/api-client.ts';
import { send, startTestApp, type TestApp } from '../../helper.ts';

/** Link rules on the redirect (docs/api.md §8.2–8.3): expiry, visit limits, passwords, targeting. */

const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1';
const ANDROID =
  'Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Mobile Safari/537.36';
const SLACK = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';

describe('link rules on the redirect', () => {
  let t: TestApp;
  let now = Date.UTC(2026, 10, 23, 12, 0, 0);
  before(async () => {
    t = await startTestApp({
      now: () => now,
      countries: { countryOf: (address) => ({ '203.0.113.7': 'DE', '198.51.100.9': 'FR' })[address] },
      env: { TRUST_PROXY: '1' },
    });
  });
  after(() => t.close());

  async function link(body: Record<string, unknown>): Promise<string> {
    const answer = await callApi(t.app, 'POST', '/links', { key: t.apiKey, body });
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    return String(answer.body.short_code);
  }
  const visit = (code: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
    send(t.app, { method, url: `/${code}`, headers: { 'user-agent': BROWSER, ...headers } });
  const clicksOf = async (code: string) => {
    await t.app.clicks.flush();
    return (await callApi(t.app, 'GET', `/links/${code}`, { key: t.apiKey })).body;
  };

  it('shows the rules on the link, never the password', async () => {
    const expires = new Date(now + 3_600_000).toISOString();
    const answer = await callApi(t.app, 'POST', '/links', {
      key: t.apiKey,
      body: {
        url: 'https://example.com/shown',
        expires_at: expires,
        max_clicks: 5,
        password: 'open sesame',
        rules: [{ if: { country: 'de' }, url: 'https://example.com/de' }],
      },
    });
    assert.equal(answer.status, 201);
    assert.equal(answer.body.expires_at, expires);
    assert.equal(answer.body.max_clicks, 5);
    assert.equal(answer.body.has_password, true);
    assert.deepEqual(answer.body.rules, [{ if: { country: 'DE' }, url: 'https://example.com/de' }]);
    assert.doesNotMatch(JSON.stringify(answer.body), /sesame|scrypt/);
  });

  it('answers 410 from expires_at on, as a page or as JSON, and counts nothing', async () => {
    const code = await link({
      url: 'https://example.com/expiring',
      expires_at: new Date(now + 60_000).toISOString(),
    });
    assert.equal((await visit(code)).status, 302);
    now += 60_000;
    const page = await visit(code);
    assert.equal(page.status, 410);
    assert.match(String(page.headers['content-type']), /text\/html/);
    const json = await visit(code, { accept: 'application/json' });
    assert.equal(json.status, 410);
    assert.equal(json.body.error, '410');
    assert.equal((await clicksOf(code)).clicks, 1);
    const listed = await callApi(t.app, 'GET', '/links?expired=true', { key: t.apiKey });
    assert.ok((listed.body.items as Array<{ short_code: string }>).some((item) => item.short_code === code));
    const live = await callApi(t.app, 'GET', '/links?expired=false', { key: t.apiKey });
    assert.ok(!(live.body.items as Array<{ short_code: string }>).some((item) => item.short_code === code));
    // Moving the expiry to the future brings it back at once.
    const patched = await callApi(t.app, 'PATCH', `/links/${code}`, {
      key: t.apiKey,
      body: { expires_at: new Date(now + 60_000).toISOString() },
    });
    assert.equal(patched.status, 200);
    assert.equal((await visit(code)).status, 302);
    await callApi(t.app, 'PATCH', `/links/${code}`, { key: t.apiKey, body: { expires_at: null } });
    now += 120_000;
    assert.equal((await visit(code)).status, 302, 'no expiry any more');
  });

  it('lets exactly max_clicks human clicks through; bots, previews and HEAD never take one', async () => {
    const code = await link({ url: 'https://example.com/limited', max_clicks: 3 });
    assert.equal((await visit(code, { 'user-agent': SLACK })).status, 302);
    assert.equal((await visit(code, {}, 'HEAD')).status, 302);
    assert.equal((await visit(code, { 'sec-purpose': 'prefetch' })).status, 302);
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await visit(code)).status);
    assert.deepEqual(statuses, [302, 302, 302, 410, 410]);
    assert.equal((await visit(code, { 'user-agent': SLACK })).status, 410, 'used up for everyone');
    const counted = await clicksOf(code);
    assert.equal(counted.clicks, 3);
    assert.equal(counted.bot_hits, 3);
    // Raising the limit lets more through; removing it, any number.
    await callApi(t.app, 'PATCH', `/links/${code}`, { key: t.apiKey, body: { max_clicks: 4 } });
    assert.deepEqual([(await visit(code)).status, (await visit(code)).status], [302, 410]);
    await callApi(t.app, 'PATCH', `/links/${code}`, { key: t.apiKey, body: { max_clicks: null } });
    assert.equal((await visit(code)).status, 302);
  });

  it('takes visits atomically: 30 concurrent clicks on a limit of 10 give exactly 10 redirects', async () => {
    const code = await link({ url: 'https://example.com/race', max_clicks: 10 });
    const statuses = await Promise.all(
      Array.from({ length: 30 }, () => visit(code).then((answer) => answer.status)),
    );
    assert.equal(statuses.filter((status) => status === 302).length, 10);
    assert.equal(statuses.filter((status) => status === 410).length, 20);
  });

  it('starts a limit set on a link later from the clicks it has', async () => {
    const code = await link({ url: 'https://example.com/later-limit' });
    for (let i = 0; i < 3; i++) await visit(code);
    await t.app.clicks.flush();
    await callApi(t.app, 'PATCH', `/links/${code}`, { key: t.apiKey, body: { max_clicks: 4 } });
    assert.deepEqual([(await visit(code)).status, (await visit(code)).status], [302, 410]);
  });

  it('asks for the password, redirects with 303 and counts the click only after the right one', async () => {
    const code = await link({ url: 'https://example.com/secret', password: 'open sesame' });
    const form = await visit(code);
    assert.equal(form.status, 200);
    assert.match(String(form.headers['cache-control']), /no-store/);
    assert.match(String(form.headers['x-robots-tag']), /noindex/);
    const html = String(form.body.raw);
    assert.match(html, /<meta name="robots" content="noindex/);
    assert.match(html, new RegExp(`<form method="post" action="/${code}"`));
    assert.doesNotMatch(html, /example\.com\/secret/, 'the form does not tell the target');
    const post = (password: string, headers: Record<string, string> = {}) =>
      send(t.app, {
        method: 'POST',
        url: `/${code}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': BROWSER, ...headers },
        payload: new URLSearchParams({ password }).toString(),
      });
    const wrong = await post('open sesam');
    assert.equal(wrong.status, 401);
    assert.match(String(wrong.body.raw), /data-error="wrong-password"/);
    assert.equal((await clicksOf(code)).clicks, 0);
    const right = await post('open sesame');
    assert.equal(right.status, 303);
    assert.equal(right.headers.location, 'https://example.com/secret');
    assert.equal((await clicksOf(code)).clicks, 1);
    assert.equal((await post('')).status, 401);
    assert.equal((await post('x'.repeat(10_000))).status, 401, 'an overlong password is simply wrong');
  });

  /** The password form of a link posted from `address` (behind the one trusted proxy). */
  const postPassword = (code: string, password: string, address: string) =>
    send(t.app, {
      method: 'POST',
      url: `/${code}`,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'user-agent': BROWSER,
        'x-forwarded-for': address,
      },
      payload: `password=${password}`,
    });

  it('refuses an address after 10 wrong passwords per link within 15 minutes, with Retry-After', async () => {
    const code = await link({ url: 'https://example.com/guarded', password: 'the right one' });
    const other = await link({ url: 'https://example.com/guarded-too', password: 'the right one' });
    const post = (target: string, password: string, address = '192.0.2.1') =>
      postPassword(target, password, address);
    for (let i = 0; i < 10; i++) assert.equal((await post(code, 'wrong')).status, 401);
    const limited = await post(code, 'the right one');
    assert.equal(limited.status, 429, 'even the right password waits');
    assert.ok(Number(limited.headers['retry-after']) > 0);
    assert.equal((await post(other, 'the right one')).status, 303, 'another link is not limited');
    assert.equal(
      (await post(code, 'the right one', '192.0.2.2')).status,
      303,
      'another address is not limited',
    );
    now += 15 * 60_000;
    assert.equal((await post(code, 'the right one')).status, 303);
  });

  it('counts only wrong passwords, and lets no more than 10 through however many come at once', async () => {
    const code = await link({ url: 'https://example.com/guarded-race', password: 'the right one' });
    const post = (password: string, address: string) => postPassword(code, password, address);
    // Right passwords do not spend the allowance: an office behind one address can all come in.
    for (let i = 0; i < 9; i++) assert.equal((await post('wrong', '192.0.2.30')).status, 401);
    for (let i = 0; i < 5; i++) assert.equal((await post('the right one', '192.0.2.30')).status, 303);
    assert.equal((await post('wrong', '192.0.2.30')).status, 401, 'the tenth wrong one');
    assert.equal((await post('the right one', '192.0.2.30')).status, 429);
    const burst = await Promise.all(Array.from({ length: 30 }, () => post('wrong', '192.0.2.31')));
    const statuses = burst.map((answer) => answer.status);
    assert.equal(statuses.filter((status) => status === 401).length, 10);
    assert.equal(statuses.filter((status) => status === 429).length, 20);
  });

  it('counts the addresses of one IPv6 /64 as one address', async () => {
    const code = await link({ url: 'https://example.com/guarded-v6', password: 'the right one' });
    const post = (password: string, address: string) => postPassword(code, password, address);
    for (let i = 0; i < 10; i++) assert.equal((await post('wrong', `2001:db8:1:2::${i + 1}`)).status, 401);
    assert.equal((await post('the right one', '2001:db8:1:2:ffff::9')).status, 429, 'the same /64');
    assert.equal((await post('the right one', '2001:db8:1:3::1')).status, 303, 'another /64');
  });

  it('refuses every address once a link had 100 wrong passwords within an hour', async () => {
    const code = await link({ url: 'https://example.com/guarded-many', password: 'the right one' });
    const post = (password: string, address: string) => postPassword(code, password, address);
    // Ten addresses, each within its own allowance of ten.
    for (let a = 0; a < 10; a++) {
      for (let i = 0; i < 10; i++) assert.equal((await post('wrong', `198.51.100.${a + 1}`)).status, 401);
    }
    const locked = await post('the right one', '203.0.113.50');
    assert.equal(locked.status, 429, 'a new address waits too');
    assert.ok(Number(locked.headers['retry-after']) > 0);
    now += 60 * 60_000;
    assert.equal((await post('the right one', '203.0.113.50')).status, 303);
  });

  it('answers 405 to a POST on a link without a password', async () => {
    const code = await link({ url: 'https://example.com/plain-post' });
    const answer = await send(t.app, {
      method: 'POST',
      url: `/${code}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'password=x',
    });
    assert.equal(answer.status, 405);
    assert.equal(answer.headers.allow, 'GET, HEAD');
  });

  it('sends each visitor to the first rule that holds: device, country, language, else the link', async () => {
    const code = await link({
      url: 'https://example.com/default',
      rules: [
        { if: { device: 'ios' }, url: 'https://example.com/ios' },
        { if: { device: 'android', country: 'DE' }, url: 'https://example.com/android-de' },
        { if: { country: 'FR' }, url: 'https://example.com/fr' },
        { if: { language: 'es' }, url: 'https://example.com/es' },
      ],
    });
    const target = async (headers: Record<string, string>) => (await visit(code, headers)).headers.location;
    assert.equal(
      await target({ 'user-agent': IPHONE, 'x-forwarded-for': '198.51.100.9' }),
      'https://example.com/ios',
    );
    assert.equal(
      await target({ 'user-agent': ANDROID, 'x-forwarded-for': '203.0.113.7' }),
      'https://example.com/android-de',
    );
    assert.equal(
      await target({ 'user-agent': ANDROID, 'x-forwarded-for': '198.51.100.9' }),
      'https://example.com/fr',
    );
    assert.equal(await target({ 'accept-language': 'es-MX, en;q=0.5' }), 'https://example.com/es');
    assert.equal(await target({ 'accept-language': 'en, es;q=0.9' }), 'https://example.com/default');
    assert.equal(await target({}), 'https://example.com/default');
    // Behind TRUST_PROXY, a CDN's country header wins over the address's country.
    assert.equal(
      await target({ 'x-forwarded-for': '203.0.113.7', 'cf-ipcountry': 'fr' }),
      'https://example.com/fr',
    );
    assert.equal((await clicksOf(code)).clicks, 7, 'every rule-routed visit is a click of the link');
  });

  it('believes no country header and no X-Forwarded-For without TRUST_PROXY', async () => {
    const direct = await startTestApp({
      countries: { countryOf: (address) => ({ '127.0.0.1': 'DE' })[address] },
    });
    try {
      const created = await callApi(direct.app, 'POST', '/links', {
        key: direct.apiKey,
        body: {
          url: 'https://example.com/home',
          rules: [{ if: { country: 'FR' }, url: 'https://example.com/fr' }],
        },
      });
      assert.equal(created.status, 201);
      const headers = { 'user-agent': BROWSER, 'cf-ipcountry': 'FR', 'x-forwarded-for': '198.51.100.9' };
      const answer = await send(direct.app, { method: 'GET', url: `/${created.body.short_code}`, headers });
      assert.equal(answer.headers.location, 'https://example.com/home');
    } finally {
      await direct.close();
    }
  });

  it('checks each rule URL like url: 310 for a social network, 305 for Snip, inspected', async () => {
    const refused = async (rules: unknown[], status: number, code: string) => {
      const answer = await callApi(t.app, 'POST', '/links', {
        key: t.apiKey,
        body: { url: 'https://example.com/rule-checks', rules },
      });
      assert.equal(answer.status, status, JSON.stringify(answer.body));
      assert.equal(answer.body.code, code);
    };
    await refused([{ if: { device: 'ios' }, url: 'https://facebook.com/x' }], 422, '310');
    await refused([{ if: { device: 'ios' }, url: 'https://sn.ip/abc' }], 409, '305');
    await refused([{ if: { device: 'ios' }, url: 'mailto:a@b.c' }], 400, '300');
    await refused([{ if: {}, url: 'https://example.com/x' }], 400, '300');
    await refused(
      Array.from({ length: 21 }, () => ({ if: { device: 'ios' }, url: 'https://example.com/x' })),
      400,
      '300',
    );
  });
});

describe('link rules over a real connection (rule-only links answered below the router)', () => {
  it('answers as the route does: targeting, a future expiry, then 410, the password form', async () => {
    let now = Date.UTC(2026, 10, 23, 12, 0, 0);
    const t = await startTestApp({
      now: () => now,
      countries: { countryOf: (address) => (address === '127.0.0.1' ? 'DE' : undefined) },
      env: { CLICK_FLUSH_MS: '60000' },
    });
    try {
      const create = async (body: Record<string, unknown>) => {
        const answer = await callApi(t.app, 'POST', '/links', { key: t.apiKey, body });
        assert.equal(answer.status, 201, JSON.stringify(answer.body));
        return String(answer.body.short_code);
      };
      const ruled = await create({
        url: 'https://example.com/home',
        expires_at: '2026-11-23T13:00:00Z',
        rules: [
          { if: { device: 'ios' }, url: 'https://example.com/ios' },
          { if: { country: 'DE' }, url: 'https://example.com/de' },
        ],
      });
      const locked = await create({ url: 'https://example.com/locked', password: 'open sesame' });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as { port: number };
      const get = (code: string, userAgent: string) =>
        fetch(`http://127.0.0.1:${port}/${code}`, {
          redirect: 'manual',
          headers: { 'user-agent': userAgent },
        });
      for (let i = 0; i < 2; i++) {
        // The first request fills the cache through the route; the second is answered below it.
        const ios = await get(ruled, IPHONE);
        assert.deepEqual([ios.status, ios.headers.get('location')], [302, 'https://example.com/ios']);
        const desktop = await get(ruled, BROWSER);
        assert.deepEqual([desktop.status, desktop.headers.get('location')], [302, 'https://example.com/de']);
        assert.equal((await get(locked, BROWSER)).status, 200);
      }
      now = Date.UTC(2026, 10, 23, 13, 0, 0);
      assert.equal((await get(ruled, BROWSER)).status, 410);
      await t.app.clicks.flush();
      assert.equal((await t.store.findLinkByCode(0, ruled))?.clicks, 4);
    } finally {
      await t.close();
    }
  });
});
