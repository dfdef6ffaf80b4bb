import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { UnavailableError } from '../../../src/core/errors.ts';
import { kuttAnswerOf } from '../../../src/features/compat/kutt/kutt-errors.ts';
import { keyWithScopes } from '../../fixtures/api-client.ts';
import { type Answer, send, startTestApp, type TestApp } from '../../helper.ts';

/**
 * The Kutt API's refusals (docs/api.md §15): every wrong value of every field and query parameter,
 * keys and scopes, Snip's own checks, all as Kutt's `{"error"}` with Kutt's status, never a 500.
 */

let t: TestApp;

before(async () => {
  t = await startTestApp();
  await t.ops.savePlan('tiny', { apiAccess: true, urlQuota: 1, rateLimitPerHour: 2 });
});
after(() => t?.close());

interface Options {
  key?: string;
  /** Sent as is; JSON-encoded otherwise. */
  raw?: string;
  type?: string;
}

function v2(method: string, path: string, body?: unknown, options: Options = {}): Promise<Answer> {
  const key = options.key ?? t.apiKey;
  const payload = options.raw ?? (body === undefined ? undefined : JSON.stringify(body));
  const headers: Record<string, string> = key === '' ? {} : { 'x-api-key': key };
  if (payload !== undefined) headers['content-type'] = options.type ?? 'application/json';
  return send(t.app, {
    method: method as 'GET',
    url: `/api/v2${path}`,
    headers,
    ...(payload === undefined ? {} : { payload }),
  });
}

function assertKuttError(answer: Answer, status: number, what = ''): void {
  assert.equal(answer.status, status, `${what}: ${JSON.stringify(answer.body)}`);
  assert.match(String(answer.headers['content-type']), /^application\/json/);
  assert.deepEqual(Object.keys(answer.body), ['error'], what);
  assert.equal(typeof answer.body.error, 'string');
}

let n = 0;
const target = () => `https://example.com/kutt-errors/${++n}`;

describe('list', () => {
  it('reads limit and skip as Kutt does: not a number or 0 is the default, above 50 is 50', async () => {
    const cases: Array<[string, number, number]> = [
      ['limit=abc', 10, 0],
      ['limit=0', 10, 0],
      ['limit=1000', 50, 0],
      ['limit=5abc', 5, 0],
      ['skip=abc', 10, 0],
      ['skip=3&limit=2', 2, 3],
    ];
    for (const [query, limit, skip] of cases) {
      const answer = await v2('GET', `/links?${query}`);
      assert.equal(answer.status, 200, query);
      assert.deepEqual([answer.body.limit, answer.body.skip], [limit, skip], query);
      assert.ok(answer.headers['ratelimit-remaining'], 'the window is reported');
    }
  });

  it('refuses a negative limit or skip and a repeated parameter with 400', async () => {
    for (const query of ['limit=-1', 'skip=-1', 'limit=1&limit=2', 'skip=1&skip=2', 'search=a&search=b']) {
      assertKuttError(await v2('GET', `/links?${query}`), 400, query);
    }
  });

  it('finds by search in the target, the title and the code', async () => {
    await v2('POST', '/links', { target: 'https://example.com/needle-in-target' });
    await v2('POST', '/links', { target: target(), description: 'A needle in the title' });
    await v2('POST', '/links', { target: target(), customurl: 'needle-code' });
    await v2('POST', '/links', { target: target(), description: 'Hay' });
    const answer = await v2('GET', '/links?search=NEEDLE');
    assert.equal(answer.status, 200);
    assert.equal(answer.body.total, 3);
    assert.equal((answer.body.data as unknown[]).length, 3);
  });
});

describe('create', () => {
  it('refuses every field of the wrong type or form with 400', async () => {
    await v2('POST', '/links', { target: target(), customurl: 'kutt-taken' });
    const bodies: unknown[] = [
      {},
      { target: 42 },
      { target: '' },
      { target: `https://example.com/${'x'.repeat(2040)}` },
      { target: 'ftp://example.com/file' },
      { target: 'https://facebook.com/someone' },
      { target: target(), password: 42 },
      { target: target(), password: 'ab' },
      { target: target(), password: 'short' },
      { target: target(), customurl: 'with spaces' },
      { target: target(), customurl: 42 },
      { target: target(), customurl: 'ab' },
      { target: target(), customurl: 'x'.repeat(65) },
      { target: target(), customurl: 'kutt-taken' },
      { target: target(), customurl: 'api' },
      { target: target(), reuse: 'maybe' },
      { target: target(), reuse: {} },
      { target: target(), description: 42 },
      { target: target(), description: 'x'.repeat(2041) },
      { target: target(), description: 'x'.repeat(600) },
      { target: target(), expire_in: 'soon' },
      { target: target(), expire_in: '30s' },
      { target: target(), expire_in: '0m' },
      { target: target(), expire_in: '-5m' },
      { target: target(), expire_in: 5 },
      { target: target(), expire_in: '999999999 years' },
      { target: target(), domain: 42 },
      { target: target(), domain: 'unknown.example' },
      [{ target: target() }],
      { target: `https://example.com/\u0000` },
    ];
    for (const body of bodies) assertKuttError(await v2('POST', '/links', body), 400, JSON.stringify(body));
    const before = await v2('GET', '/links?search=kutt-errors');
    assert.equal(before.body.total, 4, 'only the links made on purpose exist');
  });

  it('refuses a body it cannot read in the same form', async () => {
    assertKuttError(await v2('POST', '/links', undefined, { raw: '{"target": ' }), 400, 'broken JSON');
    assertKuttError(
      await v2('POST', '/links', undefined, { raw: 'target', type: 'text/plain' }),
      415,
      'text',
    );
    assertKuttError(await v2('POST', '/links'), 400, 'no body');
  });

  it('takes a form body as Kutt does, reuse as a string', async () => {
    const url = target();
    const form = `target=${encodeURIComponent(url)}&reuse=false`;
    const created = await v2('POST', '/links', undefined, {
      raw: form,
      type: 'application/x-www-form-urlencoded',
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const again = `target=${encodeURIComponent(url)}&reuse=true`;
    const reused = await v2('POST', '/links', undefined, {
      raw: again,
      type: 'application/x-www-form-urlencoded',
    });
    assert.equal(reused.status, 200);
    assert.equal(reused.body.id, created.body.id);
  });

  it("answers the workspace's link quota with 403", async () => {
    const { apiKey } = await t.ops.createAccount('quota@example.com', 'tiny');
    assert.equal((await v2('POST', '/links', { target: target() }, { key: apiKey })).status, 201);
    assertKuttError(await v2('POST', '/links', { target: target() }, { key: apiKey }), 403);
  });
});

describe('edit, delete and stats', () => {
  it('refuses an unknown id with 404 and one that cannot be an id with 400', async () => {
    const body = { target: target() };
    assertKuttError(await v2('PATCH', '/links/no-such-link', body), 404, 'edit');
    assertKuttError(await v2('DELETE', '/links/no-such-link'), 404, 'delete');
    assertKuttError(await v2('GET', '/links/no-such-link/stats'), 404, 'stats');
    assertKuttError(await v2('DELETE', '/links/no-such-link/stats'), 404, 'stats by DELETE');
    assertKuttError(await v2('GET', '/links/no-such-link@unknown.example/stats'), 404, 'unknown host');
    for (const id of ['with%20space', 'code@', '%F0%9F%99%82', 'x'.repeat(65)]) {
      assertKuttError(await v2('PATCH', `/links/${id}`, body), 400, id);
      assertKuttError(await v2('GET', `/links/${id}/stats`), 400, id);
    }
  });

  it('refuses an edit that changes nothing, or with a wrong field, with 400', async () => {
    const made = await v2('POST', '/links', { target: target(), customurl: 'kutt-edit-errors' });
    const current = made.body.target as string;
    const bodies: unknown[] = [
      {},
      { address: 'kutt-edit-errors', target: current },
      { password: '' },
      { password: '••••' },
      { expire_in: 'soon' },
      { target: 42 },
      { address: 'has spaces' },
      { address: 'kutt-other-code' },
      { description: 42 },
    ];
    for (const body of bodies) {
      assertKuttError(await v2('PATCH', '/links/kutt-edit-errors', body), 400, JSON.stringify(body));
    }
  });

  it('sets a password and removes it with an empty one', async () => {
    await v2('POST', '/links', { target: target(), customurl: 'kutt-secret' });
    const set = await v2('PATCH', '/links/kutt-secret', { password: 'a long password' });
    assert.equal(set.body.password, true);
    const kept = await v2('PATCH', '/links/kutt-secret', { description: 'Now titled' });
    assert.equal(kept.body.password, true, 'a field left out changes nothing');
    const removed = await v2('PATCH', '/links/kutt-secret', { password: '' });
    assert.equal(removed.status, 200);
    assert.equal(removed.body.password, false);
  });
});

describe('keys and scopes', () => {
  it('refuses a missing or unknown key with 401', async () => {
    assertKuttError(await v2('GET', '/links', undefined, { key: '' }), 401, 'no key');
    assertKuttError(await v2('GET', '/links', undefined, { key: 'not-a-key' }), 401, 'unknown key');
    assertKuttError(await v2('POST', '/links', { target: target() }, { key: 'not-a-key' }), 401, 'create');
  });

  it('refuses a call outside the scopes of the key with 403', async () => {
    const reader = await keyWithScopes(t.store, t.email, ['links:read'], 'reader');
    const maker = await keyWithScopes(t.store, t.email, ['links:create'], 'maker');
    await v2('POST', '/links', { target: target(), customurl: 'kutt-scoped' });
    assertKuttError(await v2('POST', '/links', { target: target() }, { key: reader }), 403, 'create');
    assertKuttError(
      await v2('PATCH', '/links/kutt-scoped', { target: target() }, { key: reader }),
      403,
      'edit',
    );
    assertKuttError(await v2('DELETE', '/links/kutt-scoped', undefined, { key: reader }), 403, 'delete');
    assertKuttError(await v2('GET', '/links/kutt-scoped/stats', undefined, { key: reader }), 403, 'stats');
    assertKuttError(await v2('POST', '/domains', { address: 'x.example' }, { key: reader }), 403, 'domain');
    assertKuttError(await v2('GET', '/links', undefined, { key: maker }), 403, 'list');
    assert.equal((await v2('GET', '/users', undefined, { key: maker })).status, 200);
  });

  it('answers a spent window with 429 and Retry-After', async () => {
    const { apiKey } = await t.ops.createAccount('window@example.com', 'tiny');
    for (let i = 0; i < 2; i++)
      assert.equal((await v2('GET', '/links', undefined, { key: apiKey })).status, 200);
    const spent = await v2('GET', '/links', undefined, { key: apiKey });
    assertKuttError(spent, 429);
    assert.match(String(spent.headers['retry-after']), /^\d+$/);
  });
});

describe('the rest', () => {
  it('answers paths and methods it does not have with 404 in its form', async () => {
    assertKuttError(await v2('GET', '/nothing-here'), 404);
    assertKuttError(await v2('PUT', '/links/abc', { target: target() }), 404);
  });

  it('answers a store that does not answer with 503 and Retry-After', async () => {
    const answer = kuttAnswerOf(new UnavailableError('the store timed out', 7));
    assert.equal(answer.status, 503);
    assert.equal(answer.headers['retry-after'], '7');
    const down = await startTestApp({
      storeSeenByApp: (store) =>
        new Proxy(store, {
          get: (target, name) =>
            name === 'ping'
              ? async () => {
                  throw new UnavailableError('the store timed out');
                }
              : Reflect.get(target, name),
        }),
    });
    try {
      const health = await send(down.app, { method: 'GET', url: '/api/v2/health' });
      assertKuttError(health, 503);
      assert.ok(health.headers['retry-after']);
    } finally {
      await down.close();
    }
  });
});
