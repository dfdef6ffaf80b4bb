import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hashApiKey } from '../../../src/core/api-key.ts';
import { SCOPES } from '../../../src/core/scopes.ts';
import { assertProblem, callApi, keyWithScopes } from '../../fixtures/api-client.ts';
import { createJson, startTestApp, type TestApp } from '../../helper.ts';

/** Keys on /api/v1 (docs/api.md §7.1): both headers, the failed-key limiter, scopes, one window per account. */

describe('keys on /api/v1', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it('takes the key from X-API-Key or Authorization: Bearer', async () => {
    assert.equal((await callApi(t.app, 'GET', '/account', { key: t.apiKey })).status, 200);
    assert.equal((await callApi(t.app, 'GET', '/account', { key: t.apiKey, bearer: true })).status, 200);
    const lowerCase = await callApi(t.app, 'GET', '/account', {
      headers: { authorization: `bearer ${t.apiKey}` },
    });
    assert.equal(lowerCase.status, 200);
  });

  it('answers 301 without a key, 303 for an unknown one, before anything else', async () => {
    assertProblem(await callApi(t.app, 'GET', '/links'), 401, '301');
    assertProblem(
      await callApi(t.app, 'GET', '/links', { headers: { authorization: 'Basic abc' } }),
      401,
      '301',
    );
    assertProblem(await callApi(t.app, 'GET', '/links', { key: 'snip_unknown' }), 401, '303');
    // The key is judged before the body is read.
    assertProblem(await callApi(t.app, 'POST', '/links', { body: '{not json' }), 401, '301');
    // Before the route is known, too: nothing about the API is told to a caller without a key.
    assertProblem(await callApi(t.app, 'GET', '/nothing-here'), 401, '301');
    assertProblem(await callApi(t.app, 'GET', '/nothing-here', { key: t.apiKey }), 404, '404');
  });

  it('gives the main key every scope, a further key only its own (315 otherwise)', async () => {
    const reader = await keyWithScopes(t.store, t.email, ['links:read'], 'reader');
    assert.equal((await callApi(t.app, 'GET', '/links', { key: reader })).status, 200);
    assert.equal((await callApi(t.app, 'GET', '/links.csv', { key: reader })).status, 200);
    assert.equal((await callApi(t.app, 'GET', '/groups', { key: reader })).status, 200);
    assert.equal(
      (await callApi(t.app, 'GET', '/account', { key: reader })).status,
      200,
      'any key reads its account',
    );
    const refused = [
      ['POST', '/links', { url: 'https://example.com/scoped' }],
      ['PATCH', '/links/abcdefg', { title: 'x' }],
      ['DELETE', '/links/abcdefg', undefined],
      ['POST', '/groups', { name: 'G' }],
      ['PATCH', '/groups/1', { name: 'G' }],
      ['DELETE', '/groups/1', undefined],
    ] as const;
    for (const [method, path, body] of refused) {
      const answer = await callApi(t.app, method, path, { key: reader, body });
      assertProblem(answer, 403, '315');
      assert.ok(answer.headers['ratelimit-remaining'], 'a refused request spent its window');
    }
    // POST /create needs links:create too, and answers in its envelope.
    const create = await createJson(t.app, reader, { url: 'https://example.com/scoped' });
    assert.equal(create.status, 403);
    assert.equal(create.body.error, '315');
    const creator = await keyWithScopes(t.store, t.email, ['links:create'], 'creator');
    assert.equal((await createJson(t.app, creator, { url: 'https://example.com/scoped' })).status, 201);
    assertProblem(await callApi(t.app, 'GET', '/links', { key: creator }), 403, '315');
    const main = await t.store.findKeyByHash(hashApiKey(t.apiKey));
    assert.deepEqual(main?.scopes, [...SCOPES]);
  });

  it('refuses a revoked key with 303', async () => {
    const account = await t.store.findAccountByEmail(t.email);
    assert.ok(account);
    const key = await keyWithScopes(t.store, t.email, ['links:read'], 'soon revoked');
    const listed = await t.store.listLiveKeys(account.workspace.id);
    const revoked = listed.find((info) => key.startsWith(info.prefix) && info.name === 'soon revoked');
    assert.ok(revoked);
    assert.equal(await t.store.revokeKey(account.workspace.id, revoked.id), true);
    assertProblem(await callApi(t.app, 'GET', '/links', { key }), 401, '303');
  });

  it('records when each key was last used, in a batch, not per request', async () => {
    const account = await t.store.findAccountByEmail(t.email);
    assert.ok(account);
    const key = await keyWithScopes(t.store, t.email, ['links:read'], 'used');
    const before = Date.now();
    assert.equal((await callApi(t.app, 'GET', '/links', { key })).status, 200);
    const unflushed = (await t.store.listLiveKeys(account.workspace.id)).find((info) => info.name === 'used');
    assert.equal(unflushed?.lastUsedAt, null, 'nothing written while answering');
    await t.app.keyUses.flush();
    const flushed = (await t.store.listLiveKeys(account.workspace.id)).find((info) => info.name === 'used');
    assert.ok(flushed?.lastUsedAt && flushed.lastUsedAt.getTime() >= before - 1000);
  });
});

describe('the failed-key limiter on /api/v1', () => {
  it('refuses an address with too many missing or wrong keys, even with a valid key', async () => {
    const t = await startTestApp({ env: { FAILED_KEY_LIMIT: '2' } });
    try {
      assertProblem(await callApi(t.app, 'GET', '/links', { key: 'snip_wrong1' }), 401, '303');
      assertProblem(await callApi(t.app, 'GET', '/links'), 401, '301');
      const limited = await callApi(t.app, 'GET', '/links', { key: t.apiKey });
      assertProblem(limited, 429, '429');
      assert.ok(Number(limited.headers['retry-after']) > 0);
      // The same address is refused on /create too: one limiter.
      assert.equal((await createJson(t.app, t.apiKey, { url: 'https://example.com/x' })).status, 429);
    } finally {
      await t.close();
    }
  });
});

describe('one hourly window per account', () => {
  it('is shared by /create, /api/v1 and every key of the account, with RateLimit-* on each answer', async () => {
    let now = Date.UTC(2026, 5, 1, 10, 30, 0);
    const t = await startTestApp({ plan: { rateLimitPerHour: 4 }, now: () => now });
    try {
      const second = await keyWithScopes(t.store, t.email, ['links:read', 'links:create'], 'second');
      const first = await callApi(t.app, 'GET', '/links', { key: t.apiKey });
      assert.equal(first.headers['ratelimit-limit'], '4');
      assert.equal(first.headers['ratelimit-remaining'], '3');
      assert.equal(first.headers['ratelimit-reset'], '1800');
      assert.equal(
        (await createJson(t.app, second, { url: 'https://example.com/w' })).headers['ratelimit-remaining'],
        '2',
      );
      assert.equal((await callApi(t.app, 'GET', '/account', { key: second })).body.requests_this_hour, 3);
      assert.equal(
        (await callApi(t.app, 'GET', '/links', { key: t.apiKey })).headers['ratelimit-remaining'],
        '0',
      );
      const limited = await callApi(t.app, 'GET', '/links', { key: second });
      assertProblem(limited, 429, '429');
      assert.equal(limited.headers['retry-after'], '1800');
      assert.equal(limited.headers['ratelimit-remaining'], '0');
      assert.equal((await createJson(t.app, t.apiKey, { url: 'https://example.com/w2' })).status, 429);
      // Another account has its own window.
      const { apiKey: other } = await t.ops.createAccount('other@example.com', 'tester');
      assert.equal((await callApi(t.app, 'GET', '/links', { key: other })).status, 200);
      now = Date.UTC(2026, 5, 1, 11, 0, 0);
      assert.equal((await callApi(t.app, 'GET', '/links', { key: second })).status, 200);
    } finally {
      await t.close();
    }
  });
});
