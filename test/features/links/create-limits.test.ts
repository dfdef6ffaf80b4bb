import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createForm, createJson, startTestApp } from '../../helper.ts';

/** Rate limit (docs/api.md §2.5), failed-key limiter, quota and the atomic duplicate rule under concurrency. */

const HOUR = 3_600_000;

describe('hourly rate limit per key', () => {
  it('counts every request with a valid key and answers 429 with Retry-After once spent', async () => {
    let now = Date.UTC(2026, 5, 1, 10, 59, 0);
    const t = await startTestApp({ plan: { rateLimitPerHour: 3 }, now: () => now });
    try {
      const first = await createJson(t.app, t.apiKey, { url: 'https://example.com/r1' });
      assert.equal(first.status, 201);
      assert.equal(first.headers['ratelimit-limit'], '3');
      assert.equal(first.headers['ratelimit-remaining'], '2');
      assert.equal(first.headers['ratelimit-reset'], '60');
      // A refused request counts too.
      const refused = await createJson(t.app, t.apiKey, { url: 'ftp://example.com' });
      assert.equal(refused.body.error, '300');
      assert.equal(refused.headers['ratelimit-remaining'], '1');
      assert.equal((await createJson(t.app, t.apiKey, {})).headers['ratelimit-remaining'], '0');
      const limited = await createJson(t.app, t.apiKey, { url: 'https://example.com/r2' });
      assert.equal(limited.status, 429);
      assert.equal(limited.body.error, '429');
      assert.equal(limited.headers['retry-after'], '60');
      assert.equal(limited.headers['ratelimit-remaining'], '0');
      // 429 comes before the url checks: a body without url still answers 429.
      assert.equal((await createJson(t.app, t.apiKey, {})).body.error, '429');
      // The window is aligned to the top of the hour.
      now = Date.UTC(2026, 5, 1, 11, 0, 0);
      const fresh = await createJson(t.app, t.apiKey, { url: 'https://example.com/r2' });
      assert.equal(fresh.status, 201);
      assert.equal(fresh.headers['ratelimit-reset'], String(HOUR / 1000));
    } finally {
      await t.close();
    }
  });

  it('keeps a separate window per key', async () => {
    const t = await startTestApp({ plan: { rateLimitPerHour: 1 } });
    try {
      const { apiKey: other } = await t.ops.createAccount('second@example.com', 'tester');
      assert.equal((await createJson(t.app, t.apiKey, { url: 'https://example.com/k1' })).status, 201);
      assert.equal((await createJson(t.app, t.apiKey, { url: 'https://example.com/k2' })).status, 429);
      assert.equal((await createJson(t.app, other, { url: 'https://example.com/k2' })).status, 201);
    } finally {
      await t.close();
    }
  });
});

describe('failed-key limiter per address', () => {
  it('answers 429 to an address over the limit, even with a valid key, until the window passes', async () => {
    let now = Date.UTC(2026, 5, 1, 10, 0, 0);
    const t = await startTestApp({
      env: { FAILED_KEY_LIMIT: '3', FAILED_KEY_WINDOW_SECONDS: '600' },
      now: () => now,
    });
    try {
      assert.equal((await createJson(t.app, 'wrong-1', { url: 'https://example.com' })).body.error, '303');
      assert.equal((await createForm(t.app, { url: 'https://example.com' })).body.error, '301');
      assert.equal((await createJson(t.app, 'wrong-2', { url: 'https://example.com' })).body.error, '303');
      const blocked = await createJson(t.app, 'wrong-3', { url: 'https://example.com' });
      assert.equal(blocked.status, 429);
      assert.equal(blocked.body.error, '429');
      assert.equal(blocked.headers['retry-after'], '600');
      assert.equal((await createJson(t.app, t.apiKey, { url: 'https://example.com/valid' })).status, 429);
      // A body that does not parse is still 300: order 1 comes first.
      const malformed = await t.app.inject({
        method: 'POST',
        url: '/create',
        headers: { 'content-type': 'application/json' },
        payload: '{',
      });
      assert.equal(malformed.json().error, '300');
      now += 600_000;
      assert.equal((await createJson(t.app, t.apiKey, { url: 'https://example.com/valid' })).status, 201);
    } finally {
      await t.close();
    }
  });

  it('does not count successful requests as failures', async () => {
    const t = await startTestApp({ env: { FAILED_KEY_LIMIT: '2' } });
    try {
      for (let i = 0; i < 5; i++) {
        assert.equal((await createJson(t.app, t.apiKey, { url: `https://example.com/ok-${i}` })).status, 201);
      }
      assert.equal((await createJson(t.app, 'wrong', { url: 'https://example.com' })).body.error, '303');
    } finally {
      await t.close();
    }
  });
});

describe('quota and duplicates are decided atomically', () => {
  it('answers 304 once the account holds its quota, and 305 still wins for a duplicate', async () => {
    const t = await startTestApp({ plan: { urlQuota: 2 } });
    try {
      assert.equal((await createJson(t.app, t.apiKey, { url: 'https://example.com/q1' })).status, 201);
      assert.equal((await createJson(t.app, t.apiKey, { url: 'https://example.com/q2' })).status, 201);
      const full = await createJson(t.app, t.apiKey, { url: 'https://example.com/q3' });
      assert.equal(full.status, 403);
      assert.equal(full.body.error, '304');
      const duplicate = await createJson(t.app, t.apiKey, { url: 'https://example.com/q1' });
      assert.equal(duplicate.status, 409);
      assert.equal(duplicate.body.error, '305');
    } finally {
      await t.close();
    }
  });

  it('50 simultaneous creates of one URL give exactly one 201, the rest 305', async () => {
    const t = await startTestApp();
    try {
      const answers = await Promise.all(
        Array.from({ length: 50 }, () => createJson(t.app, t.apiKey, { url: 'https://example.com/same' })),
      );
      const statuses = answers.map((a) => a.status);
      assert.equal(statuses.filter((s) => s === 201).length, 1);
      assert.equal(statuses.filter((s) => s === 409).length, 49);
      const created = answers.find((a) => a.status === 201);
      for (const a of answers.filter((x) => x.status === 409))
        assert.equal(a.headers.location, created?.body.short_url);
    } finally {
      await t.close();
    }
  });

  it('quota 10 with 40 simultaneous distinct creates gives exactly 10 links', async () => {
    const t = await startTestApp({ plan: { urlQuota: 10 } });
    try {
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          createJson(t.app, t.apiKey, { url: `https://example.com/distinct-${i}` }),
        ),
      );
      assert.equal(answers.filter((a) => a.status === 201).length, 10);
      assert.equal(answers.filter((a) => a.body.error === '304').length, 30);
      assert.equal(
        await t.store.countLiveLinks((await t.store.findAccountByEmail(t.email))?.workspace.id ?? -1),
        10,
      );
    } finally {
      await t.close();
    }
  });
});
