import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { InjectOptions } from 'fastify';
import { keyWithScopes } from '../../fixtures/api-client.ts';
import { sharexMultipart, sharexQueryOnly } from '../../fixtures/sharex/yourls-sharex.ts';
import { readXml } from '../../fixtures/sharex/yourls-xml-reader.ts';
import { FakeInspector, startTestApp, type TestApp } from '../../helper.ts';

/** Who may call yourls-api.php, and what shorturl refuses, in YOURLS's own failure answers. */

const PASSWORD = 'correct horse battery';
const USER = 'yourls-user@example.com';

let t: TestApp;
const inspector = new FakeInspector();

async function call(params: Record<string, string>, options: Partial<InjectOptions> = {}) {
  const query = new URLSearchParams({ format: 'json', ...params }).toString();
  const answer = await t.app.inject({ method: 'GET', url: `/yourls-api.php?${query}`, ...options });
  const body = /json/.test(String(answer.headers['content-type'])) ? answer.json() : answer.body;
  return { status: answer.statusCode, headers: answer.headers, body };
}

before(async () => {
  t = await startTestApp({ inspector });
  await t.ops.createAccount(USER, 'tester', PASSWORD);
});
after(() => t.close());

describe('YOURLS log-in', () => {
  it('takes a Snip key as the signature', async () => {
    const answer = await call({ signature: t.apiKey, action: 'version' });
    assert.equal(answer.status, 200);
    assert.ok(answer.headers['ratelimit-limit'] !== undefined);
  });

  it("takes an account's email and password, as ShareX sends them", async () => {
    const credentials = { username: USER, password: PASSWORD };
    for (const request of [sharexMultipart, sharexQueryOnly]) {
      const answer = await t.app.inject(
        request('/yourls-api.php', credentials, `https://example.com/pw/${request.name}`),
      );
      assert.equal(answer.statusCode, 200, answer.body);
      assert.match(answer.body, /^https:\/\/sn\.ip\/[0-9A-Za-z]{7}$/);
    }
    const wrong = await call({ username: USER, password: 'not the password', action: 'version' });
    assert.equal(wrong.status, 403);
    assert.deepEqual(wrong.body, {
      message: 'Invalid username or password',
      errorCode: '403',
      snipCode: 'sign-in-failed',
    });
  });

  it('answers a wrong, missing or time-limited signature with 403 in every format', async () => {
    const refused: Record<string, string>[] = [
      { signature: 'snip_not-a-key', action: 'shorturl', url: 'https://example.com/w' },
      { action: 'version' },
      { signature: t.apiKey, timestamp: String(Math.floor(Date.now() / 1000)), action: 'version' },
      { signature: t.apiKey, timestamp: '', action: 'version' },
    ];
    for (const params of refused) {
      const answer = await call(params);
      assert.equal(answer.status, 403, JSON.stringify(params));
      assert.equal(answer.body.errorCode, '403');
      assert.equal(answer.body.message, 'Please log in');
    }
    const xml = await call({ action: 'version', format: 'xml' });
    assert.equal(xml.status, 403);
    assert.equal((readXml(xml.body).value as Record<string, string>).errorCode, '403');
    const simple = await call({ action: 'version', format: 'simple' });
    assert.deepEqual([simple.status, simple.body], [403, 'Please log in']);
    const jsonp = await call({ action: 'version', format: 'jsonp', callback: 'cb' });
    assert.equal(jsonp.status, 403);
    assert.match(jsonp.body, /^cb\(\{"message":"Please log in","errorCode":"403"/);
  });

  it('holds a key to its scopes: creating needs links:create, the totals stats:read', async () => {
    const reader = await keyWithScopes(t.store, t.email, ['links:read']);
    const refused = await call({ signature: reader, action: 'shorturl', url: 'https://example.com/scoped' });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.snipCode, '315');
    assert.equal((await call({ signature: reader, action: 'db-stats' })).body.snipCode, '315');
    assert.equal((await call({ signature: reader, action: 'stats' })).status, 200);
    assert.equal((await call({ signature: reader, action: 'version' })).status, 200);
  });

  it('answers 429 with Retry-After once an address sent too many wrong keys', async () => {
    const options = { remoteAddress: '203.0.113.77' };
    let last = await call({ signature: 'snip_wrong', action: 'version' }, options);
    for (let i = 0; i < 40 && last.status === 403; i++) {
      last = await call({ signature: 'snip_wrong', action: 'version' }, options);
    }
    assert.equal(last.status, 429);
    assert.equal(last.body.errorCode, '429');
    assert.equal(last.body.snipCode, '429');
    assert.ok(Number(last.headers['retry-after']) > 0);
  });
});

describe('YOURLS shorturl refusals', () => {
  const create = (params: Record<string, string>) =>
    call({ signature: t.apiKey, action: 'shorturl', ...params });

  it('answers a URL the workspace shortened already with error:url naming its link', async () => {
    const first = await create({ url: 'https://example.com/twice', keyword: 'twice', title: 'Twice' });
    assert.equal(first.status, 200);
    const again = await create({ url: 'https://example.com/twice', keyword: 'other-one' });
    assert.equal(again.status, 400);
    assert.deepEqual(Object.keys(again.body), [
      'status',
      'code',
      'message',
      'errorCode',
      'statusCode',
      'url',
      'title',
      'shorturl',
      'snipCode',
    ]);
    assert.equal(again.body.status, 'fail');
    assert.equal(again.body.code, 'error:url');
    assert.equal(again.body.shorturl, 'https://sn.ip/twice');
    assert.equal(again.body.url.keyword, 'twice');
    assert.equal(again.body.title, 'Twice');
    assert.equal(again.body.snipCode, '305');
    const simple = await create({ url: 'https://example.com/twice', format: 'simple' });
    assert.deepEqual([simple.status, simple.body], [400, 'https://sn.ip/twice']);
  });

  it('answers a taken, reserved or malformed keyword with error:keyword', async () => {
    const keywords = [
      ['twice', '313'],
      ['admin', '313'],
      ['a!', '300'],
      ['x', '300'],
    ];
    for (const [i, [keyword, snipCode]] of keywords.entries()) {
      const answer = await create({ url: `https://example.com/kw/${i}`, keyword: keyword as string });
      assert.equal(answer.status, 400, keyword);
      assert.equal(answer.body.code, 'error:keyword', keyword);
      assert.equal(answer.body.snipCode, snipCode, keyword);
    }
    const simple = await create({ url: 'https://example.com/kw/simple', keyword: 'twice', format: 'simple' });
    assert.deepEqual([simple.status, simple.body], [400, '']);
  });

  it('answers a missing, malformed or looping URL and a failed target check as YOURLS-like codes', async () => {
    const cases: Array<[Record<string, string>, string, string]> = [
      [{}, 'error:nourl', '302'],
      [{ url: 'not a url' }, 'error:nourl', '300'],
      [{ url: 'https://sn.ip/twice' }, 'error:noloop', '305'],
      [{ url: 'https://example.com/titled', title: 'bell \u0007' }, 'error:title', '300'],
    ];
    for (const [params, code, snipCode] of cases) {
      const answer = await create(params);
      assert.equal(answer.status, 400, JSON.stringify(params));
      assert.deepEqual([answer.body.code, answer.body.snipCode], [code, snipCode]);
    }
    inspector.outcome = () => ({ ok: false, code: '307', reason: 'answers 404' });
    try {
      const gone = await create({ url: 'https://example.com/gone' });
      assert.equal(gone.status, 400);
      assert.deepEqual([gone.body.code, gone.body.snipCode], ['error:target', '307']);
    } finally {
      inspector.outcome = (url) => ({ ok: true, title: 'A page', finalUrl: url.href, status: 200 });
    }
  });

  it('collapses whitespace in a title as YOURLS does', async () => {
    const answer = await create({ url: 'https://example.com/spaced', title: '  two\n\tlines  ' });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.title, 'two lines');
  });
});
