import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { refusedJsonKey } from '../../src/http/body-parsers.ts';
import { startTestApp, type TestApp } from '../helper.ts';

/**
 * Two edges of what a client writes (docs/api.md §7.1): a JSON body holding a key that could
 * poison prototypes is refused as such (300, naming the key), not as a body too large; an integer
 * in an /api/v1 query or path is decimal digits, nothing a number parser would also take.
 */

const POISONED = [
  ['__proto__', '{"url":"https://example.com/","__proto__":{"admin":true}}'],
  ['constructor.prototype', '{"url":"https://example.com/","constructor":{"prototype":{"admin":true}}}'],
  ['__proto__', '{"url":"https://example.com/","tags":[{"__proto__":{"x":1}}]}'],
] as const;

describe('the key a JSON body may not hold', () => {
  it('is found in valid JSON, and nothing is found in JSON without it or in text that is not JSON', () => {
    for (const [key, text] of POISONED) assert.equal(refusedJsonKey(text), key);
    assert.equal(refusedJsonKey('{"constructor":"a","prototype":1,"proto":2}'), undefined);
    assert.equal(refusedJsonKey('{"constructor":{"name":"x"}}'), undefined);
    assert.equal(refusedJsonKey('{"__proto__":'), undefined);
  });
});

describe('a JSON body with a poisoned key', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t?.close());

  const post = (url: string, payload: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json', 'x-api-key': t.apiKey, ...headers },
      payload,
    });

  it('is refused by /create and /demo/create in the envelope: 300, naming the key', async () => {
    for (const url of ['/create', '/demo/create']) {
      for (const [key, payload] of POISONED) {
        const answer = await post(url, payload);
        assert.equal(answer.statusCode, 400, url);
        const body = answer.json();
        assert.equal(body.error, '300', url);
        assert.deepEqual(Object.keys(body).sort(), ['error', 'message', 'success', 'timestamps']);
        assert.ok(body.message.includes(`"${key}"`), `${url}: ${body.message}`);
      }
    }
  });

  it('is refused by /api/v1 as a problem: 300, naming the key, whatever the route', async () => {
    for (const url of ['/api/v1/links', '/api/v1/links/bulk', '/api/v1/groups', '/api/v1/reports']) {
      for (const [key, payload] of POISONED) {
        const answer = await post(url, payload);
        assert.equal(answer.statusCode, 400, url);
        assert.match(String(answer.headers['content-type']), /^application\/problem\+json/);
        assert.equal(answer.json().code, '300', url);
        assert.ok(answer.json().detail.includes(`"${key}"`), url);
      }
    }
    const listed = await t.app.inject({
      method: 'GET',
      url: '/api/v1/links',
      headers: { 'x-api-key': t.apiKey },
    });
    assert.deepEqual(listed.json().items, []);
  });

  it('reaches the compatibility APIs as a 400, never a 413', async () => {
    for (const [url, headers] of [
      ['/rest/v3/short-urls', {}],
      ['/api/v2/links', {}],
      ['/yourls-api.php?action=shorturl&format=json', {}],
    ] as const) {
      for (const [, payload] of POISONED) {
        const answer = await post(url, payload, headers);
        assert.equal(answer.statusCode, 400, url);
      }
    }
  });

  it('still tells a body that is not JSON, or too large, apart: 300 on /api/v1', async () => {
    for (const payload of ['{"url":', `{"url":"https://example.com/","x":"${'a'.repeat(70_000)}"}`]) {
      const answer = await post('/api/v1/links', payload);
      assert.equal(answer.statusCode, 400);
      assert.equal(answer.json().code, '300');
      assert.doesNotMatch(answer.json().detail, /__proto__/);
    }
  });
});

describe('an integer in an /api/v1 query or path', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t?.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { 'x-api-key': t.apiKey } });

  it('is refused unless written in decimal digits without a leading zero (300)', async () => {
    for (const limit of ['0x10', '1e1', '%2010', '10%20', '%2B10', '10.0', '010', '00', '', 'ten', '1_0']) {
      for (const path of ['/api/v1/links', '/api/v1/audit']) {
        const answer = await get(`${path}?limit=${limit}`);
        assert.equal(answer.statusCode, 400, `${path}?limit=${limit}`);
        assert.equal(answer.json().code, '300', `${path}?limit=${limit}`);
      }
    }
  });

  it('is refused outside 1–100 for limit, and read as the number otherwise', async () => {
    for (const limit of ['0', '-1', '101', '1000']) {
      const answer = await get(`/api/v1/links?limit=${limit}`);
      assert.equal(answer.statusCode, 400, limit);
      assert.equal(answer.json().code, '300', limit);
    }
    for (const limit of ['1', '10', '100']) {
      const answer = await get(`/api/v1/links?limit=${limit}`);
      assert.equal(answer.statusCode, 200, limit);
      assert.deepEqual(answer.json(), { items: [], next_cursor: null });
    }
  });

  it('in a path is refused the same way (a group id)', async () => {
    const made = await t.app.inject({
      method: 'POST',
      url: '/api/v1/groups',
      headers: { 'x-api-key': t.apiKey, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'Spring' }),
    });
    assert.equal(made.statusCode, 201);
    const id = Number(made.json().id);
    const rename = (written: string) =>
      t.app.inject({
        method: 'PATCH',
        url: `/api/v1/groups/${written}`,
        headers: { 'x-api-key': t.apiKey, 'content-type': 'application/json' },
        payload: JSON.stringify({ name: 'Summer' }),
      });
    for (const written of [`0x${id.toString(16)}`, `0${id}`, `${id}.0`, `%2B${id}`]) {
      const answer = await rename(written);
      assert.equal(answer.statusCode, 400, written);
      assert.equal(answer.json().code, '300', written);
    }
    assert.equal((await rename(String(id))).statusCode, 200);
  });
});
