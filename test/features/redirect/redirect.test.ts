import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import { clearOfWindowEnd, MINUTE_MS } from '../../fixtures/clear-of-window.ts';
import { createJson, send, startTestApp, type TestApp } from '../../helper.ts';

// jsqr is CommonJS: at run time its default import is the decoder function itself.
const jsQR = jsQRModule as unknown as (typeof jsQRModule)['default'];

const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';

async function makeLink(t: TestApp, url: string): Promise<string> {
  const answer = await createJson(t.app, t.apiKey, { url });
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  return String(answer.body.short_code);
}

async function counts(t: TestApp, code: string) {
  await t.app.clicks.flush();
  const link = await t.store.findLinkByCode(0, code);
  assert.ok(link);
  return { clicks: link.clicks, botHits: link.botHits };
}

describe('GET /<short_code>', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ env: { NOT_FOUND_LIMIT: '5', CLICK_FLUSH_MS: '60000' } });
  });
  after(() => t.close());

  it('redirects with 302 and a Cache-Control that keeps browsers from caching it', async () => {
    const code = await makeLink(t, 'https://example.com/target?q=1');
    const answer = await t.app.inject({ method: 'GET', url: `/${code}`, headers: { 'user-agent': BROWSER } });
    assert.equal(answer.statusCode, 302);
    assert.equal(answer.headers.location, 'https://example.com/target?q=1');
    assert.match(String(answer.headers['cache-control']), /no-store/);
    assert.match(String(answer.headers['cache-control']), /private/);
  });

  it('sends an ASCII Location for an IDN target', async () => {
    const code = await makeLink(t, 'https://bücher.example/straße');
    const answer = await t.app.inject({ method: 'GET', url: `/${code}`, headers: { 'user-agent': BROWSER } });
    assert.equal(answer.headers.location, 'https://xn--bcher-kva.example/stra%C3%9Fe');
  });

  it('counts a browser GET, and not HEAD, prefetch, prerender, bots or link previews', async () => {
    const code = await makeLink(t, 'https://example.com/counted');
    const requests = [
      { method: 'GET', headers: { 'user-agent': BROWSER } },
      { method: 'GET', headers: { 'user-agent': BROWSER } },
      { method: 'HEAD', headers: { 'user-agent': BROWSER } },
      { method: 'GET', headers: { 'user-agent': BROWSER, 'sec-purpose': 'prefetch' } },
      { method: 'GET', headers: { 'user-agent': BROWSER, 'sec-purpose': 'prefetch;prerender' } },
      { method: 'GET', headers: { 'user-agent': BROWSER, purpose: 'prefetch' } },
      {
        method: 'GET',
        headers: { 'user-agent': 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)' },
      },
      { method: 'GET', headers: { 'user-agent': 'facebookexternalhit/1.1' } },
      { method: 'GET', headers: { 'user-agent': 'Twitterbot/1.0' } },
      {
        method: 'GET',
        headers: { 'user-agent': 'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)' },
      },
      { method: 'GET', headers: { 'user-agent': 'WhatsApp/2.23.20.0 A' } },
      { method: 'GET', headers: {} },
    ] as const;
    for (const request of requests) {
      const answer = await t.app.inject({
        method: request.method,
        url: `/${code}`,
        headers: request.headers,
      });
      assert.equal(answer.statusCode, 302, `${request.method} ${JSON.stringify(request.headers)}`);
    }
    assert.deepEqual(await counts(t, code), { clicks: 2, botHits: requests.length - 2 });
  });

  it('counts exactly 1,000 concurrent redirects of one link after flush', async () => {
    const code = await makeLink(t, 'https://example.com/thousand');
    const answers = await Promise.all(
      Array.from({ length: 1000 }, () =>
        t.app.inject({ method: 'GET', url: `/${code}`, headers: { 'user-agent': BROWSER } }),
      ),
    );
    assert.ok(answers.every((a) => a.statusCode === 302));
    assert.deepEqual(await counts(t, code), { clicks: 1000, botHits: 0 });
  });

  it('answers an unknown code with an HTML 404 page, or JSON when JSON is asked for', async () => {
    const page = await t.app.inject({
      method: 'GET',
      url: '/zzzzzzz',
      headers: { 'x-forwarded-for': '1.1.1.1' },
    });
    assert.equal(page.statusCode, 404);
    assert.match(String(page.headers['content-type']), /text\/html/);
    assert.match(page.body, /<html/);
    const json = await send(t.app, {
      method: 'GET',
      url: '/yyyyyyy',
      headers: { accept: 'application/json' },
    });
    assert.equal(json.status, 404);
    assert.equal(json.body.error, '404');
  });

  it('answers malformed codes and unknown paths with 404', async () => {
    for (const url of [
      '/abc',
      '/abcdefgh',
      '/abc-efg',
      '/a/b/c',
      '/%E2%82%AC%E2%82%AC%E2%82%AC%E2%82%AC%E2%82%AC%E2%82%AC%E2%82%AC',
    ]) {
      const fresh = await startTestApp();
      try {
        assert.equal((await fresh.app.inject({ method: 'GET', url })).statusCode, 404, url);
      } finally {
        await fresh.close();
      }
    }
  });

  it('limits unknown codes per address so codes cannot be enumerated cheaply', async () => {
    const fresh = await startTestApp({ env: { NOT_FOUND_LIMIT: '3' } });
    try {
      const code = await makeLink(fresh, 'https://example.com/known');
      const statuses = [];
      await clearOfWindowEnd(MINUTE_MS);
      for (let i = 0; i < 5; i++)
        statuses.push((await fresh.app.inject({ method: 'GET', url: `/unkno${i}n` })).statusCode);
      assert.deepEqual(statuses, [404, 404, 404, 429, 429]);
      // A cached known link still redirects.
      assert.equal((await fresh.app.inject({ method: 'GET', url: `/${code}` })).statusCode, 302);
    } finally {
      await fresh.close();
    }
  });

  it('never lets a code shadow a route of Snip', async () => {
    assert.equal((await t.app.inject({ method: 'GET', url: '/openapi.json' })).statusCode, 200);
    assert.equal((await t.app.inject({ method: 'POST', url: '/create' })).json().error, '300');
  });
});

describe('REDIRECT_STATUS', () => {
  for (const status of ['301', '307', '308']) {
    it(`redirects with ${status} when configured`, async () => {
      const t = await startTestApp({ env: { REDIRECT_STATUS: status } });
      try {
        const code = await makeLink(t, 'https://example.com/status');
        assert.equal((await t.app.inject({ method: 'GET', url: `/${code}` })).statusCode, Number(status));
      } finally {
        await t.close();
      }
    });
  }
});

describe('hot link cache', () => {
  it('reads the store once when 100 requests for the same cold code arrive together', async () => {
    const t = await startTestApp();
    try {
      const code = await makeLink(t, 'https://example.com/cold');
      let reads = 0;
      const original = t.store.findLinkByCode.bind(t.store);
      t.store.findLinkByCode = async (d, c) => {
        reads++;
        await new Promise((resolve) => setImmediate(resolve));
        return original(d, c);
      };
      t.app.linkCache.invalidate(code);
      const answers = await Promise.all(
        Array.from({ length: 100 }, () => t.app.inject({ method: 'GET', url: `/${code}` })),
      );
      assert.ok(answers.every((a) => a.statusCode === 302));
      assert.equal(reads, 1);
      await t.app.inject({ method: 'GET', url: `/${code}` });
      assert.equal(reads, 1);
    } finally {
      await t.close();
    }
  });

  it('forgets a code remembered as unknown once a link gets it', async () => {
    const codes = ['Aaaaaaa'];
    const t = await startTestApp();
    try {
      assert.equal((await t.app.inject({ method: 'GET', url: `/${codes[0]}` })).statusCode, 404);
      const account = await t.store.findAccountByEmail(t.email);
      assert.ok(account);
      const created = await t.store.insertLinkWithinQuota({
        code: 'Aaaaaaa',
        domainId: 0,
        workspaceId: account.workspace.id,
        groupId: null,
        longUrl: 'https://example.com/late',
        normalizedUrl: 'https://example.com/late',
        urlHash: 'x'.repeat(64),
        title: '',
      });
      assert.equal(created.kind, 'created');
      // Still remembered as unknown until invalidated, as the create service does after storing.
      t.app.linkCache.invalidate('Aaaaaaa');
      assert.equal((await t.app.inject({ method: 'GET', url: '/Aaaaaaa' })).statusCode, 302);
    } finally {
      await t.close();
    }
  });
});

describe('GET /qrcode/<short_code>.png', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  /**
   * A PNG's side is the whole number of pixels per module nearest the size asked, times the modules
   * and their margin (docs/api.md §16): within half of those modules' count of the size.
   */
  const assertAbout = (side: number, asked: number, message?: string) =>
    assert.ok(Math.abs(side - asked) <= 24, `${message ?? ''}: ${side} for ${asked}`);

  it('is a PNG that decodes back to the short URL', async () => {
    const code = await makeLink(t, 'https://example.com/qr');
    const answer = await t.app.inject({ method: 'GET', url: `/qrcode/${code}.png` });
    assert.equal(answer.statusCode, 200);
    assert.equal(answer.headers['content-type'], 'image/png');
    const png = PNG.sync.read(answer.rawPayload);
    assertAbout(png.width, 256);
    const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
    assert.equal(decoded?.data, `https://sn.ip/${code}?qr=1`);
  });

  it('clamps ?size= to 64-1024 and ignores nonsense', async () => {
    const code = await makeLink(t, 'https://example.com/qr-size');
    for (const [size, width] of [
      ['512', 512],
      ['1', 64],
      ['99999', 1024],
      ['99999999', 1024],
      ['000000512', 512],
      ['abc', 256],
      ['-5', 256],
      ['300&size=900', 300],
    ] as const) {
      const answer = await t.app.inject({ method: 'GET', url: `/qrcode/${code}.png?size=${size}` });
      assert.equal(answer.statusCode, 200);
      assertAbout(PNG.sync.read(answer.rawPayload).width, width, size);
    }
  });

  it('sends Cache-Control and an ETag, and 304 for a matching If-None-Match', async () => {
    const code = await makeLink(t, 'https://example.com/qr-etag');
    const first = await t.app.inject({ method: 'GET', url: `/qrcode/${code}.png` });
    assert.match(String(first.headers['cache-control']), /max-age=\d+/);
    const etag = String(first.headers.etag);
    assert.match(etag, /^".+"$/);
    const again = await t.app.inject({
      method: 'GET',
      url: `/qrcode/${code}.png`,
      headers: { 'if-none-match': etag },
    });
    assert.equal(again.statusCode, 304);
  });

  it('draws the QR code of a custom slug, the qr_code the API gives for it', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/links',
      headers: { 'x-api-key': t.apiKey, 'content-type': 'application/json' },
      payload: { url: 'https://example.com/qr-slug', slug: 'spring_sale-2026' },
    });
    assert.equal(created.statusCode, 201);
    assert.equal(created.json().qr_code, 'https://sn.ip/qrcode/spring_sale-2026.png');
    const answer = await t.app.inject({ method: 'GET', url: '/qrcode/spring_sale-2026.png' });
    assert.equal(answer.statusCode, 200);
    const png = PNG.sync.read(answer.rawPayload);
    const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
    assert.equal(decoded?.data, 'https://sn.ip/spring_sale-2026?qr=1');
  });

  it('answers 404 for an unknown or malformed code', async () => {
    assert.equal((await t.app.inject({ method: 'GET', url: '/qrcode/Zzzzzzz.png' })).statusCode, 404);
    assert.equal((await t.app.inject({ method: 'GET', url: '/qrcode/bad.png' })).statusCode, 404);
    assert.equal((await t.app.inject({ method: 'GET', url: '/qrcode/Zzzzzzz.gif' })).statusCode, 404);
  });
});

describe('redirects over a real connection (hot links answered below the router)', () => {
  it('answers a cold and a hot request for a code the same way, and counts both', async () => {
    const t = await startTestApp({ env: { CLICK_FLUSH_MS: '60000' } });
    try {
      const code = await makeLink(t, 'https://example.com/over-the-wire?x=1');
      t.app.linkCache.invalidate(code);
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as { port: number };
      const get = (method: string, headers: Record<string, string>) =>
        fetch(`http://127.0.0.1:${port}/${code}?utm=1`, { method, redirect: 'manual', headers });
      const cold = await get('GET', { 'user-agent': BROWSER });
      const hot = await get('GET', { 'user-agent': BROWSER });
      const head = await get('HEAD', { 'user-agent': BROWSER });
      const bot = await get('GET', { 'user-agent': 'Twitterbot/1.0' });
      for (const answer of [cold, hot, head, bot]) {
        assert.equal(answer.status, 302);
        assert.equal(answer.headers.get('location'), 'https://example.com/over-the-wire?x=1');
        assert.equal(
          answer.headers.get('cache-control'),
          'private, no-cache, no-store, max-age=0, must-revalidate',
        );
        assert.equal(answer.headers.get('x-content-type-options'), 'nosniff');
        // BASE_URL is https: every answer, hot or cold, keeps browsers on https.
        assert.equal(answer.headers.get('strict-transport-security'), 'max-age=31536000; includeSubDomains');
      }
      assert.deepEqual(await counts(t, code), { clicks: 2, botHits: 2 });
      const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      assert.match(metrics, /snip_http_requests_total\{route="\/:code",method="GET",status="302"\} 3/);
      assert.match(metrics, /snip_redirects_total\{kind="human"\} 2/);
    } finally {
      await t.close();
    }
  });
});
