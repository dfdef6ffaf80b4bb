import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { unreadableAt } from '../../src/http/edge-input.ts';
import { createForm, createJson, startTestApp, type TestApp } from '../helper.ts';

/** No NUL and no number out of range reaches a service or a store, on any route (docs/adr/025). */

describe('what the edge refuses', () => {
  it('finds a NUL or an unsafe number anywhere in a request part', () => {
    assert.equal(unreadableAt({ q: 'a\u0000b' }, 'querystring'), 'querystring.q');
    assert.equal(unreadableAt({ rules: [{ url: 'x' }, { url: '\u0000' }] }, 'body'), 'body.rules[1].url');
    assert.equal(unreadableAt({ limit: Number.POSITIVE_INFINITY }, 'querystring'), 'querystring.limit');
    assert.equal(unreadableAt({ id: 1e20 }, 'params'), 'params.id');
    assert.equal(unreadableAt({ 'a\u0000': 1 }, 'body'), 'body.a\u0000');
    assert.equal(
      unreadableAt({ limit: 50, q: 'ok', n: 1.5, big: Number.MAX_SAFE_INTEGER }, 'querystring'),
      undefined,
    );
  });
});

describe('requests with a NUL or a number out of range', () => {
  let t: TestApp;
  const api = (method: string, url: string, body?: unknown) =>
    t.app.inject({
      method: method as 'GET',
      url: `/api/v1${url}`,
      headers: { 'x-api-key': t.apiKey, ...(body ? { 'content-type': 'application/json' } : {}) },
      payload: typeof body === 'string' ? body : body ? JSON.stringify(body) : undefined,
    });
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it('are refused by the management API with 300, never a 500', async () => {
    for (const [method, url, body] of [
      ['GET', '/links?limit=1e309'],
      ['GET', '/links?limit=Infinity'],
      ['GET', '/links?q=a%00b'],
      ['GET', '/links?group=g%00'],
      ['GET', '/links?tag=t%00'],
      ['GET', '/links/ab%00c'],
      ['DELETE', '/groups/99999999999999999999'],
      ['POST', '/groups', { name: 'n\u0000' }],
      ['POST', '/links', '{"url": "https://example.com/", "max_clicks": 1e309}'],
      ['POST', '/links', { url: 'https://example.com/\u0000' }],
    ] as const) {
      const answer = await api(method, url, body);
      assert.equal(answer.statusCode, 400, `${method} ${url}`);
      assert.equal(answer.json().code, '300', `${method} ${url}`);
    }
  });

  it('are refused by /create in its envelope with 300', async () => {
    const json = await createJson(t.app, t.apiKey, { url: 'https://example.com/', group: 'g\u0000' });
    assert.equal(json.status, 400);
    assert.equal(json.body.error, '300');
    const form = await createForm(t.app, { apikey: t.apiKey, url: 'https://example.com/\u0000' });
    assert.equal(form.status, 400);
    assert.equal(form.body.error, '300');
  });

  it('are a 400 page on the sign-in and sign-up forms', async () => {
    for (const url of ['/login', '/signup']) {
      const answer = await t.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'email=a%00%40example.com&password=long+enough+password',
      });
      assert.equal(answer.statusCode, 400, url);
      assert.match(String(answer.headers['content-type']), /^text\/html/);
    }
  });

  it('leave a short code or an asset name they make unknown: 404', async () => {
    for (const url of ['/ab%00c', '/qrcode/ab%00c.png', '/assets/x%00.css']) {
      assert.equal((await t.app.inject({ method: 'GET', url })).statusCode, 404, url);
    }
  });
});
