import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UnavailableError } from '../../../src/core/errors.ts';
import type { WindowCounter } from '../../../src/core/ports/shared-state.ts';
import { createJson, FakeInspector, startTestApp } from '../../helper.ts';

const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';

/** A counter whose shared state is gone, as when Redis is unreachable. */
const unreachable: WindowCounter = {
  increment: async () => {
    throw new UnavailableError('The shared rate-limit store is unreachable; nothing was done.');
  },
  peek: async () => {
    throw new UnavailableError('The shared rate-limit store is unreachable; nothing was done.');
  },
  decrement: async () => {
    throw new UnavailableError('The shared rate-limit store is unreachable; nothing was done.');
  },
};

describe('health, readiness and metrics', () => {
  it('answers /healthz and /readyz with 200 when the store answers', async () => {
    const t = await startTestApp();
    try {
      assert.deepEqual((await t.app.inject('/healthz')).json(), { status: 'ok' });
      const ready = await t.app.inject('/readyz');
      assert.equal(ready.statusCode, 200);
      assert.equal(ready.json().checks.store, 'ok');
    } finally {
      await t.close();
    }
  });

  it('answers /readyz with 503 when a dependency does not answer', async () => {
    const t = await startTestApp({
      readinessChecks: [
        { name: 'redis', check: () => Promise.reject(new Error('connection refused')) },
        { name: 'slow', check: () => new Promise(() => {}) },
      ],
    });
    try {
      const ready = await t.app.inject('/readyz');
      assert.equal(ready.statusCode, 503);
      assert.equal(ready.json().status, 'unavailable');
      assert.equal(ready.json().checks.store, 'ok');
      assert.notEqual(ready.json().checks.redis, 'ok');
      assert.notEqual(ready.json().checks.slow, 'ok');
      assert.equal((await t.app.inject('/healthz')).statusCode, 200);
    } finally {
      await t.close();
    }
  });

  it('exposes Prometheus metrics for requests, create outcomes, redirects, clicks, inspection, store and cache', async () => {
    const t = await startTestApp();
    try {
      const created = await createJson(t.app, t.apiKey, { url: 'https://example.com/metrics' });
      await createJson(t.app, t.apiKey, {});
      await t.app.inject({
        method: 'GET',
        url: `/${created.body.short_code}`,
        headers: { 'user-agent': BROWSER },
      });
      await t.app.inject({
        method: 'GET',
        url: `/${created.body.short_code}`,
        headers: { 'user-agent': 'Twitterbot/1.0' },
      });
      await t.app.clicks.flush();
      const metrics = await t.app.inject('/metrics');
      assert.equal(metrics.statusCode, 200);
      assert.match(String(metrics.headers['content-type']), /text\/plain/);
      const text = metrics.body;
      assert.match(text, /snip_http_requests_total\{route="\/create",method="POST",status="201"\} 1/);
      assert.match(text, /snip_http_requests_total\{route="\/:code",method="GET",status="302"\} 2/);
      assert.match(text, /snip_create_outcomes_total\{endpoint="\/create",error="302"\} 1/);
      assert.match(text, /snip_create_outcomes_total\{endpoint="\/create",error=""\} 1/);
      assert.match(text, /snip_redirects_total\{kind="human"\} 1/);
      assert.match(text, /snip_redirects_total\{kind="bot"\} 1/);
      assert.match(text, /snip_clicks_flushed_total 1/);
      // Flushed: nothing is left to write.
      assert.match(text, /snip_clicks_pending_links 0/);
      assert.match(text, /snip_visits_pending 0/);
      assert.match(text, /snip_inspection_duration_seconds_count\{outcome="ok"\} 1/);
      assert.match(text, /snip_store_duration_seconds_count\{operation="insertLinkWithinQuota"\} 1/);
      assert.match(text, /snip_link_cache_hit_ratio 1/);
      assert.doesNotMatch(text, new RegExp(String(created.body.short_code)));
    } finally {
      await t.close();
    }
  });
});

describe('shared state unreachable', () => {
  it('answers /create with 503 and Retry-After instead of skipping the rate limit', async () => {
    const t = await startTestApp({ counter: unreachable });
    try {
      const answer = await createJson(t.app, t.apiKey, { url: 'https://example.com/no-redis' });
      assert.equal(answer.status, 503);
      assert.equal(answer.body.error, '503');
      assert.equal(answer.body.success, 'false');
      assert.ok(Number(answer.headers['retry-after']) > 0);
      assert.equal(
        await t.store.countLiveLinks((await t.store.findAccountByEmail(t.email))?.workspace.id ?? 0),
        0,
      );
    } finally {
      await t.close();
    }
  });

  it('keeps redirecting from the store', async () => {
    const t = await startTestApp({ counter: unreachable });
    try {
      const account = await t.store.findAccountByEmail(t.email);
      assert.ok(account);
      const stored = await t.store.insertLinkWithinQuota({
        code: 'Stillok',
        domainId: 0,
        workspaceId: account.workspace.id,
        groupId: null,
        longUrl: 'https://example.com/still',
        normalizedUrl: 'https://example.com/still',
        urlHash: 'd'.repeat(64),
        title: '',
      });
      assert.equal(stored.kind, 'created');
      const answer = await t.app.inject({ method: 'GET', url: '/Stillok' });
      assert.equal(answer.statusCode, 302);
      assert.equal(answer.headers.location, 'https://example.com/still');
      assert.equal((await t.app.inject({ method: 'GET', url: '/Nothere' })).statusCode, 404);
    } finally {
      await t.close();
    }
  });
});

describe('closing the app', () => {
  it('waits for a create still in flight before letting go of the store', async () => {
    const inspector = new FakeInspector();
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered = () => {};
    const inspecting = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const inspect = inspector.inspect.bind(inspector);
    inspector.inspect = async (url) => {
      entered();
      await held;
      return inspect(url);
    };
    const t = await startTestApp({ inspector });
    try {
      const answer = createJson(t.app, t.apiKey, { url: 'https://example.com/in-flight' });
      await inspecting;
      let closed = false;
      const closing = t.app.close().then(() => {
        closed = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(closed, false, 'close waits for the create');
      release();
      await closing;
      assert.equal((await answer).status, 201);
      const account = await t.store.findAccountByEmail(t.email);
      assert.equal(await t.store.countLiveLinks(account?.workspace.id ?? 0), 1);
    } finally {
      release();
      await t.close();
    }
  });
});
